"""What both backends share: a :class:`Database` (one connection, its hops, their tracing)
and the :class:`Session` a hop's function uses, with the errors every backend raises.

A *hop* is one unit of work on the connection: an ``async`` function of the session that
awaits nothing but the session's statements, run whole while no other hop runs
(:meth:`Database.run`; :meth:`Database.transaction` wraps it in a transaction). PostgreSQL
runs it on the event loop, a round trip to the server per statement; SQLite runs it whole on
aiosqlite's thread, in one trip (:mod:`bot.database.sqlite` says why). The connection is one
per process and its statements are not interleaved: a function sees the database exactly as
its own statements leave it, and no other coroutine's statement comes in between (a lock,
FIFO, taken for the whole hop).

Statements are written once, with ``?`` placeholders; a backend turns them into its own
(PostgreSQL's ``$1``). What else differs in the SQL text (the schema, a JSON test) is the
storage's dialect (:mod:`bot.storage.dialect`), not this layer's.

Tracing (benchmarks, tests): :attr:`Database.trace`, when set, is called after every hop, on
the event loop in the caller's context, with a :class:`Hop`: the time the caller awaited it
and each statement it executed with its own time. Unset (the bot), it costs one test.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

log = logging.getLogger("anima.storage")

T = TypeVar("T")


class DatabaseError(Exception):
    """The database refused or failed a statement (disk full, read-only, connection lost,
    ...). The message names the driver's error: ``"OperationalError: database or disk is
    full"``."""


class IntegrityError(DatabaseError):
    """A constraint refused a write (a unique index: one game per channel)."""


class ReadOnlyError(DatabaseError):
    """The database refused a write because it is read-only: a SQLite file (or its folder)
    the process may not write, a PostgreSQL server or transaction in read-only mode (a
    standby). Nothing is damaged: the operator must let the bot write."""


@dataclass(frozen=True)
class Done:
    """What a write statement did: the rows it changed."""

    rowcount: int


@dataclass
class Hop:
    """One hop as :attr:`Database.trace` sees it."""

    #: Time the caller awaited the hop: waiting for the connection, then its statements.
    seconds: float
    #: (sql, seconds) of each statement, in order (``executemany``: one statement whatever
    #: its rows; ``BEGIN``, ``COMMIT`` and ``ROLLBACK`` are statements too).
    statements: list[tuple[str, float]] = field(default_factory=list)
    #: Transactions it ran: ``BEGIN`` ... ``COMMIT`` blocks, and statements that were a
    #: transaction of their own (:meth:`Session.atomic`).
    transactions: int = 0


#: A tracing callback (see :attr:`Database.trace`).
Trace = Callable[[Hop], None]


class Session(ABC):
    """The connection as a hop's function sees it, during the hop only (never kept).

    Each method is one statement, written with ``?`` placeholders. A driver's error is
    raised as :class:`IntegrityError` or :class:`DatabaseError` (its cause chained)."""

    #: The statement that opens a write transaction.
    BEGIN: ClassVar[str] = "BEGIN"

    def __init__(self) -> None:
        #: The current hop while :attr:`Database.trace` is set, else None.
        self.hop: Hop | None = None

    @property
    @abstractmethod
    def in_transaction(self) -> bool:
        """Whether a transaction is open (the database may have ended it by itself)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Done:
        """Run one statement that returns no rows; the rows it changed."""
        start = time.perf_counter()
        try:
            return await self._execute(sql, params)
        except Exception as exc:
            raise self._translate(exc) from exc
        finally:
            self._note(sql, start)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of ``rows`` (one statement for tracing)."""
        start = time.perf_counter()
        try:
            await self._executemany(sql, rows)
        except Exception as exc:
            raise self._translate(exc) from exc
        finally:
            self._note(sql, start)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of a query (indexable by position), or None."""
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any]:
        """Every row of a query, or of a write ``... RETURNING`` (indexable by position)."""
        start = time.perf_counter()
        try:
            return await self._all(sql, params)
        except Exception as exc:
            raise self._translate(exc) from exc
        finally:
            self._note(sql, start)

    async def atomic(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any]:
        """Run one statement that is a whole transaction of its own (outside :meth:`
        transaction`: the database applies it whole or not at all); its rows."""
        if self.hop is not None:
            self.hop.transactions += 1
        return await self.all(sql, params)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """:attr:`BEGIN` ... ``COMMIT``; ``ROLLBACK`` and raise again on any error (a
        cancellation too: the transaction is applied whole or not at all).

        A database may end a failed transaction by itself (SQLite on a full disk): no
        second ``ROLLBACK`` is then sent (it would fail and hide the cause)."""
        if self.hop is not None:
            self.hop.transactions += 1
        await self.execute(self.BEGIN)
        try:
            yield
            await self.execute("COMMIT")
        except BaseException:
            if self.in_transaction:
                try:
                    await self.execute("ROLLBACK")
                except DatabaseError:
                    log.exception("ROLLBACK failed")
            raise

    def _note(self, sql: str, start: float) -> None:
        # A statement's time (a query's includes fetching its rows).
        if self.hop is not None:
            self.hop.statements.append((sql, time.perf_counter() - start))

    @abstractmethod
    async def _execute(self, sql: str, params: Sequence[Any]) -> Done: ...

    @abstractmethod
    async def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def _all(self, sql: str, params: Sequence[Any]) -> Sequence[Any]: ...

    @abstractmethod
    def _translate(self, exc: Exception) -> Exception:
        """The error to raise for a driver's ``exc``: :class:`IntegrityError`,
        :class:`DatabaseError`, or ``exc`` itself (not the database's)."""


class Database(ABC):
    """One database and the process's one connection to it. Open with :meth:`open`, close
    with :meth:`close`; every use is a hop (:meth:`run`, :meth:`transaction`)."""

    #: The backend's name: ``"sqlite"`` or ``"postgresql"`` (its storage dialect's key).
    kind: ClassVar[str]

    def __init__(self) -> None:
        #: Called after every hop (benchmarks, tests; see the module's doc). None: no tracing.
        self.trace: Trace | None = None
        self._session: Session | None = None
        self._lock = asyncio.Lock()

    @property
    def is_open(self) -> bool:
        return self._session is not None

    @property
    @abstractmethod
    def where(self) -> str:
        """Where the database is, for messages (a file, or an address without password)."""

    async def open(self) -> None:
        """Connect."""
        if self._session is not None:
            raise RuntimeError(f"the database {self.where} is open already")
        self._session = await self._connect()

    async def close(self) -> None:
        """Close the connection once its last hop ended (no-op if not open)."""
        async with self._lock:
            session, self._session = self._session, None
            if session is not None:
                await self._disconnect(session)

    async def run(self, fn: Callable[[Session], Awaitable[T]]) -> T:
        """Run ``fn(session)`` as one hop: no other hop's statement comes in between; its
        result, or its exception raised here."""
        trace = self.trace
        start = time.perf_counter()
        async with self._lock:
            session = self._session
            if session is None:
                raise RuntimeError("storage is not open")
            if trace is None:
                return await self._hop(fn, session)
            hop = Hop(0.0)
            session.hop = hop
            try:
                return await self._hop(fn, session)
            finally:
                session.hop = None
                hop.seconds = time.perf_counter() - start
                trace(hop)

    async def transaction(self, fn: Callable[[Session], Awaitable[T]]) -> T:
        """Run ``fn(session)`` in one transaction, one hop: committed if it returns, rolled
        back (and its exception raised here) if it raises."""

        async def whole(s: Session) -> T:
            async with s.transaction():
                return await fn(s)

        return await self.run(whole)

    async def _hop(self, fn: Callable[[Session], Awaitable[T]], session: Session) -> T:
        """Run the hop's function (the lock held): here, on the event loop, each statement
        awaited in turn; a backend may run it elsewhere whole (SQLite: on aiosqlite's
        thread, in one trip)."""
        return await fn(session)

    @abstractmethod
    async def _connect(self) -> Session:
        """Open the connection and configure it; its session."""

    @abstractmethod
    async def _disconnect(self, session: Session) -> None:
        """Close the connection of ``session``."""
