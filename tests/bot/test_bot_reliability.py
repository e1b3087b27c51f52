"""Failures inside the bot: no traceback reaches a user, a failed commit changes nothing,
and what was committed but not yet posted is posted after a restart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import simcord
from anima_sim import (
    Stored,
    actions,
    board,
    chose,
    drive_new_game,
    private_reply,
    start_game,
    stored,
    world,
)
from simcord import assert_error

from bot import rendering
from bot.app import AnimaBot
from bot.components.answers import ERROR_TEXT
from engine.game import Game
from engine.prompts import Prompt


def reset_decision(st: Stored, prompts: list[Prompt]) -> bool:
    return len(prompts) == 1 and prompts[0].kind == "reset" and not prompts[0].window


async def test_a_failing_command_answers_without_traceback(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world(simcord_env)

    async def boom(*args: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(simcord_env.bot.storage, "active_game", boom)
    r = await w.alice.slash(w.table, "anima hand")
    assert r.ephemeral and r.response.content == ERROR_TEXT
    assert "disk on fire" not in r.response.content
    assert_error(simcord_env, RuntimeError, contains="disk on fire")


async def test_a_failing_button_answers_without_traceback(
    simcord_env: simcord.Env, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world(simcord_env)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)

    async def boom(*args: Any) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(simcord_env.bot.games, "panel", boom)
    r = await w.alice.click(board(w.table, db_path, game_id), custom_id=f"anima:{game_id}:hand")
    assert r.ephemeral and r.response.content == ERROR_TEXT
    assert [str(e) for e in simcord_env.bot.errors] == ["kaboom"]
    simcord_env.bot.errors.clear()


async def test_a_failed_commit_changes_nothing(
    simcord_env: simcord.Env, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world(simcord_env)
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=0, turns=2, seed=4)
    players = driver.players
    st, prompts = await driver.until(reset_decision)
    storage = simcord_env.bot.storage
    real = storage._insert_events

    def fail(*args: Any) -> None:  # the state row is already updated when this fails
        # Storage._insert_events runs on the database's worker, inside commit's transaction.
        raise OSError("disk full")

    monkeypatch.setattr(storage, "_insert_events", fail)
    seat = st.seats[prompts[0].player]
    done = f"anima:{game_id}:{seat.since}:{prompts[0].choices.index('done')}"
    member = players[seat.user_id]
    r = await member.click(board(w.table, db_path, game_id), custom_id=done)
    assert private_reply(r) == ERROR_TEXT
    assert [type(e) for e in simcord_env.bot.errors] == [OSError]
    simcord_env.bot.errors.clear()
    after = stored(db_path, game_id)
    assert after.version == st.version and after.state_json == st.state_json
    assert len(actions(db_path, game_id)) == st.version

    # The same button works once the disk is back: one action, from the stored state.
    monkeypatch.setattr(storage, "_insert_events", real)
    r = await member.click(board(w.table, db_path, game_id), custom_id=done)
    assert chose(r, "Done**")
    assert actions(db_path, game_id)[st.version][1:3] == (seat.seat, "done")


async def test_what_was_committed_is_posted_after_a_restart(
    simcord_env: simcord.Env, db_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    w = world(env)
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=2, seed=4)
    players = driver.players
    st, prompts = await driver.until(reset_decision)

    async def crash(*args: Any, **kwargs: Any) -> list[str]:
        return []  # the bot "dies" right after the commit: nothing is posted

    env.bot.publisher.publish = crash  # type: ignore[method-assign]
    seat = st.seats[prompts[0].player]
    done = f"anima:{game_id}:{seat.since}:{prompts[0].choices.index('done')}"
    posted = len(w.table.history())
    await players[seat.user_id].click(board(w.table, db_path, game_id), custom_id=done)
    assert len(w.table.history()) == posted
    version = stored(db_path, game_id).version
    assert version > st.version

    await env.restart_bot(make_bot())
    assert len(w.table.history()) > posted
    # The board shows the committed state (not the one before the click).
    storage = env.bot.storage  # type: ignore[attr-defined]
    row = await storage.game(game_id)
    seats = {s.seat: s for s in await storage.seats(game_id)}
    game = Game.from_json(row.state_json)
    assert game.version == version
    expected = rendering.board_embed(game.table_view(), game.db, row, seats)
    shown = board(w.table, db_path, game_id).embeds[0]
    assert [(f.name, f.value) for f in shown.fields] == [(f.name, f.value) for f in expected.fields]
    assert shown.description == expected.description
