"""Cards that bring a character into a party: Betrayal (``take_character``, C1, C5, R4) and
The Inn (an event whose hire the party may refuse, M7, E3)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.cards import DEFAULT_CARDS_PATH, CardDB, parse_cards
from engine.errors import IllegalAction
from engine.game import Game

CORNES = "village_of_cornes"
ARK = "arkhangel"


def _betrayal(
    make: Any, a: dict[str, Any], b: dict[str, Any], c: dict[str, Any] | None = None
) -> Any:
    """A holds Betrayal in his Interaction step; B (and C) with the given parties."""
    # Speeds 5, 3 and 4: A acts first (T2).
    players = {"A": {"party": ["huntress"], "hand": ["betrayal"], "region": CORNES, **a}}
    players["B"] = {"party": ["templar", "mercenary"], "region": CORNES, **b}
    if c is not None:
        players["C"] = {"party": ["paladin", "weapons_specialist"], "region": CORNES, **c}
    setup = {
        "regions": [{"card": CORNES}, {"card": ARK}],
        "players": players,
        "phase": "interaction",
    }
    names = ("A", "B", "C") if c is not None else ("A", "B")
    t = make(players=names, setup=setup)
    assert t.prompt("A").kind == "interaction"
    return t


def _with_betrayal(target: str, pick: str) -> CardDB:
    """The cards, with Betrayal's operation written with another ``target`` and ``pick``, and
    no condition on the party's size."""
    raw = json.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))
    card = next(c for c in raw if c["id"] == "betrayal")
    del card["abilities"][0]["condition"]
    card["abilities"][0]["effects"] = [{"op": "take_character", "target": target, "pick": pick}]
    return parse_cards(raw)


def _party(t: Any, name: str) -> list[str]:
    return [c.card for c in t.p(name).party]


def test_C1_betrayal_takes_a_character_from_another_party(make: Any) -> None:
    t = _betrayal(make, {}, {})
    t.do("A", "play betrayal")
    assert t.choices("A") == ["pick B"]
    t.do("A", "pick B")
    taken = next(e for e in t.events if e.kind == "take_character")
    assert taken.data["victim"] == "B"
    assert len(_party(t, "A")) == 2 and len(_party(t, "B")) == 1
    assert set(_party(t, "A")) | set(_party(t, "B")) == {"huntress", "templar", "mercenary"}
    assert "betrayal" in t.s.discards["advantage"]


def test_C1_betrayal_the_user_chooses_the_player_wherever_his_party_is(make: Any) -> None:
    t = _betrayal(make, {}, {}, {"region": ARK})
    t.do("A", "play betrayal")
    assert t.choices("A") == ["pick B", "pick C"]
    t.do("A", "pick C")
    assert len(_party(t, "C")) == 1 and len(_party(t, "B")) == 2
    assert len(_party(t, "A")) == 2


def test_C1_take_character_in_the_region_offers_parties_there(make: Any) -> None:
    t = _betrayal(make, {}, {}, {"region": ARK})
    t.g.db = _with_betrayal("chosen_player_in_region", "random")
    t.do("A", "play betrayal")
    assert t.choices("A") == ["pick B"]  # C's party is elsewhere
    t.do("A", "pick B")
    assert len(_party(t, "A")) == 2 and len(_party(t, "C")) == 2


def test_C5_betrayal_never_leaves_a_party_empty(make: Any) -> None:
    """Every other party has one character (turn 1): Betrayal has no victim, so it is not
    offered (no empty choice, issue 20) and stays in the hand."""
    t = _betrayal(make, {}, {"party": ["templar"]}, {"party": ["paladin"]})
    assert "play betrayal" not in t.choices("A")
    with pytest.raises(IllegalAction):
        t.do("A", "play betrayal")
    assert t.p("A").hand == ["betrayal"]
    assert _party(t, "B") == ["templar"] and _party(t, "C") == ["paladin"]


def test_C5_only_parties_of_two_or_more_can_be_chosen(make: Any) -> None:
    t = _betrayal(make, {}, {"party": ["templar"]}, {})
    t.do("A", "play betrayal")
    assert t.choices("A") == ["pick C"]  # B's party of one is no choice
    t.do("A", "pick C")
    assert _party(t, "B") == ["templar"]
    assert len(_party(t, "C")) == 1 and len(_party(t, "A")) == 2


def test_R4_a_party_of_four_cannot_play_betrayal(make: Any) -> None:
    four = ["huntress", "sorcerer", "mechanist", "bard"]
    t = _betrayal(make, {"party": four}, {})
    assert "play betrayal" not in t.choices("A")
    assert "play betrayal" in _betrayal(make, {"party": four[:3]}, {}).choices("A")


def test_R4_take_character_takes_nobody_into_a_full_party(make: Any) -> None:
    t = _betrayal(make, {"party": ["huntress", "sorcerer", "mechanist", "bard"]}, {})
    t.g.db = _with_betrayal("chosen_player", "user_chooses")  # no condition on the party size
    t.refresh()
    assert "play betrayal" not in t.choices("A")  # it would take nobody: not offered


def test_C2_take_character_the_user_or_the_owner_chooses(make: Any) -> None:
    t = _betrayal(make, {}, {})
    t.g.db = _with_betrayal("chosen_player", "user_chooses")
    t.do("A", "play betrayal")
    t.do("A", "pick B")
    assert t.choices("A") == ["pick templar", "pick mercenary"]
    t.do("A", "pick mercenary")
    assert _party(t, "A") == ["huntress", "mercenary"] and _party(t, "B") == ["templar"]

    t = _betrayal(make, {}, {})
    t.g.db = _with_betrayal("chosen_player", "owner_chooses")
    t.do("A", "play betrayal")
    t.do("A", "pick B")
    assert t.prompt("B").kind == "pick"
    assert t.choices("B") == ["pick templar", "pick mercenary"]
    t.do("B", "pick templar")
    assert _party(t, "A") == ["huntress", "templar"] and _party(t, "B") == ["mercenary"]


def test_C3_a_taken_character_keeps_its_state(make: Any) -> None:
    t = _betrayal(make, {}, {"party": [{"card": "templar", "tapped": True}, "mercenary"]})
    t.g.db = _with_betrayal("chosen_player_in_region", "user_chooses")
    t.do("A", "play betrayal")
    t.do("A", "pick B")
    t.do("A", "pick templar")
    moved = next(c for c in t.p("A").party if c.card == "templar")
    assert moved.tapped and not moved.incapacitated


def test_X5_betrayal_replays_identically(make: Any) -> None:
    def play() -> str:
        t = _betrayal(make, {}, {})
        t.do("A", "play betrayal")
        t.do("A", "pick B")
        return t.g.to_json()

    assert play() == play()
    assert Game.from_json(play()).to_json() == play()


# ---------------------------------------------------------------------- The Inn


def _inn(make: Any, party: list[str]) -> Any:
    setup = {
        "regions": [{"card": CORNES, "preliminary": "the_inn"}],
        "players": {"A": {"party": party}},
        "phase": "movement",
    }
    t = make(setup=setup)
    t.do("A", "go village_of_cornes")
    t.pass_windows()
    return t


def test_M7_the_inn_lets_the_party_hire_a_character(make: Any) -> None:
    t = _inn(make, ["acrobat"])
    assert t.choices("A") == ["pick 0", "pick 1"]
    top = t.s.decks["character"][-1]
    t.do("A", "pick 0")
    assert _party(t, "A") == ["acrobat", top]
    assert t.p("A").region == CORNES
    assert "the_inn" in t.s.discards["encounter"]


def test_M7_the_party_may_hire_nobody_at_the_inn(make: Any) -> None:
    t = _inn(make, ["acrobat"])
    deck = list(t.s.decks["character"])
    t.do("A", "pick 1")
    assert _party(t, "A") == ["acrobat"]
    assert t.s.decks["character"] == deck
    assert t.p("A").region == CORNES and not t.p("A").turn_over


def test_R4_a_party_of_four_hires_nobody_at_the_inn(make: Any) -> None:
    t = _inn(make, ["acrobat", "sorcerer", "mechanist", "bard"])
    t.do("A", "pick 0")
    assert len(_party(t, "A")) == 4
