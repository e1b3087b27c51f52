"""The database file's health (bot.integrity): a damaged, empty or foreign file is refused at
start with how to restore it, and a backup taken while the bot runs is a good copy; on
PostgreSQL, ``anima-bot backup`` says how to use ``pg_dump``, and a backup made that way
restores the games."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    default_options,
    start_game,
    stored,
)
from databases import TestDatabase
from postgres_cluster import POSTGRES_BIN, PostgresCluster

from bot.__main__ import main
from bot.app import AnimaBot
from bot.integrity import DatabaseDamaged
from bot.storage import GuildSettings, Storage


def damage(path: Path) -> None:
    """Scribble over the third page of a database file (a b-tree page of some table)."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) >= 4 * page
    data[2 * page : 2 * page + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))


def game_database(path: Path, games: int = 40) -> None:
    """A database of the bot's schema with some games in it (written like the bot does)."""

    async def fill() -> None:
        storage = Storage(path, GuildSettings(0, 0, 30, True, 3))
        await storage.open()
        for i in range(games):
            await storage.create_lobby(1, 100 + i, 7, "alice" * 40, default_options(), 0.0)
        await storage.close()

    asyncio.run(fill())


@pytest.mark.parametrize("how", ["empty", "damaged", "not a database"])
def test_a_damaged_database_is_refused_with_how_to_restore(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    path = tmp_path / "anima.sqlite3"
    if how == "empty":
        path.write_bytes(b"")
    elif how == "damaged":
        game_database(path)
        damage(path)
    else:
        path.write_text("these are not the games you are looking for\n" * 200)
    before = path.read_bytes()
    with pytest.raises(DatabaseDamaged, match="anima-bot backup"):
        asyncio.run(Storage(path, GuildSettings(0, 0, 30, True, 3)).open())
    # The command line says it in one message and does not start (no connection to Discord).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANIMA_DB_PATH", str(path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "not starting" in err and "To restore a backup" in err and str(path) in err
    assert "Traceback" not in err
    assert path.read_bytes() == before  # nothing written


pytestmark = pytest.mark.both_backends


@pytest.mark.sqlite_only
async def test_backup_while_the_bot_runs(
    w: World,
    simcord_env: simcord.Env,
    db_path: Path,
    tmp_path: Path,
    make_bot: Callable[..., AnimaBot],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    driver = Driver(w, db_path, game_id, {w.alice.id: w.alice, w.bob.id: w.bob}, seed=3)
    for _ in range(10):
        await driver.step()
    version = stored(db_path, game_id).version
    copy = tmp_path / "backups" / "anima-1.sqlite3"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANIMA_DB_PATH", str(db_path))
    assert main(["backup", str(copy)]) == 0  # the bot's connection is open (WAL)
    assert "quick_check ok" in capsys.readouterr().out
    assert main(["backup", str(copy)]) == 2  # never over an existing file
    assert "exists already" in capsys.readouterr().err
    # The game goes on in the original; the copy is the game as it was, and a bot restored
    # from it plays on from there.
    await driver.step()
    assert stored(copy, game_id).version == version < stored(db_path, game_id).version
    await simcord_env.restart_bot(make_bot(db_path=copy))
    r = await w.bob.slash(w.table, "anima board")
    assert r.response is not None and r.response.embeds
    assert stored(copy, game_id).status == "running"


@pytest.mark.postgresql_only
async def test_backup_on_postgresql_is_pg_dump_and_restores(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    postgres_cluster: PostgresCluster,
    tmp_path: Path,
    make_bot: Callable[..., AnimaBot],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``anima-bot backup`` makes no copy of a PostgreSQL database: it prints the pg_dump
    and pg_restore commands (and fails, so that a script relying on it notices). Done as it
    says while the bot runs, the backup restores the game as it was."""
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    driver = Driver(w, database, game_id, {w.alice.id: w.alice, w.bob.id: w.bob}, seed=3)
    for _ in range(10):
        await driver.step()
    version = stored(database, game_id).version
    copy = tmp_path / "anima.dump"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", database.url)
    assert main(["backup", str(copy)]) == 2
    said = capsys.readouterr().err
    assert f'pg_dump --format=custom --file={copy} "$DATABASE_URL"' in said
    assert "pg_restore --clean --if-exists --no-owner" in said and not copy.exists()
    # As it says, while the bot runs; then the game goes on in the original.
    subprocess.run(
        [str(POSTGRES_BIN / "pg_dump"), "--format=custom", f"--file={copy}", database.url],
        check=True,
    )
    await driver.step()
    assert stored(database, game_id).version > version
    name = postgres_cluster.new_database()
    restored = TestDatabase.postgresql(postgres_cluster.url(name))
    try:
        subprocess.run(
            [
                str(POSTGRES_BIN / "pg_restore"),
                "--clean",
                "--if-exists",
                "--no-owner",
                f"--dbname={restored.url}",
                str(copy),
            ],
            check=True,
        )
        assert stored(restored, game_id).version == version
        await simcord_env.restart_bot(make_bot(database_url=restored.url))
        r = await w.bob.slash(w.table, "anima board")
        assert r.response is not None and r.response.embeds
        assert stored(restored, game_id).status == "running"
    finally:
        await simcord_env.bot.storage.close()  # type: ignore[attr-defined]
        restored.close()
        postgres_cluster.drop_database(name)
