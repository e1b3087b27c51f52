"""A game in the terminal against AI seats: ``anima play``.

For learning the rules and trying the game without Discord. The human seats are the first
``--humans`` seats (P1, P2, ...); the others are AI players of one level
(:mod:`engine.agents.levels`). With several humans the terminal is passed around (hot seat):
each decision says whose it is.

The package, by job: :mod:`.cards` (what a card says), :mod:`.display` (the board, a
decision, the end), :mod:`.loop` (the game loop and the commands), :mod:`.command` (the
``anima play`` command line).
"""

from engine.tools.play.command import new_game, register
from engine.tools.play.display import render_board, render_end, render_prompt
from engine.tools.play.loop import COMMANDS, Quit, TerminalGame, visible_to

__all__ = [
    "COMMANDS",
    "Quit",
    "TerminalGame",
    "new_game",
    "register",
    "render_board",
    "render_end",
    "render_prompt",
    "visible_to",
]
