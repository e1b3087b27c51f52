"""The expansions' Advantage kinds and guarded Regions: A4 Incidents, A5/M9 Traps, A6
Factions, E6 Discredit, A7 Artifacts (I4), TotG guarded Regions, the Region level modifier,
with the stand-in cards of tests/rules/expansion_advantage_cards.py."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest
from conftest import Table
from expansion_advantage_cards import ALL_SETS, EXPANSION_TEST_CARDS, expansion_db

from engine import visibility as sight
from engine import zones
from engine.cards import CardDataError, parse_cards
from engine.determinize import determinize
from engine.errors import IllegalAction
from engine.event_kinds import payload_errors
from engine.game import Game
from engine.rules.party import rivalry, speed, strength
from engine.rules.regions import region_level
from engine.rules.sets import in_game
from engine.tools.scenario import build_game, parse
from engine.views import public_cards
from engine.zones import Zone, traps_zone

MAISEN, ALBIDION = "maisen", "albidion"  # BGE, level 2
HALL = "hall_of_the_fallen_god"  # TotG, level 2, guarded by a monster (Strength 6)
GATE = "gate_of_ashes"  # TotG, level 1, guarded by a trap (Speed 9)
CORNES = "village_of_cornes"  # base set, level 1, trade, fighting allowed


def _table(
    setup: dict[str, Any], dice: Iterable[int] = (), players: Iterable[str] = ("A", "B")
) -> Table:
    data = {
        "players": list(players),
        "seed": 1,
        "options": {"sets": ALL_SETS},
        "setup": setup,
        "dice": list(dice),
    }
    return Table(build_game(parse(data), expansion_db()))


def _setup(a: dict[str, Any], b: dict[str, Any], phase: str = "reset", **rest: Any) -> Any:
    """A (acrobat, Speed 4) plays before B (mercenary, Speed 2): no die for the order (T2)."""
    regions = rest.pop("regions", [{"card": MAISEN}, {"card": ALBIDION}, {"card": CORNES}])
    return {
        "regions": regions,
        "players": {
            "A": {"party": ["acrobat"], "hand": [], **a},
            "B": {"party": ["mercenary"], "hand": [], **b},
        },
        "phase": phase,
        **rest,
    }


def _payloads_ok(t: Table) -> None:
    bad = [f"{e.kind}: {payload_errors(e)}" for e in t.events if payload_errors(e)]
    assert not bad, bad


def _reset_done(t: Table) -> None:
    """Everybody ends the Reset phase (and passes a pick-up)."""
    while t.s.phase == "reset" and t.g.pending():
        prompt = t.g.pending()[0]
        t.do(prompt.player, "done" if prompt.kind == "reset" else prompt.default)


def _move(t: Table, moves: dict[str, str]) -> None:
    """Each player's Movement step (``rest`` or ``go X``), windows passed (the Reset phase
    first ended by everybody, if it is still on)."""
    _reset_done(t)
    for _ in range(20):
        t.pass_windows()
        prompt = next((p for p in t.g.pending() if p.kind == "movement"), None)
        if prompt is None:
            return
        t.do(prompt.player, moves[prompt.player])


def _lay_trap(t: Table, player: str, trap: str, region: str) -> None:
    t.do(player, f"play {trap}")
    assert t.prompt(player).kind == "trap_region"
    t.do(player, f"pick {region}")


# ---------------------------------------------------------------------- A5 / M9 Traps


def test_A5_a_trap_is_laid_face_down_in_the_reset_phase_only_its_owner_knows_it() -> None:
    t = _table(_setup({"hand": ["unleashed_danger"]}, {}))
    assert "play unleashed_danger" in t.choices("A")
    _lay_trap(t, "A", "unleashed_danger", MAISEN)
    s = t.s
    assert "unleashed_danger" not in t.p("A").hand
    assert zones.locate(s, "unleashed_danger") == traps_zone(MAISEN, "A")
    assert sight.is_visible_to(s, "unleashed_danger", "A")
    assert not sight.is_visible_to(s, "unleashed_danger", "B")
    assert not sight.is_visible_to(s, "unleashed_danger", None)
    assert "unleashed_danger" not in public_cards(t.g)
    # The table sees that Maisen holds one face-down Trap; only A sees which.
    public = {r.card: r for r in t.g.table_view().regions}
    assert public[MAISEN].traps == 1 and public[MAISEN].own_traps == ()
    mine = {r.card: r for r in t.g.seat_view("A").table.regions}
    assert mine[MAISEN].own_traps == ("unleashed_danger",)
    theirs = {r.card: r for r in t.g.seat_view("B").table.regions}
    assert theirs[MAISEN].own_traps == () and theirs[MAISEN].traps == 1
    assert t.g.view(None)["regions"][0]["traps"] == 1
    # No public event names the card; A alone is told which it is.
    for event in t.events:
        if event.to is None:
            assert "unleashed_danger" not in str(event.data)
            assert "Unleashed" not in event.text
    assert [e.to for e in t.events if e.kind == "trap_set_private"] == [["A"]]
    _payloads_ok(t)


def test_A5_the_trap_region_question_does_not_name_the_trap_to_the_table() -> None:
    t = _table(_setup({"hand": ["unleashed_danger"]}, {}))
    t.do("A", "play unleashed_danger")
    waiting = t.g.table_view().waiting[0]
    assert waiting.kind == "trap_region" and "Unleashed" not in waiting.text
    assert {c.action for c in waiting.choices} == {f"pick {r}" for r in (MAISEN, ALBIDION, CORNES)}


def test_A5_a_trap_is_played_only_in_the_reset_phase() -> None:
    t = _table(_setup({"hand": ["unleashed_danger"], "region": CORNES}, {}, phase="movement"))
    assert t.prompt("A").kind == "movement"
    assert "play unleashed_danger" not in t.choices("A")


def test_M9_traps_are_revealed_after_every_party_moved_where_a_party_stands() -> None:
    t = _table(_setup({"hand": ["unleashed_danger", "pitfall"]}, {}))
    _lay_trap(t, "A", "unleashed_danger", MAISEN)
    _lay_trap(t, "A", "pitfall", ALBIDION)
    _reset_done(t)
    _move(t, {"A": f"go {CORNES}", "B": f"go {MAISEN}"})
    # M9: revealed once everybody has moved, not when B arrived.
    kinds = [e.kind for e in t.events]
    assert kinds.index("trap_revealed") > max(i for i, k in enumerate(kinds) if k == "arrive")
    revealed = [e.data["card"] for e in t.events if e.kind == "trap_revealed"]
    assert revealed == ["unleashed_danger"]  # nobody stands in Albidion: Pitfall waits
    assert "unleashed_danger" in t.s.discards["advantage"]
    assert zones.locate(t.s, "pitfall") == traps_zone(ALBIDION, "A")
    assert region_level(t.g, MAISEN) == 3
    assert t.s.phase == "interaction"
    _payloads_ok(t)


def test_M9_a_trap_affects_every_party_in_its_region() -> None:
    t = _table(_setup({"hand": ["pitfall"]}, {}))
    _lay_trap(t, "A", "pitfall", MAISEN)
    _reset_done(t)
    before = {n: strength(t.g, t.p(n)) for n in "AB"}
    _move(t, {"A": f"go {MAISEN}", "B": f"go {MAISEN}"})
    assert {n: strength(t.g, t.p(n)) for n in "AB"} == {n: v - 2 for n, v in before.items()}


def test_M9_a_trap_that_favours_its_owner_gives_to_whoever_laid_it() -> None:
    t = _table(_setup({"hand": ["hidden_cache"]}, {}))
    _lay_trap(t, "A", "hidden_cache", MAISEN)
    _reset_done(t)
    _move(t, {"A": f"go {ALBIDION}", "B": f"go {MAISEN}"})
    assert len(t.p("A").hand) == 1 and t.p("B").hand == []


def test_M9_traps_take_effect_before_incidents() -> None:
    t = _table(_setup({"hand": ["blood_moon"]}, {"hand": ["hidden_cache"]}))
    t.do("A", "play blood_moon")
    _reset_done_for(t, "A")
    _lay_trap(t, "B", "hidden_cache", MAISEN)
    _reset_done(t)
    _move(t, {"A": f"go {MAISEN}", "B": f"go {ALBIDION}"})
    kinds = [e.kind for e in t.events]
    trap = kinds.index("trap_revealed")
    draws = [i for i, e in enumerate(t.events) if e.kind == "draw"]
    assert [t.events[i].data["player"] for i in draws] == ["B", "A"]  # the Trap, then A's Incident
    assert trap < draws[0]


def _reset_done_for(t: Table, player: str) -> None:
    t.do(player, "done")


def test_M9_the_level_a_trap_raises_lets_a_higher_encounter_happen() -> None:
    """The Beyond Good and Evil example: Unleashed Danger makes Maisen level 3, so Amenhotep
    (level 3) is met instead of being a false alarm (M8)."""
    t = _table(
        _setup({"hand": ["unleashed_danger"]}, {}, decks={"encounter": ["amenhotep"]}),
        dice=[3, 6, 1],
    )
    _lay_trap(t, "A", "unleashed_danger", MAISEN)
    _reset_done(t)
    _move(t, {"A": f"go {ALBIDION}", "B": f"go {MAISEN}"})
    t.until("B", "exploration")
    t.do("B", "explore")
    t.pass_windows()
    t.do("B", "fight")  # E7: with Twilight of the Gods in play, B may flee the monster
    t.pass_windows()
    assert not [e for e in t.events if e.kind == "false_alarm"]
    assert any(e.kind == "battle" and e.data["card"] == "amenhotep" for e in t.events)


def test_M9_a_raised_level_ends_with_the_turn() -> None:
    t = _table(_setup({"hand": ["unleashed_danger"]}, {}))
    _lay_trap(t, "A", "unleashed_danger", MAISEN)
    _reset_done(t)
    _move(t, {"A": f"go {MAISEN}", "B": "rest"})
    assert region_level(t.g, MAISEN) == 3
    assert t.g.table_view().regions[0].level == 3
    assert t.g.table_view().regions[0].printed_level == 2
    t.until("A", "reset")
    assert t.s.turn == 2 and region_level(t.g, MAISEN) == 2


def test_M9_modify_region_keeps_the_level_within_one_to_three() -> None:
    t = _table(_setup({"hand": ["crumbling_bridge"], "region": MAISEN}, {}, phase="exploration"))
    t.do("A", "play crumbling_bridge")
    assert region_level(t.g, MAISEN) == 1
    assert [e.data["level"] for e in t.events if e.kind == "region_level"] == [1]
    # No empty choices: at level 1 already, a level -1 would change nothing (issue 20).
    t = _table(_setup({"hand": ["crumbling_bridge"], "region": CORNES}, {}, phase="exploration"))
    assert "play crumbling_bridge" not in t.choices("A")
    t.s.regions[2].level_bonus = 1  # Cornes raised to level 2 this turn: lowered again, 1
    t.refresh()
    t.do("A", "play crumbling_bridge")
    assert region_level(t.g, CORNES) == 1


def test_M5_a_removed_region_takes_its_traps_with_it() -> None:
    regions = [{"card": c} for c in (MAISEN, ALBIDION, CORNES, "arkhangel")]
    t = _table(_setup({"hand": ["pitfall"]}, {}, regions=regions))
    _lay_trap(t, "A", "pitfall", MAISEN)
    _reset_done(t)
    t.do("A", "explore_new")
    t.pass_windows()
    prompt = t.prompt("A")
    if prompt is not None and prompt.kind == "new_region":  # M10: one Region per set
        t.do("A", prompt.choices[0])
    t.do("A", f"remove {MAISEN}")
    t.pass_windows()
    assert "pitfall" in t.s.discards["advantage"]
    assert MAISEN in t.s.discards["region"]


# ---------------------------------------------------------------------- A4 Incidents


def test_A4_an_incident_is_played_in_the_reset_phase_and_lasts_until_the_end_of_the_turn() -> None:
    t = _table(_setup({"hand": ["fair_winds", "blood_moon"]}, {}))
    base = speed(t.g, t.p("A")), strength(t.g, t.p("A"))
    t.do("A", "play fair_winds")
    t.do("A", "play blood_moon")
    assert t.p("A").in_play == ["fair_winds", "blood_moon"]
    assert (speed(t.g, t.p("A")), strength(t.g, t.p("A"))) == (base[0] + 2, base[1] + 1)
    _move(t, {"A": f"go {CORNES}", "B": f"go {CORNES}"})  # no rest: its bonus would count
    t.until("A", "reset")  # the next turn
    assert t.p("A").in_play == []
    assert {"fair_winds", "blood_moon"} <= set(t.s.discards["advantage"])
    assert (speed(t.g, t.p("A")), strength(t.g, t.p("A"))) == base
    assert [e.data["card"] for e in t.events if e.kind == "incident_over"] == [
        "fair_winds",
        "blood_moon",
    ]
    _payloads_ok(t)


def test_A4_an_incident_in_play_is_not_offered_to_leave() -> None:
    """R2 lets a party leave an Organization or a Faction; an Incident lasts until the end of
    the turn (A4), whatever its card: ``leave`` is neither offered nor accepted."""
    t = _table(_setup({"hand": ["fair_winds", "abel"]}, {}))
    t.do("A", "play fair_winds")
    t.do("A", "play abel")
    assert t.p("A").in_play == ["fair_winds", "abel"]
    assert "leave abel" in t.choices("A")
    assert "leave fair_winds" not in t.choices("A")
    with pytest.raises(IllegalAction):
        t.do("A", "leave fair_winds")
    assert t.p("A").in_play == ["fair_winds", "abel"]


def test_A4_an_incident_cannot_be_played_outside_the_reset_phase() -> None:
    t = _table(_setup({"hand": ["fair_winds"], "region": CORNES}, {}, phase="movement"))
    assert "play fair_winds" not in t.choices("A")


# ---------------------------------------------------------------------- A6 Factions, E6


def test_A6_a_party_belongs_to_at_most_one_faction_and_changes_it_in_the_reset_phase() -> None:
    t = _table(_setup({"hand": ["abel", "disciples_of_cain"]}, {}))
    t.do("A", "play abel")
    assert t.p("A").in_play == ["abel"]
    assert "play disciples_of_cain" not in t.choices("A")
    t.do("A", "leave abel")
    assert "play disciples_of_cain" in t.choices("A")


def test_A6_with_the_base_set_a_party_has_an_organization_and_a_faction_together() -> None:
    t = _table(_setup({"hand": ["abel", "black_sun_organization"]}, {}))
    t.do("A", "play black_sun_organization")
    assert "play abel" in t.choices("A")
    t.do("A", "play abel")
    assert set(t.p("A").in_play) == {"abel", "black_sun_organization"}
    assert strength(t.g, t.p("A")) >= 4 + 1


def test_A6_enemy_factions_in_one_region_must_fight() -> None:
    t = _table(
        _setup(
            {"region": CORNES, "in_play": ["abel"]},
            {"region": CORNES, "in_play": ["disciples_of_cain"]},
            phase="interaction",
        ),
        dice=[6, 1],
    )
    assert t.prompt("A").kind == "window"  # the battle starts at once (I3)
    battle = t.g.find_frame("battle")
    assert battle is not None and {battle.player, battle.other} == {"A", "B"}
    assert rivalry(t.g, t.p("A"), t.p("B")) == "enemy Factions"


def test_A6_a_wiped_out_party_loses_its_faction_and_artifact() -> None:
    from engine.rules.party import kill

    t = _table(_setup({"in_play": ["abel", "spear_of_twilight"]}, {}))
    kill(t.g, t.p("A"), "acrobat")
    assert t.p("A").in_play == []
    assert {"abel", "spear_of_twilight"} <= set(t.s.discards["advantage"])


def _discredit_table(a_hand: list[str], b_in_play: list[str]) -> Table:
    return _table(
        _setup(
            {"region": ALBIDION, "hand": a_hand},
            {"region": CORNES, "in_play": b_in_play},
            phase="exploration",
        ),
        dice=[1],  # Albidion: nothing
    )


def test_E6_discredit_discards_an_advantage_to_make_another_player_discard_his_faction() -> None:
    t = _discredit_table(["truce"], ["abel"])
    t.do("A", "explore")
    t.pass_windows()
    assert "reward 2" in t.choices("A")  # Albidion's third reward: Discredit
    assert (
        t.g.prompt_view("A").choices[t.choices("A").index("reward 2")].label == "Reward: Discredit"
    )
    t.do("A", "reward 2")
    assert t.prompt("A").kind == "discredit"  # B is the only one: no question who
    t.do("A", "pick truce")
    assert t.p("A").hand == [] and t.p("B").in_play == []
    assert {"truce", "abel"} <= set(t.s.discards["advantage"])
    assert [e.data for e in t.events if e.kind == "discredit"] == [{"player": "A", "other": "B"}]
    _payloads_ok(t)


@pytest.mark.parametrize(("hand", "in_play"), [([], ["abel"]), (["truce"], [])])
def test_E6_discredit_is_offered_only_with_an_advantage_to_pay_and_a_faction_to_strike(
    hand: list[str], in_play: list[str]
) -> None:
    t = _discredit_table(hand, in_play)
    t.do("A", "explore")
    t.pass_windows()
    assert "reward 2" not in t.choices("A")


def test_E6_discredit_asks_whom_when_several_players_have_a_faction() -> None:
    setup = _setup(
        {"region": ALBIDION, "hand": ["truce"]},
        {"region": CORNES, "in_play": ["abel"]},
        phase="exploration",
    )
    setup["players"]["C"] = {"party": ["mechanist"], "hand": [], "in_play": ["disciples_of_cain"]}
    t = _table(setup, dice=[1], players=("A", "B", "C"))
    t.until("A", "exploration")
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "reward 2")
    assert t.choices("A") == ["pick B", "pick C"]
    t.do("A", "pick C")
    t.do("A", "pick truce")
    assert t.p("C").in_play == [] and t.p("B").in_play == ["abel"]


def test_E6_discard_faction_operation() -> None:
    t = _table(
        _setup(
            {"region": CORNES, "hand": ["smear_campaign"]},
            {"in_play": ["abel"]},
            phase="exploration",
        )
    )
    t.do("A", "play smear_campaign")
    t.do("A", "pick B")
    assert t.p("B").in_play == [] and "abel" in t.s.discards["advantage"]


# ---------------------------------------------------------------------- A7 Artifacts, I4


def test_A7_a_party_holds_at_most_one_artifact_and_replaces_it_in_the_reset_phase() -> None:
    t = _table(_setup({"hand": ["spear_of_twilight", "horn_of_the_last_dawn"]}, {}))
    t.do("A", "play spear_of_twilight")
    assert "play horn_of_the_last_dawn" not in t.choices("A")
    assert strength(t.g, t.p("A")) == 4 + 2
    t.do("A", "leave spear_of_twilight")
    t.do("A", "play horn_of_the_last_dawn")
    assert t.p("A").in_play == ["horn_of_the_last_dawn"]


def _duel(a: dict[str, Any], b: dict[str, Any]) -> Table:
    t = _table(
        _setup({"region": CORNES, **a}, {"region": CORNES, **b}, phase="interaction"), dice=[4, 2]
    )
    t.do("A", "attack B")
    t.pass_windows()
    return t


def test_A7_the_winner_may_take_the_losers_artifact_instead_of_a_random_advantage() -> None:
    t = _duel({}, {"hand": ["truce"], "in_play": ["spear_of_twilight"]})
    assert t.prompt("A").kind == "spoils"
    assert t.choices("A") == ["pass", "take spear_of_twilight"]
    t.do("A", "take spear_of_twilight")
    assert t.p("A").in_play == ["spear_of_twilight"] and t.p("A").hand == []
    assert t.p("B").hand == ["truce"] and t.p("B").in_play == []
    assert t.p("B").region is None and t.p("B").turn_over
    _payloads_ok(t)


def test_A7_the_winner_who_passes_takes_a_random_advantage_as_usual() -> None:
    t = _duel({}, {"hand": ["truce"], "in_play": ["spear_of_twilight"]})
    t.do("A", "pass")
    assert t.p("A").hand == ["truce"] and t.p("B").in_play == ["spear_of_twilight"]
    assert t.p("B").turn_over


def test_A7_a_winner_who_holds_an_artifact_is_not_offered_another() -> None:
    t = _duel(
        {"in_play": ["horn_of_the_last_dawn"]},
        {"hand": ["truce"], "in_play": ["spear_of_twilight"]},
    )
    assert t.prompt("A") is None or t.prompt("A").kind != "spoils"
    assert t.p("A").hand == ["truce"]


def test_A7_the_spoils_question_survives_a_stored_game() -> None:
    from engine.game import Game

    t = _duel({}, {"hand": ["truce"], "in_play": ["spear_of_twilight"]})
    again = Game.from_json(t.g.to_json(), expansion_db())
    again.apply("A", "take spear_of_twilight")
    assert again.s.players["A"].in_play == ["spear_of_twilight"]


# ---------------------------------------------------------------------- guarded Regions (TotG)


def test_M2_a_monster_guard_is_fought_on_entering_and_stays_until_beaten() -> None:
    regions = [{"card": HALL}, {"card": CORNES}]
    t = _table(_setup({}, {}, regions=regions), dice=[3, 4, 6, 1])
    assert t.g.table_view().regions[0].guard == "standing"
    _move(t, {"A": f"go {HALL}", "B": f"go {HALL}"})
    t.pass_windows()
    # A (Strength 4 + 3) loses to the Einherjar (6 + 4): he does not arrive and loses the next
    # turn too (the guard's effects); B (3 + 6 vs 6 + 1) beats it and draws (its reward).
    assert t.p("A").region is None and t.p("A").turn_over and t.p("A").skip_next_turn
    assert t.p("B").region == HALL and len(t.p("B").hand) == 1
    assert not t.s.regions[0].guarded
    assert t.g.table_view().regions[0].guard == "beaten"
    guards = [e.data["player"] for e in t.events if e.kind == "guard"]
    assert guards == ["A", "B"]
    _payloads_ok(t)


def test_M2_a_beaten_guard_stands_again_when_its_region_is_laid_out_anew() -> None:
    from engine.rules.regions import lay_out

    t = _table(_setup({}, {}, regions=[{"card": HALL, "guarded": False}, {"card": CORNES}]))
    assert not t.s.regions[0].guarded
    lay_out(t.g, HALL)
    assert t.s.regions[0].guarded


def test_M5_a_region_whose_guard_stands_cannot_be_removed() -> None:
    from engine.rules.movement import removable_regions

    regions = [{"card": c} for c in (HALL, ALBIDION, CORNES, "arkhangel")]
    t = _table(_setup({}, {}, regions=regions))
    assert HALL not in removable_regions(t.g, CORNES, [])
    t.s.regions[0].guarded = False
    assert HALL in removable_regions(t.g, CORNES, [])


def test_M9_a_trap_guard_tests_each_party_standing_there_until_one_beats_it() -> None:
    regions = [{"card": GATE}, {"card": CORNES}]
    # A (Speed 4) rolls 1: 5 < 9, caught (-2 Strength); B (Speed 2) rolls 6: 8 < 9, caught too.
    t = _table(_setup({}, {}, regions=regions), dice=[1, 6])
    before = {n: strength(t.g, t.p(n)) for n in "AB"}
    _move(t, {"A": f"go {GATE}", "B": f"go {GATE}"})
    checks = [(e.data["player"], e.data["success"]) for e in t.events if e.kind == "guard_check"]
    assert checks == [("A", False), ("B", False)]
    assert {n: strength(t.g, t.p(n)) for n in "AB"} == {n: v - 2 for n, v in before.items()}
    assert t.s.regions[0].guarded
    _payloads_ok(t)


def test_M9_a_trap_guard_beaten_spares_the_parties_after() -> None:
    regions = [{"card": GATE}, {"card": CORNES}]
    t = _table(_setup({}, {}, regions=regions), dice=[5])  # A: 5 + 4 = 9: beaten
    _move(t, {"A": f"go {GATE}", "B": f"go {GATE}"})
    checks = [(e.data["player"], e.data["success"]) for e in t.events if e.kind == "guard_check"]
    assert checks == [("A", True)]
    assert not t.s.regions[0].guarded


def test_guard_data_is_checked() -> None:
    region = next(c for c in EXPANSION_TEST_CARDS if c["id"] == HALL)
    broken = {**region, "guard": {"kind": "monster", "name": "Nobody"}}
    with pytest.raises(CardDataError, match=r"guard\.strength"):
        parse_cards([broken])
    trap = {**region, "guard": {"kind": "trap", "name": "Nothing"}}
    with pytest.raises(CardDataError, match=r"guard\.difficulty"):
        parse_cards([trap])


def test_A5_a_trap_needs_an_on_reveal_ability() -> None:
    trap = next(c for c in EXPANSION_TEST_CARDS if c["id"] == "pitfall")
    broken = {**trap, "abilities": [{"timing": "play", "phase": "reset", "effects": []}]}
    with pytest.raises(CardDataError, match="on_reveal"):
        parse_cards([broken])


# ---------------------------------------------------------------------- determinization


def test_A5_determinize_deals_a_trap_into_a_hidden_trap_place() -> None:
    t = _table(_setup({"hand": ["pitfall", "truce"]}, {}))
    _lay_trap(t, "A", "pitfall", MAISEN)
    view = t.g.seat_view("B")
    traps = {c.id for c in expansion_db().advantages if c.kind == "trap"}
    for seed in range(8):
        game = determinize(view, random.Random(seed), expansion_db())
        laid = [tr.card for tr in game.s.regions[0].traps]
        assert len(laid) == 1 and laid[0] in traps
        assert game.s.regions[0].traps[0].owner == "A"
        assert game.seat_view("B") == view
    mine = determinize(t.g.seat_view("A"), random.Random(1), expansion_db())
    assert [tr.card for tr in mine.s.regions[0].traps] == ["pitfall"]


def test_A5_the_sealed_table_hides_the_trap() -> None:
    t = _table(_setup({"hand": ["pitfall"]}, {}))
    _lay_trap(t, "A", "pitfall", MAISEN)
    assert "pitfall" not in t.g.seat_view("B").sealed.state
    assert "pitfall" in t.g.seat_view("A").sealed.state
    assert zones.cards_in(t.s, Zone("traps", f"{MAISEN}/A")) == ["pitfall"]


# ---------------------------------------------------------------------- random games


@pytest.mark.parametrize("seed", range(6))
def test_A4_to_A7_random_games_with_the_expansion_kinds_keep_every_card_in_one_place(
    seed: int,
) -> None:
    """Random games over the base set and the stand-ins: every card in one place after each
    action (D1), every event with its declared payload, no public event naming a hidden card,
    and a determinized seat view equal to the real one."""
    db = expansion_db()
    game = Game.new(["A", "B", "C"], {"sets": ALL_SETS, "turn_cap": 12}, seed=seed, cards=db)
    every = {c.id for c in db if in_game(c, game.s.options)}  # S5: only the dealt missions
    chooser = random.Random(seed)
    kinds: set[str] = set()
    for step in range(4000):
        if game.over:
            break
        prompt = game.pending()[chooser.randrange(len(game.pending()))]
        hidden_before = sight.hidden_from(game.s, None)
        events = game.apply(prompt.player, chooser.choice(prompt.choices))
        zones.check_conservation(game.s, every)
        hidden = hidden_before & sight.hidden_from(game.s, None)
        for event in events:
            kinds.add(event.kind)
            assert payload_errors(event) is None, (event.kind, payload_errors(event))
            if event.to is None:
                named = {v for v in event.data.values() if isinstance(v, str)}
                assert not named & hidden, (event.kind, named & hidden)
        if step % 97 == 0 and not game.over:
            seat = chooser.choice(game.s.seats)
            view = game.seat_view(seat)
            assert determinize(view, random.Random(step), db).seat_view(seat) == view
    assert game.over
