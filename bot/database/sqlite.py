"""SQLite through :mod:`aiosqlite`: the connection lives on aiosqlite's own thread, and each
statement is one trip there and back (the event loop stays free meanwhile).

The connection is in autocommit mode (``isolation_level=None``): every transaction is an
explicit ``BEGIN IMMEDIATE`` (the write lock taken at once, so that a transaction never fails
half-way on a lock held by another process, such as ``anima-bot backup``).

SQLite's checkpoints (copying the write-ahead log into the database file, with its disk
sync) run where SQLite starts them, inside a commit now and then, on aiosqlite's thread: the
event loop goes on meanwhile, only that commit waits.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite

from bot.database.base import Database, DatabaseError, Done, IntegrityError, Session


class SQLiteSession(Session):
    """Statements on an :class:`aiosqlite.Connection`, one trip to its thread each."""

    BEGIN: ClassVar[str] = "BEGIN IMMEDIATE"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        super().__init__()
        self._conn = conn

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction

    async def _execute(self, sql: str, params: Sequence[Any]) -> Done:
        # A statement without rows is finished (and reset by sqlite3) when execute returns:
        # its cursor holds nothing and needs no closing trip. One with rows (a PRAGMA that
        # answers) would stay in progress and block COMMIT: it is closed, one more trip.
        cursor = await self._conn.execute(sql, params)
        if cursor.description is not None:
            await cursor.close()
        return Done(cursor.rowcount)

    async def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)

    async def _all(self, sql: str, params: Sequence[Any]) -> Sequence[Any]:
        # One trip: execute and fetch every row (the statement is finished after).
        return await self._conn.execute_fetchall(sql, params)  # type: ignore[return-value]

    def _translate(self, exc: Exception) -> Exception:
        if isinstance(exc, sqlite3.IntegrityError):
            return IntegrityError(f"{type(exc).__name__}: {exc}")
        if isinstance(exc, sqlite3.Error):
            return DatabaseError(f"{type(exc).__name__}: {exc}")
        return exc


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
            conn = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise DatabaseError(f"{type(exc).__name__}: {exc}") from exc
        return SQLiteSession(conn)

    async def _disconnect(self, session: Session) -> None:
        assert isinstance(session, SQLiteSession)
        await session._conn.close()
