"""A read-only database is said to be read-only (issue 24, fault 5), not damaged: the operator
is told at start which file or folder the bot cannot write and that nothing needs restoring,
and a write refused while the bot runs is logged as read-only, the player told that nothing
of his click was saved (the wording of any storage failure: ``play.cannot_save``).

Root writes through file permissions: as root the tests make a file or folder read-only with
the immutable attribute (``chattr +i``), which binds root too, as a read-only mount does."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import simcord
from anima_sim import (
    World,
    board,
    chose,
    drive_new_game,
    private_reply,
    reset_decision,
    stored,
)
from databases import TestDatabase

from bot.__main__ import main
from bot.games.play import CANNOT_SAVE
from bot.integrity import DatabaseReadOnly
from bot.storage import GuildSettings, Storage
from words import say

pytestmark = pytest.mark.both_backends

DEFAULTS = GuildSettings(0, 0, 30, True, 3)


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` (a file or a folder) read-only for this process, whoever runs it."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        try:
            yield
        finally:
            path.chmod(mode)
        return
    chattr = shutil.which("chattr")
    if chattr is None:
        pytest.skip("running as root without chattr: cannot make a file read-only")
    done = subprocess.run([chattr, "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"chattr +i refused here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


def a_database(path: Path) -> None:
    """The bot's database with a lobby in it, closed cleanly (no -wal, no -shm left)."""

    async def fill() -> None:
        storage = Storage(path, DEFAULTS)
        await storage.open()
        await storage.create_lobby(1, 100, 7, "alice", {}, 0.0)
        await storage.close()

    asyncio.run(fill())


@pytest.mark.sqlite_only
@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_database_is_refused_at_start_as_read_only_not_damaged(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    what: str,
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "anima.sqlite3"
    a_database(path)
    before = path.read_bytes()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANIMA_DB_PATH", str(path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    with read_only(path if what == "file" else folder):
        with pytest.raises(DatabaseReadOnly) as refused:
            asyncio.run(Storage(path, DEFAULTS).open())
        said = str(refused.value)
        # The command line says it in one message and does not start.
        assert main([]) == 2
        err = capsys.readouterr().err
    assert f"The database {path} is read-only" in said
    assert (str(path) if what == "file" else f"its folder {folder}") in said
    assert "is damaged" not in said and "To restore a backup" not in said
    assert "not damaged: nothing needs restoring" in said
    assert "not starting" in err and "read-only" in err and "To restore a backup" not in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["anima.sqlite3"]  # nothing written


async def test_a_write_refused_as_read_only_is_logged_as_read_only_and_told_to_the_player(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id, driver = await drive_new_game(w, database, [w.alice, w.bob], ai=0, turns=2, seed=4)
    st, prompts = await driver.until(reset_decision)
    storage = simcord_env.bot.storage  # type: ignore[attr-defined]
    # The database refuses writes from now on, as a file made read-only or a PostgreSQL
    # server turned read-only (a standby) does: the same error code either way.
    on, off = {
        "sqlite": ("PRAGMA query_only = 1", "PRAGMA query_only = 0"),
        "postgresql": (
            "SET default_transaction_read_only = on",
            "SET default_transaction_read_only = off",
        ),
    }[database.kind]
    await storage.fetchone(on)
    seat = st.seats[prompts[0].player]
    done = f"anima:{game_id}:{seat.since}:{prompts[0].choices.index('done')}"
    member = driver.players[seat.user_id]
    with caplog.at_level(logging.ERROR, logger="anima.storage"):
        r = await member.click(board(w.table, database, game_id), custom_id=done)
    assert private_reply(r) == say(CANNOT_SAVE)
    logged = [rec.getMessage() for rec in caplog.records if rec.name == "anima.storage"]
    assert any("the database is read-only" in line for line in logged), logged
    assert not any("damaged" in line for line in logged)
    assert stored(database, game_id).version == st.version
    # Writable again: the same click goes through.
    await storage.fetchone(off)
    r = await member.click(board(w.table, database, game_id), custom_id=done)
    assert chose(r, "Done**")
