"""The bot's database connection, on one of two backends behind one interface, each on the
library made for it:

- SQLite through :mod:`aiosqlite` (:mod:`bot.database.sqlite`), the default: one file, no
  server (``ANIMA_DB_PATH``, or ``DATABASE_URL=sqlite:///path``);
- PostgreSQL through :mod:`asyncpg` (:mod:`bot.database.postgres`), the way to grow past one
  process (``DATABASE_URL=postgresql://user@host/name``).

:func:`database_for` picks the backend from the address. Both give the same
:class:`~bot.database.base.Database` (a connection and its *hops*: a unit of work run whole,
one at a time) and :class:`~bot.database.base.Session` (its statements, written with ``?``
placeholders), and raise the same errors (:mod:`bot.database.base`). The storage's SQL that
differs between them (the schema, a JSON test) is in :mod:`bot.storage.dialect`.
"""

from __future__ import annotations

from pathlib import Path

from bot.database.base import (
    Database,
    DatabaseError,
    Done,
    Hop,
    IntegrityError,
    ReadOnlyError,
    Session,
    Trace,
)
from bot.database.postgres import PostgresDatabase, without_password
from bot.database.sqlite import SQLiteDatabase

__all__ = [
    "SQLITE_PREFIX",
    "Database",
    "DatabaseError",
    "Done",
    "Hop",
    "IntegrityError",
    "PostgresDatabase",
    "ReadOnlyError",
    "SQLiteDatabase",
    "Session",
    "Trace",
    "database_for",
    "is_postgres_url",
    "without_password",
]

#: A SQLite address: ``sqlite:///anima.sqlite3`` (a relative path) or
#: ``sqlite:////var/lib/anima/anima.sqlite3`` (an absolute one), as SQLAlchemy writes them.
SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


def is_postgres_url(target: Path | str) -> bool:
    """Whether ``target`` is a PostgreSQL address."""
    return isinstance(target, str) and target.startswith(POSTGRES_PREFIXES)


def database_for(target: Path | str) -> Database:
    """The database at ``target``: a ``postgresql://`` or ``sqlite:///`` address, or a
    SQLite file's path. Raises ValueError for another kind of address."""
    if isinstance(target, Path):
        return SQLiteDatabase(target)
    if is_postgres_url(target):
        return PostgresDatabase(target)
    if target.startswith(SQLITE_PREFIX):
        path = target.removeprefix(SQLITE_PREFIX)
        if not path:
            raise ValueError("a sqlite:/// address needs a file path: sqlite:///anima.sqlite3")
        return SQLiteDatabase(Path(path))
    if "://" in target:
        raise ValueError(
            f"unknown database address {without_password(target)!r}: use "
            "sqlite:///PATH or postgresql://USER@HOST/NAME"
        )
    return SQLiteDatabase(Path(target))
