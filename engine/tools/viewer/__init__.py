"""The replay page: a finished game to step through in a browser, ``anima replay FILE --html
OUT`` and the bot's ``/anima history``.

One self-contained HTML file (its style, script and data inside; nothing fetched) that steps
through a game record action by action: the board as it was after each step, the step's lines,
and a switch between the public view and each seat's (its hand, missions and face-down cards:
the page is for after the game, when every card is revealed). docs/replay.md describes it.

It sits beside the terminal's front end (:mod:`engine.tools.play`) because, like it, it words
the engine's data through :mod:`wording` and the catalogs (:mod:`words`), which the engine's
tools may read and its rules may not (the import-linter contracts). The bot reaches it through
the engine's public face (``engine.replay_page``).

Modules: :mod:`.markup` (the catalogs' words as HTML, seats by display name), :mod:`.board`
(the board's blocks), :mod:`.frames` (the record replayed into the page's data, kept small),
:mod:`.page` (the file: ``page.html``, ``viewer.css``, ``viewer.js`` and the data).
"""

from engine.tools.viewer.page import replay_page

__all__ = ["replay_page"]
