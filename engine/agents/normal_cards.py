"""The normal AI's cards that need a plan (issue 20): where to fly, whom to lead astray, where
to lay a Trap, when a roll is worth cancelling.

:mod:`engine.agents.normal` values most cards by their effects alone (a Strength bonus in a
battle in doubt, a draw). The cards here are worth something only in a situation: a Speed
bonus before a Speed check, a look at a face-down Preliminary Encounter before a move, a
flight to a Region the Tree of Regions does not reach, a theft from a party in the same
Region, a Trap where rivals are going, an Interrupt against a rival's move towards its
mission. Each function reads one decision through the seat's
:class:`~engine.agents.normal_seat.Seat` (the view and the open prompt only) and returns a
choice, or None when the card is not worth its place in hand now. Without them, twelve base
Advantages never took effect in games between normal seats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.agents import normal_moves
from engine.agents.normal_moves import MOVES
from engine.agents.normal_seat import arg
from engine.agents.normal_values import (
    LOSS_COST,
    p_check,
)
from engine.cards import AdvantageCard, CharacterCard, FinalMissionCard
from engine.cards import effects as fx

if TYPE_CHECKING:
    from engine.agents.normal_seat import Seat
    from engine.views import RegionView

#: What playing a card costs: the card itself (an Advantage in hand is worth about one).
SPENT = 0.8
#: ... when the hand is full (R4: a full hand wastes the next Advantage reward).
SPENT_FULL_HAND = 0.3
#: The Speed-bonus cards that play best before a check are worth this much more than their cost.
MARGIN = 0.2
#: The hand limit (R4).
HAND_LIMIT = 5

#: Operations that move the user's party as its movement (Zeppelin Voyage, Pilgrimage...).
_FLY = "chosen_active"


def spent(me: Seat) -> float:
    """What spending a card from hand costs now."""
    return SPENT_FULL_HAND if len(me.view.hand) >= HAND_LIMIT else SPENT


def card_ops(me: Seat, card_id: str, timing: str = "play") -> list[fx.Operation]:
    card = me.db.by_id.get(card_id)
    if card is None:
        return []
    return [op for a in card.abilities if a.timing == timing for op in a.effects]


# ---------------------------------------------------------------------- threats


def is_threat(me: Seat, seat: str) -> bool:
    """A rival at least as far on as this seat, with a completed mission."""
    if seat == me.seat or seat not in me.table.seats:
        return False
    other = me.party(seat)
    return len(other.completed) >= max(1, len(me.me.completed))


def mission_regions_of(me: Seat, seat: str) -> set[str]:
    """Where ``seat`` is known to want to go: its announced missions' Regions, and the
    Final mission's Quest once it may attempt it (public knowledge only)."""
    other = me.party(seat)
    found: set[str] = set()
    for mission in other.started:
        region = me.mission_region(mission)
        if region is not None:
            found.add(region)
    final = me.table.final_mission
    if final is not None and other.completed:
        region = me.mission_region(final)
        if region is not None:
            found.add(region)
    return found


# ---------------------------------------------------------------------- Speed checks


def speed_gain(me: Seat, regions: set[str], amount: int) -> float:
    """What ``amount`` more Speed this turn is worth: the better odds of the Speed checks
    this party may meet in ``regions`` (its missions', the Final mission's, the exploration
    table's) and of the Crisis! challenge when it comes at the end of this turn (F5, F6)."""
    checks: list[tuple[int, float]] = []
    for region in regions:
        for mission in normal_moves.attemptable_here(me, region):
            objective = me.objective(mission)
            if objective is not None and objective.kind == "speed_check":
                checks.append(
                    (objective.difficulty or 0, max(0.0, normal_moves.mission_value(me, mission)))
                )
        card = me.region_card(region)
        if card is not None:
            for face in card.exploration:
                for op in face.effects:
                    if isinstance(op, fx.Roll) and op.check == "speed":
                        checks.append((op.at_least, 0.4))  # one face in six: a lost turn
    final = me.db.by_id.get(me.table.final_mission or "")
    if me.table.crisis == 1 and me.me.completed and isinstance(final, FinalMissionCard):
        challenge = final.crisis.challenge
        if challenge.kind == "speed_check":
            checks.append((challenge.difficulty or 0, 20.0))
    return sum(
        (p_check(me.speed + amount, d) - p_check(me.speed, d)) * worth for d, worth in checks
    )


def _speed_bonus(ops: list[fx.Operation]) -> tuple[int, int]:
    """(Speed, Strength) this turn from a card's own operations."""
    speed = strength = 0
    for op in ops:
        if isinstance(op, fx.Modify) and op.target == "self" and op.duration == "turn":
            if op.stat == "speed":
                speed += op.amount
            else:
                strength += op.amount
    return speed, strength


def best_move(me: Seat, actions: list[str]) -> tuple[str | None, float]:
    """The movement the heuristic would choose now, and its score (kept for the decision:
    every card of the step asks for it)."""
    known = me._best_move
    if known is not None:
        return known
    scores = {a: normal_moves.move_score(me, a) for a in actions if a.split(" ")[0] in MOVES}
    if not scores:
        return None, 0.0
    best = max(scores, key=lambda a: (scores[a], -actions.index(a)))
    me._best_move = (best, scores[best])
    return best, scores[best]


# ---------------------------------------------------------------------- own steps


def planned_play(me: Seat, actions: list[str], phase: str) -> str | None:
    """A card of the step whose worth depends on the situation, if one is worth playing."""
    plays = [a for a in actions if a.startswith("play ")]
    if not plays:
        return None
    best, value = None, 0.0
    move: tuple[str | None, float] | None = None
    for action in plays:
        card_id = arg(action)
        card = me.db.by_id.get(card_id)
        if not isinstance(card, AdvantageCard):
            continue
        ops = card_ops(me, card_id)
        kinds = {op.op for op in ops}
        v: float | None = None
        if card.kind == "trap":
            v = trap_value(me)
        elif card.kind == "incident" and any(
            op.op == "take_discarded" for op in card_ops(me, card_id, "movement_end")
        ):
            v = _discard_top_value(me)  # Carnival: the top card at the end of the movement
        elif "move" in kinds and phase == "movement":
            if move is None:
                move = best_move(me, actions)
            v = _move_card_value(me, ops, actions, move)
        elif "reveal" in kinds and phase == "movement":
            looks = sum(1 for op in ops if op.op == "reveal")
            v = _scout_value(me, actions, looks) + sum(1.0 for op in ops if isinstance(op, fx.Draw))
        elif "steal" in kinds:
            v = 1.6 if _rivals_here(me, with_cards=True) and len(me.view.hand) < 5 else None
        elif "discard" in kinds and any(
            isinstance(op, fx.Discard) and op.target == "chosen_player" for op in ops
        ):
            v = 1.2 if any(me.party(s).hand_count for s in _others(me)) else None
        elif "discard_faction" in kinds:
            v = 1.5 if _faction_holders(me) else None
        elif "take_discarded" in kinds:
            v = _discard_top_value(me)
        elif "untap" in kinds:
            v = _untap_value(me)
        elif "tap" in kinds:
            v = 0.9 if _others(me) and len(me.view.hand) >= 4 else None
        elif any(isinstance(op, fx.Roll) for op in ops) and "chosen_player_in_region" in str(ops):
            v = 1.2 if _rivals_here(me) else None
        elif "modify_region" in kinds and phase == "exploration":
            v = _explore_gain(me, level_delta=-1)
        elif isinstance(card, AdvantageCard) and card.kind in ("plot", "skill", "incident"):
            speed, strength = _speed_bonus(ops)
            if speed > 0:
                regions = _speed_regions(me, actions, phase)
                v = speed_gain(me, regions, speed) + 0.5 * strength
            elif strength > 0 and phase == "exploration":
                gain = _explore_gain(me, strength_delta=strength)
                later = sum(
                    1 for op in ops if isinstance(op, fx.Modify) and op.duration == "next_turn"
                )
                v = None if gain is None else gain - 0.5 * later
            elif any(isinstance(op, fx.Modify) and op.target == "each_other_player" for op in ops):
                v = 0.6 if len(me.view.hand) >= HAND_LIMIT or _rivals_here(me) else None
            elif any(isinstance(op, fx.Discard) and op.target == "self" for op in ops):
                v = _sacrifice_value(me, card_id)
        if v is None:
            continue
        v -= spent(me)
        if v > value + MARGIN and v > 0:
            best, value = action, v
    return best


def _others(me: Seat) -> list[str]:
    return [s for s in me.table.seats if s != me.seat and not me.party(s).lost]


def _rivals_here(me: Seat, with_cards: bool = False) -> list[str]:
    here = me.on_table.get(me.me.region or "")
    if here is None:
        return []
    return [
        s for s in here.parties if s != me.seat and (not with_cards or me.party(s).hand_count > 0)
    ]


def _faction_holders(me: Seat) -> list[str]:
    found = []
    for seat in _others(me):
        for card_id in me.party(seat).in_play:
            card = me.db.by_id.get(card_id)
            if isinstance(card, AdvantageCard) and card.kind == "faction":
                found.append(seat)
    return found


def _discard_top(me: Seat) -> str | None:
    for deck, pile in me.table.discards:
        if deck == "advantage" and pile:
            return pile[-1]
    return None


def _discard_top_value(me: Seat) -> float | None:
    top = _discard_top(me)
    if top is None or len(me.view.hand) >= HAND_LIMIT:
        return None
    return me.card_worth(top)


def _untap_value(me: Seat) -> float | None:
    tapped = [c for c in me.me.characters if c.tapped and not c.incapacitated]
    if not tapped:
        return None
    skills: set[str] = set()
    for c in tapped:
        card = me.db.by_id.get(c.card)
        if isinstance(card, CharacterCard):
            skills.update(card.skills)
            if card.abilities:
                skills.add("ability")
    usable = [
        h
        for h in me.view.hand
        if isinstance(me.db.by_id.get(h), AdvantageCard)
        and getattr(me.db.by_id[h], "skill", None) in skills
    ]
    return 0.5 * len(tapped) + (0.8 if usable or "ability" in skills else 0.0)


def _sacrifice_value(me: Seat, card_id: str) -> float | None:
    rest = [h for h in me.view.hand if h != card_id]
    if not rest:
        return None
    worst = min(me.card_worth(h) for h in rest)
    # One card (the worst) and this one become two unknown ones.
    return 2 * 1.4 - worst


def _speed_regions(me: Seat, actions: list[str], phase: str) -> set[str]:
    """Where a Speed bonus played now may count this turn."""
    here = {me.me.region} if me.me.region else set()
    if phase == "exploration":
        return here
    if phase == "movement":
        move, _ = best_move(me, actions)
        if move is not None and move.startswith("go "):
            return {arg(move)}
        return here
    return set(me.on_table)  # reset/interaction: the move is still to come


def _move_card_value(
    me: Seat, ops: list[fx.Operation], actions: list[str], move: tuple[str | None, float]
) -> float | None:
    """A card played as the movement: a flight to any active Region, or a new Region."""
    best, _ = move
    draws = sum(op.count for op in ops if isinstance(op, fx.Draw) and op.target == "self")
    targets = {getattr(op, "to", None) for op in ops if op.op == "move"}
    if _FLY in targets:
        # M1 lets a party go to any active Region: a flight is the same move, and worth its
        # card only to make room in a hand the move's reward would find full.
        if best is None or not best.startswith("go ") or arg(best) == me.me.region:
            return None
        worst = min(me.card_worth(h) for h in me.view.hand)
        if len(me.view.hand) < HAND_LIMIT - 1:
            return None
        return draws + spent(me) + 0.3 - max(0.0, worst - 1.0)
    if "explore_new" in targets and best is not None and best.startswith("explore_new"):
        # The same move, with a card drawn (or room made in a full hand for the reward).
        return draws * 1.0 + (0.7 if len(me.view.hand) >= HAND_LIMIT else 0.0)
    return None


def _scout_value(me: Seat, actions: list[str], looks: int) -> float:
    """A look at face-down Preliminary Encounters of Regions this party may enter."""
    hidden = [r for r in fly_or_go_targets(me, actions) if _face_down(me.on_table.get(r))]
    if not hidden:
        return -10.0
    return 0.6 * min(looks, len(hidden)) + 0.3


def _face_down(region: RegionView | None) -> bool:
    return region is not None and region.preliminary_state == "face_down"


def fly_or_go_targets(me: Seat, actions: list[str]) -> list[str]:
    return [arg(a) for a in actions if a.startswith("go ")]


def _explore_ev(me: Seat) -> float:
    region = me.region_card()
    if region is None:
        return 0.0
    ok = me.p_explore_ok(region)
    value = normal_moves.best_reward_value(me, region)
    return max(0.0, ok * value - (1 - ok) * LOSS_COST - me.death_risk(region))


def _explore_gain(me: Seat, strength_delta: int = 0, level_delta: int = 0) -> float | None:
    """How much better this turn's exploration looks with the party's Strength or the
    Region's level changed (Blood Oath, Hidden Path): the change is tried on the seat's
    reading, then undone."""
    region_id = me.me.region
    if region_id is None or region_id not in me.on_table:
        return None
    if "explore" not in [c for c in _prompt_actions(me)]:
        return None
    before = _explore_ev(me)
    saved = me.strength, dict(me._losses), me.on_table[region_id]
    try:
        me.strength += strength_delta
        me._losses.clear()
        if level_delta:
            view = me.on_table[region_id]
            me.on_table[region_id] = view.model_copy(
                update={"level": max(1, view.level + level_delta)}
            )
        after = _explore_ev(me)
    finally:
        me.strength, me._losses, me.on_table[region_id] = saved[0], saved[1], saved[2]
    return after - before


def _prompt_actions(me: Seat) -> list[str]:
    prompt = me.view.prompt
    return [c.action for c in prompt.choices] if prompt is not None else []


# ---------------------------------------------------------------------- Traps (A5)


def trap_scores(me: Seat) -> dict[str, float]:
    """How much a Trap laid on each active Region is likely to hurt rivals, not this seat."""
    scores: dict[str, float] = {}
    mine = {r for r in me.on_table if normal_moves.attemptable_here(me, r)}
    for region, view in me.on_table.items():
        score = 0.3 * view.level
        # M9: a Trap is revealed on a Region holding a party after the moves: rivals
        # standing there may stay.
        score += 0.8 * sum(1 for s in view.parties if s != me.seat)
        for seat in _others(me):
            if region in mission_regions_of(me, seat):
                score += 2.0 + (1.0 if is_threat(me, seat) else 0.0)
        if region in mine or region == me.me.region:
            score -= 5.0
        score -= view.traps * 0.5
        scores[region] = score
    return scores


def trap_value(me: Seat) -> float | None:
    scores = trap_scores(me)
    if not scores:
        return None
    best = max(scores.values())
    if best >= 2.0:
        return 1.0 + 0.2 * best
    if best > 0 and len(me.view.hand) >= 4:
        return 1.0
    return None


def trap_region(me: Seat, actions: list[str]) -> str:
    scores = trap_scores(me)
    return max(actions, key=lambda a: (scores.get(arg(a), -99.0), -actions.index(a)))


# ---------------------------------------------------------------------- picks


def redirect_pick(me: Seat, actions: list[str]) -> str:
    """Where to send a party led astray: somewhere it has nothing to do, dangerous to enter,
    away from this seat."""
    frame = me.stack_frame("move")
    mover = str(frame.get("player")) if frame else ""
    wanted = mission_regions_of(me, mover) if mover in me.table.seats else set()

    def badness(action: str) -> float:
        region = arg(action)
        view = me.on_table.get(region)
        score = 0.0 if view is None else 0.5 * view.level + 1.5 * (view.preliminary_state != "none")
        if region in wanted:
            score -= 10
        if region == me.me.region:
            score -= 3
        return score

    return max(actions, key=lambda a: (badness(a), -actions.index(a)))


def pick_for_card(me: Seat, actions: list[str]) -> str | None:
    """A pick asked by a card this seat plays (the top card effect under way), when the
    card's purpose decides it; None: the generic pick."""
    frame = me.stack_frame("effects")
    if frame is None or frame.get("player") != me.seat:
        return None
    card_id = str(frame.get("card"))
    ops = {op.op for a in getattr(me.db.by_id.get(card_id), "abilities", ()) for op in a.effects}
    args = [arg(a) for a in actions]
    regions = all(a in me.on_table for a in args)
    seats = all(a in me.table.seats for a in args)
    if "redirect_move" in ops and regions:
        return redirect_pick(me, actions)
    if "move" in ops and regions:
        return max(
            actions, key=lambda a: (normal_moves.move_score(me, f"go {arg(a)}"), -actions.index(a))
        )
    if "reveal" in ops and regions:
        hidden = [a for a in actions if _face_down(me.on_table.get(arg(a)))] or actions
        return max(
            hidden, key=lambda a: (normal_moves.move_score(me, f"go {arg(a)}"), -actions.index(a))
        )
    if "discard_faction" in ops and seats:
        holders = [a for a in args if a in _faction_holders(me)]
        if holders:
            return f"pick {me.leader(holders)}"
    if ("steal" in ops or "discard" in ops) and seats:
        with_cards = [a for a in args if a != me.seat and me.party(a).hand_count > 0]
        if with_cards:
            return f"pick {me.leader(with_cards)}"
    return None
