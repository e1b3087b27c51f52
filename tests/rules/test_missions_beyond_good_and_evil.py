"""The objective kinds of Beyond Good and Evil's two printed Basic missions (issue 9), with the
real cards: "a Basic Mission against 6 Encounters with the Region counting as level 3" (The
Long Night: an ``encounters`` objective; M8/E3/E4 as exploring) and "a Basic Mission against
level-14 beasts for 2 turns" (Hunt the Beasts of the Apocalypse: a Resistance mission whose
enemies fight the party on each turn, F2/B5)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table

from engine.cards import CardDataError, parse_cards
from engine.event_kinds import payload_errors
from engine.rules.missions import attemptable_missions
from engine.rules.regions import region_level
from engine.tools.scenario import build_game, parse

BGE = "beyond_good_and_evil"
MAISEN = "maisen"  # level 2; die 1: nothing
EDEN = "ruins_of_eden"  # level 3; die 1: nothing
NIGHT = "the_long_night"
BEASTS = "hunt_the_beasts_of_the_apocalypse"
#: Six Encounters of the set, levels 1-3: two of level 3 (Amenhotep, Strength 9; Leviathan,
#: Strength 11) would be false alarms at Maisen if it did not count as level 3.
SIX = ["ghoul", "lost_relic", "stone_colossus", "amenhotep", "leviathan", "fallen_star"]
MONSTERS_IN_SIX = 4
#: Strength 13: wins every battle with a 6 against the monster's 1, up to Strength 18.
STRONG = ["sword_saint", "black_angel"]


def _table(
    a: dict[str, Any],
    dice: list[int],
    decks: dict[str, list[str]] | None = None,
    sets: tuple[str, ...] = (BGE,),
) -> Table:
    """A (its setup ``a``) and B (a Seer, outside every Region) at the Exploration phase, with
    Beyond Good and Evil alone (or ``sets``)."""
    setup = {
        "regions": [{"card": MAISEN}, {"card": EDEN}],
        "players": {"A": {"hand": [], **a}, "B": {"party": ["seer"], "region": None}},
        "decks": decks or {},
        "phase": "exploration",
    }
    data = {"players": ["A", "B"], "seed": 1, "options": {"sets": list(sets)}, "setup": setup}
    return Table(build_game(parse({**data, "dice": dice})))


def _payloads_ok(t: Table) -> None:
    bad = [f"{e.kind}: {payload_errors(e)}" for e in t.events if payload_errors(e)]
    assert not bad, bad


def _turn_lost(t: Table) -> bool:
    """A's turn ended early (B7/E3): the engine said so (the game may have gone on since)."""
    return any(e.kind == "turn_over" and e.data["player"] == "A" for e in t.events)


def _attempt(t: Table, mission: str) -> None:
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", f"mission {mission}")


# ------------------------------------------------------- The Long Night: 6 Encounters in a row


def _night(dice_after_explore: list[int]) -> Table:
    a = {"party": STRONG, "region": MAISEN, "missions": [NIGHT]}
    return _table(a, [1, *dice_after_explore], {"encounter": list(SIX)})


def test_F1_six_encounters_in_a_row_complete_the_long_night() -> None:
    t = _night([6, 1] * MONSTERS_IN_SIX)
    _attempt(t, NIGHT)
    seen = {"amenhotep": False}

    # While the Encounters last, Maisen counts as level 3 (and Amenhotep is no false alarm).
    while t.p("A").started == [NIGHT] and t.g.pending():
        meeting = [f.card for f in t.s.stack if f.kind == "encounter"]
        if meeting:
            assert region_level(t.g, MAISEN) == 3
            seen["amenhotep"] |= meeting == ["amenhotep"]
        prompt = t.g.pending()[0]
        t.do(prompt.player, prompt.default)
    assert seen["amenhotep"]
    assert NIGHT in t.p("A").completed
    met = [e.data["card"] for e in t.events if e.kind == "encounter"]
    assert met == SIX  # one after another, in the order drawn (E4)
    assert not [e for e in t.events if e.kind == "false_alarm"]
    assert t.p("A").region == MAISEN  # it came through: it stays
    assert region_level(t.g, MAISEN) == 2  # over: Maisen is level 2 again
    assert any("6 Encounters in a row" in text for text in t.texts("explore_result"))
    _payloads_ok(t)


def test_M8_the_long_night_makes_level_3_encounters_happen_in_a_level_1_or_2_region() -> None:
    t = _night([6, 1] * MONSTERS_IN_SIX)
    assert region_level(t.g, MAISEN) == 2
    _attempt(t, NIGHT)
    t.pass_windows()
    assert "amenhotep" in [e.data["card"] for e in t.events if e.kind == "encounter"]
    # Exploring Maisen (no mission) would discard Amenhotep as a false alarm.
    plain = _table({"party": STRONG, "region": MAISEN}, [2], {"encounter": ["amenhotep"]})
    plain.do("A", "explore")
    plain.pass_windows()
    assert [e.data["card"] for e in plain.events if e.kind == "false_alarm"] == ["amenhotep"]


def test_E3_a_monster_of_the_long_night_that_wins_drives_the_party_out() -> None:
    # A lone Samurai (Strength 5) beats the Ghoul (5 + 6 vs 2 + 1), draws the Lost Relic,
    # then loses to the Stone Colossus by 1 (5 + 4 vs 7 + 3): no death (B3).
    a = {"party": ["samurai"], "region": MAISEN, "missions": [NIGHT]}
    t = _table(a, [1, 6, 1, 4, 3], {"encounter": list(SIX)})
    _attempt(t, NIGHT)
    t.pass_windows()
    a = t.p("A")
    assert NIGHT not in a.completed and a.started == [NIGHT]  # announced, not done (F1)
    assert a.region is None and _turn_lost(t)  # E3: driven out, no reward
    assert [e.data["card"] for e in t.events if e.kind == "encounter"] == SIX[:3]
    assert t.s.decks["encounter"][-3:] == list(reversed(SIX[3:]))  # the rest stay undrawn
    assert any("fails The Long Night" in text for text in t.texts("mission_failed"))
    assert region_level(t.g, MAISEN) == 2
    _payloads_ok(t)


def test_F1_the_long_night_is_attempted_in_any_region() -> None:
    t = _table({"party": STRONG, "region": EDEN, "missions": [NIGHT]}, [1])
    t.do("A", "explore")
    t.pass_windows()
    assert f"mission {NIGHT}" in t.choices("A")


# ------------------------------------------ Hunt the Beasts of the Apocalypse: 2 turns of fights

#: Strength 19 (none of them has a bonus against Beasts): with a 1 against the beasts' 6 it
#: ties them (19 + 1 = 14 + 6), and a tie against a monster goes to the party (B2).
MIGHTY = ["sword_saint", "black_angel", "dragon_knight"]
TIE = [1, 6]
#: Strength 13 (STRONG): 13 + 6 = 19 against 14 + 6 = 20, lost by 1 (no death, B3).
LOSS = [6, 6]


def _beasts(party: list[str], dice: list[int]) -> Table:
    return _table({"party": party, "region": EDEN, "missions": [BEASTS]}, [1, *dice])


def _beast_rolls(t: Table) -> list[list[int]]:
    """The strengths of each battle against the beasts: [party, beasts]."""
    return [
        e.data["strengths"]
        for e in t.events
        if e.kind == "battle_roll" and e.data["opponent"] == "Beasts of the Apocalypse"
    ]


def _to_next_exploration_step(t: Table, dice: list[int]) -> None:
    """A stays at the Ruins of Eden (X1) into the next turn; the dice are rigged once every
    other player's step of the turn is over, for the battle that opens A's Exploration step."""
    t.until("A", "movement")
    t.do("A", f"go {EDEN}")
    t.pass_windows()
    for _ in range(200):
        if t.s.phase == "exploration":
            break
        prompt = t.g.pending()[0]
        t.do(prompt.player, prompt.default)
    t.s.rigged[:] = dice
    t.refresh()


def test_F2_hunt_the_beasts_is_won_by_beating_them_on_two_turns() -> None:
    t = _beasts(MIGHTY, TIE)
    _attempt(t, BEASTS)
    t.pass_windows()
    a = t.p("A")
    assert a.started == [BEASTS] and a.resisting == {BEASTS: 1}
    assert _beast_rolls(t) == [[19, 14]]  # B5: the card's Strength, level 14
    _to_next_exploration_step(t, TIE)
    t.pass_windows()
    assert _beast_rolls(t) == [[19, 14], [19, 14]]  # F2: they fight it again, on turn 2
    assert BEASTS in a.completed and a.resisting == {}
    assert t.texts("resist")[-1].endswith("(2/2).")
    assert a.region == EDEN and t.prompt("A").kind == "exploration"  # then it may explore
    _payloads_ok(t)


def test_F2_beaten_by_the_beasts_on_turn_2_the_party_is_driven_out_and_starts_over() -> None:
    t = _beasts(MIGHTY, TIE)
    _attempt(t, BEASTS)
    t.pass_windows()
    assert t.p("A").resisting == {BEASTS: 1}
    del t.p("A").party[2]  # the Dragon Knight falls out of the story: Strength 13
    _to_next_exploration_step(t, LOSS)
    t.pass_windows()
    a = t.p("A")
    assert _beast_rolls(t)[-1] == [13, 14]
    assert BEASTS not in a.completed and a.resisting == {} and a.region is None
    assert _turn_lost(t)  # driven out before its Exploration step: no exploring this turn
    assert not [e for e in t.events if e.kind == "explore_roll" and e.data["player"] == "A"][1:]
    assert BEASTS in a.started and t.texts("expelled")
    _payloads_ok(t)


def test_F2_a_first_defeat_by_the_beasts_drives_the_party_out_before_it_holds() -> None:
    t = _beasts(STRONG, LOSS)
    _attempt(t, BEASTS)
    t.pass_windows()
    a = t.p("A")
    assert a.resisting == {} and a.region is None and _turn_lost(t)
    assert a.started == [BEASTS]  # announced (F1); it starts over at the next attempt
    assert any("fails Hunt the Beasts" in text for text in t.texts("mission_failed"))


def test_F2_a_battle_with_the_beasts_called_off_counts_as_a_turn_held() -> None:
    """Truce (base set: "any battle ... is called off") keeps a weak party from the beasts."""
    a = {"party": STRONG, "region": EDEN, "missions": [BEASTS], "hand": ["truce"]}
    t = _table(a, [1], sets=("shadow_of_omega", BGE))
    _attempt(t, BEASTS)
    for _ in range(10):
        if "play truce" in t.choices("A"):
            break
        prompt = t.g.pending()[0]
        t.do(prompt.player, "pass")
    t.do("A", "play truce")
    t.pass_windows()
    holder = t.p("A")
    assert _beast_rolls(t) == [] and holder.resisting == {BEASTS: 1} and holder.region == EDEN
    assert t.texts("resist")[-1].endswith("(1/2).")


def test_F2_hunt_the_beasts_is_not_attempted_again_while_it_is_under_way() -> None:
    t = _beasts(MIGHTY, TIE)
    _attempt(t, BEASTS)
    t.pass_windows()
    assert t.p("A").resisting == {BEASTS: 1}
    assert BEASTS not in attemptable_missions(t.g, t.p("A"), EDEN)


# ------------------------------------------------------------------------- the card data


@pytest.mark.parametrize(
    ("objective", "problem"),
    [
        ({"kind": "encounters", "region": None}, "objective.encounters: missing field"),
        (
            {"kind": "fight", "region": None, "encounters": 3},
            "'encounters' and 'region_counts_as' belong to an encounters objective",
        ),
        ({"kind": "resist", "region": None}, "objective.turns: missing field"),
        (
            {"kind": "resist", "region": None, "turns": 2, "opponent": "Wolves"},
            "objective.strength: a resist objective with enemies gives their Strength",
        ),
    ],
)
def test_F1_objective_kinds_check_their_fields(objective: dict[str, Any], problem: str) -> None:
    card = {
        "id": "quest",
        "name": "Quest",
        "type": "mission",
        "set": "shadow_of_omega",
        "source": "stand-in",
        "text": "A test mission.",
        "level": 2,
        "objective": objective,
        "reward": [{"op": "draw", "count": 1}],
    }
    with pytest.raises(CardDataError) as err:
        parse_cards([card])
    assert any(problem in line for line in err.value.problems), err.value.problems
