"""No empty choices (issue 20): a card, an ability, a reward or a target that would change
nothing is not offered (R3: played for nothing, a card would only be thrown away outside the
Reset phase); a forced choice keeps such an option and says so (engine/rules/effective.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Table

from engine import zones
from engine.cards import DEFAULT_CARDS_PATH, parse_cards
from engine.errors import IllegalAction
from engine.views import choose_options
from engine.zones import Zone

CORNES = "village_of_cornes"  # level 1, trade; die 6: a Village Inn
ARK = "arkhangel"
HARBOR = "silver_harbor"  # die 6: smugglers, pay 1 Advantage or fight them
SWAMP = "mistveil_swamp"  # die 4: nothing; reward 2: the Witch's Bargain
FERRY = "ferrymans_landing"  # Twilight of the Gods; die 1: nothing; reward 2: Passage of the Dead


def _table(
    make: Any,
    a: dict[str, Any],
    b: dict[str, Any] | None = None,
    phase: str = "reset",
    c: dict[str, Any] | None = None,
    dice: list[int] = (),
    regions: tuple[str, ...] = (CORNES, ARK),
    **options: Any,
) -> Table:
    """A (faster: he acts first) and B (the Mercenary, Speed 2) at the first Region; C (the
    Templar, Speed 1, nowhere yet) if ``c`` is given."""
    players = {
        "A": {"hand": [], "region": regions[0], **a},
        "B": {"party": ["mercenary"], "hand": [], "region": regions[0], **(b or {})},
    }
    if c is not None:
        players["C"] = {"party": ["templar"], "hand": [], **c}
    setup = {"regions": [{"card": r} for r in regions], "players": players, "phase": phase}
    names = ("A", "B", "C") if c is not None else ("A", "B")
    return make(players=names, setup=setup, dice=list(dice), **options)


def _to_discard(t: Table, card: str, deck: str = "character") -> None:
    zones.move(t.s, card, Zone("deck", deck), Zone("discard", deck))
    t.refresh()


# ---------------------------------------------------------------------- cards and abilities


@pytest.mark.parametrize(
    ("character", "sets"),
    [("summoner", ["shadow_of_omega"]), ("valkyrie", ["shadow_of_omega", "twilight_of_the_gods"])],
)
def test_R3_a_hire_from_an_empty_discard_pile_is_not_offered(
    make: Any, character: str, sets: list[str]
) -> None:
    """Summoner's and Valkyrie's roll succeeded and then nothing happened: with the Character
    discard pile empty, or a party of four, their ability is not offered."""
    t = _table(make, {"party": [character]}, sets=sets, dice=[6])
    assert t.s.discards["character"] == []
    assert f"ability {character}" not in t.choices("A")
    with pytest.raises(IllegalAction):
        t.do("A", f"ability {character}")
    _to_discard(t, "monk")
    assert f"ability {character}" in t.choices("A")
    t.do("A", f"ability {character}")
    assert t.choices("A") == ["pick monk"]  # the roll succeeded: the hire follows
    t.do("A", "pick monk")
    assert [c.card for c in t.p("A").party] == [character, "monk"]


def test_R4_a_hire_from_the_discard_pile_is_not_offered_to_a_party_of_four(make: Any) -> None:
    four = ["summoner", "acrobat", "huntress", "bard"]
    t = _table(make, {"party": four})
    _to_discard(t, "monk")
    assert "ability summoner" not in t.choices("A")


def test_R3_pickpocket_is_not_offered_with_nobody_to_rob_in_the_region(make: Any) -> None:
    """Pickpocket takes from a player whose party is in the user's Region: with B elsewhere,
    or B there with an empty hand, it is not offered; the pick names only players with an
    Advantage in hand."""
    a = {"party": ["huntress"], "hand": ["pickpocket"]}
    t = _table(make, a, {"region": ARK, "hand": ["fireball"]}, phase="interaction")
    assert "play pickpocket" not in t.choices("A")
    t = _table(make, a, {"hand": []}, phase="interaction")
    assert "play pickpocket" not in t.choices("A")
    t = _table(make, a, {"hand": ["fireball"]}, "interaction", {"hand": ["truce"]})
    assert "play pickpocket" in t.choices("A")
    t.do("A", "play pickpocket")
    assert t.choices("A") == ["pick B"]  # C, with an Advantage too, stands nowhere
    t.do("A", "pick B")
    assert t.p("A").hand == ["fireball"] and t.p("B").hand == []


def test_R4_a_theft_into_a_full_hand_is_not_offered(make: Any) -> None:
    """Five Advantages less the Pickpocket itself leave room for one: offered. A Thief with a
    full hand has no room: not offered."""
    hand = ["pickpocket", "fireball", "scrying", "truce", "wrong_road"]
    t = _table(make, {"party": ["huntress"], "hand": hand}, {"hand": ["festival"]}, "interaction")
    assert "play pickpocket" in t.choices("A")
    thief = _table(make, {"party": ["thief"], "hand": hand}, {"hand": ["festival"]})
    assert "ability thief" not in thief.choices("A")


def test_R3_the_thief_names_only_a_player_with_an_advantage(make: Any) -> None:
    """Roll.against: the player named before the die is one the theft would rob."""
    t = _table(make, {"party": ["thief"]}, {"hand": ["fireball"]}, c={"hand": []})
    t.do("A", "ability thief")
    assert t.choices("A") == ["pick B"]  # C has no Advantage


def test_R3_a_move_to_where_the_party_stands_is_not_offered(make: Any) -> None:
    """Zeppelin Voyage flies to an active Region other than the party's own (X1: a move to
    it would change nothing); with only that Region active, the card is not offered."""
    t = _table(make, {"party": ["huntress"], "hand": ["zeppelin_voyage"]}, phase="movement")
    t.do("A", "play zeppelin_voyage")
    assert t.choices("A") == [f"pick {ARK}"]
    t = _table(
        make,
        {"party": ["huntress"], "hand": ["zeppelin_voyage"]},
        phase="movement",
        regions=(CORNES,),
    )
    assert "play zeppelin_voyage" not in t.choices("A")


# ---------------------------------------------------------------------- rewards (E6)


def test_E6_passage_of_the_dead_is_not_offered_with_the_discard_pile_empty(make: Any) -> None:
    """A normal AI took Passage of the Dead four times in a row and gained nothing."""
    t = _table(
        make,
        {"party": ["huntress"]},
        phase="exploration",
        regions=(FERRY, ARK),
        sets=["shadow_of_omega", "twilight_of_the_gods"],
        dice=[1, 1],
    )
    t.do("A", "explore")
    t.pass_windows()
    assert "reward 2" not in t.choices("A")
    _to_discard(t, "monk")
    assert "reward 2" in t.choices("A")
    t.do("A", "reward 2")
    assert t.choices("A") == ["pick monk"]


def test_E6_no_reward_from_two_empty_piles(make: Any) -> None:
    """The Hire reward with no character left in the deck nor the discard pile is not
    offered; nor the Advantage reward with no Advantage left."""
    t = _table(make, {"party": ["huntress"]}, phase="exploration", dice=[1])
    t.s.decks["character"].clear()
    t.s.decks["advantage"].clear()
    t.do("A", "explore")
    t.pass_windows()
    assert "reward 0" not in t.choices("A") and "reward 1" not in t.choices("A")


# ---------------------------------------------------------------------- choose


def test_R3_a_chosen_option_that_would_change_nothing_is_left_out(make: Any) -> None:
    """The Witch's Bargain (a reward A chooses): with nobody else holding an Advantage,
    "Curse a rival" would change nothing, so the other option is taken without a question."""
    t = _table(
        make,
        {"party": ["huntress"], "hand": ["fireball"]},
        phase="exploration",
        regions=(SWAMP, ARK),
        dice=[4],
    )
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "reward 2")
    assert t.prompt("A") is not None and t.prompt("A").text == "Choose an Advantage to discard."
    assert [e.text for e in t.events if e.kind == "choose"] == ["A chooses: Discard 1, draw 3."]


def test_R3_a_forced_choice_keeps_an_option_that_changes_nothing_and_says_so(make: Any) -> None:
    """Silver Harbor's smugglers (an exploration result that befalls the party): with an
    empty hand "Pay 1 Advantage" costs nothing, and it is the party's right to take it."""
    t = _table(make, {"party": ["huntress"]}, phase="exploration", regions=(HARBOR, ARK), dice=[6])
    t.do("A", "explore")
    t.pass_windows()
    assert t.choices("A") == ["pick 0", "pick 1"]
    assert "0: Pay 1 Advantage (changes nothing now)" in t.prompt("A").text
    assert choose_options(t.g) == ["Pay 1 Advantage (changes nothing now)", "Fight the smugglers"]
    labels = [c.label for c in t.g.prompt_view("A").choices]
    assert labels == ["Pay 1 Advantage (changes nothing now)", "Fight the smugglers"]
    t.do("A", "pick 0")
    assert t.choices("A")[0] == "reward 0"  # through: the reward follows


def test_R3_a_choice_left_without_an_option_that_acts_asks_nothing(make: Any) -> None:
    """A card's earlier operation may leave none of its choice's options acting (Betrayal
    rewritten: discard an Advantage, then choose to discard another): offered, since the
    first discard acts, it asks no empty question and the game goes on."""
    raw = json.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))
    card = next(c for c in raw if c["id"] == "betrayal")
    del card["abilities"][0]["condition"]
    discard = {"op": "discard", "count": 1, "target": "self"}
    options = [
        {"label": "This one", "effects": [discard]},
        {"label": "That one", "effects": [discard]},
    ]
    card["abilities"][0]["effects"] = [discard, {"op": "choose", "options": options}]
    t = _table(make, {"party": ["huntress"], "hand": ["betrayal", "fireball"]}, phase="interaction")
    t.g.db = parse_cards(raw)
    t.refresh()
    t.do("A", "play betrayal")
    assert t.choices("A") == ["pick fireball"]
    t.do("A", "pick fireball")
    assert t.p("A").hand == [] and t.prompt("A").kind == "interaction"
    assert not any(e.kind == "choose" for e in t.events)


def _holy_day(abilities: list[dict[str, Any]]) -> Any:
    """The cards, with Holy Day (an Incident, A4) given these abilities."""
    raw = json.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))
    next(c for c in raw if c["id"] == "holy_day")["abilities"] = abilities
    return parse_cards(raw)


def test_A4_an_incident_whose_reset_effect_cannot_act_is_played_for_its_lasting_one(
    make: Any,
) -> None:
    """An Incident whose Reset effect's condition fails is played for its static ability
    (it works while in play), without the Reset effect; with no other ability, or with a
    Reset effect that would change nothing, it is not offered."""
    speed_5 = {"op": "modify", "stat": "speed", "amount": 5, "target": "self", "duration": "turn"}
    reset = {
        "timing": "play",
        "phase": "reset",
        "condition": {"party_size_at_least": 3},
        "effects": [speed_5],
    }
    static = {"timing": "static", "effects": [{"op": "modify", "stat": "strength", "amount": 1}]}
    sets = ["shadow_of_omega", "beyond_good_and_evil"]
    t = _table(make, {"party": ["huntress"], "hand": ["holy_day"]}, sets=sets)
    t.g.db = _holy_day([reset, static])
    t.refresh()
    t.do("A", "play holy_day")
    assert t.p("A").in_play == ["holy_day"]
    assert not any(e.kind == "modify" for e in t.events)  # the Reset effect did not run
    assert t.g.table_view().parties[0].strength == 3 + 1  # Huntress 3, Holy Day's static +1
    t = _table(make, {"party": ["huntress"], "hand": ["holy_day"]}, sets=sets)
    t.g.db = _holy_day([reset])
    t.refresh()
    assert "play holy_day" not in t.choices("A")
    untap = {"timing": "play", "phase": "reset", "effects": [{"op": "untap", "target": "self"}]}
    t.g.db = _holy_day([untap])  # nothing of A's party is turned
    t.refresh()
    assert "play holy_day" not in t.choices("A")
