"""The normal AI in reaction windows (T4): whether an Interrupt against a rival's move, a
redirect, or a cancelled exploration roll is worth its card now, and which Encounter events
are bad enough to cancel. Read through the seat's :class:`~engine.agents.normal_seat.Seat`,
like :mod:`engine.agents.normal_cards`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.agents.normal_cards import card_ops, is_threat, mission_regions_of
from engine.agents.normal_seat import arg
from engine.agents.normal_values import DEATH_COST, LOSS_COST, effects_value, p_beat_party
from engine.cards import effects as fx

if TYPE_CHECKING:
    from engine.agents.normal_seat import Seat
    from engine.cards import EncounterCard


def move_window(me: Seat, plays: list[str]) -> str:
    """Another party declared its move: lead it astray or stop it when it is a threat going
    where it wants to be (its announced mission, the Final mission's Quest) or coming to
    attack this party."""
    frame = me.stack_frame("move")
    if frame is None:
        return "pass"
    mover, dest = str(frame.get("player")), str(frame.get("region"))
    if mover == me.seat or mover not in me.table.seats:
        return "pass"
    other = me.party(mover)
    wants = dest in mission_regions_of(me, mover)
    attacks = (
        dest == me.me.region
        and abs(len(other.characters) - me.size) <= 1
        and p_beat_party(other.strength or 0, me.strength) >= 0.6
    )
    if not (wants and (is_threat(me, mover) or len(other.completed) >= 1)) and not attacks:
        return "pass"
    for action in plays:
        if any(
            op.op in ("redirect_move", "cancel") for op in card_ops(me, arg(action), "interrupt")
        ):
            return action
    return "pass"


def exploration_roll_window(me: Seat, plays: list[str], roller: str) -> str:
    """A party rolled to explore: cancel this party's own bad roll, or weaken a threatening
    rival about to face Encounters."""
    step = me.stack_frame("exploration_step")
    roll = int(step.get("data", {}).get("roll", 0)) if step else 0
    region = me.region_card(me.party(roller).region)
    if region is None or not 1 <= roll <= 6:
        return "pass"
    face = region.exploration[roll - 1]
    if face.result != "encounters":
        return "pass"
    if roller == me.seat:
        lose, death = me.monster_loss(me.level(region.id))
        fail = 1 - (1 - lose) ** face.count
        stake = fail * LOSS_COST + death * face.count * DEATH_COST.get(me.size, 4.0)
        if stake < 1.0:
            return "pass"
        for action in plays:
            if any(op.op == "cancel" for op in card_ops(me, arg(action), "interrupt")):
                return action
        return "pass"
    if not is_threat(me, roller):
        return "pass"
    for action in plays:
        ops = card_ops(me, arg(action), "interrupt")
        if any(
            isinstance(op, fx.Modify) and op.target == "declaring_party" and op.amount < 0
            for op in ops
        ):
            return action
    return "pass"


def bad_event(me: Seat, card: EncounterCard) -> bool:
    """An event Encounter this party would rather not meet (it ends the turn or costs)."""
    ops = [op for a in card.abilities for op in a.effects]
    return effects_value(ops) <= -1.5
