"""B (battles and checks), O3 open rolls, V2 ties between parties, X4."""

from __future__ import annotations

from typing import Any

CORNES = "village_of_cornes"


def _fight(
    make: Any,
    monster: str,
    dice: list[int],
    party: list[str] | None = None,
    hand: list[str] | None = None,
    **options: Any,
) -> Any:
    """A (alone: Acrobat, Strength 4) goes to Village of Cornes guarded by ``monster``."""
    setup = {
        "regions": [{"card": CORNES, "preliminary": monster}],
        "players": {
            "A": {"party": party or ["acrobat"], "hand": hand or []},
            "B": {"party": ["monk"], "hand": []},
        },
        "phase": "movement",
    }
    t = make(setup=setup, dice=dice, **options)
    t.do("A", f"go {CORNES}")
    return t


def test_B1_die_plus_strength_higher_total_wins(make: Any) -> None:
    t = _fight(make, "old_warrior", [3, 4])
    t.pass_windows()
    assert t.texts("battle_roll") == ["🎲 3 + Strength 4 = 7 vs 🎲 4 + 2 = 6"]
    assert t.p("A").region == CORNES


def test_B2_a_tie_with_a_monster_goes_to_the_party(make: Any) -> None:
    t = _fight(make, "old_warrior", [2, 4])  # 2 + 4 = 6 vs 4 + 2 = 6
    t.pass_windows()
    assert t.p("A").region == CORNES and not t.p("A").turn_over


def test_B3_losing_by_five_or_more_kills_a_character_of_the_losers_choice(make: Any) -> None:
    t = _fight(make, "wild_boar", [1, 6], party=["acrobat", "mercenary"])  # 8 vs 10: by 2
    t.pass_windows()
    assert len(t.p("A").party) == 2  # lost by 2: nobody dies


def test_B3_loser_by_five_chooses_who_dies(make: Any) -> None:
    t = _fight(make, "wild_boar", [1, 6], party=["illusionist", "bard"])  # 1+3=4 vs 6+4=10
    t.pass_windows()
    prompt = t.prompt("A")
    assert prompt.kind == "casualty"
    assert set(prompt.choices) == {"pick illusionist", "pick bard"}
    t.do("A", "pick bard")
    assert [c.card for c in t.p("A").party] == ["illusionist"]
    assert "bard" in t.s.discards["character"]


def test_B4_battle_cards_are_played_before_the_rolls(make: Any) -> None:
    t = _fight(make, "old_warrior", [1, 6], hand=["battle_fury"])
    t.do("A", "pass")  # the move window
    t.do("B", "pass")
    t.do("A", "pass")  # the Encounter revealed window
    t.do("B", "pass")
    assert "play battle_fury" in t.choices("A")  # the battle_start window, before any roll
    assert not t.texts("battle_roll")
    t.do("A", "play battle_fury")
    t.pass_windows()
    roll = t.texts("battle_roll")[0]
    assert roll.startswith("🎲 1 + Strength 6")  # Battle Fury: +2 for this battle


def test_B5_a_mission_opponent_is_fought_like_a_monster(make: Any) -> None:
    setup = {
        "regions": [{"card": "crossroads_inn"}],
        "players": {
            "A": {
                "party": ["acrobat", "weapons_specialist", "templar"],
                "region": "crossroads_inn",
                "missions": ["the_bandit_king"],
            }
        },
        "phase": "exploration",
    }
    t = make(setup=setup, dice=[1, 6, 1])  # explore: 1 -> nothing; battle 6+14 vs 1+12
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "mission the_bandit_king")
    t.pass_windows()
    assert "the_bandit_king" in t.p("A").completed
    assert "🎲 6 + Strength 14 = 20 vs 🎲 1 + 12 = 13" in t.texts("battle_roll")


def test_B6_speed_check_die_plus_speed_at_least_difficulty(make: Any) -> None:
    setup = {
        "regions": [{"card": "silver_harbor"}],
        "players": {
            "A": {
                "party": ["huntress", "acrobat"],
                "region": "silver_harbor",
                "missions": ["courier_of_silver_harbor"],
            }
        },
        "phase": "exploration",
    }
    t = make(setup=setup, dice=[1, 5])  # explore 1 -> nothing; check 5 + 9 >= 14
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "mission courier_of_silver_harbor")
    assert "courier_of_silver_harbor" in t.p("A").completed
    t = make(setup=setup, dice=[1, 4])  # check 4 + 9 = 13 < 14: failed
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "mission courier_of_silver_harbor")
    assert "courier_of_silver_harbor" not in t.p("A").completed


def test_B7_a_lost_battle_costs_the_current_turn_only(make: Any) -> None:
    t = _fight(make, "wild_boar", [1, 6])
    t.pass_windows()
    assert t.p("A").turn_over
    t.until("A", "reset")
    assert not t.p("A").turn_over


def test_O3_open_rolls_a_six_is_rolled_again_and_added(make: Any) -> None:
    t = _fight(make, "wild_boar", [6, 3, 6, 1], open_rolls=True)
    t.pass_windows()
    assert t.texts("battle_roll") == ["🎲 6+3 + Strength 4 = 13 vs 🎲 6+1 + 4 = 11"]


def _attack(make: Any, dice: list[int], **options: Any) -> Any:
    setup = {
        "regions": [{"card": CORNES}],
        "players": {
            "A": {"party": ["acrobat"], "region": CORNES, "hand": []},
            "B": {"party": ["duelist"], "region": CORNES, "hand": ["truce"]},
        },
        "phase": "interaction",
    }
    t = make(setup=setup, dice=dice, **options)
    t.do("A", "attack B")
    t.do("A", "pass")
    t.do("B", "pass")
    return t


def test_V2_a_tie_between_parties_is_rolled_again(make: Any) -> None:
    t = _attack(make, [3, 3, 5, 1])  # 3+4 = 3+4, then 5+4 vs 1+4
    assert len(t.texts("battle_roll")) == 2
    assert "B" in t.p("A").fought


def test_V2_bge_reading_a_tie_between_parties_stands(make: Any) -> None:
    t = _attack(make, [3, 3], party_tie="stands")
    assert len(t.texts("battle_roll")) == 1
    assert t.p("B").region == CORNES and t.p("A").region == CORNES


def test_X4_the_monster_die_is_rolled_by_the_bot_visibly(make: Any) -> None:
    t = _fight(make, "old_warrior", [3, 4])
    t.pass_windows()
    events = [e for e in t.events if e.kind == "battle_roll"]
    assert events[0].to is None and events[0].data["dice"] == [3, 4]
