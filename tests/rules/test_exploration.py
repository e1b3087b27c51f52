"""E (Exploration phase) and the Encounters met while exploring."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import zones
from engine.zones import Zone

ARK = "arkhangel"  # die 1-2-4: nothing; 3, 5, 6: one Encounter; rewards advantage/hire/special
RUINS = "lost_ruins"  # die 1: two Encounters


def _explorer(make: Any, region: str = ARK, dice: list[int] = (), **a: Any) -> Any:
    setup = {
        "regions": [{"card": region}],
        "players": {
            "A": {"party": ["acrobat", "illusionist"], "region": region, "hand": [], **a},
            "B": {"party": ["mercenary"], "hand": []},
        },
        "phase": "exploration",
    }
    return make(setup=setup, dice=list(dice))


def test_E1_only_parties_that_reached_a_region_explore(make: Any) -> None:
    t = _explorer(make)
    assert t.prompt("A").kind == "exploration"
    assert t.prompt("B") is None  # B is in no Region
    t.do("A", "skip")  # exploring is optional
    assert t.s.turn == 2


def test_E2_roll_and_read_the_exploration_table(make: Any) -> None:
    t = _explorer(make, dice=[2])
    t.do("A", "explore")
    t.pass_windows()
    assert t.prompt("A").kind == "reward"
    assert any("🎲 2" in x for x in t.texts("explore_roll"))


def test_E3_encounters_one_at_a_time_a_defeat_expels(make: Any) -> None:
    t = _explorer(make, RUINS, dice=[1, 1, 5])  # 1 + 6 = 7 vs 5 + 4 = 9
    t.s.decks["encounter"] += ["treasure", "wild_boar"]  # the Boar first, then Treasure
    t.do("A", "explore")
    t.pass_windows()
    a = t.p("A")
    assert a.region is None and a.hand == []  # expelled: no reward
    assert t.texts("expelled") and t.s.turn == 2
    assert "treasure" in t.s.decks["encounter"]  # the second Encounter is never drawn


def test_E4_monsters_met_while_exploring_are_discarded_won_or_lost(make: Any) -> None:
    t = _explorer(make, ARK, dice=[3, 1, 6])
    t.s.decks["encounter"].append("wild_boar")
    t.do("A", "explore")
    t.pass_windows()
    assert "wild_boar" in t.s.discards["encounter"]
    assert t.s.regions[0].preliminary is None


def test_E5_false_alarm_while_exploring(make: Any) -> None:
    t = _explorer(make, ARK, dice=[3])
    t.s.decks["encounter"].append("dragon_god")
    t.do("A", "explore")
    t.pass_windows()
    assert "dragon_god" in t.s.discards["encounter"]
    assert t.prompt("A").kind == "reward"


def test_E6_advantage_reward_draws_region_level_capped_by_hand_limit(make: Any) -> None:
    t = _explorer(make, RUINS, dice=[3], hand=["truce", "fireball", "lucky_charm", "scavenge"])
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "reward 0")
    assert len(t.p("A").hand) == 5  # level 2, but only room for one


def test_E6_hire_not_with_four_and_not_twice_in_a_row_in_one_region(make: Any) -> None:
    t = _explorer(make, ARK, dice=[2])
    t.do("A", "explore")
    t.pass_windows()
    assert "reward 1" in t.choices("A")
    t.do("A", "reward 1")
    assert len(t.p("A").party) == 3
    from engine.rules.exploration import can_hire

    assert t.s.turn == 2
    assert not can_hire(t.g, t.p("A"), ARK)  # the next turn, same Region
    t.s.turn += 1
    assert can_hire(t.g, t.p("A"), ARK)
    t.p("A").party.append(replace(t.p("A").party[0], card="monk"))
    assert not can_hire(t.g, t.p("A"), ARK)  # a party of four


def test_E6_special_reward_runs_its_effects(make: Any) -> None:
    """Arkhangel's Relic Market takes the top card of the Advantage discard pile."""
    t = _explorer(make, ARK, dice=[2])
    zones.move(t.s, "fireball", Zone("deck", "advantage"), Zone("discard", "advantage"))
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "reward 2")
    assert any(e.kind == "reward" for e in t.events)
    assert "fireball" in t.p("A").hand


def test_E6_a_special_reward_that_would_change_nothing_is_not_offered(make: Any) -> None:
    """No empty choices (issue 20): with the Advantage discard pile empty, the Relic Market
    would take nothing, so it is not offered among the rewards."""
    t = _explorer(make, ARK, dice=[2])
    assert t.s.discards["advantage"] == []
    t.do("A", "explore")
    t.pass_windows()
    assert "reward 2" not in t.choices("A")
    assert {"reward 0", "reward 1"} <= set(t.choices("A"))


def test_E6_remote_mission_reward_attempts_a_mission_elsewhere(make: Any) -> None:
    setup = {
        "regions": [{"card": RUINS}, {"card": "silver_harbor"}],
        "players": {
            "A": {
                "party": ["huntress", "acrobat"],
                "region": RUINS,
                "hand": [],
                "missions": ["courier_of_silver_harbor"],
            },
            "B": {"party": ["mercenary"]},
        },
        "phase": "exploration",
    }
    t = make(setup=setup, dice=[3, 5])  # Lost Ruins 3: nothing; Speed check 5 + 9 >= 14
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "reward 2")
    t.do("A", "pick courier_of_silver_harbor")
    assert "courier_of_silver_harbor" in t.p("A").completed
