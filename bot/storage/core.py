"""The store's base: the connection, its hops, and the state in memory the topics share.

One connection per bot (:mod:`bot.database`, over the standard ``sqlite3`` module; it runs
SQLite on the event loop's thread, or on a worker thread with ``inline=False``). Every method
is one *hop*: a plain function run against the connection in one go, so a write is one
transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``, ``ROLLBACK`` on any error) handed over once,
and a read of several statements too. Hops run one at a time, so a transaction never
interleaves with another coroutine's statements. The schema is created and migrated at open
(:mod:`bot.storage.schema`).

Each topic of the store (:mod:`bot.storage.store`) extends :class:`StorageCore`.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from bot.database import Database, Session
from bot.integrity import check_file
from bot.storage.faults import StorageUnavailable
from bot.storage.rows import EventRow, GuildSettings, Pointer
from bot.storage.schema import _configure, _migrate

log = logging.getLogger("anima.storage")

T = TypeVar("T")


class StorageCore:
    """The connection and its hops (:meth:`transaction`, :meth:`fetchone`,
    :meth:`fetchall`), and the caches every topic reads and updates, on the event loop,
    before or after its hop."""

    def __init__(self, path: Path | str, defaults: GuildSettings, inline: bool = True) -> None:
        self.path = Path(path)
        self.defaults = defaults
        #: ``inline``: SQLite runs on the event loop's thread (see :mod:`bot.database`).
        self._db = Database(self.path, inline)
        # Read once, then kept up to date by the writes of each topic (the only writer).
        self._settings: dict[int, GuildSettings] = {}
        self._autopass: dict[tuple[int, int], frozenset[str]] = {}
        self._languages: dict[int, tuple[str | None, str | None]] = {}
        self._dm_refused: dict[int, bool] = {}
        #: The latest private events of (game, seat, limit), least recently read first.
        self._private: OrderedDict[tuple[int, str, int], list[EventRow]] = OrderedDict()
        self._private_keys: dict[int, set[tuple[int, str, int]]] = {}
        #: Publish pointers posted but not yet written (see :meth:`defer_pointer`), and the
        #: games whose pointer rides along with any game's commit.
        self._pointers: dict[int, Pointer] = {}
        self._riders: set[int] = set()

    # ------------------------------------------------------------------ connection, schema

    async def open(self) -> None:
        """Check the file (:func:`bot.integrity.check_file`: ``PRAGMA quick_check``; raises
        :class:`bot.integrity.DatabaseDamaged` on an empty or damaged file), connect, switch
        to WAL and bring the schema up to date."""
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(check_file, self.path)
        await self._db.open()
        await self._db.run(_configure)
        await self.migrate()

    async def close(self) -> None:
        """Write the publish pointers still pending (a clean stop needs no reconciliation at
        the next start), then close."""
        if self._db.is_open and self._pointers:
            try:
                await self._write(_save_pointers(list(self._pointers.items())))
                self._pointers.clear()
                self._riders.clear()
            except Exception:
                log.exception("could not save the publish pointers at close")
        await self._db.close()

    @property
    def db(self) -> Database:
        """The database (its connection); raises if not open."""
        if not self._db.is_open:
            raise RuntimeError("storage is not open")
        return self._db

    async def migrate(self) -> int:
        """Create or upgrade the schema; returns the schema version. One hop; each
        migration step is one transaction."""
        return await self._guarded(self.db.run(_migrate))

    async def _guarded(self, hop: Awaitable[T]) -> T:
        """Await a hop, turning an SQLite failure into :class:`StorageUnavailable` (its
        real cause logged); an ``IntegrityError`` is raised as it is (a constraint the
        caller expects: one game per channel)."""
        try:
            return await hop
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            log.error("SQLite write failed: %s: %s", type(exc).__name__, exc)
            raise StorageUnavailable(f"{type(exc).__name__}: {exc}") from exc

    async def transaction(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn`` (a plain function of the connection, see :mod:`bot.database`) as one
        write transaction in one hop: committed if it returns, rolled back (and its error
        raised here) if it raises; SQLite failures raise :class:`StorageUnavailable`."""
        return await self._guarded(self.db.transaction(fn))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """One statement's first row, or None (one hop)."""
        return await self.db.run(lambda s: s.one(sql, tuple(params)))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement's rows (one hop)."""
        return await self.db.run(lambda s: s.all(sql, tuple(params)))

    async def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run statements as one transaction (one hop)."""

        def write(s: Session) -> None:
            for sql, params in statements:
                s.execute(sql, tuple(params))

        await self.transaction(write)


def _save_pointers(pointers: Sequence[tuple[int, Pointer]]) -> list[tuple[str, Sequence[Any]]]:
    """The statements that write publish pointers."""
    return [
        (
            "UPDATE games SET published_event_id = ?, published_version = ?, "
            "board_message_id = ?, board_turn = ? WHERE id = ?",
            (p.event_id, p.version, p.board_message_id, p.board_turn, game_id),
        )
        for game_id, p in pointers
    ]
