"""Damaged seat rows (issue 24, faults 3 and 4) break their own game only, like the other
damaged rows (``tests/bot/test_bot_broken_games.py``): the game is marked broken, said so once
in its channel with the broken game's line, its timers stop, and the channel is free again.

Before, a game without one of its seat rows hung (no line, no timer, ``/anima start`` refused
in its channel for good), and a seat whose user id was not a number told its owner "not
playing" while the timer loop logged errors every tick."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
import simcord
from anima_sim import World, start_game, stored
from databases import TestDatabase, connect
from posting_checks import live_buttons, status

from bot.app import AnimaBot

pytestmark = pytest.mark.both_backends

BROKEN = "cannot be loaded"


async def a_timed_game(w: World) -> int:
    """alice and bob against an AI, 60-second decisions (a timer is due soon)."""
    await w.admin.slash(w.table, "anima settings", decision_timer=60)
    return await start_game(w, w.alice, [w.bob], ai=1, turns=2)


def bob_seat(database: TestDatabase, game_id: int, w: World) -> str:
    return stored(database, game_id).seat_of(w.bob.id).seat


async def assert_isolated(
    w: World,
    env: simcord.Env,
    database: TestDatabase,
    game_id: int,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The game is broken, said once with its reason, its board without buttons; its timers
    are gone (no error a tick) and the channel hosts a new game."""
    assert status(database, game_id) == "broken"
    reports = [m.content for m in w.table.history() if BROKEN in m.content]
    assert len(reports) == 1 and f"Game #{game_id}" in reports[0] and "seat" in reports[0]
    assert live_buttons(w.table, game_id) == []
    with caplog.at_level(logging.ERROR):
        caplog.clear()
        await env.advance_time(5 * 60)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert len([m for m in w.table.history() if BROKEN in m.content]) == 1
    r = await w.bob.slash(w.table, "anima hand")
    assert r.ephemeral and "not playing" not in r.response.content
    r = await w.carol.slash(w.table, "anima start")
    assert not r.ephemeral  # a new lobby: the channel is free


async def test_a_missing_seat_row_breaks_its_game_with_a_line_in_the_channel(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id = await a_timed_game(w)
    seat = bob_seat(database, game_id, w)
    with connect(database) as db:
        db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
    await simcord_env.restart_bot(make_bot())
    await assert_isolated(w, simcord_env, database, game_id, caplog)
    said = next(m.content for m in w.table.history() if BROKEN in m.content)
    assert f"seat {seat}" in said


@pytest.mark.sqlite_only  # PostgreSQL's BIGINT column refuses anything but a number
async def test_a_seat_user_id_that_is_not_a_number_breaks_its_game_once(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id = await a_timed_game(w)
    seat = bob_seat(database, game_id, w)
    with connect(database) as db:
        db.execute(
            "UPDATE seats SET user_id = 'bob#1234' WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
    await simcord_env.restart_bot(make_bot())
    await assert_isolated(w, simcord_env, database, game_id, caplog)
    said = next(m.content for m in w.table.history() if BROKEN in m.content)
    assert f"seat {seat}" in said and "user id" in said
