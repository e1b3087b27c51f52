"""I (Interaction phase), X3 (trades), A3 (Organizations and their rivals)."""

from __future__ import annotations

from typing import Any

ARK = "arkhangel"  # trade icon, fighting forbidden
CORNES = "village_of_cornes"  # trade icon, fighting allowed
FOREST = "whispering_forest"  # no trade icon


def _at(make: Any, a: dict[str, Any], b: dict[str, Any], dice: list[int] = ()) -> Any:
    setup = {
        "regions": [{"card": ARK}, {"card": CORNES}, {"card": FOREST}],
        "players": {
            "A": {"party": ["acrobat"], "hand": [], **a},
            "B": {"party": ["duelist"], "hand": [], **b},
        },
        "phase": "interaction",
    }
    return make(setup=setup, dice=list(dice))


def test_I1_trade_between_two_trade_regions(make: Any) -> None:
    t = _at(make, {"region": ARK, "hand": ["truce"]}, {"region": CORNES, "hand": ["fireball"]})
    assert "offer B" in t.choices("A")
    t.do("A", "offer B")
    t.do("A", "give truce")
    t.do("A", "ask hand")
    t.do("A", "send")
    assert t.prompt("B").kind == "trade_answer"
    t.do("B", "accept")
    t.do("B", "pick fireball")
    assert t.p("A").hand == ["fireball"] and t.p("B").hand == ["truce"]


def test_I1_no_trade_outside_trade_regions(make: Any) -> None:
    t = _at(make, {"region": ARK}, {"region": FOREST})
    assert "offer B" not in t.choices("A")


def test_I1_characters_can_change_parties(make: Any) -> None:
    t = _at(make, {"region": ARK, "party": ["acrobat", "bard"]}, {"region": CORNES})
    t.do("A", "offer B")
    t.do("A", "give bard")
    t.do("A", "ask duelist")
    t.do("A", "send")
    t.do("B", "accept")
    assert {c.card for c in t.p("A").party} == {"acrobat", "duelist"}
    assert [c.card for c in t.p("B").party] == ["bard"]


def test_X3_one_offer_per_pair_per_interaction_phase(make: Any) -> None:
    t = _at(make, {"region": ARK, "hand": ["truce"]}, {"region": CORNES})
    t.do("A", "offer B")
    t.do("A", "give truce")
    t.do("A", "send")
    t.do("B", "decline")
    assert t.p("A").hand == ["truce"]
    assert "offer B" not in t.choices("A")


def test_I2_attack_in_the_same_region_if_sizes_differ_by_one_at_most(make: Any) -> None:
    t = _at(make, {"region": CORNES, "party": ["acrobat", "bard"]}, {"region": CORNES})
    assert "attack B" in t.choices("A")
    t2 = _at(make, {"region": CORNES, "party": ["acrobat", "bard", "monk"]}, {"region": CORNES})
    assert "attack B" not in t2.choices("A")


def test_I2_no_attack_where_fighting_is_forbidden(make: Any) -> None:
    t = _at(make, {"region": ARK}, {"region": ARK})
    assert "attack B" not in t.choices("A")


def test_I3_rival_organizations_in_one_region_must_fight(make: Any) -> None:
    t = _at(
        make,
        {"region": CORNES, "in_play": ["black_sun_organization"]},
        {"region": CORNES, "in_play": ["order_of_the_silver_dawn"]},
        dice=[6, 1],
    )
    assert t.prompt("A").kind == "window"  # the battle starts at once, no choice
    battle = t.g.find_frame("battle")
    assert battle is not None and {battle.player, battle.other} == {"A", "B"}


def test_I4_loser_pays_a_random_advantage_leaves_and_ends_turn(make: Any) -> None:
    t = _at(make, {"region": CORNES}, {"region": CORNES, "hand": ["truce"]}, dice=[6, 1])
    t.do("A", "attack B")
    t.pass_windows()
    b = t.p("B")
    assert t.p("A").hand == ["truce"] and b.hand == []
    assert b.region is None and b.turn_over


def test_I5_two_parties_cannot_fight_twice_in_a_turn(make: Any) -> None:
    t = _at(make, {"region": CORNES}, {"region": CORNES}, dice=[1, 6])
    t.do("A", "attack B")
    t.pass_windows()  # A loses, leaves
    assert "B" in t.p("A").fought and "A" in t.p("B").fought
    from engine.rules.interaction import can_attack

    t.p("A").region = CORNES
    assert not can_attack(t.g, t.p("A"), t.p("B"))


def test_A3_one_organization_at_a_time(make: Any) -> None:
    setup = {
        "players": {
            "A": {"party": ["acrobat"], "hand": ["black_sun_organization", "merchants_guild"]}
        }
    }
    t = make(setup=setup)
    assert "play black_sun_organization" in t.choices("A")
    t.do("A", "play black_sun_organization")
    assert "play merchants_guild" not in t.choices("A")
    t.do("A", "leave black_sun_organization")  # change it in the Reset phase
    assert "play merchants_guild" in t.choices("A")


def test_A3_an_organization_is_lost_when_the_party_is_wiped_out(make: Any) -> None:
    setup = {"players": {"A": {"party": ["acrobat"], "in_play": ["black_sun_organization"]}}}
    t = make(setup=setup)
    from engine.rules.party import kill

    kill(t.g, t.p("A"), "acrobat")
    a = t.p("A")
    assert a.in_play == [] and "black_sun_organization" in t.s.discards["advantage"]
    assert len(a.party) == 1  # C5: a new party from the Character deck


def _b_loses_to_a_monster(make: Any, **extra: Any) -> Any:
    """A waits at Corns Village; B, there too, loses to the Wild Boar guarding the Forest and
    stays at Corns Village (M2), his turn over; then the Interaction phase, A first."""
    setup = {
        "regions": [{"card": CORNES}, {"card": FOREST, "preliminary": "wild_boar"}],
        "players": {
            "A": {"party": ["acrobat"], "region": CORNES, "hand": ["truce"], **extra.get("A", {})},
            "B": {"party": ["duelist"], "region": CORNES, "hand": [], **extra.get("B", {})},
        },
        "phase": "movement",
    }
    t = make(setup=setup, dice=[2, 6])  # lost by 4: no casualty (B3)
    t.until("A", "movement")
    t.do("A", f"go {CORNES}")
    t.until("B", "movement")
    t.do("B", f"go {FOREST}")
    t.pass_windows()
    b = t.p("B")
    assert b.turn_over and b.region == CORNES
    t.until("A", "interaction")
    return t


def test_M2_a_party_that_lost_to_a_monster_cannot_trade_or_be_attacked(make: Any) -> None:
    t = _b_loses_to_a_monster(make)
    choices = t.choices("A")
    assert "attack B" not in choices and "offer B" not in choices
    assert choices == ["done"]


def test_M2_a_party_that_lost_to_a_monster_is_not_forced_into_a_rival_fight(make: Any) -> None:
    t = _b_loses_to_a_monster(
        make,
        A={"in_play": ["black_sun_organization"]},
        B={"in_play": ["order_of_the_silver_dawn"]},
    )
    assert not t.texts("rivals")  # I3 does not start a battle
    assert t.p("A").fought == []
