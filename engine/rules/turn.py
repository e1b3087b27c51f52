"""Turn structure (T1-T3): Reset, Movement, Interaction, Exploration, one phase at a time for
all players in the order fixed at the start of the Reset phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.flow import handles, responds
from engine.rules.advantages import after_movement_queue, end_incidents
from engine.rules.crisis import end_at_turn_limit, end_of_turn
from engine.rules.missions import can_reveal_final, reveal_final
from engine.rules.order import turn_order
from engine.state import Frame

if TYPE_CHECKING:
    from engine.game import Game

PHASES = ("reset", "movement", "interaction", "exploration")


def start_turn(g: Game) -> None:
    """New turn: per-turn bookkeeping, R1 (straighten, turn face up), T2/T3 (order)."""
    s = g.s
    s.turn += 1
    s.phase = "reset"
    s.explored_new = False
    s.dismissed, s.discarded_by = {}, {}
    for p in s.players.values():
        # Modifiers that lasted "this turn" or "next turn" end; battle ones never outlive a turn.
        p.modifiers = [
            m
            for m in p.modifiers
            if m.duration == "permanent" or (m.duration == "next_turn" and m.turn + 1 >= s.turn)
        ]
        p.fought, p.traded = [], []
        p.arrived = False
        p.reroll = False
        p.turn_over = p.skip_next_turn  # B7: a card may cost the next turn too
        p.skip_next_turn = False
        for c in p.party:  # R1
            c.tapped = False
            c.incapacitated = False
    for r in s.regions:
        r.level_bonus = 0  # a Region's level changed "until the end of the turn" is back
    s.order = turn_order(g)
    g.emit(
        "turn",
        f"Turn {s.turn} begins. Order: {', '.join(s.order)}.",
        turn=s.turn,
        order=list(s.order),
    )


@handles("turn")
def run_turn(g: Game, frame: Frame) -> None:
    """Drive one turn: each phase runs a step per player in turn order."""
    s = g.s
    if frame.stage == "start":
        if s.options.turn_cap and s.turn >= s.options.turn_cap:
            end_at_turn_limit(g)  # a short game: the tie-break names the winner
            return
        start_turn(g)
        frame.stage, frame.data = "reveal", {"asked": []}
        return
    if frame.stage == "reveal":
        # V1 (default): at the start of a turn, a player with a completed Basic mission may
        # reveal the Final mission; asked in Speed order, so the fastest who wants to does.
        if s.final_mission is None and s.options.final_reveal == "choose":
            for name in s.order:
                if name not in frame.data["asked"] and can_reveal_final(g, g.player(name)):
                    frame.data["asked"].append(name)
                    g.ask(
                        name,
                        "reveal_final",
                        "Reveal the Final mission now (F3)?",
                        ["reveal_final", "pass"],
                        default="pass",
                    )
                    return
        frame.stage, frame.data = "reset", {"i": 0}
        return
    if frame.stage in PHASES:
        s.phase = frame.stage  # type: ignore[assignment]
        i = frame.data["i"]
        while i < len(s.order):
            name = s.order[i]
            i += 1
            p = s.players[name]
            if p.lost or (p.turn_over and frame.stage != "reset"):
                continue
            frame.data["i"] = i
            g.push(f"{frame.stage}_step", player=name)
            return
        frame.data = {"i": 0}
        if frame.stage == "reset":
            frame.stage = "pickup"
        elif frame.stage == "movement":
            frame.stage = "after_movement"
        elif frame.stage == "exploration":
            frame.stage = "end"
        else:
            frame.stage = PHASES[PHASES.index(frame.stage) + 1]
        return
    if frame.stage == "after_movement":
        # M9: after every party has moved, Traps (and guards, Incidents) where parties stand.
        frame.stage = "interaction"
        if after_movement_queue(g):
            g.push("after_movement")
        return
    if frame.stage == "pickup":
        g.push("pickup")
        frame.stage, frame.data = "movement", {"i": 0}
        return
    if frame.stage == "end":
        frame.stage = "start"
        end_incidents(g)  # A4: until the end of the turn
        end_of_turn(g)


@responds("turn")
def answer_reveal(g: Game, frame: Frame, player: str, action: Action) -> None:
    if action.type == "reveal_final":
        reveal_final(g, g.player(player))
