"""The database a test's bot uses, on either backend, and a plain connection to it that reads
(and damages) rows behind the bot's back, as an admin would: ``sqlite3`` for a SQLite file,
``psycopg`` for PostgreSQL. Statements are written once with ``?`` placeholders, numbered for
PostgreSQL by the bot's own rule (:func:`bot.database.postgres.numbered`).

A test names its database either as a SQLite file's :class:`~pathlib.Path` (most tests) or
as a :class:`TestDatabase` (the storage tests, run on both backends: the ``database``
fixture of ``tests/bot/conftest.py``); :func:`connect` takes either.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from bot.database.postgres import numbered
from bot.storage.dialect import Dialect, dialect_named

#: The backends every storage test runs on (the ``database`` fixture's parameters).
BACKENDS = ("sqlite", "postgresql")


class PgConnection:
    """A psycopg connection (autocommit) with sqlite3's ``execute`` / ``executemany``."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        cursor = psycopg.RawCursor(self.conn)
        cursor.execute(numbered(sql), tuple(params))
        return cursor

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with psycopg.RawCursor(self.conn) as cursor:
            cursor.executemany(numbered(sql), [tuple(r) for r in rows])


@dataclass
class TestDatabase:
    """A test's database: its backend, the address the bot opens, and (SQLite) its file."""

    __test__ = False  # not a test class, whatever its name

    kind: str
    url: str
    path: Path | None = None
    _conn: PgConnection | None = field(default=None, repr=False)

    @classmethod
    def sqlite(cls, path: Path) -> TestDatabase:
        return cls("sqlite", f"sqlite:///{path}", path)

    @classmethod
    def postgresql(cls, url: str) -> TestDatabase:
        return cls("postgresql", url)

    @property
    def dialect(self) -> Dialect:
        """The bot's dialect of this backend (its migrations, for an old schema)."""
        return dialect_named(self.kind)

    @property
    def target(self) -> Path | str:
        """What the bot is given (``Storage(target, ...)``, ``make_bot(db_path=target)``)."""
        return self.path if self.path is not None else self.url

    def pg(self) -> PgConnection:
        """The test's one PostgreSQL connection (opened on first use)."""
        if self._conn is None:
            self._conn = PgConnection(psycopg.connect(self.url, autocommit=True))
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.conn.close()
            self._conn = None


@contextlib.contextmanager
def connect(db: Path | TestDatabase) -> Iterator[Any]:
    """A connection to ``db`` with ``execute(sql, params)`` (``?`` placeholders) whose
    cursor has ``fetchone`` / ``fetchall``; what it writes is committed when the block ends."""
    path = db if isinstance(db, Path) else db.path
    if path is not None:
        with contextlib.closing(sqlite3.connect(path)) as conn, conn:
            yield conn
        return
    assert isinstance(db, TestDatabase)
    yield db.pg()
