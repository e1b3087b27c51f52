"""bot.database: a transaction or a read of several statements is one hop, inline on the
event loop's thread or on the worker thread; a failed transaction leaves nothing."""

from __future__ import annotations

import contextvars
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.database import Database, Hop, Session
from bot.storage import GameWrite, GuildSettings, NewEvent, Pointer, Storage, StorageUnavailable

WHO: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="nobody")


@pytest.fixture(params=[True, False], ids=["inline", "worker"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(tmp_path / "t.sqlite3", inline=request.param)
    await database.open()
    await database.run(lambda s: s.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)"))
    yield database
    await database.close()


def _rows(s: Session) -> list[tuple[int, str]]:
    return [(a, b) for a, b in s.all("SELECT a, b FROM t ORDER BY a")]


async def test_a_transaction_is_one_hop_with_its_statements(db: Database) -> None:
    hops: list[Hop] = []
    db.trace = hops.append

    def write(s: Session) -> int:
        s.executemany("INSERT INTO t (b) VALUES (?)", [("x",), ("y",), ("z",)])
        return s.execute("UPDATE t SET b = 'w' WHERE a = 1").rowcount

    assert await db.transaction(write) == 1
    assert await db.run(_rows) == [(1, "w"), (2, "y"), (3, "z")]
    db.trace = None
    await db.run(_rows)  # untraced
    assert len(hops) == 2
    assert [sql.split()[0] for sql, _ in hops[0].statements] == [
        "BEGIN",
        "INSERT",  # executemany of three rows: one statement
        "UPDATE",
        "COMMIT",
    ]
    assert all(seconds >= 0 for _, seconds in hops[0].statements)
    assert hops[0].seconds >= sum(seconds for _, seconds in hops[0].statements)


async def test_an_error_rolls_the_whole_transaction_back(db: Database) -> None:
    def half(s: Session) -> None:
        s.execute("INSERT INTO t (b) VALUES ('kept?')")
        raise OSError("disk gone")

    with pytest.raises(OSError, match="disk gone"):
        await db.transaction(half)
    assert await db.run(_rows) == []
    assert not await db.run(lambda s: s.in_transaction)


async def test_a_hop_runs_in_the_callers_context_on_the_connections_thread(
    db: Database,
) -> None:
    WHO.set("alice")
    seen = await db.run(lambda s: (WHO.get(), threading.get_ident()))
    assert seen[0] == "alice"
    on_loop = seen[1] == threading.get_ident()
    assert on_loop == db.inline
    # The same thread every time (the connection belongs to it).
    assert (await db.run(lambda s: threading.get_ident())) == seen[1]


async def test_a_transaction_that_sqlite_ended_gets_no_second_rollback(db: Database) -> None:
    """When SQLite has ended the transaction itself (as on SQLITE_FULL), the error raised is
    the real cause, not "cannot rollback - no transaction is active"."""
    hops: list[Hop] = []
    db.trace = hops.append

    def ended(s: Session) -> None:
        s.execute("INSERT INTO t (b) VALUES ('x')")
        s.execute("ROLLBACK")  # what SQLite does by itself on some errors
        raise OSError("the real cause")

    with pytest.raises(OSError, match="the real cause"):
        await db.transaction(ended)
    assert [sql for sql, _ in hops[-1].statements] == [
        "BEGIN IMMEDIATE",
        "INSERT INTO t (b) VALUES ('x')",
        "ROLLBACK",
    ]


async def test_a_full_database_reports_itself_and_keeps_nothing(db: Database) -> None:
    pages = (await db.run(lambda s: s.one("PRAGMA page_count")))[0]
    await db.run(lambda s: s.one(f"PRAGMA max_page_count = {pages}"))

    def fill(s: Session) -> None:
        s.executemany("INSERT INTO t (b) VALUES (?)", [("x" * 4000,)] * 50)

    with pytest.raises(sqlite3.OperationalError, match="full"):
        await db.transaction(fill)
    assert await db.run(_rows) == []
    assert not await db.run(lambda s: s.in_transaction)


async def test_closed_means_closed(tmp_path: Path) -> None:
    database = Database(tmp_path / "t.sqlite3", inline=False)
    with pytest.raises(RuntimeError, match="not open"):
        await database.run(_rows)
    await database.open()
    await database.close()
    await database.close()  # twice: nothing to do
    with pytest.raises(RuntimeError, match="not open"):
        await database.run(_rows)


@pytest.mark.parametrize("inline", [True, False], ids=["inline", "worker"])
async def test_storage_commits_a_decision_in_one_hop_either_way(
    tmp_path: Path, inline: bool
) -> None:
    storage = Storage(tmp_path / "anima.sqlite3", GuildSettings(0, 300, 45, True, 3), inline)
    await storage.open()
    try:
        game_id = await storage.create_lobby(1, 2, 3, "alice", {}, 0.0)
        assert game_id is not None
        assert await storage.start_game(game_id, "{}", 0, 1, 0, 30, {}, [], [], 0.0)
        hops: list[Hop] = []
        storage.db.trace = hops.append
        write = GameWrite(
            1,
            "{}",
            [(1, "p1", "done", "human")],
            [(1, NewEvent("n", "hi"))],
            [],
            None,
            Pointer(0, -1, None, None),
        )
        [event] = await storage.commit(game_id, 0, write, 1.0)
        assert len(hops) == 1 and hops[0].statements[0][0] == "BEGIN IMMEDIATE"
        found = await storage.game_to_play(game_id)
        assert found is not None
        row, seats, unpublished = found
        assert len(hops) == 2 and len(hops[1].statements) == 2  # the row, the seats
        assert row.version == 1 and [s.seat for s in seats] == ["p1"] and unpublished
        storage.defer_pointer(game_id, Pointer(event.id, 1, None, None))
        found = await storage.game_to_play(game_id)
        assert found is not None and not found[2]  # the pointer not yet written counts
        # A write that SQLite refuses is StorageUnavailable (its cause named), nothing written.
        await storage.fetchone("PRAGMA query_only = 1")
        with pytest.raises(StorageUnavailable, match=r"readonly"):
            await storage.commit(game_id, 1, write, 2.0)
        await storage.fetchone("PRAGMA query_only = 0")
        assert (await storage.actions(game_id)) == [(1, "p1", "done", "human")]
    finally:
        await storage.close()


def _pages_in_file(path: Path) -> int:
    """The database size in pages as the main file's header says (bytes 28-31): what
    checkpoints have copied there, the WAL left out."""
    return int.from_bytes(path.read_bytes()[28:32], "big")


async def test_inline_commits_leave_checkpoints_to_a_thread_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inline, SQLite's automatic checkpoint (the one step that syncs the disk) would run
    inside a commit on the event loop: it is off, and every CHECKPOINT_EVERY transactions a
    checkpoint copies the WAL into the file on the checkpoints' thread."""
    monkeypatch.setattr("bot.database.CHECKPOINT_EVERY", 3)
    path = tmp_path / "c.sqlite3"
    database = Database(path, inline=True)
    await database.open()
    try:
        assert await database.run(lambda s: s.one("PRAGMA wal_autocheckpoint")) == (0,)
        await database.run(lambda s: s.one("PRAGMA journal_mode=WAL"))
        await database.run(lambda s: s.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b)"))
        before = _pages_in_file(path)
        threads: list[str] = []
        monkeypatch.setattr(
            "bot.database.sqlite3.connect",
            _recording_connect(threads, sqlite3.connect),
        )
        for _ in range(2):
            await database.transaction(
                lambda s: s.execute("INSERT INTO t (b) VALUES (?)", ("x" * 20_000,))
            )
        assert database._checkpointing is None  # two transactions: not yet
        await database.transaction(
            lambda s: s.execute("INSERT INTO t (b) VALUES (?)", ("y" * 20_000,))
        )
        running = database._checkpointing
        assert running is not None
        await running
        assert threads == ["anima-sqlite-checkpoint"]  # its own connection, on its thread
        assert _pages_in_file(path) > before + 10  # the three 20 KB rows are in the file now
        assert await database.run(lambda s: s.one("SELECT count(*) FROM t")) == (3,)
    finally:
        await database.close()


def _recording_connect(
    threads: list[str], connect: Callable[..., sqlite3.Connection]
) -> Callable[..., sqlite3.Connection]:
    def recording(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        threads.append(threading.current_thread().name.rsplit("_", 1)[0])
        return connect(*args, **kwargs)

    return recording
