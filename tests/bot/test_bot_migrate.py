"""``anima-bot migrate --to postgresql://...`` (issue 24): a SQLite database with games of
every kind (running, over, a lobby, a broken one) is copied into an empty database of the
throwaway PostgreSQL cluster, every table row for row, every game dealt verified by its replay;
the bot started on PostgreSQL then plays the running game on. A target with rows, a game that
does not replay, a damaged row and a bad source are each refused or named, in one line."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import simcord
from anima_sim import Driver, World, drive_new_game, open_lobby, start_game, stored
from databases import TestDatabase, connect
from posting_checks import status

from bot.__main__ import main
from bot.app import AnimaBot
from bot.storage import SCHEMA_VERSION


@pytest.fixture
def command(db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """``await command(*args)``: ``anima-bot ARGS`` as the operator runs it (ANIMA_DB_PATH the
    bot's SQLite file), on a thread of its own (it runs its own event loop)."""
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("ANIMA_DB_PATH", str(db_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)

    async def run(*args: str) -> int:
        return await asyncio.to_thread(main, list(args))

    return run


def tables(db: Path | TestDatabase) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the bot (but the schema's version) and its rows, sorted."""
    with connect(db) as conn:
        if isinstance(db, Path):
            names = [
                r[0]
                for r in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT IN ('sqlite_sequence', 'schema_version')"
                )
            ]
        else:
            names = [
                r[0]
                for r in conn.execute(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = current_schema() AND table_name <> 'schema_version'"
                ).fetchall()
            ]
        found = {}
        for name in names:
            rows = conn.execute(f"SELECT * FROM {name}").fetchall()
            found[name] = sorted((tuple(r) for r in rows), key=repr)
    return found


async def test_migrate_copies_every_table_verifies_every_game_and_the_bot_plays_on(
    w: World,
    simcord_env: simcord.Env,
    db_path: Path,
    target: TestDatabase,
    make_bot: Callable[..., AnimaBot],
    command: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = simcord_env
    await w.admin.slash(w.table, "anima settings", decision_timer=120)
    await w.bob.slash(w.table, "anima settings", language="es")
    # A game played to its end (results, stats), one broken, a lobby, one running.
    finished = w.guild.create_text_channel("finished")
    over_id, over = await drive_new_game(w, db_path, [w.carol, w.admin], 1, 2, 5, finished)
    await over.play()
    broken = w.guild.create_text_channel("broken")
    broken_id = await start_game(w, w.carol, [w.admin], ai=1, turns=2, channel=broken)
    with connect(db_path) as db:
        db.execute("UPDATE games SET state_json = '{\"players\": 5}' WHERE id = ?", (broken_id,))
    await env.restart_bot(make_bot())
    assert status(db_path, broken_id) == "broken"
    lobby_id, _ = await open_lobby(w, w.dave, [], channel=w.guild.create_text_channel("lobby"))
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=2, seed=3)
    for _ in range(8):
        assert await driver.step()
    bot = env.bot
    assert isinstance(bot, AnimaBot)
    await bot.storage.set_autopass(w.guild.id, w.alice.id, ["reaction"])
    await bot.storage.set_dm_refused(w.dave.id, True, 1.0)
    await env.restart_bot(make_bot())  # the bot stopped: its pointers written
    before = tables(db_path)
    assert all(before[t] for t in ("results", "player_stats", "autopass", "dm_refused"))

    assert await command("migrate", "--to", target.url) == 0
    out = capsys.readouterr()
    (line,) = out.out.splitlines()
    rows = sum(len(r) for r in before.values())
    assert line.startswith(f"anima-bot migrate: copied {len(before)} tables, {rows:,} rows (")
    assert f"events {len(before['events']):,}" in line
    assert "2 games verified by replaying their actions" in line
    assert f"broken before the copy, not replayed: #{broken_id}" in line
    assert "not dealt, nothing to replay (lobbies, cancelled): 1" in line
    assert out.err == ""
    assert tables(target) == before  # row for row
    with connect(target) as db:
        assert db.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION

    # The bot on PostgreSQL: the running game plays on where it was, its timers with it.
    version = stored(db_path, game_id).version
    await env.restart_bot(make_bot(database_url=target.url))
    driver = Driver(w, target, game_id, driver.players, seed=4)
    for _ in range(3):
        assert await driver.step()
    assert stored(target, game_id).version > version == stored(db_path, game_id).version
    # Nobody answers: the decision's timer, copied with its seat, runs out on PostgreSQL.
    waiting = stored(target, game_id).version
    await env.advance_time(125)
    with connect(target) as db:
        sources = db.execute(
            "SELECT source FROM actions WHERE game_id = ? AND version > ?", (game_id, waiting)
        ).fetchall()
    assert ("timeout",) in [tuple(r) for r in sources]
    r = await w.bob.slash(w.table, "anima hand")
    assert r.ephemeral and r.response.embeds  # bob's language came over: his hand answers
    # New games get ids after every id SQLite ever gave.
    new_id, _ = await open_lobby(w, w.carol, [], channel=w.guild.create_text_channel("new"))
    assert new_id > max(over_id, broken_id, lobby_id, game_id)
    await env.bot.storage.close()  # type: ignore[attr-defined]


async def test_migrate_refuses_a_target_with_rows_and_names_a_game_that_does_not_replay(
    w: World,
    simcord_env: simcord.Env,
    db_path: Path,
    target: TestDatabase,
    command: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=2, seed=3)
    for _ in range(5):
        assert await driver.step()
    other = w.guild.create_text_channel("other")
    fine_id = await start_game(w, w.carol, [w.dave], ai=0, turns=2, channel=other)
    with connect(db_path) as db:  # an action lost: the game's state is not its actions'
        db.execute(
            "DELETE FROM actions WHERE game_id = ? AND version = "
            "(SELECT MAX(version) FROM actions WHERE game_id = ?)",
            (game_id, game_id),
        )
    last = len([a for a in tables(db_path)["actions"] if a[0] == game_id]) + 1

    assert await command("migrate", "--to", target.url) == 1
    out = capsys.readouterr()
    (line,) = out.err.splitlines()
    assert out.out == ""
    assert "1 of 2 games verified by replaying their actions" in line
    assert f"does not replay: #{game_id} (its stored state is not what its {last - 1} " in line
    assert f"#{fine_id}" not in line
    assert "the copy is committed" in line
    copied = tables(target)

    # Again into the same database: refused, nothing merged nor changed.
    assert await command("migrate", "--to", target.url) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("anima-bot migrate: nothing copied: the PostgreSQL database is not ")
    assert "has rows" in line
    assert tables(target) == copied


async def test_migrate_of_a_damaged_row_is_refused_whole_naming_the_row(
    w: World,
    simcord_env: simcord.Env,
    db_path: Path,
    target: TestDatabase,
    command: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    seat = stored(db_path, game_id).seat_of(w.bob.id).seat
    with connect(db_path) as db:  # SQLite keeps text in an INTEGER column; PostgreSQL cannot
        db.execute(
            "UPDATE seats SET user_id = 'bob#1234' WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
    assert await command("migrate", "--to", target.url) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("anima-bot migrate: nothing copied: table seats, row (game_id ")
    assert f"seat '{seat}'): column user_id holds 'bob#1234'" in line
    with connect(target) as db:  # rolled back whole: not even the schema is there
        assert db.execute("SELECT to_regclass('games')").fetchone()[0] is None


async def test_migrate_refuses_a_bad_source_or_target_in_one_line(
    tmp_path: Path,
    target: TestDatabase,
    command: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20)
    cases = [
        (["--to", "sqlite:///elsewhere.sqlite3"], "--to must be a PostgreSQL address"),
        (["--to", target.url, "--from", str(tmp_path / "none.sqlite3")], "there is no database"),
        (["--to", target.url, "--from", str(binary)], "is not a database"),
        (["--to", target.url, "--from", target.url], "is not a SQLite database"),
    ]
    for args, said in cases:
        assert await command("migrate", *args) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and said in err and "Traceback" not in err, err
    with connect(target) as db:
        assert db.execute("SELECT to_regclass('games')").fetchone()[0] is None


def old_schema(database: Path | TestDatabase, version: int) -> None:
    """Write the bot's schema of ``version`` (its first migrations) into ``database``."""
    db_kind = TestDatabase.sqlite(database) if isinstance(database, Path) else database
    with connect(database) as db:
        for migration in db_kind.dialect.migrations[:version]:
            for statement in migration:
                db.execute(statement)
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (?)", (version,))


async def test_migrate_brings_older_schemas_up_to_date_and_only_reads_the_source(
    db_path: Path,
    target: TestDatabase,
    command: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    # SQLite before the stats (schema 8), with a game over; PostgreSQL left at schema 3 by a
    # bot started on it once, long ago, with no row.
    old_schema(db_path, 8)
    with connect(db_path) as db:
        db.execute(
            "INSERT INTO games (guild_id, channel_id, host_id, status, options_json, created_at) "
            "VALUES (1, 2, 3, 'over', '{}', 0)"
        )
        db.execute(
            "INSERT INTO results (game_id, guild_id, seat, user_id, name, ai, won) "
            "VALUES (1, 1, 'p1', 3, 'alice', 0, 1)"
        )
    before = db_path.read_bytes()
    old_schema(target, 3)

    assert await command("migrate", "--to", target.url) == 0
    line = capsys.readouterr().out
    with connect(target) as db:
        # Every table of the schema (new features add theirs) but its version's.
        [(tables,)] = db.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public' "
            "AND table_name <> 'schema_version'"
        ).fetchall()
    assert f"copied {tables} tables, 4 rows (" in line and "guild_stats 1, player_stats 1)" in line
    with connect(target) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
        assert db.execute("SELECT guild_id, games FROM guild_stats").fetchall() == [(1, 1)]
    assert db_path.read_bytes() == before  # the source only read, still at schema 8
    with connect(db_path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchone() == (8,)
