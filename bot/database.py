"""A small asynchronous layer over the standard :mod:`sqlite3` module: one connection, used
by one dedicated worker thread, and an async API whose unit is a *hop*.

Why not a statement-per-call wrapper (aiosqlite): every statement there is one hand-off to
the worker thread and back through the event loop (~0.25 ms each, ~0.7 ms for the first one
after CPU work), so a five-statement transaction cost ~2 ms of waiting for ~0.05 ms of SQLite.
Here the caller hands over a plain synchronous function, and the worker runs it against the
connection in one go: a whole transaction, or a read of several statements, is one hop
(:meth:`Database.run`, :meth:`Database.transaction`).

The rules it keeps:

- The connection is created, used and closed on the worker thread only (``sqlite3``'s
  ``check_same_thread`` stays on and would catch a slip). Functions run by a hop get a
  :class:`Session`, the connection's statement API; they must not keep it beyond the hop.
- One worker: hops run one at a time, in the order they were submitted. A function sees the
  database exactly as its own statements leave it, and no other coroutine's statement comes
  in between: no lock is needed around a multi-statement unit.
- The caller's :mod:`contextvars` context is copied into the worker call, so a context
  variable set by the caller (a benchmark's "current interaction", logging context) is seen by
  the function as it would be in the caller.
- A cancelled caller does not cancel its hop: the function runs to its end (a transaction
  commits or rolls back whole); the caller just does not get the result.
- Tracing (benchmarks): :attr:`Database.trace`, when set, is called after every hop, on the
  event loop in the caller's context, with a :class:`Hop`: the time the caller awaited it and
  each statement it executed with its time on the worker. Unset (the bot), it costs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger("anima.storage")

T = TypeVar("T")


@dataclass(frozen=True)
class Done:
    """What a write statement did: rows changed and the last inserted rowid."""

    rowcount: int
    lastrowid: int | None


@dataclass
class Hop:
    """One hop as :attr:`Database.trace` sees it."""

    #: Time the caller awaited the hop: hand-off to the worker, the function, and back.
    seconds: float
    #: (sql, seconds on the worker) of each ``execute``/``executemany`` call, in order (one
    #: call is one statement, whatever the rows of an ``executemany``).
    statements: list[tuple[str, float]] = field(default_factory=list)


#: A tracing callback (see :attr:`Database.trace`).
Trace = Callable[[Hop], None]


class Session:
    """The connection as a function run by a hop sees it. Used on the worker thread only.

    Every statement's cursor is closed before the method returns (an open cursor would keep
    its statement "in progress" and could block ``COMMIT``)."""

    __slots__ = ("_conn", "_statements")

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        #: The current hop's statements while :attr:`Database.trace` is set, else None.
        self._statements: list[tuple[str, float]] | None = None

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (SQLite may have rolled it back by itself)."""
        return self._conn.in_transaction

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Done:
        """Run one statement; its row count and last rowid."""
        start = time.perf_counter()
        try:
            cur = self._conn.execute(sql, params)
            try:
                return Done(cur.rowcount, cur.lastrowid)
            finally:
                cur.close()
        finally:
            self._note(sql, start)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Done:
        """Run one statement once per row of ``rows`` (one call: one statement)."""
        start = time.perf_counter()
        try:
            cur = self._conn.executemany(sql, rows)
            try:
                return Done(cur.rowcount, cur.lastrowid)
            finally:
                cur.close()
        finally:
            self._note(sql, start)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of a query (a tuple), or None."""
        start = time.perf_counter()
        try:
            cur = self._conn.execute(sql, params)
            try:
                return cur.fetchone()
            finally:
                cur.close()
        finally:
            self._note(sql, start)

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of a query (tuples)."""
        start = time.perf_counter()
        try:
            cur = self._conn.execute(sql, params)
            try:
                return cur.fetchall()
            finally:
                cur.close()
        finally:
            self._note(sql, start)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` and raise again on any error.

        SQLite rolls back by itself on some errors (a full disk: ``SQLITE_FULL``); no second
        ``ROLLBACK`` is then sent (it would raise "no transaction is active" and hide the
        cause)."""
        self.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:
                try:
                    self.execute("ROLLBACK")
                except sqlite3.Error:
                    log.exception("ROLLBACK failed")
            raise

    def _note(self, sql: str, start: float) -> None:
        # A statement's time on the worker (a query's includes fetching its rows).
        if self._statements is not None:
            self._statements.append((sql, time.perf_counter() - start))


class Database:
    """One SQLite file: its connection lives on a dedicated worker thread. Open with
    :meth:`open`, close with :meth:`close`; every use is a hop (:meth:`run`)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        #: Called after every hop (benchmarks; see the module's doc). None: no tracing.
        self.trace: Trace | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._session: Session | None = None

    @property
    def is_open(self) -> bool:
        return self._session is not None

    async def open(self) -> None:
        """Start the worker and connect there (autocommit: ``isolation_level=None``, every
        transaction is an explicit ``BEGIN IMMEDIATE``, see :meth:`Session.transaction`)."""
        if self._executor is not None:
            raise RuntimeError(f"the database {self.path} is open already")
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="anima-sqlite")
        loop = asyncio.get_running_loop()

        def connect() -> Session:
            return Session(sqlite3.connect(self.path, isolation_level=None))

        try:
            self._session = await loop.run_in_executor(self._executor, connect)
        except BaseException:
            self._executor.shutdown(wait=False)
            self._executor = None
            raise

    async def close(self) -> None:
        """Close the connection on its thread and let the worker end (no-op if not open)."""
        executor, self._executor = self._executor, None
        session, self._session = self._session, None
        if executor is None:
            return
        try:
            if session is not None:
                await asyncio.get_running_loop().run_in_executor(executor, session._conn.close)
        finally:
            executor.shutdown(wait=False)

    async def run(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` on the worker in one hop, in a copy of the caller's context;
        its result, or its exception raised here."""
        session, executor = self._session, self._executor
        if session is None or executor is None:
            raise RuntimeError("storage is not open")
        loop = asyncio.get_running_loop()
        ctx = contextvars.copy_context()
        trace = self.trace
        if trace is None:
            return await loop.run_in_executor(executor, ctx.run, fn, session)
        hop = Hop(0.0)

        def traced(s: Session) -> T:
            s._statements = hop.statements
            try:
                return fn(s)
            finally:
                s._statements = None

        start = time.perf_counter()
        try:
            return await loop.run_in_executor(executor, ctx.run, traced, session)
        finally:
            hop.seconds = time.perf_counter() - start
            trace(hop)

    async def transaction(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT`` in one hop: committed
        if it returns, rolled back (and its exception raised here) if it raises."""

        def whole(s: Session) -> T:
            with s.transaction():
                return fn(s)

        return await self.run(whole)
