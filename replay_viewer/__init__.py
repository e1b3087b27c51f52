"""The replay page: a finished game to step through in a browser, ``anima replay FILE --html
OUT`` and the bot's ``/anima history``.

One self-contained HTML file (its style, script and data inside; nothing fetched) that steps
through a game record action by action: the board as it was after each step, the step's lines,
and a switch between the public view and each seat's (its hand, missions and face-down cards:
the page is for after the game, when every card is revealed). docs/replay.md describes it.

A top-level package, a front end like the terminal's (:mod:`engine.tools.play`): it words the
engine's data through :mod:`wording` and the catalogs (:mod:`words`), and reads the engine only
through its public face (``engine``), so both the bot (``bot.history``) and the ``anima``
command (``engine.tools.cli``) may import it. It could not live in the engine's tools: the
bot may import nothing of the engine but its face, and the face may not import what words
(``wording`` imports the face: the import-linter contracts in pyproject.toml). It knows
nothing of the bot or Discord (a contract).

Modules: :mod:`.markup` (the catalogs' words as HTML, seats by display name), :mod:`.board`
(the board's blocks), :mod:`.frames` (the record replayed into the page's data, kept small),
:mod:`.page` (the file: ``page.html``, ``viewer.css``, ``viewer.js`` and the data),
:mod:`.command` (``anima replay FILE --html OUT``).
"""

from replay_viewer.command import register_html
from replay_viewer.page import replay_page

__all__ = ["register_html", "replay_page"]
