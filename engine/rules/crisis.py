"""The end of a turn and of the game: the Crisis! countdown and the Crisis itself (F5-F7)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import zones
from engine.cards import Objective
from engine.endings import Ending
from engine.flow import handles
from engine.rules.order import turn_order
from engine.rules.party import speed
from engine.state import Frame

if TYPE_CHECKING:
    from engine.game import Game


def end_of_turn(g: Game) -> None:
    """F5: the countdown goes down by one at the end of each Exploration phase."""
    if g.s.crisis is None:
        return
    g.s.crisis -= 1
    if g.s.crisis > 0:
        g.emit("crisis_countdown", f"⏳ Crisis! in {g.s.crisis} turn(s).", turns=g.s.crisis)
        return
    g.emit("crisis", "⏳ The Crisis is unleashed! Normal play stops (F6).")
    g.push("crisis")


def end_game(g: Game, winner: str | None, ending: Ending) -> None:
    """The game is over: ``winner`` (None: nobody, Omega breaks free) and how it ended."""
    zones.clear_stack(g.s)  # an Encounter still being met is discarded, not lost
    g.s.prompts.clear()
    g.s.phase = "over"
    g.s.winner = winner
    g.s.ending = ending
    if winner:
        text = f"🏆 {winner} wins the game!"
    elif ending == "turn_cap":
        text = "The game reaches its turn limit: nobody wins."
    else:
        text = "Nobody wins: Omega breaks free."
    g.emit("game_over", text, winner=winner, ending=ending)


@handles("crisis")
def run_crisis(g: Game, frame: Frame) -> None:
    """F6: players without a completed Basic mission lose; the rest face the challenge one
    at a time in Speed order, wherever they are; the first to succeed wins."""
    s = g.s
    final = g.db.final_mission(s.final_mission or "")
    if frame.stage == "":
        s.phase = "crisis"
        for name in s.seats:
            p = g.player(name)
            if not p.completed and not p.lost:
                p.lost = True
                g.emit(
                    "crisis_lost", f"{name} has no completed Basic mission and loses.", player=name
                )
        remaining = [n for n in s.seats if not g.player(n).lost]
        if len(remaining) == 1:
            end_game(g, remaining[0], "last_player")
            return
        if not remaining:
            end_game(g, None, "crisis_lost")
            return
        order = turn_order(g)  # in Speed order, ties broken by dice (T2)
        frame.stage, frame.data = "next", {"queue": order}
        g.emit("crisis_challenge", f"{final.crisis.text} Order: {', '.join(order)}.")
        return
    if frame.stage == "fought":
        if g.s.result.get("won") is True:
            end_game(g, frame.player, "crisis_won")
            return
        frame.stage = "next"
        return
    queue: list[str] = frame.data["queue"]
    if not queue:
        end_game(g, None, "crisis_lost")
        return
    name = queue.pop(0)
    frame.player = name
    challenge: Objective = final.crisis.challenge
    if challenge.kind == "fight":
        frame.stage = "fought"
        g.push(
            "battle",
            player=name,
            data={
                "name": challenge.opponent or "the Crisis",
                "strength": challenge.strength or final.level,
                "keywords": challenge.keywords,
            },
        )
        return
    die = g.die()
    bonus = speed(g, g.player(name))
    ok = die + bonus >= (challenge.difficulty or 0)
    g.emit(
        "crisis_attempt",
        f"{name}: 🎲 {die} + Speed {bonus} = {die + bonus} vs "
        f"{challenge.difficulty}: {'success' if ok else 'failure'}.",
        player=name,
    )
    if ok:
        end_game(g, name, "crisis_won")
