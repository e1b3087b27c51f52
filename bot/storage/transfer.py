"""Copying a SQLite database of the bot into a PostgreSQL database, whole, in one transaction
(``anima-bot migrate``: :mod:`bot.migrate` makes the SQLite side a snapshot at this bot's
schema version, then verifies the games copied).

:func:`copy_sqlite_into` runs in one hop of the PostgreSQL connection, as one transaction:

1. the bot's migration lock, held to the end (a bot starting on the database meanwhile waits
   for the copy, then finds the schema made);
2. the target's schema: none yet (and no table at all), or the bot's at this version or an
   older one, brought up to date with PostgreSQL's migrations (:mod:`bot.storage
   .schema_postgres`, the statements the bot runs at start);
3. every table empty (a target with any row is refused: nothing is merged), locked against
   writers;
4. every table of the SQLite database copied as it is, column by column (the same tables and
   columns on both sides, or the copy is refused), in chunks; ``games`` before the ``seats``
   that reference them, and the stats aggregates last: the results' trigger counts each
   copied result into ``player_stats``, which is then replaced by the SQLite rows (the same
   counts, and the names they had);
5. the row ids to come (games, events) after the highest ever given in SQLite (its
   ``AUTOINCREMENT`` never reuses an id: a deleted game's buttons must not find another game);
6. every table's row count checked.

Anything that fails rolls the whole back: the target is left as it was. A value PostgreSQL's
column cannot hold (SQLite keeps any text in an INTEGER column: a damaged row) is named with
its table, row and column.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.database import DatabaseError, Session
from bot.storage.dialect import MIGRATION_LOCK_KEY
from bot.storage.schema import SCHEMA_VERSION

#: Rows sent per statement (asyncpg pipelines a chunk in one round trip).
CHUNK = 1000
#: Copied first, in this order: the games before the rows that reference them.
FIRST = ("guild_settings", "games", "seats")
#: Copied last, after the ``results`` whose trigger fills ``player_stats``: replaced by the
#: SQLite rows.
AGGREGATES = ("guild_stats", "player_stats")


class TransferRefused(Exception):
    """The copy was not made (nothing written); the message says why, in one line."""


@dataclass(frozen=True)
class Column:
    """A column of the target: its PostgreSQL type and whether it takes NULL."""

    name: str
    type: str
    nullable: bool


async def copy_sqlite_into(
    target: Session, source: sqlite3.Connection, migrations: Sequence[Sequence[str]]
) -> dict[str, int]:
    """Copy every table of ``source`` (the bot's SQLite database, at this bot's schema
    version) into ``target`` (an empty PostgreSQL database, or one with the bot's schema and
    no rows), in one transaction; ``migrations``: PostgreSQL's. Returns the rows copied per
    table, in the order copied. Raises :class:`TransferRefused` (nothing written)."""
    async with target.transaction():
        await target.all(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
        await _schema(target, migrations)
        tables = await _target_tables(target)
        order = _order(source, tables)
        names = ", ".join(order)
        await target.execute(f"LOCK TABLE {names} IN EXCLUSIVE MODE")
        for table in order:
            if await target.one(f"SELECT 1 FROM {table} LIMIT 1") is not None:
                raise TransferRefused(
                    f"the PostgreSQL database is not empty (table {table} has rows): "
                    "migrate into a new database (createdb), nothing is merged"
                )
        copied: dict[str, int] = {}
        for table in order:
            if table in AGGREGATES:
                await target.execute(f"DELETE FROM {table}")  # the trigger's counts
            copied[table] = await _copy(target, source, table, tables[table])
        await _next_ids(target, source)
        for table, rows in copied.items():
            found = (await target.one(f"SELECT COUNT(*) FROM {table}"))[0]
            if found != rows:
                raise TransferRefused(f"table {table}: {found} rows written of {rows}")
    return copied


async def _schema(s: Session, migrations: Sequence[Sequence[str]]) -> None:
    """Make the bot's schema in the target, or bring it up to date (in the transaction)."""
    present = await s.one("SELECT to_regclass('schema_version') IS NOT NULL")
    if not present[0]:
        others = await s.all(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() ORDER BY table_name"
        )
        if others:
            listed = ", ".join(str(r[0]) for r in others[:5])
            raise TransferRefused(
                f"the PostgreSQL database is not empty (table(s) {listed}, and no schema of "
                "the bot): migrate into a new database (createdb)"
            )
        # The table the bot's own migration hop makes (bot.storage.schema).
        await s.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await s.execute("INSERT INTO schema_version (version) VALUES (0)")
    version = (await s.one("SELECT version FROM schema_version"))[0]
    if version > SCHEMA_VERSION:
        raise TransferRefused(
            f"the PostgreSQL database's schema is version {version}, newer than this bot "
            f"({SCHEMA_VERSION}): update the bot"
        )
    for step in migrations[version:]:
        for statement in step:
            await s.execute(statement)
    await s.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))


async def _target_tables(s: Session) -> dict[str, dict[str, Column]]:
    """The target's tables (but ``schema_version``) and their columns."""
    rows = await s.all(
        "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name <> 'schema_version' "
        "ORDER BY table_name, ordinal_position"
    )
    tables: dict[str, dict[str, Column]] = {}
    for table, name, kind, nullable in rows:
        tables.setdefault(str(table), {})[str(name)] = Column(
            str(name), str(kind), nullable == "YES"
        )
    return tables


def _order(source: sqlite3.Connection, tables: dict[str, dict[str, Column]]) -> list[str]:
    """The tables to copy, in order; refused unless both sides have the same tables and
    columns."""
    found = {
        str(r[0])
        for r in source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'schema_version'"
        )
    }
    if found != set(tables):
        only_here = sorted(found - set(tables)) or ["none"]
        only_there = sorted(set(tables) - found) or ["none"]
        raise TransferRefused(
            f"the databases' tables differ (only in SQLite: {', '.join(only_here)}; only in "
            f"PostgreSQL: {', '.join(only_there)})"
        )
    for table in found:
        columns = {str(r[1]) for r in source.execute(f'PRAGMA table_info("{table}")')}
        if columns != set(tables[table]):
            raise TransferRefused(f"table {table}: the databases' columns differ")
    middle = sorted(found - set(FIRST) - set(AGGREGATES))
    return [t for t in FIRST if t in found] + middle + [t for t in AGGREGATES if t in found]


async def _copy(
    target: Session, source: sqlite3.Connection, table: str, columns: dict[str, Column]
) -> int:
    """Copy one table in chunks; the rows copied."""
    names = list(columns)
    listed = ", ".join(names)
    insert = f"INSERT INTO {table} ({listed}) VALUES ({', '.join('?' * len(names))})"
    cursor = source.execute(f'SELECT {listed} FROM "{table}"')
    copied = 0
    while chunk := cursor.fetchmany(CHUNK):
        rows = [tuple(r) for r in chunk]
        try:
            await target.executemany(insert, rows)
        except DatabaseError as exc:
            raise TransferRefused(_why(table, [columns[n] for n in names], rows, exc)) from exc
        copied += len(rows)
    return copied


def _why(table: str, columns: list[Column], rows: list[tuple[Any, ...]], exc: Exception) -> str:
    """Why a chunk was refused: its first value PostgreSQL's column cannot hold, named, else
    the driver's reason."""
    for row in rows:
        for column, value in zip(columns, row, strict=True):
            if not _fits(value, column):
                key = f"{columns[0].name} {row[0]!r}, {columns[1].name} {row[1]!r}"
                shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
                return (
                    f"table {table}, row ({key}): column {column.name} holds {shown}, which a "
                    f"PostgreSQL {column.type} column cannot hold (a damaged row: fix or delete "
                    "it in the SQLite database, then migrate again)"
                )
    return f"table {table}: {exc}"


#: The range of PostgreSQL's integer types.
_INTEGERS = {"bigint": 1 << 63, "integer": 1 << 31, "smallint": 1 << 15}


def _fits(value: Any, column: Column) -> bool:
    """Whether PostgreSQL's ``column`` takes the SQLite ``value`` (True for a type not
    checked here: the driver decides)."""
    if value is None:
        return column.nullable
    if column.type in _INTEGERS:
        bound = _INTEGERS[column.type]
        return isinstance(value, int) and not isinstance(value, bool) and -bound <= value < bound
    if column.type == "double precision":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if column.type == "text":
        return isinstance(value, str)
    return True


async def _next_ids(target: Session, source: sqlite3.Connection) -> None:
    """Set each identity column's next value past the highest id SQLite ever gave."""
    given: dict[str, int] = {}
    if source.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").fetchone():
        given = {
            str(r[0]): int(r[1]) for r in source.execute("SELECT name, seq FROM sqlite_sequence")
        }
    identities = await target.all(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND is_identity = 'YES'"
    )
    for table, column in identities:
        top = (await target.one(f"SELECT COALESCE(MAX({column}), 0) FROM {table}"))[0]
        top = max(int(top), given.get(str(table), 0))
        await target.all(
            "SELECT setval(pg_get_serial_sequence(?, ?), ?, ?)",
            (str(table), str(column), max(top, 1), top > 0),
        )
