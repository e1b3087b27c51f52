"""Reaction windows (T4, B4, F7): Interrupt and Battle cards played out of turn.

A window opens at a fixed rules point (a declared move, the start of a battle, a revealed
Encounter, an exploration roll) for *every* player still in the game, whatever they hold, so
that whether a window opens never reveals a hand. Each player passes or plays; a play resolves
and everybody may answer again; the window closes when all have passed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.flow import handles, responds
from engine.rules.play import play_window_action, window_plays
from engine.state import Frame

if TYPE_CHECKING:
    from engine.game import Game

WINDOW_TEXT = {
    "move_declared": "{who} declared a move. Play an Interrupt card, or pass.",
    "battle_start": "A battle starts ({who}). Play a Battle or Interrupt card, or pass.",
    "encounter_revealed": "{who} meets an Encounter. Play an Interrupt card, or pass.",
    "exploration_roll": "{who} rolled to explore. Play an Interrupt card, or pass.",
}


def open_window(g: Game, when: str, player: str, other: str | None = None) -> None:
    """Push a reaction window about ``player``'s action (``other``: his battle opponent)."""
    g.push("window", player=player, other=other, data={"when": when, "passed": []})


@handles("window")
def run_window(g: Game, frame: Frame) -> None:
    # F7: nobody may interrupt during the Crisis.
    if g.s.phase == "crisis":
        g.pop(cancelled=False)
        return
    players, passed = g.s.players, frame.data["passed"]
    waiting = [n for n in g.s.seats if not players[n].lost and n not in passed]
    if not waiting:
        g.pop(cancelled=bool(frame.data.get("cancelled")))
        return
    text = WINDOW_TEXT[frame.data["when"]].format(who=frame.player)
    for name in waiting:
        g.ask(name, "window", text, ["pass", *window_plays(g, name, frame)], "pass", window=True)


@responds("window")
def answer_window(g: Game, frame: Frame, player: str, action: Action) -> None:
    if action.type == "pass":
        frame.data["passed"].append(player)
        if not g.s.prompts:
            # The last of those asked passed, so everybody still in the game has: the window
            # closes now, as run_window would on its next step (most windows close so, and
            # this spares that step; it cannot be the Crisis, whose windows ask nobody).
            g.pop(cancelled=bool(frame.data.get("cancelled")))
        return
    # A play: everybody may answer it, so the window re-opens for all after it resolves.
    g.s.prompts = [p for p in g.s.prompts if not p.window]
    frame.data["passed"] = []
    play_window_action(g, player, action, frame)
