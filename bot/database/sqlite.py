"""SQLite through :mod:`aiosqlite`: the connection lives on aiosqlite's own thread, and each
*hop* is one trip there and back, whatever its statements (the event loop stays free
meanwhile).

Why one trip per hop, not per statement: a trip to aiosqlite's thread costs the process
~70-90 µs of CPU time (the hand-over through its queue, the wake-up of the event loop and the
thread switches; measured on this project's 2-core machine), more than SQLite's own work on
one of the bot's statements (~5-20 µs). A decision is six statements (``BEGIN``, four
writes, ``COMMIT``): six trips would add ~0.5 ms of CPU to a decision that costs ~3 ms in
all, one trip ~0.08 ms (issue 24 allows 10 %). aiosqlite's public methods are one trip per
statement; its queue runner (``Connection._execute``, which they all use, and the
connection it holds, ``Connection._conn``) runs any function on its thread in order with
them: :meth:`SQLiteDatabase._hop` hands it the whole hop. The hop's function is the same
async function as on PostgreSQL: on aiosqlite's thread its session runs each statement at
once, so the function runs to its end in one step (:func:`_drive`); a hop that awaits
anything else than its session is refused there (it could not be run on that thread).
``tests/bot/test_bot_database.py`` checks that a hop is one trip and that these two names of
aiosqlite are there.

The connection is in autocommit mode (``isolation_level=None``): every transaction is an
explicit ``BEGIN IMMEDIATE`` (the write lock taken at once, so that a transaction never fails
half-way on a lock held by another process, such as ``anima-bot backup``).

SQLite's checkpoints (copying the write-ahead log into the database file, with its disk
sync) run where SQLite starts them, inside a commit now and then, on aiosqlite's thread: the
event loop goes on meanwhile, only that commit waits.
"""

from __future__ import annotations

import contextvars
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

import aiosqlite

from bot.database.base import (
    Database,
    DatabaseError,
    Done,
    IntegrityError,
    ReadOnlyError,
    Session,
)

T = TypeVar("T")


class SQLiteSession(Session):
    """Statements on the :mod:`sqlite3` connection that aiosqlite's thread owns; used on that
    thread only, during a hop (:meth:`SQLiteDatabase._hop`)."""

    BEGIN: ClassVar[str] = "BEGIN IMMEDIATE"

    def __init__(self, aio: aiosqlite.Connection) -> None:
        super().__init__()
        self.aio = aio
        self._conn: sqlite3.Connection = aio._conn

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction

    # Each statement's cursor is closed before returning: an open one would keep its
    # statement "in progress" and could block COMMIT.

    async def _execute(self, sql: str, params: Sequence[Any]) -> Done:
        cursor = self._conn.execute(sql, params)
        try:
            return Done(cursor.rowcount)
        finally:
            cursor.close()

    async def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows).close()

    async def _all(self, sql: str, params: Sequence[Any]) -> Sequence[Any]:
        cursor = self._conn.execute(sql, params)
        try:
            return cursor.fetchall()
        finally:
            cursor.close()

    def _translate(self, exc: Exception) -> Exception:
        if isinstance(exc, sqlite3.IntegrityError):
            return IntegrityError(f"{type(exc).__name__}: {exc}")
        # SQLITE_READONLY and its extended codes (the low byte is the primary code).
        if isinstance(exc, sqlite3.Error) and (
            getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_READONLY
        ):
            return ReadOnlyError(f"{type(exc).__name__}: {exc}")
        if isinstance(exc, sqlite3.Error):
            return DatabaseError(f"{type(exc).__name__}: {exc}")
        return exc


def _drive(fn: Callable[[Session], Awaitable[T]], session: Session) -> T:
    """Run a hop's function on aiosqlite's thread: its statements do not suspend there, so
    one step of its coroutine runs it to its end (its result, or its exception)."""
    coroutine = fn(session)
    assert isinstance(coroutine, Coroutine)  # an async function's, never another awaitable
    try:
        coroutine.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    coroutine.close()
    raise RuntimeError("a SQLite hop may await nothing but its session's statements")


class SQLiteDatabase(Database):
    """One SQLite file (created with its folder if missing)."""

    kind: ClassVar[str] = "sqlite"

    def __init__(self, path: Path | str) -> None:
        super().__init__()
        self.path = Path(path)

    @property
    def where(self) -> str:
        return str(self.path)

    async def _connect(self) -> Session:
        if not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            aio = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise DatabaseError(f"{type(exc).__name__}: {exc}") from exc
        return SQLiteSession(aio)

    async def _disconnect(self, session: Session) -> None:
        assert isinstance(session, SQLiteSession)
        await session.aio.close()

    async def _hop(self, fn: Callable[[Session], Awaitable[T]], session: Session) -> T:
        # The whole function in one trip to aiosqlite's thread, in a copy of the caller's
        # context (a context variable set by the caller is seen as in the caller).
        assert isinstance(session, SQLiteSession)
        context = contextvars.copy_context()
        done = session.aio._execute(context.run, _drive, fn, session)  # type: ignore[no-untyped-call]
        return cast(T, await done)
