"""The normal AI's movement and exploration values: what a Region, a reward, a mission and
each movement choice are worth to the seat, the risks on the way deducted (M1-M8, E2, E3).

Each function reads one decision through the seat's :class:`~engine.agents.normal_seat.Seat`;
:mod:`engine.agents.normal` picks the best of them.
"""

from __future__ import annotations

from engine.agents.normal_seat import Seat
from engine.agents.normal_values import (
    DEATH_COST,
    FINAL_VALUE,
    FIRST_MISSION_VALUE,
    HIRE_VALUE,
    LOSS_COST,
    OTHER_MISSION_VALUE,
    SPECIAL_VALUE,
    effects_value,
    p_beat_monster,
    p_beat_party,
    p_check,
    p_lose_by_five,
)
from engine.cards import FinalMissionCard, MissionCard, RegionCard

#: Movement choices (the others are plays and abilities).
MOVES = frozenset({"go", "explore_new", "rest"})


def mission_value(me: Seat, card_id: str) -> float:
    """The expected worth of attempting mission ``card_id`` now, its risk deducted."""
    card = me.db.by_id.get(card_id)
    odds = me.objective_odds(card_id)
    if isinstance(card, FinalMissionCard):
        worth = FINAL_VALUE
    elif not me.me.completed:
        worth = FIRST_MISSION_VALUE
    else:
        worth = OTHER_MISSION_VALUE
        if isinstance(card, MissionCard):
            worth += max(0.0, effects_value(card.reward))
    objective = me.objective(card_id)
    cost = 0.0
    if objective is not None and objective.kind == "fight":
        theirs = objective.strength if objective.strength is not None else 3
        mine = me.strength + me.battle_bonus()
        cost = p_lose_by_five(mine, theirs) * DEATH_COST.get(me.size, 4.0)
    if objective is not None and objective.kind == "deliver":
        cost = 0.6 * (objective.advantages or 1)
    return odds * worth - cost


def hire_value(me: Seat) -> float:
    """What a hire is worth to a party of this size."""
    return HIRE_VALUE.get(me.size, 0.0)


def reward_value(me: Seat, region: RegionCard, index: int) -> float:
    """What reward ``index`` of ``region`` is worth to this seat now."""
    reward = region.rewards[index]
    room = 5 - len(me.view.hand)
    if reward.kind == "advantage":
        return 1.1 * min(room, me.level(region.id))
    if reward.kind == "hire":
        return hire_value(me) if me.size < 4 else 0.0
    if reward.kind == "remote_mission":
        return max((mission_value(me, m) for m in remote_candidates(me)), default=0.0)
    if reward.kind == "discredit":
        return 0.5
    value = effects_value(reward.effects)
    if any(op.op == "kill" for op in reward.effects) and me.size <= 2:
        return -10.0  # never trade a needed character (the only one, above all)
    if any(op.op == "lose_next_turn" for op in reward.effects):
        value -= 1.0
    return max(value, 0.0) + (SPECIAL_VALUE if value > 0 else 0.0)


def remote_candidates(me: Seat) -> list[str]:
    """The missions a remote-mission reward could attempt (their Regions are on the table)."""
    return [m for m in me.my_missions() if me.mission_region(m) in me.on_table]


def attemptable_here(me: Seat, region: str) -> list[str]:
    """Missions this seat could attempt at ``region`` (and the Final mission)."""
    found = []
    level = me.level(region)
    candidates = me.my_missions()
    if me.final_eligible() and me.table.final_mission:
        candidates.append(me.table.final_mission)
    for m in candidates:
        objective = me.objective(m)
        if objective is None:
            continue
        if objective.region is not None and objective.region != region:
            continue
        if objective.region_level is not None and level < objective.region_level:
            continue
        if objective.kind == "resist" and any(m == name for name, _ in me.view.resisting):
            continue
        found.append(m)
    return found


def best_reward_value(me: Seat, region: RegionCard) -> float:
    """The best that exploring ``region`` may bring: a reward or a mission attempted there."""
    best = max(reward_value(me, region, i) for i in range(len(region.rewards)))
    for m in attemptable_here(me, region.id):
        best = max(best, mission_value(me, m))
    return best


def reward_choice_value(me: Seat, region: RegionCard, action: str) -> float:
    """What a choice of the reward prompt at ``region`` is worth."""
    kind, _, arg = action.partition(" ")
    if kind == "reward" and arg.isdigit():
        return reward_value(me, region, int(arg))
    if kind == "mission":
        return mission_value(me, arg)
    if kind == "hire_arcane":
        return hire_value(me) + 1.0 - me.card_worth(arg) * 0.5
    return 0.0


def region_interest(me: Seat, region: str) -> float:
    """How much this seat cares that ``region`` stays on the table."""
    card = me.region_card(region)
    if card is None:
        return 0.0
    value = me.level(region) * 0.5
    for m in attemptable_here(me, region):
        value += 5 + max(0.0, mission_value(me, m))
    if me.seat in (me.on_table[region].parties if region in me.on_table else ()):
        value += 1
    return value


def move_score(me: Seat, action: str) -> float:
    """What a movement choice is worth (M1): the reward waiting at the destination times
    the odds of getting there and exploring it, less the risks."""
    kind, _, arg = action.partition(" ")
    if kind == "rest":
        # M6: +2/+2 next turn; staying keeps a Resistance going (F2).
        # A rest is no stay for a Resistance (X1: no Exploration step, so no turn held,
        # F2): "go" to the Region it stands in is.
        value = 0.8 + (1.0 if me.size <= 1 else 0.0)
        return value + crisis_rest_gain(me)
    if kind == "explore_new":
        return explore_new_score(me, arg or None)
    region = me.region_card(arg)
    if region is None:
        return 0.0
    if arg == me.me.region and me.resisting_here():
        return 20.5  # hold the Region, the Resistance goes on (F2)
    through, death = me.arrival(arg)
    explore = me.p_explore_ok(region) * (1 - attack_risk(me, region))
    value = best_reward_value(me, region)
    risk = (1 - through) * LOSS_COST + death
    risk += through * ((1 - explore) * 0.5 * LOSS_COST + me.death_risk(region) * 0.5)
    # Moving costs nothing but a small preference to stay where a hire is not possible.
    return through * explore * value - risk


def attack_risk(me: Seat, region: RegionCard) -> float:
    """The chance a party standing in ``region`` attacks this one there and wins (I2,
    I4: the loser leaves the Region without exploring): the strongest rival that may."""
    r = me.on_table.get(region.id)
    if r is None or not region.fighting:
        return 0.0
    worst = 0.0
    for seat in r.parties:
        if seat == me.seat:
            continue
        other = me.party(seat)
        if abs(len(other.characters) - me.size) > 1:
            continue  # I2: character counts too far apart to attack
        odds = p_beat_party(other.strength or 0, me.strength)
        if odds >= 0.6:
            worst = max(worst, odds)
    return worst


def crisis_rest_gain(me: Seat) -> float:
    """F5, F6: when the Crisis! comes at the end of next turn, a rest now (+2 Strength,
    +2 Speed next turn, M6) raises the odds of this party's attempt at its challenge."""
    final = me.table.final_mission
    if me.table.crisis != 2 or final is None or not me.me.completed:
        return 0.0
    card = me.db.by_id.get(final)
    if not isinstance(card, FinalMissionCard):
        return 0.0
    challenge = card.crisis.challenge
    if challenge.kind == "fight":
        theirs = challenge.strength if challenge.strength is not None else card.level
        gain = p_beat_monster(me.strength + 2, theirs) - p_beat_monster(me.strength, theirs)
    elif challenge.kind == "speed_check":
        need = challenge.difficulty or 0
        gain = p_check(me.speed + 2, need) - p_check(me.speed, need)
    else:
        return 0.0
    # Others may succeed first: half the game's worth is a fair weight.
    return gain * FINAL_VALUE * 0.5


def explore_new_score(me: Seat, region_id: str | None) -> float:
    """M4: a new Region (from the deck, unknown, or a known one from the discard pile),
    met through a face-up Encounter of unknown level."""
    if region_id is not None:
        region = me.region_card(region_id)
        if region is None:
            return 0.0
        lose, death = me.monster_loss(region.level)
        return (1 - lose) * me.p_explore_ok(region) * best_reward_value(
            me, region
        ) - lose * LOSS_COST
    lose, death = me.monster_loss(2)
    wanted = sum(1 for m in me.my_missions() if _elsewhere(me, m))
    final = me.table.final_mission
    if final and me.final_eligible() and _elsewhere(me, final):
        wanted += 2  # the Final mission's Quest counts double
    decks = dict(me.table.decks)
    left = max(1, decks.get("region", 0))
    if decks.get("region", 0) == 0:
        return -5.0
    hope = min(1.0, wanted / left) * FIRST_MISSION_VALUE * 0.5
    base = 0.7 * (2.5 + (hire_value(me) if me.size < 4 else 0) * 0.5)
    return (1 - lose) * (base + hope) - lose * LOSS_COST - death * 3


def _elsewhere(me: Seat, card_id: str) -> bool:
    """Mission ``card_id`` is attempted in a Region not on the table (a new one may be it)."""
    region = me.mission_region(card_id)
    return bool(region) and region not in me.on_table
