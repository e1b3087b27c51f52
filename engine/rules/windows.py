"""Reaction windows (T4, B4, F7): Interrupt and Battle cards played out of turn.

A window opens at a fixed rules point (a declared move, the start of a battle, a revealed
Encounter, an exploration roll) for *every* player still in the game, whatever they hold, so
that whether a window opens never reveals a hand; during the Crisis, for the player whose
attempt it is alone (F7). Each player passes or plays; a play resolves
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


def _asked(g: Game, frame: Frame) -> list[str]:
    """Who the window asks: every player, whatever he holds (T4); during the Crisis only the
    player whose attempt it is. F7 bars interrupting *another* player then, not playing one's
    own cards in one's own attempt (a Battle card in one's own fight against the Crisis)."""
    if g.s.phase == "crisis":
        return [frame.player] if frame.player is not None else []
    return g.s.seats


@handles("window")
def run_window(g: Game, frame: Frame) -> None:
    players, passed = g.s.players, frame.data["passed"]
    waiting = [n for n in _asked(g, frame) if not players[n].lost and n not in passed]
    if not waiting:
        g.pop(cancelled=bool(frame.data.get("cancelled")))
        return
    text = WINDOW_TEXT[frame.data["when"]].format(who=frame.player)
    for name in waiting:
        choices = ["pass", *window_plays(g, name, frame)]
        data = {"variant": frame.data["when"], "player": frame.player}
        g.ask(name, "window", text, choices, "pass", window=True, data=data)


@responds("window")
def answer_window(g: Game, frame: Frame, player: str, action: Action) -> None:
    if action.type == "pass":
        frame.data["passed"].append(player)
        if not g.s.prompts:
            # The last of those asked passed, so everybody the window asks has: it closes
            # now, as run_window would on its next step (most windows close so, and this
            # spares that step).
            g.pop(cancelled=bool(frame.data.get("cancelled")))
        return
    # A play: everybody may answer it, so the window re-opens for all after it resolves.
    g.s.prompts = [p for p in g.s.prompts if not p.window]
    frame.data["passed"] = []
    play_window_action(g, player, action, frame)
