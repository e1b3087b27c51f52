"""Storage, on both backends: the schema is created and migrated at start (an old log is
migrated and still read); one transaction per action, a decision with the AI moves after it
in at most six statements."""

from __future__ import annotations

import asyncio

import pytest
import simcord
from anima_sim import (
    World,
    drive_new_game,
    stored,
)
from databases import TestDatabase, connect

from bot.app import AnimaBot
from bot.database import Hop
from bot.storage import (
    MIGRATIONS,
    SCHEMA_VERSION,
    GameWrite,
    GuildSettings,
    NewEvent,
    Pointer,
    Storage,
    VersionConflict,
)

DEFAULTS = GuildSettings(0, 300, 45, True, 3)

pytestmark = pytest.mark.both_backends


def old_schema(database: TestDatabase, version: int) -> None:
    """Write the schema of ``version`` (the backend's first migrations) into ``database``."""
    with connect(database) as db:
        for migration in database.dialect.migrations[:version]:
            for statement in migration:
                db.execute(statement)
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (?)", (version,))


def test_both_backends_have_every_migration() -> None:
    sqlite, postgresql = (TestDatabase(kind, "").dialect for kind in ("sqlite", "postgresql"))
    assert len(sqlite.migrations) == len(postgresql.migrations) == SCHEMA_VERSION
    assert sqlite.migrations is MIGRATIONS


async def test_schema_is_created_once(database: TestDatabase) -> None:
    target = database.path.parent / "sub" / "anima.sqlite3" if database.path else database.url
    storage = Storage(target, DEFAULTS)
    await storage.open()
    assert await storage.migrate() == SCHEMA_VERSION  # again: nothing to do
    await storage.close()
    storage = Storage(target, DEFAULTS)
    await storage.open()
    await storage.close()
    with connect(TestDatabase.sqlite(target) if database.path else database) as db:
        versions = db.execute("SELECT version FROM schema_version").fetchall()
        if database.kind == "sqlite":
            assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            listed = "SELECT name FROM sqlite_master WHERE type='table'"
        else:
            listed = (
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        tables = {r[0] for r in db.execute(listed).fetchall()}
    assert versions == [(SCHEMA_VERSION,)]
    assert {"games", "seats", "actions", "events", "guild_settings", "results"} <= tables


async def test_an_old_database_gains_the_auto_pass_and_keeps_its_games(
    database: TestDatabase,
) -> None:
    """A database of schema 1 (before the auto-pass) is migrated in place: its games stay,
    and each member's auto-pass is then remembered per server."""
    old_schema(database, 1)
    with connect(database) as db:
        db.execute(
            "INSERT INTO games (guild_id, channel_id, host_id, status, options_json, created_at) "
            "VALUES (1, 2, 3, 'lobby', '{}', 0)"
        )
    storage = Storage(database.target, DEFAULTS)
    await storage.open()
    try:
        assert (await storage.game(1)) is not None
        assert await storage.autopass(1, [3, 4]) == {}
        await storage.set_autopass(1, 3, ["battle_start", "move_declared"])
        await storage.set_autopass(9, 4, ["reset"])
        assert await storage.autopass(1, [3, 4]) == {3: {"battle_start", "move_declared"}}
        await storage.set_autopass(1, 3, [])
        assert await storage.autopass(1, [3]) == {}
    finally:
        await storage.close()
    with connect(database) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]


async def test_a_newer_schema_is_refused(database: TestDatabase) -> None:
    with connect(database) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (99)")
    storage = Storage(database.target, DEFAULTS)
    with pytest.raises(RuntimeError, match="newer than this bot"):
        await storage.open()
    await storage.close()


async def test_an_action_commits_with_its_log_or_not_at_all(database: TestDatabase) -> None:
    storage = Storage(database.target, DEFAULTS)
    await storage.open()
    try:
        game_id = await storage.create_lobby(1, 2, 3, "alice", {}, 0.0)
        assert game_id is not None
        assert await storage.create_lobby(1, 2, 4, "bob", {}, 0.0) is None  # one per channel
        assert await storage.start_game(game_id, "{}", 0, 1, 0, 30, {}, [], [], 0.0)
        event = NewEvent("note", "hello")
        write = GameWrite(
            version=1,
            state_json="{}",
            actions=[(1, "p1", "done", "human")],
            events=[(1, event)],
            seats=[],
            paused_at=None,
            pointer=Pointer(0, -1, None, None),
        )
        stored = await storage.commit(game_id, 0, write, 1.0)
        with pytest.raises(VersionConflict):  # a stale version writes nothing
            await storage.commit(game_id, 0, write, 1.0)
        assert await storage.events_after(game_id, 0) == stored
        assert [e.text for e in stored] == ["hello"]
        assert await storage.actions(game_id) == [(1, "p1", "done", "human")]
    finally:
        await storage.close()


async def test_an_old_log_is_migrated_and_still_read(database: TestDatabase) -> None:
    """A database of schema 4 (actions with a rowid, events written with spaces) is migrated
    in place: the replay (every action) and every event read as before."""
    old_schema(database, 4)
    with connect(database) as db:
        db.execute(
            "INSERT INTO games (guild_id, channel_id, host_id, status, options_json, created_at,"
            " version) VALUES (1, 2, 3, 'over', '{}', 0, 2)"
        )
        db.executemany(
            "INSERT INTO actions VALUES (1, ?, 'p1', ?, 'human', 0)", [(1, "keep x"), (2, "done")]
        )
        db.execute(
            "INSERT INTO events (game_id, version, kind, text, recipients, data_json, at) "
            "VALUES (1, 1, 'note', 'hello', '[\"p1\"]', '{\"a\": [1, 2]}', 0)"
        )
    storage = Storage(database.target, GuildSettings(0, 300, 45, True, 3))
    await storage.open()
    try:
        assert await storage.actions(1) == [
            (1, "p1", "keep x", "human"),
            (2, "p1", "done", "human"),
        ]
        [event] = await storage.events_after(1, 0)
        assert (event.recipients, event.data, event.damaged) == (["p1"], {"a": [1, 2]}, False)
        assert await storage.private_events(1, "p1", 6) == [event]
    finally:
        await storage.close()
    if database.kind == "sqlite":
        with connect(database) as db:
            sql = db.execute("SELECT sql FROM sqlite_master WHERE name = 'actions'").fetchone()
        assert "WITHOUT ROWID" in sql[0]


async def test_a_decision_is_one_transaction_of_at_most_six_statements(
    w: World, simcord_env: simcord.Env, database: TestDatabase
) -> None:
    """Speed (issue 10): a cached game's decision, with the AI moves after it, is written in
    one transaction (state, actions, events, seats and the publish pointer), in one hop, and
    reads nothing back (settings, auto-pass, closed DMs and private logs are kept in
    memory)."""
    env = simcord_env
    game_id, driver = await drive_new_game(w, database, [w.alice, w.bob], ai=1, turns=2, seed=4)
    driver.use_commands = False
    bot = env.bot
    assert isinstance(bot, AnimaBot)
    for _ in range(10):  # warm up: each seat's panel and private log read once
        assert await driver.step()
    hops: list[Hop] = []
    bot.storage.db.trace = hops.append  # every hop to the database
    steps = 30
    for _ in range(steps):
        assert await driver.step()
    bot.storage.db.trace = None
    assert stored(database, game_id).status == "running"
    statements = [sql for hop in hops for sql, _seconds in hop.statements]
    # One commit per decision, nothing else written (on PostgreSQL the commit is one
    # statement, a transaction of its own: bot.storage.writes).
    assert sum(hop.transactions for hop in hops) == steps
    assert len(hops) == steps  # each one hop, as a whole
    assert len(statements) <= 6 * steps, statements[:12]
    assert not [s for s in statements if s.startswith("SELECT")], statements


async def test_processes_starting_together_migrate_once(database: TestDatabase) -> None:
    """Three bots opening a new database at once (PostgreSQL: shard clusters starting
    together) create the schema once; each sees it whole."""
    storages = [Storage(database.target, DEFAULTS) for _ in range(3)]
    try:
        await asyncio.gather(*(s.open() for s in storages))
        for s in storages:
            assert await s.migrate() == SCHEMA_VERSION
    finally:
        for s in storages:
            await s.close()
    with connect(database) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
