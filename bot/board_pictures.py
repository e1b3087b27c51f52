"""The board's picture on the board message (issue 23): the public board drawn by the
pictures' worker process (:class:`bot.pictures.PictureCache`) and shown in the board message's
media gallery, its alt text (the attachment's description) the short text board.

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
edit must keep it: the board message's lines and battle attachments are remembered
(:meth:`BoardPictures.posted`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

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
class Posted:
    """A board message and what it carries besides the board: its lines, and the battles'
    pictures among them (the attachments as sent)."""

    message_id: int
    lines: str
    battles: list[discord.Attachment]

    def pictures(self) -> list[tuple[str, str]]:
        """The battles' pictures: (attachment name, alt text)."""
        return [(a.filename, a.description or "") for a in self.battles]


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
        #: Per game, its board message and what it carries besides the board.
        self._posted: dict[int, Posted] = {}

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

    def remember(self, game_id: int, posted: Posted) -> None:
        """``posted`` is the game's board message now (its lines and battles are kept by
        every later edit of it, and by its retirement)."""
        self._posted[game_id] = posted

    def posted(self, game_id: int, message_id: int | None) -> Posted | None:
        """What the game's board message ``message_id`` carries besides the board; None if
        it is not the one remembered (posted before a restart)."""
        posted = self._posted.get(game_id)
        return posted if posted is not None and posted.message_id == message_id else None

    def ready(self, state: BoardState | None) -> Picture | None:
        """The picture drawn for ``state`` if it is drawn already (a message being sent
        now can carry it at no cost); None: not yet (the caller has it drawn:
        :meth:`follow`), or no pictures."""
        if state is None or self.cache is None:
            return None
        return self.cache.ready(state.key, state.digest)

    def follow(
        self,
        state: BoardState,
        table: Table,
        message: discord.PartialMessage,
        fields: Callable[[Picture], dict[str, Any]],
    ) -> None:
        """Draw ``state``'s picture in the pictures' worker process, then edit ``message``
        into ``fields(picture)`` if it is still the game's board showing that version."""
        task = asyncio.get_running_loop().create_task(self._follow(state, table, message, fields))
        self._following.add(task)
        task.add_done_callback(self._following.discard)

    async def _follow(
        self,
        state: BoardState,
        table: Table,
        message: discord.PartialMessage,
        fields: Callable[[Picture], dict[str, Any]],
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
        with contextlib.suppress(discord.HTTPException):
            await message.edit(**fields(picture))

    async def drawn(self) -> None:
        """Wait until every picture being drawn is on its message (tests, shutdown)."""
        while self._following:
            await asyncio.gather(*self._following, return_exceptions=True)
