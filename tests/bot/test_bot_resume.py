"""A game resumed after a restart has one working board (issue 24, faults 1 and 2): a board
the channel shows that is not the stored state's (a backup restored: the channel is ahead of
the database) is retired and a fresh one posted; a board posted by a bot killed before it
recorded it keeps its buttons alone. At both paces (issue 26: a slow game's ping in the
channel, for a member without DMs, carries the board as a live game's half-time ping does)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    board,
    components,
    drive_new_game,
    lines_text,
    message_by_id,
    start_game,
    stored,
    timed_game,
)
from databases import TestDatabase
from posting_checks import live_buttons
from slow_sim import PACES, set_pace

from bot.__main__ import main
from bot.app import AnimaBot
from bot.storage import Killed
from bot.table import PING_GRACE, Table

pytestmark = pytest.mark.both_backends


async def play_to(driver: Driver, database: TestDatabase | Path, version: int) -> None:
    """Human decisions until the stored game reaches ``version``."""
    for _ in range(500):
        if stored(database, driver.game_id).version >= version:
            return
        assert await driver.step()
    raise AssertionError(f"never reached version {version}")


@pytest.mark.sqlite_only
@pytest.mark.parametrize("pace", PACES)
async def test_a_restored_backup_resumes_with_a_fresh_working_board(
    w: World,
    db_path: Path,
    tmp_path: Path,
    make_bot: Callable[..., AnimaBot],
    monkeypatch: pytest.MonkeyPatch,
    pace: str,
) -> None:
    env = w.env
    await set_pace(w, pace)
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=3, seed=2)
    driver.use_commands = False
    await play_to(driver, db_path, 12)
    saved = stored(db_path, game_id).version
    copy = tmp_path / "anima-backup.sqlite3"
    monkeypatch.setenv("ANIMA_DB_PATH", str(db_path))
    assert main(["backup", str(copy)]) == 0
    await play_to(driver, db_path, 31)
    lost = board(w.table, db_path, game_id)
    assert components(lost)

    # Restored as docs/operations.md says: stop the bot, copy the backup over the database, delete
    # the -wal and -shm files beside it, start again.
    old = env.bot
    assert isinstance(old, AnimaBot)
    await old.storage.close()
    shutil.copyfile(copy, db_path)
    for suffix in ("-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    await env.restart_bot(make_bot())
    assert stored(db_path, game_id).version == saved

    # The lost board has no buttons left; a fresh board is the channel's newest message and
    # the only one with buttons, and they work.
    assert not components(message_by_id(w.table, lost.id))
    fresh = board(w.table, db_path, game_id)
    assert fresh.id != lost.id and fresh.id == w.table.history()[-1].id
    assert live_buttons(w.table, game_id) == [fresh.id]
    for _ in range(10):
        assert await driver.step()  # each a click on the board (or its Decide panel) taken
    assert stored(db_path, game_id).version > saved


@pytest.mark.parametrize("pace", PACES)
async def test_a_board_posted_before_a_kill_keeps_the_only_live_buttons(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
    pace: str,
) -> None:
    env = simcord_env
    if pace == "slow":
        # DMs off: the decision's ping is a mention in the channel, the board under it.
        await set_pace(w, pace, slow_timer=1, dms=False)
        game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    else:
        game_id = await timed_game(w)
    first = board(w.table, database, game_id)
    bot = env.bot
    assert isinstance(bot, AnimaBot)

    async def killed(table: Table) -> None:
        raise Killed("before pointer")  # the ping's board is sent; its pointer never saved

    bot.publisher.save_pointer = killed
    await env.advance_time(31 if pace == "live" else PING_GRACE + 6)
    pinged = "half of your time is gone" if pace == "live" else "a decision of yours is open"
    assert pinged in lines_text(w.table.history()[-1])
    ping = board(w.table, database, game_id)
    assert ping.id != first.id
    assert [(type(e), str(e)) for e in env.errors] == [(Killed, "before pointer")]

    await env.restart_bot(make_bot())
    # The ping's board shows the stored game: it is adopted, not posted again.
    assert board(w.table, database, game_id).id == ping.id
    assert live_buttons(w.table, game_id) == [ping.id]
    # The game goes on from the board that kept its buttons.
    players = {m.id: m for m in (w.alice, w.bob)}
    driver = Driver(w, database, game_id, players, seed=1)
    driver.use_commands = False
    for _ in range(4):
        assert await driver.step()
        assert len(live_buttons(w.table, game_id)) == 1
