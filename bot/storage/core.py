"""The store's base: the connection, its hops, and the state in memory the topics share.

One connection per bot (:mod:`bot.database`: SQLite through aiosqlite, or PostgreSQL through
asyncpg, chosen by the address). Every method is one *hop*: an async function run against
the connection whole, while no other hop runs, so a write is one transaction (``BEGIN`` ...
``COMMIT``, ``ROLLBACK`` on any error) that never interleaves with another coroutine's
statements, and a read of several statements sees one state. The schema is created and
migrated at open (:mod:`bot.storage.schema`), in the backend's dialect
(:mod:`bot.storage.dialect`: the one place where the SQL differs).

Each topic of the store (:mod:`bot.storage.store`) extends :class:`StorageCore`.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from bot.database import (
    Database,
    DatabaseError,
    IntegrityError,
    ReadOnlyError,
    Session,
    database_for,
)
from bot.storage.dialect import dialect_of
from bot.storage.faults import StorageUnavailable
from bot.storage.rows import EventRow, GuildSettings, MemberPings, Pointer
from bot.storage.schema import migrate

log = logging.getLogger("anima.storage")

T = TypeVar("T")
#: How often, and how long apart (seconds), configuring a connection is tried while another
#: process holds the new SQLite file's lock (:meth:`StorageCore._configure`).
LOCKED_TRIES = 100
LOCKED_WAIT = 0.05


class StorageCore:
    """The connection and its hops (:meth:`transaction`, :meth:`fetchone`,
    :meth:`fetchall`), and the caches every topic reads and updates, on the event loop,
    before or after its hop."""

    def __init__(self, target: Path | str, defaults: GuildSettings) -> None:
        """``target``: a SQLite file's path, or an address (``sqlite:///PATH``,
        ``postgresql://USER@HOST/NAME``: :func:`bot.database.database_for`)."""
        self.defaults = defaults
        self._db = database_for(target)
        #: The SQL of the backend (:mod:`bot.storage.dialect`).
        self.dialect = dialect_of(self._db)
        # Read once, then kept up to date by the writes of each topic (the only writer).
        self._settings: dict[int, GuildSettings] = {}
        self._autopass: dict[tuple[int, int], frozenset[str]] = {}
        self._languages: dict[int, tuple[str | None, str | None]] = {}
        self._dm_refused: dict[int, bool] = {}
        self._pings: dict[int, MemberPings] = {}
        #: The latest private events of (game, seat, limit), least recently read first.
        self._private: OrderedDict[tuple[int, str, int], list[EventRow]] = OrderedDict()
        self._private_keys: dict[int, set[tuple[int, str, int]]] = {}
        #: Publish pointers posted but not yet written (see :meth:`defer_pointer`), and the
        #: games whose pointer rides along with any game's commit.
        self._pointers: dict[int, Pointer] = {}
        self._riders: set[int] = set()
        #: Whether other processes write this database too (shard clusters, issue 24: the
        #: app sets it when ``SHARD_COUNT`` is set): a game in memory is checked against its
        #: stored version before it is changed, and its posts go through the outbox (under
        #: its posting lease, the pointer written with the post, never deferred). Unset,
        #: this process is the database's one writer (its caches are the truth): one
        #: transaction per decision.
        self.shared = False

    # ------------------------------------------------------------------ connection, schema

    async def at_finish(self, s: Session, game_id: int, now: float, ai_level: str) -> None:
        """What a game's last commit does besides, in its transaction (each topic that has
        something to do adds it, calling this first): its ratings
        (:class:`~bot.storage.ratings.RatingStore`), then the deletions that waited for
        its end (:class:`~bot.storage.member_data.MemberDataStore`). ``ai_level``: the
        level of an AI seat that names none."""
        return None

    async def check(self) -> None:
        """Raise :class:`bot.integrity.DatabaseUnusable` if the database must not be opened
        (SQLite: an empty or damaged file, :class:`~bot.integrity.DatabaseDamaged`; a file
        or folder the bot may not write, :class:`~bot.integrity.DatabaseReadOnly`);
        :meth:`open` checks it too."""
        await self.dialect.check(self._db)

    async def open(self) -> None:
        """Check the database (SQLite: :func:`bot.integrity.check_writable` and
        :func:`bot.integrity.check_file`, ``PRAGMA quick_check``; raises
        :class:`bot.integrity.DatabaseReadOnly` or :class:`bot.integrity.DatabaseDamaged`),
        connect, configure the connection and bring the schema up to date. A database
        that cannot be reached raises :class:`StorageUnavailable`."""
        await self.dialect.check(self._db)
        await self._guarded(self._db.open())
        settings = self.dialect.settings

        async def configure(s: Session) -> None:
            for statement in settings:
                await s.execute(statement)

        await self._guarded(self._configure(configure))
        await self.migrate()

    async def _configure(self, configure: Callable[[Session], Awaitable[None]]) -> None:
        """Configure the connection. When processes open a new SQLite file at the same
        moment, each switching it to WAL, SQLite refuses all but one at once ("database is
        locked": a deadlock it does not wait out, whatever the busy timeout): the others try
        again for a few seconds (``test_processes_starting_together_migrate_once``, which
        failed so under load)."""
        for attempt in range(LOCKED_TRIES):
            try:
                await self._db.run(configure)
                return
            except DatabaseError as exc:
                if "locked" not in str(exc) or attempt == LOCKED_TRIES - 1:
                    raise
                await asyncio.sleep(LOCKED_WAIT)

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
        dialect = self.dialect
        return await self._guarded(
            self.db.run(lambda s: migrate(s, dialect.migrations, dialect.migration_lock))
        )

    async def _guarded(self, hop: Awaitable[T]) -> T:
        """Await a hop, turning a database failure into :class:`StorageUnavailable` (its
        real cause logged); an :class:`~bot.database.IntegrityError` is raised as it is (a
        constraint the caller expects: one game per channel)."""
        try:
            return await hop
        except IntegrityError:
            raise
        except ReadOnlyError as exc:
            # Not damage, not a moment's failure: the operator must let the bot write
            # (issue 24, fault 5). The players are told nothing was saved, as for any failure.
            log.error(
                "database write failed (%s): the database is read-only (%s): give the user "
                "that runs the bot write permission on %s%s",
                self.dialect.name,
                exc,
                self._db.where,
                " and its folder" if self.dialect.name == "sqlite" else "",
            )
            raise StorageUnavailable(str(exc)) from exc
        except DatabaseError as exc:
            log.error("database write failed (%s): %s", self.dialect.name, exc)
            raise StorageUnavailable(str(exc)) from exc

    async def transaction(self, fn: Callable[[Session], Awaitable[T]]) -> T:
        """Run ``fn`` (an async function of the connection, see :mod:`bot.database`) as one
        write transaction in one hop: committed if it returns, rolled back (and its error
        raised here) if it raises; database failures raise :class:`StorageUnavailable`."""
        return await self._guarded(self.db.transaction(fn))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """One statement's first row, or None (one hop)."""
        return await self.db.run(lambda s: s.one(sql, tuple(params)))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any]:
        """One statement's rows (one hop)."""
        return await self.db.run(lambda s: s.all(sql, tuple(params)))

    async def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run statements as one transaction (one hop)."""

        async def write(s: Session) -> None:
            for sql, params in statements:
                await s.execute(sql, tuple(params))

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
