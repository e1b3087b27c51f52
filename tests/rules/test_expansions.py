"""The expansions' rules about sets, characters and fleeing: C7 (Arcane characters and
Ascension), E7 (Flee), M10 (one new Region per set), S5 (missions of combined sets) and G1
(players and sets), with the stand-in cards of expansion_cards.py."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from conftest import Table
from expansion_cards import expansion_db
from pydantic import ValidationError

from engine import visibility as sight
from engine import zones
from engine.cards import CardDB, default_cards
from engine.errors import IllegalAction
from engine.event_kinds import payload_errors
from engine.game import Game
from engine.options import Options
from engine.rules.party import kill
from engine.rules.sets import (
    BEYOND_GOOD_AND_EVIL,
    SETS,
    SHADOW_OF_OMEGA,
    TWILIGHT_OF_THE_GODS,
    can_flee,
    in_game,
)
from engine.tools.cli import main
from engine.tools.scenario import build_game, parse
from engine.tools.simulate import play_game
from engine.visibility import NOBODY
from engine.zones import Zone

SOO, BGE, TOTG = SHADOW_OF_OMEGA, BEYOND_GOOD_AND_EVIL, TWILIGHT_OF_THE_GODS
CORNES = "village_of_cornes"  # level 1, rewards: Advantage, Hire, special; die 1: nothing
ARK = "arkhangel"


def table(sets: list[str], setup: dict[str, Any], dice: list[int] = (), **options: Any) -> Table:
    """A scenario-style game (docs/scenarios.md) over the expansion stand-in cards."""
    data = {
        "players": ["A", "B"],
        "seed": 1,
        "options": {"sets": sets, **options},
        "setup": setup,
        "dice": list(dice),
    }
    return Table(build_game(parse(data), expansion_db()))


def new_game(sets: list[str], players: int = 3, **options: Any) -> Game:
    names = [f"P{i + 1}" for i in range(players)]
    return Game.new(names, {"sets": sets, **options}, 5, expansion_db())


def party(t: Table, name: str) -> list[str]:
    return [c.card for c in t.p(name).party]


# ---------------------------------------------------------------------- C7 Arcane characters


def test_C7_arcane_characters_have_their_own_deck() -> None:
    g = new_game([SOO, BGE])
    db = g.db
    arcane = {c.id for c in db.characters if c.arcane and c.set == BGE}
    assert set(g.s.decks["arcane"]) == arcane
    assert g.s.discards["arcane"] == []
    assert not any(db.character(c).arcane for c in g.s.decks["character"])
    # Face down, count public: the zones map and the table view.
    assert sight.visibility(Zone("deck", "arcane"), g.s) == NOBODY
    assert dict(g.table_view().decks)["arcane"] == len(arcane)
    assert arcane <= sight.hidden_from(g.s, "P1")


def test_C7_the_base_set_alone_has_no_arcane_deck() -> None:
    g = new_game([SOO])
    assert "arcane" not in g.s.decks


def _at_cornes(sets: list[str], party_cards: list[str], hand: list[str], **more: Any) -> Table:
    """A stands at the Village of Cornes in the Exploration phase and explores (die 1)."""
    setup = {
        "phase": "exploration",
        "regions": [{"card": CORNES}, {"card": ARK}],
        "players": {
            "A": {"party": party_cards, "hand": hand, "region": CORNES},
            "B": {"party": ["mercenary"], "region": ARK},
        },
        **more,
    }
    t = table(sets, setup, dice=[1])
    t.until("A", "exploration")
    t.do("A", "explore")
    t.pass_windows()
    return t


THREE = ["acrobat", "sorcerer", "thief"]


def test_C7_hire_an_arcane_character_with_three_normal_characters() -> None:
    t = _at_cornes([SOO, BGE], THREE, ["ki_strike", "fireball"], decks={"arcane": ["bge_arcane_2"]})
    choices = t.choices("A")
    assert "reward 1" in choices  # the normal Hire is still there
    assert {"hire_arcane ki_strike", "hire_arcane fireball"} <= set(choices)
    t.do("A", "hire_arcane fireball")
    assert party(t, "A") == [*THREE, "bge_arcane_2"]
    assert t.p("A").hand == ["ki_strike"]
    assert t.s.discards["advantage"] == ["fireball"]
    assert t.p("A").last_hire == (CORNES, t.s.turn)  # E6: it was the Region's Hire


@pytest.mark.parametrize(
    ("party_cards", "hand"),
    [
        (["acrobat", "sorcerer"], ["ki_strike"]),  # two normal characters
        (["acrobat", "sorcerer", "bge_arcane_1"], ["ki_strike"]),  # an Arcane one is not normal
        ([*THREE, "monk"], ["ki_strike"]),  # a party of four hires nobody (R4)
        (THREE, []),  # nothing to pay with
    ],
)
def test_C7_no_arcane_hire_without_three_normal_characters_room_and_payment(
    party_cards: list[str], hand: list[str]
) -> None:
    t = _at_cornes([SOO, BGE], party_cards, hand)
    assert not any(c.startswith("hire_arcane") for c in t.choices("A"))


def test_C7_no_arcane_hire_in_the_base_game() -> None:
    t = _at_cornes([SOO], THREE, ["ki_strike"])
    assert "reward 1" in t.choices("A")
    assert not any(c.startswith("hire_arcane") for c in t.choices("A"))


def test_C7_arcane_characters_are_never_dismissed() -> None:
    setup = {
        "phase": "reset",
        "players": {"A": {"party": ["acrobat", "bge_arcane_1"]}, "B": {"party": ["mercenary"]}},
    }
    t = table([SOO, BGE], setup)
    t.until("A", "reset")
    assert "dismiss acrobat" in t.choices("A")
    assert "dismiss bge_arcane_1" not in t.choices("A")


def test_C7_a_dead_arcane_character_goes_to_the_arcane_discard_pile() -> None:
    setup = {"players": {"A": {"party": ["acrobat", "bge_arcane_1"]}, "B": {"party": ["monk"]}}}
    t = table([SOO, BGE], setup)
    kill(t.g, t.p("A"), "bge_arcane_1")
    assert t.s.discards["arcane"] == ["bge_arcane_1"]
    assert party(t, "A") == ["acrobat"]


def _ascension(party_cards: list[str], arcane_deck: list[str] | None) -> Table:
    """A explores the Village of Cornes (die 3: one Encounter) and meets Ascension."""
    setup: dict[str, Any] = {
        "phase": "exploration",
        "regions": [{"card": CORNES}, {"card": ARK}],
        "players": {
            "A": {"party": party_cards, "region": CORNES},
            "B": {"party": ["mercenary"], "region": ARK},
        },
        "decks": {"encounter": ["ascension"]},
    }
    t = table([SOO, BGE], setup, dice=[3])
    if arcane_deck is not None:  # empty the Arcane deck but for these
        for card in list(t.s.decks["arcane"]):
            if card not in arcane_deck:
                zones.move(t.s, card, Zone("deck", "arcane"), Zone("discard", "character"))
    t.until("A", "exploration")
    t.do("A", "explore")
    t.pass_windows()
    return t


def test_C7_ascension_exchanges_a_normal_character_for_an_arcane_one() -> None:
    t = _ascension(["acrobat", "sorcerer", "bge_arcane_1"], ["bge_arcane_3"])
    t.pass_windows()
    t.until("A", "pick")
    t.do("A", "pick 0")  # Ascend
    # The owner chooses among the normal characters only.
    assert t.choices("A") == ["pick acrobat", "pick sorcerer"]
    t.do("A", "pick sorcerer")
    assert party(t, "A") == ["acrobat", "bge_arcane_1", "bge_arcane_3"]
    assert "sorcerer" in t.s.discards["character"]
    exchange = next(e for e in t.events if e.kind == "exchange_arcane")
    assert exchange.data == {"player": "A", "card": "sorcerer", "arcane": "bge_arcane_3"}
    assert payload_errors(exchange) is None


def test_C7_ascension_does_nothing_when_no_arcane_character_is_left() -> None:
    t = _ascension(["acrobat"], [])
    t.until("A", "pick")
    t.do("A", "pick 0")
    assert party(t, "A") == ["acrobat"]
    assert not any(e.kind == "exchange_arcane" for e in t.events)


# ---------------------------------------------------------------------- E7 Flee


def _boar_while_exploring(sets: list[str], dice: list[int]) -> Table:
    """A (Acrobat: Strength 4, Speed 4) explores the Village of Cornes (die 3: one Encounter)
    and meets the Wild Boar (Strength 4): fleeing needs die + 4 >= 6."""
    setup = {
        "phase": "exploration",
        "regions": [{"card": CORNES}, {"card": ARK}],
        "players": {
            "A": {"party": ["acrobat"], "region": CORNES},
            "B": {"party": ["mercenary"], "region": ARK},
        },
        "decks": {"encounter": ["wild_boar"]},
    }
    t = table(sets, setup, dice=[3, *dice])
    t.until("A", "exploration")
    t.do("A", "explore")
    t.pass_windows()
    t.pass_windows()  # the Encounter revealed (T4)
    return t


def test_E7_flee_is_offered_only_with_twilight_of_the_gods() -> None:
    base = _boar_while_exploring([SOO], [])
    assert base.prompt("A") is None or base.prompt("A").kind != "flee"
    assert any(e.kind == "battle" for e in base.events)
    for sets in ([SOO, TOTG], [SOO, BGE, TOTG]):
        t = _boar_while_exploring(sets, [])
        assert t.prompt("A") is not None and t.prompt("A").kind == "flee"
        assert t.choices("A") == ["fight", "flee"]
    assert _boar_while_exploring([SOO, BGE], []).prompt("A").kind != "flee"
    assert can_flee(Options(sets=[TOTG])) and not can_flee(Options(sets=[BGE]))


def test_E7_a_successful_flee_escapes_leaves_the_region_and_ends_the_turn() -> None:
    t = _boar_while_exploring([SOO, TOTG], [2])  # 2 + Speed 4 = 6 >= Strength 4 + 2
    t.do("A", "flee")
    flee = next(e for e in t.events if e.kind == "flee")
    assert flee.data == {
        "player": "A",
        "card": "wild_boar",
        "die": 2,
        "total": 6,
        "at_least": 6,
        "success": True,
    }
    assert payload_errors(flee) is None
    assert not any(e.kind == "battle" for e in t.events)
    a = t.p("A")
    assert a.turn_over and a.region is None  # escaped: out of the Region, turn over
    assert "wild_boar" in t.s.discards["encounter"]  # E4: met while exploring
    assert not any(e.kind == "hire" or e.kind == "draw" for e in t.events)  # no reward


def test_E7_a_failed_flee_fights_as_usual() -> None:
    t = _boar_while_exploring([SOO, TOTG], [1, 6, 1])  # 1 + 4 = 5 < 6: fight; 6+4 vs 1+4
    t.do("A", "flee")
    assert next(e for e in t.events if e.kind == "flee").data["success"] is False
    t.pass_windows()  # the battle's window (T4)
    assert any(e.kind == "battle_roll" for e in t.events)
    assert t.p("A").region == CORNES and not t.p("A").turn_over  # it won the fight
    assert t.prompt("A").kind == "reward"


def test_E7_fighting_instead_of_fleeing() -> None:
    t = _boar_while_exploring([TOTG, SOO], [6, 1])
    t.do("A", "fight")
    t.pass_windows()
    assert not any(e.kind == "flee" for e in t.events)
    assert any(e.kind == "battle_roll" for e in t.events)


def test_E7_fleeing_a_preliminary_monster_leaves_it_guarding_its_region() -> None:
    setup = {
        "phase": "movement",
        "regions": [{"card": CORNES, "preliminary": "wild_boar", "revealed": True}, {"card": ARK}],
        "players": {
            "A": {"party": ["acrobat"], "region": ARK},
            "B": {"party": ["mercenary"], "region": ARK},
        },
    }
    t = table([SOO, TOTG], setup, dice=[5])
    t.until("A", "movement")
    t.do("A", f"go {CORNES}")
    t.pass_windows()
    t.pass_windows()
    assert t.prompt("A").kind == "flee"
    t.do("A", "flee")
    a = t.p("A")
    assert a.region == ARK and a.turn_over and not a.arrived  # M2: it never arrived
    assert t.s.regions[0].preliminary == "wild_boar"  # M7: not beaten, it stays


# ---------------------------------------------------------------------- M10 one Region per set


def _explorer(sets: list[str], region_deck: list[str], **options: Any) -> Table:
    setup = {
        "phase": "movement",
        "regions": [{"card": ARK}, {"card": CORNES}],
        "players": {
            "A": {"party": ["acrobat"], "region": ARK},
            "B": {"party": ["mercenary"], "region": ARK},
        },
        "decks": {"region": region_deck, "encounter": ["treasure", "giant_rats", "wild_boar"]},
    }
    t = table(sets, setup, **options)
    t.until("A", "movement")
    t.do("A", "explore_new")
    return t


def test_M10_two_sets_reveal_two_regions_and_the_party_goes_to_the_highest() -> None:
    t = _explorer([SOO, BGE], ["whispering_forest", "dragons_spine"])
    revealed = next(e for e in t.events if e.kind == "explore_new_regions")
    assert revealed.data == {"player": "A", "regions": ["whispering_forest", "dragons_spine"]}
    assert payload_errors(revealed) is None
    t.pass_windows()
    assert t.p("A").region == "dragons_spine"
    regions = {r.card: r for r in t.s.regions}
    assert set(regions) == {ARK, CORNES, "whispering_forest", "dragons_spine"}
    # The Region entered had a face-up Encounter (M4); the other waits face down (S4).
    assert regions["dragons_spine"].revealed
    forest = regions["whispering_forest"]
    assert forest.preliminary is not None and not forest.revealed
    assert forest.preliminary in sight.hidden_from(t.s, "A")


def test_M10_three_sets_reveal_three_regions() -> None:
    t = _explorer([SOO, BGE, TOTG], ["whispering_forest", "lost_ruins", "silver_harbor"])
    revealed = next(e for e in t.events if e.kind == "explore_new_regions")
    assert revealed.data["regions"] == ["whispering_forest", "lost_ruins", "silver_harbor"]
    # Five active Regions for two players (M3): one goes, the only one that may (M5).
    assert t.choices("A") == [f"remove {CORNES}"]
    t.do("A", f"remove {CORNES}")
    t.do("B", "pass")
    t.pass_windows()
    assert t.p("A").region == "lost_ruins"  # level 2, the highest


def test_M10_a_tie_for_highest_level_is_the_explorers_choice() -> None:
    t = _explorer([SOO, BGE], ["lost_ruins", "iron_mines"])
    prompt = t.prompt("A")
    assert prompt is not None and prompt.kind == "new_region"
    assert prompt.choices == ["go lost_ruins", "go iron_mines"]
    t.do("A", "go iron_mines")
    t.pass_windows()
    assert t.p("A").region == "iron_mines"


def test_M10_one_set_reveals_one_region() -> None:
    t = _explorer([SOO], ["whispering_forest", "dragons_spine"])
    t.pass_windows()
    assert not any(e.kind == "explore_new_regions" for e in t.events)
    assert t.p("A").region == "whispering_forest"
    assert t.s.decks["region"][-1] == "dragons_spine"


def test_M10_S5_without_twilights_regions_one_region_fewer_is_revealed() -> None:
    t = _explorer([SOO, TOTG], ["lost_ruins", "iron_mines"], combined_missions="older")
    assert not any(e.kind == "explore_new_regions" for e in t.events)
    t.pass_windows()
    assert t.p("A").region == "lost_ruins"


def test_M10_a_region_from_the_discard_pile_is_the_only_one_revealed() -> None:
    setup = {
        "phase": "movement",
        "regions": [{"card": ARK}],
        "players": {
            "A": {"party": ["acrobat"], "region": ARK},
            "B": {"party": ["mercenary"], "region": ARK},
        },
    }
    t = table([SOO, BGE], setup)
    zones.move(t.s, "silver_harbor", zones.locate(t.s, "silver_harbor"), Zone("discard", "region"))
    t.refresh()
    t.until("A", "movement")
    t.do("A", "explore_new silver_harbor")
    t.pass_windows()
    assert not any(e.kind == "explore_new_regions" for e in t.events)
    assert [r.card for r in t.s.regions] == [ARK, "silver_harbor"]


def test_M10_M5_one_region_is_removed_per_new_region_while_there_are_too_many() -> None:
    # Two players: at most 4 active Regions (M3). Four are active; two more come.
    setup = {
        "phase": "movement",
        "regions": [
            {"card": ARK},
            {"card": CORNES},
            {"card": "silver_harbor"},
            {"card": "iron_mines"},
        ],
        "players": {
            "A": {"party": ["acrobat"], "region": ARK},
            "B": {"party": ["mercenary"], "region": ARK},
        },
        "decks": {"region": ["whispering_forest", "dragons_spine"]},
    }
    t = table([SOO, BGE], setup)
    t.until("A", "movement")
    t.do("A", "explore_new")
    removable = {"remove village_of_cornes", "remove silver_harbor", "remove iron_mines"}
    assert set(t.choices("A")) == removable  # not the new ones, not where a party stands
    t.do("A", "remove silver_harbor")
    t.do("B", "pass")
    assert set(t.choices("A")) == removable - {"remove silver_harbor"}
    t.do("A", "remove iron_mines")
    t.do("B", "pass")
    t.pass_windows()
    assert len(t.s.regions) == 4
    assert t.p("A").region == "dragons_spine"


# ---------------------------------------------------------------------- S5 missions


def _missions(g: Game) -> list[str]:
    return [*g.s.set_aside, *g.s.final_deck, *(m for p in g.s.players.values() for m in p.missions)]


def test_S5_with_twilight_combined_only_its_missions_are_used_by_default() -> None:
    assert Options().combined_missions == "twilight"
    g = new_game([SOO, TOTG])
    sets = {g.db[m].set for m in _missions(g)}
    assert sets == {TOTG}
    assert {g.db[r].set for r in g.s.decks["region"]} == {SOO, TOTG}


def test_S5_older_missions_remove_twilights_missions_regions_and_events() -> None:
    g = new_game([SOO, BGE, TOTG], combined_missions="older")
    assert {g.db[m].set for m in _missions(g)} == {SOO, BGE}
    regions = [*g.s.decks["region"], *(r.card for r in g.s.regions)]
    assert TOTG not in {g.db[r].set for r in regions}
    encounters = [*g.s.decks["encounter"], *(r.preliminary or "" for r in g.s.regions)]
    totg = [g.db.encounter(e) for e in encounters if e and g.db[e].set == TOTG]
    assert totg and all(e.kind == "monster" for e in totg)  # its monsters stay
    assert any(g.db[c].set == TOTG for c in g.s.decks["character"])


def test_S5_sets_without_twilight_merge_their_missions() -> None:
    g = new_game([SOO, BGE])
    assert {g.db[m].set for m in _missions(g)} == {SOO, BGE}


def test_S5_twilight_alone_plays_its_own_missions_whatever_the_option() -> None:
    db = expansion_db()
    options = Options(sets=[TOTG], combined_missions="older")
    assert all(in_game(c, options) for c in db if c.set == TOTG)


def test_S5_the_option_is_validated() -> None:
    with pytest.raises(ValidationError):
        Options.model_validate({"combined_missions": "all"})


# ---------------------------------------------------------------------- G1 players and sets


def test_G1_twilight_of_the_gods_alone_is_for_two_to_four_players() -> None:
    for players in (2, 4):
        new_game([TOTG], players)
    for players in (1, 5):
        with pytest.raises(IllegalAction) as refused:
            new_game([TOTG], players)
        assert refused.value.rule == "G1"


@pytest.mark.parametrize("sets", [[SOO], [BGE], [SOO, BGE], [BGE, TOTG], [SOO, BGE, TOTG]])
def test_G1_the_base_set_or_combined_sets_are_for_two_to_five_players(sets: list[str]) -> None:
    new_game(sets, 5)
    with pytest.raises(IllegalAction) as refused:
        new_game(sets, 6)
    assert refused.value.rule == "G1"


def test_G1_a_five_player_game_of_beyond_good_and_evil_alone_plays_to_its_end() -> None:
    """The real cards deal five parties of the set alone (ten Basic missions for ten) and the
    game runs to an ending."""
    result = play_game(3, 5, 40, {"sets": [BGE]})
    assert result.error is None, result.traceback
    assert result.ending is not None


@pytest.mark.parametrize(
    "sets", [[], ["omega"], [SOO, "shadow"], [SOO, SOO]], ids=["none", "unknown", "typo", "twice"]
)
def test_G1_an_empty_unknown_or_repeated_set_is_refused(sets: list[str]) -> None:
    with pytest.raises(IllegalAction) as refused:
        new_game(sets, 3)
    assert refused.value.rule == "G1"


COMBINATIONS = [list(c) for n in (1, 2, 3) for c in itertools.combinations(SETS, n)]


@pytest.mark.parametrize("sets", COMBINATIONS, ids=lambda s: "+".join(s))
def test_G1_every_combination_of_sets_plays_whole_games(sets: list[str]) -> None:
    """Random games over every combination: no error, every event as declared, every card of
    the sets in exactly one place at the end (D1)."""
    bad: list[str] = []

    def observe(game: Game, events: list[Any]) -> None:
        bad.extend(e for e in map(payload_errors, events) if e is not None)

    players = 4 if len(sets) == 1 and sets != [SOO] else 5
    for seed in range(3):
        result = play_game(seed, players, 40, {"sets": sets}, cards=expansion_db(), observe=observe)
        assert result.error is None, result.traceback
    assert bad == []


def test_G1_a_set_without_cards_is_refused_by_new_and_simulate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base_only = CardDB(card for card in default_cards() if card.set == SOO)
    with pytest.raises(IllegalAction, match="no cards"):
        Game.new(["A", "B"], {"sets": [SOO, BGE]}, cards=base_only)
    # Every set has its cards in cards.json now: the command line is refused on G1 alone.
    assert main(["simulate", "--games", "1", "--players", "5", "--sets", TOTG]) == 2
    assert "G1" in capsys.readouterr().err


def test_G1_simulate_says_which_sets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--seed", "3", "--sets", SOO]) == 0
    assert f"sets: {SOO}" in capsys.readouterr().out
