"""The Twilight of the Gods set in ``cards.json`` (issue 9): 110 stand-in cards of our own design.

No card of this set is known by name, so these tests pin what the rules and the issue ask of
it rather than printed facts: its composition (test_cards.py's ``COMPOSITION`` row), Arcane
characters (C7), guarded Regions by monsters and by traps, Artifacts (A7) and the other
expansion kinds, numbers in the base set's ranges, missions that stay playable when the set is
combined (S5), and card texts that say the numbers their data uses.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from test_cards import card_ops, encounters_drawn

from engine.cards import CardDB, load_cards
from engine.errors import IllegalAction
from engine.rules.sets import TWILIGHT_OF_THE_GODS, check_table
from engine.tools.simulate import play_game

SET = TWILIGHT_OF_THE_GODS


@pytest.fixture(scope="module")
def totg() -> CardDB:
    return CardDB(card for card in load_cards() if card.set == SET)


def test_every_card_is_a_stand_in_with_a_short_text(totg: CardDB) -> None:
    assert len(totg) == 110
    for card in totg:
        assert card.is_stand_in, card.id
        sentences = re.findall(r"[.!?](?:\s|$)", card.text)
        assert 1 <= len(sentences) <= 2, card.id


# ------------------------------------------------------------------------- characters (C)


def test_C2_C7_twelve_characters_and_six_arcane(totg: CardDB) -> None:
    normal = [c for c in totg.characters if not c.arcane]
    arcane = [c for c in totg.characters if c.arcane]
    assert (len(normal), len(arcane)) == (12, 6)
    assert Counter(c.gender for c in normal) == Counter({"male": 6, "female": 6})
    for card in normal:
        assert 1 <= card.strength <= 5 and 1 <= card.speed <= 5, card.id  # the base set's range
        assert card.skills, card.id
    for skill in ("ki", "magic", "trickery"):
        assert sum(skill in c.skills for c in normal) >= 4, skill
    # Arcane characters are the powerful ones (C7), but no one wins a battle alone.
    for card in arcane:
        assert card.strength + card.speed >= 8, card.id
        assert card.strength <= 6 and card.speed <= 6, card.id
        assert card.abilities, card.id
        assert card.text.startswith("Arcane"), card.id


def test_C7_events_exchange_a_character_for_an_arcane_one(totg: CardDB) -> None:
    exchanging = {e.id for e in totg.encounters for op in card_ops(e) if op.op == "exchange_arcane"}
    assert exchanging == {"spark_of_divinity", "apotheosis"}


# ------------------------------------------------------------------------- regions (M, E)


def test_region_levels_and_dangers(totg: CardDB) -> None:
    assert Counter(r.level for r in totg.regions) == Counter({1: 5, 2: 5, 3: 4})
    bounds = {1: (2, 3), 2: (4, 6), 3: (7, 9)}  # the base set's tables (docs/cards.md)
    for region in totg.regions:
        low, high = bounds[region.level]
        assert low <= encounters_drawn(region) <= high, region.id
    assert 2 <= sum(r.trade for r in totg.regions) <= 4
    assert 1 <= sum(not r.fighting for r in totg.regions) <= 2
    kinds = {reward.kind for r in totg.regions for reward in r.rewards}
    assert kinds == {"advantage", "hire", "remote_mission", "special", "discredit"}


def test_guarded_regions_by_monsters_and_by_traps(totg: CardDB) -> None:
    guards = [r for r in totg.regions if r.guard is not None]
    kinds = Counter(r.guard.kind for r in guards if r.guard is not None)
    assert kinds == Counter({"monster": 3, "trap": 3})
    monster_range = {1: (1, 4), 2: (4, 7), 3: (7, 11)}
    for region in guards:
        guard = region.guard
        assert guard is not None
        assert guard.effects and guard.reward, region.id
        assert guard.name in region.text, region.id  # the board shows what guards it
        if guard.kind == "monster":
            assert guard.strength is not None
            low, high = monster_range[region.level]
            assert low <= guard.strength <= high, region.id
            assert f"Strength {guard.strength}" in region.text, region.id
        else:
            assert guard.difficulty is not None
            check = f"{guard.check.capitalize()} check of {guard.difficulty}"
            assert check in region.text, region.id
    assert {r.level for r in guards} == {1, 2, 3}


# ------------------------------------------------------------------------- encounters (M7, M8)


@pytest.mark.parametrize(("level", "low", "high"), [(1, 1, 4), (2, 4, 7), (3, 7, 11)])
def test_B1_monster_strength_follows_its_level(
    totg: CardDB, level: int, low: int, high: int
) -> None:
    monsters = [e for e in totg.encounters if e.kind == "monster" and e.level == level]
    assert monsters
    for monster in monsters:
        assert monster.strength is not None
        assert low <= monster.strength <= high, monster.id


def test_M7_encounters_by_kind_and_level(totg: CardDB) -> None:
    assert Counter(e.kind for e in totg.encounters) == Counter({"monster": 17, "event": 13})
    assert Counter(e.level for e in totg.encounters) == Counter({1: 11, 2: 10, 3: 9})
    for card in totg.encounters:
        timings = {a.timing for a in card.abilities}
        if card.kind == "event":
            assert timings == {"on_reveal"}, card.id
        else:
            assert timings <= {"static", "on_win", "on_lose"}, card.id
    keywords = Counter(k for e in totg.encounters for k in e.keywords)
    assert keywords["divine"] >= 3  # Godsbane's foes: the fallen gods


# ------------------------------------------------------------------------- missions (F, S5)


def test_S5_missions_are_done_in_the_sets_own_regions(totg: CardDB) -> None:
    """Combined with another set, only this set's missions are used (S5): each must name a
    Region of this set, or none."""
    regions = {r.id for r in totg.regions}
    for mission in totg.missions:
        assert mission.objective.region in regions | {None}, mission.id
    for final in totg.final_missions:
        assert final.quest.region in regions, final.id
        assert totg.region(final.quest.region).level == 3, final.id


def test_F1_basic_missions(totg: CardDB) -> None:
    kinds = Counter(m.objective.kind for m in totg.missions)
    assert kinds == Counter({"fight": 3, "speed_check": 2, "resist": 1, "gather": 2, "deliver": 2})
    for mission in totg.missions:
        objective = mission.objective
        if objective.kind == "fight":
            assert f"Strength {objective.strength}" in mission.text, mission.id
        if objective.kind == "speed_check":
            assert f"Speed check of {objective.difficulty}" in mission.text, mission.id
        bonus = sum(op.amount for op in mission.reward if op.op == "modify")
        assert bonus <= 3, mission.id


def test_F5_F6_final_missions_are_winnable(totg: CardDB) -> None:
    """The Crisis stays within the base set's numbers (F5-F7), so it can be won."""
    assert len({f.quest.kind for f in totg.final_missions}) == 3
    for final in totg.final_missions:
        assert 7 <= final.crisis.limit <= 10, final.id  # a d10 (F5), as the base set's
        challenge = final.crisis.challenge
        assert challenge.region is None, final.id
        if challenge.kind == "fight":
            assert challenge.strength is not None and challenge.strength <= 17, final.id
        else:
            assert challenge.kind == "speed_check", final.id
            assert challenge.difficulty is not None and challenge.difficulty <= 18, final.id
        assert f"Crisis ({final.crisis.limit} turns)" in final.text, final.id


# ------------------------------------------------------------------------- advantages (A)


def test_A1_A7_advantage_kinds(totg: CardDB) -> None:
    kinds = Counter(a.kind for a in totg.advantages)
    assert kinds == Counter(
        {"skill": 9, "battle": 5, "interrupt": 4, "plot": 5, "artifact": 6, "incident": 2,
         "trap": 2, "faction": 2}
    )  # fmt: skip
    skills = Counter(a.skill for a in totg.advantages if a.kind == "skill")
    assert skills == Counter({"ki": 3, "magic": 3, "trickery": 3})
    windows = {a.when for c in totg.advantages if c.kind == "interrupt" for a in c.abilities}
    assert windows == {"move_declared", "battle_start", "encounter_revealed", "exploration_roll"}


def test_A7_artifacts_work_by_being_in_play(totg: CardDB) -> None:
    for card in totg.advantages:
        if card.kind in ("artifact", "faction"):
            assert card.abilities and all(a.timing == "static" for a in card.abilities), card.id
            assert card.text.startswith(card.kind.capitalize()), card.id
            for op in card_ops(card):
                assert op.op == "modify" and op.target == "self" and op.amount <= 3, card.id


def test_A6_factions_are_mutual_enemies(totg: CardDB) -> None:
    factions = {a.id: a for a in totg.advantages if a.kind == "faction"}
    for card in factions.values():
        assert card.rivals, card.id
        for rival in card.rivals:
            assert card.id in factions[rival].rivals, (card.id, rival)


def test_A4_A5_incidents_and_traps(totg: CardDB) -> None:
    for card in totg.advantages:
        timings = {a.timing for a in card.abilities}
        if card.kind == "trap":
            assert timings == {"on_reveal"}, card.id
            assert card.text.startswith("Trap:"), card.id
        if card.kind == "incident":
            assert card.text.startswith("Incident:"), card.id


def test_no_card_is_an_auto_win(totg: CardDB) -> None:
    for card in totg:
        for op in card_ops(card):
            if op.op == "modify" and op.duration != "permanent":
                assert abs(op.amount) <= 4, card.id
            if op.op == "steal":
                assert op.count == 1, card.id
        if card.type == "advantage":
            for ability in card.abilities:
                assert all(op.op != "kill" for op in ability.effects), card.id


# ------------------------------------------------------------------------- play (G1)


def test_G1_the_set_alone_seats_two_to_four(totg: CardDB) -> None:
    check_table([SET], 4, totg)
    with pytest.raises(IllegalAction, match="2 to 4 players"):
        check_table([SET], 5, totg)
    check_table(["shadow_of_omega", SET], 5)


@pytest.mark.parametrize(("seed", "sets"), [(1, [SET]), (2, ["shadow_of_omega", SET])])
def test_a_whole_game_with_the_set(totg: CardDB, seed: int, sets: list[str]) -> None:
    result = play_game(seed, 4, 60, {"sets": sets})
    assert result.error is None, result.traceback
    assert result.ending is not None
    kinds = Counter(totg[c].type for c in result.resolved if c in totg.by_id)
    assert kinds["region"] >= 3 and kinds["encounter"] >= 3 and kinds["character"] >= 4
