"""The storage's SQL that differs between SQLite and PostgreSQL, in one place: each backend's
:class:`Dialect`, which the store reads and never tests the backend's name.

The connection, the placeholders (``?`` everywhere: PostgreSQL's driver numbers them), the
transactions and the errors are :mod:`bot.database`'s; every other statement of the store
is the same text on both backends (``INSERT ... ON CONFLICT``, ``... RETURNING id``, flags as
INTEGER 0/1). What is left differs here:

- the schema's migrations (the same steps: :mod:`bot.storage.schema`,
  :mod:`bot.storage.schema_postgres`);
- the connection's settings (SQLite's journal and sync modes; PostgreSQL's are the server's);
- the check made before opening (SQLite's file: writable, :func:`bot.integrity
  .check_writable`, and sound, :func:`bot.integrity.check_file`);
- the lock held while migrating (PostgreSQL: processes may start together on one server);
- how a batch of leases is claimed (PostgreSQL: ``FOR UPDATE SKIP LOCKED``);
- how a decision's rows are sent (:mod:`bot.storage.writes`: a statement per table on
  SQLite, one statement on PostgreSQL);
- the test "this event's JSON list of recipients holds the seat ``?``".
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.database import Database, PostgresDatabase, Session, SQLiteDatabase
from bot.integrity import check_file, check_writable
from bot.storage.claims import claim_each, claim_skip_locked
from bot.storage.schema import MIGRATIONS
from bot.storage.schema_postgres import POSTGRES_MIGRATIONS
from bot.storage.writes import CommitRows, write_at_once, write_each

#: The key of PostgreSQL's advisory lock held while the schema is made or brought up to date
#: (at start, and by ``anima-bot migrate``'s copy): any key of the bot's own, "anima" in
#: ASCII.
MIGRATION_LOCK_KEY = 418581817697


@dataclass(frozen=True)
class Dialect:
    """One backend's SQL and checks, as the store uses them."""

    name: str
    #: The schema's migrations (``migrations[i]``: version i to i + 1).
    migrations: Sequence[Sequence[str]]
    #: Statements run once on every new connection.
    settings: Sequence[str]
    #: An SQL condition on a row of ``events``: its recipients (a JSON list) hold the seat
    #: given as the one ``?`` parameter.
    recipient_is: str
    #: Raises :class:`bot.integrity.DatabaseUnusable` if the database must not be opened
    #: (damaged, or read-only).
    check: Callable[[Database], Awaitable[None]]
    #: How a running game's change is sent, as one transaction: the new events' ids
    #: (:mod:`bot.storage.writes`).
    write_commit: Callable[[Session, CommitRows], Awaitable[list[int]]]
    #: Claims a batch of leases (:mod:`bot.storage.leases`): the games claimed.
    claim_leases: Callable[
        [Session, str, Sequence[int], str, float, float], Awaitable[list[int]]
    ] = claim_each
    #: Queries that take and release a lock held while the schema is brought up to date,
    #: so that processes starting together on one server migrate it once (empty: none).
    migration_lock: tuple[str, ...] = ()


async def _check_sqlite_file(database: Database) -> None:
    # A file the bot may not write is refused as such first (it is not damaged, and SQLite
    # could not even read a WAL database in a read-only folder); quick_check reads the
    # whole file: on a thread, the event loop stays free.
    assert isinstance(database, SQLiteDatabase)
    check_writable(database.path)
    await asyncio.to_thread(check_file, database.path)


async def _nothing_to_check(database: Database) -> None:
    # A PostgreSQL server checks its own pages (and refuses a connection it cannot serve).
    return None


SQLITE = Dialect(
    name="sqlite",
    migrations=MIGRATIONS,
    # WAL: readers never wait for the writer; synchronous NORMAL: a commit survives a crash
    # of the bot (only a power cut may lose the last ones); foreign keys enforced as on
    # PostgreSQL.
    settings=("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON"),
    recipient_is="EXISTS (SELECT 1 FROM json_each(events.recipients) WHERE value = ?)",
    check=_check_sqlite_file,
    # The whole hop is one trip to aiosqlite's thread: a statement per table costs nothing
    # more (and SQLite has no data-modifying WITH).
    write_commit=write_each,
)

POSTGRESQL = Dialect(
    name="postgresql",
    migrations=POSTGRES_MIGRATIONS,
    settings=(),
    # A damaged list fails the cast, as SQLite's json_each fails on it: the caller's game is
    # broken either way (its rows are read one by one elsewhere, without raising).
    recipient_is="events.recipients::jsonb @> jsonb_build_array(CAST(? AS TEXT))",
    check=_nothing_to_check,
    # One round trip instead of six (each costs the bot ~0.1 ms of CPU).
    write_commit=write_at_once,
    # Two processes claiming the due timers at once skip each other's rows.
    claim_leases=claim_skip_locked,
    migration_lock=(
        f"SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})",
        f"SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})",
    ),
)

_BY_DATABASE: dict[type[Database], Dialect] = {
    SQLiteDatabase: SQLITE,
    PostgresDatabase: POSTGRESQL,
}


def dialect_of(database: Database) -> Dialect:
    """The dialect of ``database``'s backend."""
    return _BY_DATABASE[type(database)]


def dialect_named(name: str) -> Dialect:
    """The dialect called ``name`` (``"sqlite"`` or ``"postgresql"``)."""
    return next(d for d in _BY_DATABASE.values() if d.name == name)
