"""Restarts: a game resumes where the last committed action left it, old buttons still
work, timers resume from their stored deadlines; at the slow pace too (issue 26: its
deadlines and its pings still to send survive)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord
from anima_sim import (
    World,
    actions,
    board,
    chose,
    components,
    drive_new_game,
    lines_text,
    reset_decision,
    start_game,
    stored,
)
from databases import TestDatabase
from slow_sim import HALF, OPEN, PACES, pings, set_pace, slow_seats

from bot.app import AnimaBot

pytestmark = pytest.mark.both_backends


@pytest.mark.parametrize("pace", PACES)
async def test_restart_mid_turn_old_buttons_still_work(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
    pace: str,
) -> None:
    env = simcord_env
    await set_pace(w, pace)
    game_id, driver = await drive_new_game(
        w, database, [w.alice, w.bob, w.carol], ai=1, turns=3, seed=7
    )
    players = driver.players
    st, prompts = await driver.until(reset_decision)
    before = st.game.to_json()
    old_board = board(w.table, database, game_id)
    seat = st.seats[prompts[0].player]
    done = f"anima:{game_id}:{seat.since}:{prompts[0].choices.index('done')}"
    assert done in [c.custom_id for c in components(old_board)]
    first_bot = env.bot

    await env.restart_bot(make_bot())
    assert env.bot is not first_bot
    after = stored(database, game_id)
    assert after.game.to_json() == before  # nothing moved while the bot was away
    if pace == "slow":
        assert after.seats[seat.seat].deadline == seat.deadline  # 12 hours: still running

    # The button of the message the old bot posted reaches the new bot.
    r = await players[seat.user_id].click(old_board, custom_id=done)
    assert chose(r, "Done**")
    assert actions(database, game_id)[len(actions(database, game_id)) - 1][0] > after.version - 1
    assert stored(database, game_id).version > after.version
    # ... and the game goes on to its end with the new bot.
    final = await driver.play()
    assert final.status == "over"


async def test_timers_resume_after_a_restart(
    w: World, simcord_env: simcord.Env, database: TestDatabase, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    admin_settings = await w.admin.slash(w.table, "anima settings", decision_timer=120)
    assert "2 min" in str(admin_settings.response.embeds[0].fields[0].value)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    st = stored(database, game_id)
    deadline = st.seats["p1"].deadline
    assert deadline == env.now().timestamp() + 120

    await env.restart_bot(make_bot())
    await env.advance_time(60)
    assert "half of your time is gone" in lines_text(w.table.last_message)
    await env.advance_time(65)
    st = stored(database, game_id)
    sources = [a[3] for a in actions(database, game_id)]
    assert sources.count("timeout") == 2  # both start choices ran out after the restart
    # ... and a setup choice's time-out does not count towards being away (issue 8).
    assert all(s.timeouts == 0 for s in st.seats.values())


async def test_slow_deadlines_and_pending_pings_resume_after_a_restart(
    w: World, simcord_env: simcord.Env, database: TestDatabase, make_bot: Callable[..., AnimaBot]
) -> None:
    """The slow pace's take on the test above: a decision of an hour (issue 26), its ping
    still to send when the bot stops, sent once by the new bot, then the reminder, then the
    default at the deadline."""
    env = simcord_env
    await env.restart_bot(make_bot(timer_tick=120))  # SimCord wakes the loop at each tick
    await set_pace(w, "slow", slow_timer=1)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    t = env.now().timestamp()
    seats = slow_seats(database, game_id)
    assert all(s["deadline"] == t + 3600 and s["slow"]["ping"] == t + 60 for s in seats.values())

    await env.restart_bot(make_bot(timer_tick=120))
    await env.advance_time(130)
    for member in (w.alice, w.bob):
        sent = pings(env, member.id, game_id)
        assert [p.kind for p in sent] == [OPEN] and sent[0].dm
    await env.restart_bot(make_bot(timer_tick=120))  # nothing is sent again
    await env.advance_time(1800)
    for member in (w.alice, w.bob):
        assert [p.kind for p in pings(env, member.id, game_id)] == [OPEN, HALF]
    await env.restart_bot(make_bot(timer_tick=120))
    await env.advance_time(1800)
    sources = [a[3] for a in actions(database, game_id)]
    assert sources.count("timeout") == 2  # both start choices ran out after the restarts
    assert all(not s["ai"] for s in slow_seats(database, game_id).values())
