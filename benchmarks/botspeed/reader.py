"""The benchmark's own read-only view of the bot's database, behind the bot's back (the
driver reads each game's state and seats there, as a player sees the board): ``sqlite3`` on
the SQLite file, or ``psycopg`` on a PostgreSQL database (``bot_speed.py --db``). Both take
the same statements, with ``?`` placeholders, and answer rows as tuples."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any


class Reader:
    """``execute(sql, params)`` -> a cursor with ``fetchone``, ``fetchall`` and iteration."""

    def __init__(self, target: Path | str) -> None:
        self.postgres = isinstance(target, str)
        if isinstance(target, str):
            import psycopg

            self._pg = psycopg.connect(target, autocommit=True)
            self._db: sqlite3.Connection | None = None
        else:
            self._db = sqlite3.connect(f"file:{target}?mode=ro", uri=True)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        if self._db is not None:
            return self._db.execute(sql, params)
        import psycopg

        from bot.database.postgres import numbered

        cursor = psycopg.RawCursor(self._pg)
        cursor.execute(numbered(sql), tuple(params))
        return cursor

    def database_bytes(self, path: Path | None) -> int:
        """The database's size: the SQLite file and its WAL, or PostgreSQL's own count."""
        if self._db is None:
            return int(self.execute("SELECT pg_database_size(current_database())").fetchone()[0])
        assert path is not None
        wal = path.with_name(path.name + "-wal")
        return sum(p.stat().st_size for p in (path, wal) if p.exists())

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
        else:
            self._pg.close()
