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

A battle's picture (:func:`bot.pictures.draw_battle`: both sides' dice, Strengths and totals,
from the public ``battle_roll`` and ``battle_result`` payloads alone) goes on the message that
carries the battle's lines (``battle-<event>.png``, its alt text the battle in words). It is
drawn before that message is sent (a few milliseconds, in the pictures' worker process), because the
message is edited afterwards (the board's picture following, the board retired) and every
edit must keep it: the board message's battle attachments are remembered (:meth:`kept`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot.attachments import attachment_url, picture_file
from bot.languages import public_language
from bot.pictures import Picture, PictureCache, board_digest, draw_battle, draw_board
from bot.storage import EventRow
from bot.table import Table

log = logging.getLogger("anima.board_pictures")

#: The board message's picture (its embed's image).
BOARD_FILE = "board.png"
#: A battle's picture: ``battle-<its battle_roll event's id>.png``.
BATTLE_PREFIX = "battle-"


def battle_file(event_id: int) -> str:
    """The attachment name of the battle rolled by event ``event_id``."""
    return f"{BATTLE_PREFIX}{event_id}.png"


@dataclass(frozen=True)
class Battle:
    """A battle to draw: the index of its line among the lines posted (a public event's line
    is at the event's index), its ``battle_roll`` event's id and payload, and its
    ``battle_result``'s payload (None: a tie rolled again, or the result not in the batch)."""

    line: int
    event_id: int
    roll: Mapping[str, Any]
    result: Mapping[str, Any] | None


def battles(events: Sequence[EventRow]) -> list[Battle]:
    """The battles rolled among the public ``events`` (each with the result that follows its
    roll, before the next roll)."""
    out = []
    for i, e in enumerate(events):
        if e.kind != "battle_roll" or e.recipients is not None:
            continue
        result = None
        for later in events[i + 1 :]:
            if later.kind == "battle_roll":
                break
            if later.kind == "battle_result":
                result = later.data
                break
        out.append(Battle(i, e.id, e.data, result))
    return out


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
        #: Per game, its board message and the battle pictures it carries (every edit of
        #: that message keeps them).
        self._kept: dict[int, tuple[int, list[discord.Attachment]]] = {}

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

    async def draw_battles(
        self, table: Table, fought: Sequence[Battle]
    ) -> list[tuple[Battle, Picture]]:
        """The pictures of the battles ``fought``, drawn in the pictures'
        worker process in the game's language; none without a cache. A battle that cannot be drawn
        is left out (its lines say it all)."""
        if self.cache is None or not fought:
            return []
        language = public_language(table.row)
        names = {seat: table.names.label(seat) for seat in table.seats}
        drawn: list[tuple[Battle, Picture]] = []
        for b in fought:
            try:
                picture = await self.cache.get(
                    (table.id, "battle", b.event_id, language),
                    str(b.event_id),
                    partial(draw_battle, b.roll, names, language, b.result),
                )
                drawn.append((b, picture))
            except Exception:
                log.exception(
                    "game %s: could not draw the battle of event %s", table.id, b.event_id
                )
        return drawn

    def keep(self, game_id: int, message: discord.Message) -> None:
        """``message`` is the game's board message now: remember its battle pictures."""
        self._kept[game_id] = (
            message.id,
            [a for a in message.attachments if a.filename.startswith(BATTLE_PREFIX)],
        )

    def kept(self, game_id: int, message_id: int | None) -> list[discord.Attachment]:
        """The battle pictures the board message ``message_id`` of the game carries (an edit
        keeps them; none if it is not the one remembered, e.g. after a restart)."""
        message, attachments = self._kept.get(game_id, (None, []))
        return list(attachments) if message == message_id else []

    def dress(
        self,
        state: BoardState | None,
        embed: discord.Embed,
        fields: dict[str, Any],
        edit: bool,
        kept: Sequence[discord.Attachment | discord.File] = (),
    ) -> bool:
        """Put the picture drawn for ``state`` on a board message about to be sent
        (``edit``: edited) with ``embed``: its image and its attachment in ``fields``, after
        the message's other attachments ``kept`` (its battles). True if it was ready; else
        the message carries no board picture (an edit drops the older one) and the caller
        has it drawn (:meth:`follow`)."""
        picture = None
        if state is not None and self.cache is not None:
            picture = self.cache.ready(state.key, state.digest)
        if picture is None:
            if edit or kept:
                fields["attachments"] = list(kept)
            return state is None
        _show(embed, picture, fields, kept)
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
        _show(embed, picture, fields, self.kept(state.game_id, message.id))
        with contextlib.suppress(discord.HTTPException):
            await message.edit(**fields)

    async def drawn(self) -> None:
        """Wait until every picture being drawn is on its message (tests, shutdown)."""
        while self._following:
            await asyncio.gather(*self._following, return_exceptions=True)


def _show(
    embed: discord.Embed,
    picture: Picture,
    fields: dict[str, Any],
    kept: Sequence[discord.Attachment | discord.File] = (),
) -> None:
    """``embed`` showing ``picture`` as its image, the attachment put in ``fields`` after
    the message's ``kept`` ones."""
    embed.set_image(url=attachment_url(BOARD_FILE))
    fields["embed"] = embed
    fields["attachments"] = [*kept, picture_file(picture, BOARD_FILE)]
