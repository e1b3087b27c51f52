"""PostgreSQL through :mod:`asyncpg`: one connection, each statement one round trip to the
server (prepared once and cached by asyncpg: a statement is parsed and planned once per
connection).

Transactions are ``BEGIN`` ... ``COMMIT`` at PostgreSQL's default isolation (read committed):
a decision's ``UPDATE games ... WHERE id = ? AND version = ?`` locks the game's row, and a
concurrent writer of the same game waits for it, then finds the version changed (0 rows:
``VersionConflict``). Every other write is one statement or touches rows no other writer
races for.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, ClassVar, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.database.base import (
    Database,
    DatabaseError,
    Done,
    IntegrityError,
    ReadOnlyError,
    Session,
)

log = logging.getLogger("anima.storage")

T = TypeVar("T")


@functools.lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL's ``$1``, ``$2``... (not
    inside quoted strings, quoted names or dollar-quoted bodies)."""
    if "?" not in sql:
        return sql
    out: list[str] = []
    n = 0
    i = 0
    while i < len(sql):
        c = sql[i]
        if c in "'\"":
            end = sql.find(c, i + 1)
            end = len(sql) if end < 0 else end + 1
            out.append(sql[i:end])
            i = end
        elif c == "$" and sql.startswith("$$", i):
            end = sql.find("$$", i + 2)
            end = len(sql) if end < 0 else end + 2
            out.append(sql[i:end])
            i = end
        elif c == "?":
            n += 1
            out.append(f"${n}")
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _rows_changed(status: str) -> int:
    """The row count of a command's status (``UPDATE 1``, ``INSERT 0 3``; -1 if none)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PostgresSession(Session):
    """Statements on an :class:`asyncpg.Connection`, one round trip each."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        super().__init__()
        self._conn = conn

    @property
    def in_transaction(self) -> bool:
        return not self._conn.is_closed() and self._conn.is_in_transaction()

    async def _execute(self, sql: str, params: Sequence[Any]) -> Done:
        return Done(_rows_changed(await self._conn.execute(numbered(sql), *params)))

    async def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        # asyncpg sends every row's execution in one pipeline: one round trip.
        await self._conn.executemany(numbered(sql), rows)

    async def _all(self, sql: str, params: Sequence[Any]) -> Sequence[Any]:
        return await self._conn.fetch(numbered(sql), *params)

    def _translate(self, exc: Exception) -> Exception:
        if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
            return IntegrityError(f"{type(exc).__name__}: {exc}")
        if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
            return ReadOnlyError(f"{type(exc).__name__}: {exc}")
        if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError | OSError):
            return DatabaseError(f"{type(exc).__name__}: {exc}")
        return exc


class PostgresDatabase(Database):
    """A PostgreSQL database, by its address (``postgresql://user@host/name``, libpq's
    form: asyncpg reads it, a unix socket folder as ``?host=/path``)."""

    kind: ClassVar[str] = "postgresql"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    @property
    def where(self) -> str:
        return without_password(self.url)

    async def _connect(self) -> Session:
        return PostgresSession(await self._connection())

    async def _connection(self) -> asyncpg.Connection:
        try:
            # Prepared statements stay cached for the connection's life: the bot's
            # statements are few and fixed (asyncpg re-prepares one the schema made stale),
            # and no timer per statement is left running to expire them.
            conn = await asyncpg.connect(
                self.url,
                server_settings={"application_name": "anima-bot"},
                max_cached_statement_lifetime=0,
            )
        except (asyncpg.PostgresError, OSError) as exc:
            raise DatabaseError(f"{type(exc).__name__}: {exc}") from exc
        return conn

    async def _hop(self, fn: Callable[[Session], Awaitable[T]], session: Session) -> T:
        # A connection the server closed (a restart, an administrator) is replaced before
        # the next hop: the hop that found it gone failed (DatabaseError), the next works.
        assert isinstance(session, PostgresSession)
        if session._conn.is_closed():
            log.warning("the connection to %s was lost: connecting again", self.where)
            session._conn = await self._connection()
        return await fn(session)

    async def _disconnect(self, session: Session) -> None:
        assert isinstance(session, PostgresSession)
        await session._conn.close()


def without_password(url: str) -> str:
    """``url`` with its password, if any, replaced by ``***`` (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
