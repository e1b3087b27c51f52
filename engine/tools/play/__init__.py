"""A game in the terminal against AI seats: ``anima play``.

For learning the rules and trying the game without Discord. The human seats are the first
``--humans`` seats (P1, P2, ...); the others are AI players of one level
(:mod:`engine.agents.levels`). With several humans the terminal is passed around (hot seat):
each decision says whose it is.

Every line is said in one language (``--lang``): the catalogs' words (:mod:`words`), the
engine's data worded by :mod:`wording` as the Discord bot words it, the terminal's own lines
its ``terminal.*`` messages.

The package, by job: :mod:`.speech` (the catalogs' messages in plain text), :mod:`.cards`
(what a card says), :mod:`.display` (the board, a decision, the end), :mod:`.help` (the
commands a player types, ``help`` and ``rules``), :mod:`.loop` (the game loop), :mod:`.command`
(the ``anima play`` command line).
"""

from engine.tools.play.command import new_game, register
from engine.tools.play.display import render_board, render_end, render_prompt
from engine.tools.play.help import COMMANDS, commands_text
from engine.tools.play.loop import Quit, TerminalGame, visible_to

__all__ = [
    "COMMANDS",
    "Quit",
    "TerminalGame",
    "commands_text",
    "new_game",
    "register",
    "render_board",
    "render_end",
    "render_prompt",
    "visible_to",
]
