"""Failures inside the bot: no traceback reaches a user (a failing command or button answers
with a short apology), a failed commit changes nothing, and a full disk is reported with
nothing half-applied left in memory."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import simcord
from anima_sim import (
    World,
    actions,
    board,
    chose,
    drive_new_game,
    private_reply,
    reset_decision,
    start_game,
    stored,
)
from databases import TestDatabase
from posting_checks import assert_posted_once
from simcord import assert_error

from bot.app import AnimaBot
from bot.components.answers import ERROR_TEXT
from bot.database import Session
from bot.games.play import CANNOT_SAVE
from words import say

pytestmark = pytest.mark.both_backends


async def test_a_failing_command_answers_without_traceback(
    w: World, simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:

    async def boom(*args: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(simcord_env.bot.storage, "active_game", boom)
    r = await w.alice.slash(w.table, "anima hand")
    assert r.ephemeral and r.response.content == ERROR_TEXT
    assert "disk on fire" not in r.response.content
    assert_error(simcord_env, RuntimeError, contains="disk on fire")


async def test_a_failing_button_answers_without_traceback(
    w: World, simcord_env: simcord.Env, database: TestDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)

    async def boom(*args: Any) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(simcord_env.bot.games, "panel", boom)
    r = await w.alice.click(board(w.table, database, game_id), custom_id=f"anima:{game_id}:hand")
    assert r.ephemeral and r.response.content == ERROR_TEXT
    assert [str(e) for e in simcord_env.bot.errors] == ["kaboom"]
    simcord_env.bot.errors.clear()


async def test_a_failed_commit_changes_nothing(
    w: World, simcord_env: simcord.Env, database: TestDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, driver = await drive_new_game(w, database, [w.alice, w.bob], ai=0, turns=2, seed=4)
    players = driver.players
    st, prompts = await driver.until(reset_decision)
    query, many = Session.all, Session.executemany

    def failing(real: Any) -> Any:
        async def fail(self: Session, sql: str, params: Any = ()) -> Any:
            # The statement that logs the action fails: on SQLite the state row is already
            # updated in the transaction then; on PostgreSQL it is the change's one
            # statement (bot.storage.writes).
            if "INSERT INTO actions" in sql:
                raise OSError("disk full")
            return await real(self, sql, params)

        return fail

    monkeypatch.setattr(Session, "all", failing(query))
    monkeypatch.setattr(Session, "executemany", failing(many))
    seat = st.seats[prompts[0].player]
    done = f"anima:{game_id}:{seat.since}:{prompts[0].choices.index('done')}"
    member = players[seat.user_id]
    r = await member.click(board(w.table, database, game_id), custom_id=done)
    assert private_reply(r) == ERROR_TEXT
    assert [type(e) for e in simcord_env.bot.errors] == [OSError]
    simcord_env.bot.errors.clear()
    after = stored(database, game_id)
    assert after.version == st.version and after.state_json == st.state_json
    assert len(actions(database, game_id)) == st.version

    # The same button works once the disk is back: one action, from the stored state.
    monkeypatch.setattr(Session, "all", query)
    monkeypatch.setattr(Session, "executemany", many)
    r = await member.click(board(w.table, database, game_id), custom_id=done)
    assert chose(r, "Done**")
    assert actions(database, game_id)[st.version][1:3] == (seat.seat, "done")


@pytest.mark.sqlite_only  # a full disk, simulated by SQLite's max_page_count
async def test_a_full_disk_is_reported_and_nothing_half_applied_stays(
    w: World, simcord_env: simcord.Env, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    env = simcord_env
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=2, seed=2)
    driver.use_commands = False
    before = stored(db_path, game_id)
    bot = env.bot
    assert isinstance(bot, AnimaBot)
    await bot.storage.fetchone("VACUUM")  # no free page left: the next new page is refused
    pages = (await bot.storage.fetchone("PRAGMA page_count"))[0]
    await bot.storage.fetchone(f"PRAGMA max_page_count = {pages}")
    # Play until a write needs a new page (what is left of the last pages fills first).
    with caplog.at_level(logging.ERROR, logger="anima.storage"):
        st, prompts = driver.human_prompts()
        result = await driver.choose(st, prompts[0], 0)
        for _ in range(50):
            if private_reply(result) == say(CANNOT_SAVE):
                break
            st, prompts = driver.human_prompts()
            result = await driver.choose(st, prompts[0], 0)
    assert private_reply(result) == say(CANNOT_SAVE)
    assert "full" in caplog.text and "no transaction is active" not in caplog.text
    assert not bot.games.cached(game_id)  # the half-applied game was dropped
    failed = stored(db_path, game_id)
    assert failed.version >= before.version
    await bot.storage.fetchone("PRAGMA max_page_count = 1073741823")
    # The same decision, clicked again, goes through from the last committed state.
    st, prompts = driver.human_prompts()
    assert st.version == failed.version
    assert await driver.step()
    assert stored(db_path, game_id).version > failed.version
    await assert_posted_once(bot, w.table, game_id, over=False)
