"""The board's picture on the board message (issue 23): the public board drawn by the
pictures' worker process (:class:`bot.pictures.PictureCache`) and shown as the board embed's image,
its alt text (the attachment's description) the short text board.

Why it follows the message rather than coming with it: publishing runs on a click's path
(under the game's lock, often as the click's own answer), and a drawing costs tens of
milliseconds. So the board message is sent or edited at once with the picture the cache
already has for what the board shows now (the usual case once a game is under way: a click
that changed nothing drawn, or a second message of the same state); when the picture is not
drawn yet, the message goes out without one (never with an older picture: it would show
another state) and the picture is edited in once drawn, if the board message still shows
that state. A burst of clicks draws the board once, in its newest state (the cache
coalesces), and a board whose drawn parts did not change is never drawn again
(:func:`bot.pictures.board_digest`).

Drawn from the public :class:`engine.TableView` alone (the table's, never a seat's), with
the seats' display names as the board shows them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot.attachments import attachment_url, picture_file
from bot.languages import public_language
from bot.pictures import Picture, PictureCache, board_digest, draw_board
from bot.table import Table

log = logging.getLogger("anima.board_pictures")

#: The board message's picture (its embed's image).
BOARD_FILE = "board.png"


@dataclass(frozen=True)
class BoardState:
    """What one board message shows: the game, its version, and the picture to draw."""

    game_id: int
    version: int
    key: tuple[Any, ...]
    digest: str
    draw: tuple[Any, ...]


class BoardPictures:
    """The board messages' pictures (see the module). ``cache``: None draws none (tests of
    the publisher alone)."""

    def __init__(self, cache: PictureCache | None) -> None:
        self.cache = cache
        #: The pictures being drawn for a board message sent without one.
        self._following: set[asyncio.Task[None]] = set()

    def state(self, table: Table) -> BoardState | None:
        """What ``table``'s board shows now, for its picture (None without a cache)."""
        if self.cache is None:
            return None
        view = table.table_view()
        language = public_language(table.row)
        names = {seat: table.names.label(seat) for seat in table.seats}
        return BoardState(
            table.id,
            table.game.version,
            (table.id, "board", language),
            board_digest(view, names, language),
            (view, table.game.db, names, language),
        )

    def dress(
        self, state: BoardState | None, embed: discord.Embed, fields: dict[str, Any], edit: bool
    ) -> bool:
        """Put the picture drawn for ``state`` on a board message about to be sent
        (``edit``: edited) with ``embed``: its image and its attachment in ``fields``. True
        if it was ready; else the message carries no picture (an edit drops the older one)
        and the caller has it drawn (:meth:`follow`)."""
        picture = None
        if state is not None and self.cache is not None:
            picture = self.cache.ready(state.key, state.digest)
        if picture is None:
            if edit:
                fields["attachments"] = []
            return state is None
        _show(embed, picture, fields)
        return True

    def follow(
        self,
        state: BoardState,
        table: Table,
        message: discord.PartialMessage,
        embed: discord.Embed,
    ) -> None:
        """Draw ``state``'s picture in the pictures' worker process, then edit it into ``message``
        if that is still the game's board showing that version."""
        task = asyncio.get_running_loop().create_task(self._follow(state, table, message, embed))
        self._following.add(task)
        task.add_done_callback(self._following.discard)

    async def _follow(
        self,
        state: BoardState,
        table: Table,
        message: discord.PartialMessage,
        embed: discord.Embed,
    ) -> None:
        assert self.cache is not None
        view, db, names, language = state.draw
        try:
            picture = await self.cache.get(
                state.key, state.digest, partial(draw_board, view, db, names, language)
            )
        except Exception:
            log.exception("game %s: could not draw the board", state.game_id)
            return
        if table.row.board_message_id != message.id or table.game.version != state.version:
            return  # a newer board message (or edit) has its own picture coming
        fields: dict[str, Any] = {}
        _show(embed, picture, fields)
        with contextlib.suppress(discord.HTTPException):
            await message.edit(**fields)

    async def drawn(self) -> None:
        """Wait until every picture being drawn is on its message (tests, shutdown)."""
        while self._following:
            await asyncio.gather(*self._following, return_exceptions=True)


def _show(embed: discord.Embed, picture: Picture, fields: dict[str, Any]) -> None:
    """``embed`` showing ``picture`` as its image, the attachment put in ``fields``."""
    embed.set_image(url=attachment_url(BOARD_FILE))
    fields["embed"] = embed
    fields["attachments"] = [picture_file(picture, BOARD_FILE)]
