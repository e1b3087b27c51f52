"""A small asynchronous layer over the standard :mod:`sqlite3` module: one connection, used
by one thread, and an async API whose unit is a *hop*: a plain synchronous function run
against the connection in one go (:meth:`Database.run`; :meth:`Database.transaction` wraps it
in ``BEGIN IMMEDIATE`` ... ``COMMIT``). A whole transaction, or a read of several statements,
is one hop, never one hand-off per statement.

Where a hop runs (``Database(path, inline=...)``):

- *inline* (the bot's default): on the event loop's thread, after one yield to the loop. A
  decision's whole transaction takes ~0.05-0.2 ms of SQLite (WAL with ``synchronous=NORMAL``
  writes no fsync per commit), far less than a trip to another thread: measured in the bot
  (issue 10, ``benchmarks/bot_speed.py``), a hop to a worker thread cost ~2-3 ms per decision
  of waiting for ~0.3 ms of SQLite, because the event loop finishes whatever else is ready
  before it takes the result back, and the worker waits for the GIL (Python's 5 ms switch
  interval) while the loop thread computes. The price of inline: while SQLite works,
  nothing else on the loop does. So the one slow step, the *checkpoint* (copying the WAL
  into the database file and syncing the disk), is not left to SQLite's automatic one
  (which would run inside a commit on the loop every ~1,000 WAL pages): the connection has
  ``wal_autocheckpoint`` off, and every :data:`CHECKPOINT_EVERY` transactions a
  ``PASSIVE`` checkpoint runs on a thread of its own, with a connection of its own
  (:meth:`Database.checkpoint`). SQLite lets it run while the loop's connection goes on
  reading and writing.
- on a dedicated worker thread (``inline=False``): the function runs there, in a copy of the
  caller's :mod:`contextvars` context (a context variable set by the caller is seen as in the
  caller), and the loop stays free meanwhile.

The rules both keep:

- The connection is created, used and closed on its one thread (``sqlite3``'s
  ``check_same_thread`` stays on and would catch a slip). Functions run by a hop get a
  :class:`Session`, the connection's statement API; they must not keep it beyond the hop.
- Hops run one at a time, in the order they were submitted. A function sees the database
  exactly as its own statements leave it, and no other coroutine's statement comes in
  between: no lock is needed around a multi-statement unit.
- A caller cancelled while its hop runs on the worker does not cancel the hop: the function
  runs to its end (a transaction commits or rolls back whole); the caller just does not get
  the result.
- Tracing (benchmarks, tests): :attr:`Database.trace`, when set, is called after every hop, on
  the event loop in the caller's context, with a :class:`Hop`: the time the caller awaited it
  and each statement it executed with its own time. Unset (the bot), it costs nothing.
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

#: Transactions between two background checkpoints when hops run inline. A decision writes
#: about five pages, so this is near SQLite's own 1,000-page default.
CHECKPOINT_EVERY = 200


class Session:
    """The connection as a function run by a hop sees it; used on the connection's thread
    only, during the hop.

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
        with self._cursor(sql, params) as cur:
            return Done(cur.rowcount, cur.lastrowid)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Done:
        """Run one statement once per row of ``rows`` (one call: one statement)."""
        with self._cursor(sql, rows, many=True) as cur:
            return Done(cur.rowcount, cur.lastrowid)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of a query (a tuple), or None."""
        with self._cursor(sql, params) as cur:
            return cur.fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of a query (tuples)."""
        with self._cursor(sql, params) as cur:
            return cur.fetchall()

    @contextlib.contextmanager
    def _cursor(self, sql: str, params: Any, many: bool = False) -> Iterator[sqlite3.Cursor]:
        """The cursor of one statement (``many``: ``executemany`` over rows), closed when
        the block ends; the statement is noted for tracing, failed or not."""
        start = time.perf_counter()
        try:
            cur = self._conn.executemany(sql, params) if many else self._conn.execute(sql, params)
            try:
                yield cur
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
    """One SQLite file and its connection. Open with :meth:`open`, close with :meth:`close`;
    every use is a hop (:meth:`run`).

    ``inline`` (the bot's choice, see the module's doc) runs each hop's function right away
    on the event loop's thread; otherwise it runs on the dedicated worker thread. Either
    way the connection is used by one thread only, and the API and its guarantees are the
    same."""

    def __init__(self, path: Path | str, inline: bool = True) -> None:
        self.path = Path(path)
        self.inline = inline
        #: Called after every hop (benchmarks; see the module's doc). None: no tracing.
        self.trace: Trace | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._session: Session | None = None
        #: Inline: the checkpoints' thread (its own connection lives there), the one running
        #: now, and the transactions since the last one started.
        self._checkpointer: ThreadPoolExecutor | None = None
        self._checkpoint_conn: sqlite3.Connection | None = None
        self._checkpointing: asyncio.Future[None] | None = None
        self._since_checkpoint = 0

    @property
    def is_open(self) -> bool:
        return self._session is not None

    async def open(self) -> None:
        """Connect (autocommit: ``isolation_level=None``, every transaction is an explicit
        ``BEGIN IMMEDIATE``, see :meth:`Session.transaction`), on the worker thread that
        is started here unless ``inline``."""
        if self._session is not None:
            raise RuntimeError(f"the database {self.path} is open already")
        if self.inline:
            conn = sqlite3.connect(self.path, isolation_level=None)
            # Checkpoints run on their own thread (:meth:`checkpoint`), never in a commit.
            conn.execute("PRAGMA wal_autocheckpoint=0").close()
            self._session = Session(conn)
            return
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="anima-sqlite")

        def connect() -> Session:
            return Session(sqlite3.connect(self.path, isolation_level=None))

        try:
            self._session = await asyncio.get_running_loop().run_in_executor(executor, connect)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        self._executor = executor

    async def close(self) -> None:
        """Close the connection (on its thread) and let the worker end (no-op if not open)."""
        if self._checkpointing is not None:
            with contextlib.suppress(Exception):
                await self._checkpointing
        checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            conn, self._checkpoint_conn = self._checkpoint_conn, None
            if conn is not None:
                checkpointer.submit(conn.close)
            checkpointer.shutdown(wait=True)
        executor, self._executor = self._executor, None
        session, self._session = self._session, None
        if session is None:
            return
        if executor is None:
            session._conn.close()
            return
        try:
            await asyncio.get_running_loop().run_in_executor(executor, session._conn.close)
        finally:
            executor.shutdown(wait=False)

    async def run(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` in one hop (on the worker thread, in a copy of the caller's
        context, unless ``inline``); its result, or its exception raised here.

        Inline, the hop first yields to the event loop once (``asyncio.sleep(0)``), then runs
        ``fn`` and resumes the caller at once: awaiting the database stays a suspension
        point (tasks that became ready, such as the gateway's events, run first; a chain of
        hops, like the recovery of many games, does not hold the loop), and nothing runs
        between the function and the caller's next line."""
        session = self._session
        if session is None:
            raise RuntimeError("storage is not open")
        trace = self.trace
        if trace is None:
            if self._executor is None:
                await asyncio.sleep(0)  # a suspension point, as any await of I/O
                return fn(session)
            ctx = contextvars.copy_context()
            return await asyncio.get_running_loop().run_in_executor(
                self._executor, ctx.run, fn, session
            )
        hop = Hop(0.0)

        def traced(s: Session) -> T:
            s._statements = hop.statements
            try:
                return fn(s)
            finally:
                s._statements = None

        start = time.perf_counter()
        try:
            if self._executor is None:
                await asyncio.sleep(0)
                return traced(session)
            ctx = contextvars.copy_context()
            return await asyncio.get_running_loop().run_in_executor(
                self._executor, ctx.run, traced, session
            )
        finally:
            hop.seconds = time.perf_counter() - start
            trace(hop)

    async def transaction(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT`` in one hop: committed
        if it returns, rolled back (and its exception raised here) if it raises."""

        def whole(s: Session) -> T:
            with s.transaction():
                return fn(s)

        try:
            return await self.run(whole)
        finally:
            if self._executor is None:
                self._since_checkpoint += 1
                if self._since_checkpoint >= CHECKPOINT_EVERY and self._checkpointing is None:
                    self._since_checkpoint = 0
                    self._checkpointing = asyncio.ensure_future(self.checkpoint())

    async def checkpoint(self) -> None:
        """Copy the WAL into the database file (``PRAGMA wal_checkpoint(PASSIVE)``) on the
        checkpoints' own thread and connection, while the loop goes on; started by
        :meth:`transaction` every :data:`CHECKPOINT_EVERY` transactions when hops run inline.
        A failure is logged (SQLite retries at the next one; the WAL only grows meanwhile)."""
        if self._session is None:
            return
        if self._checkpointer is None:
            self._checkpointer = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="anima-sqlite-checkpoint"
            )

        def run() -> None:
            if self._checkpoint_conn is None:
                self._checkpoint_conn = sqlite3.connect(self.path, isolation_level=None)
            self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)").close()

        try:
            await asyncio.get_running_loop().run_in_executor(self._checkpointer, run)
        except sqlite3.Error:
            log.exception("background checkpoint of %s failed", self.path)
        finally:
            self._checkpointing = None
