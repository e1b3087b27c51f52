"""Crash-proof publishing.

The bot is killed at each named step of an action (``bot.storage.crash_points``: the step
raises :class:`bot.storage.Killed`, a BaseException nothing in the bot catches, as if the
process died there), then restarted on the same database; every game must finish with every
line posted exactly once, one summary, and no live button on an old board. Secret starts are
redelivered once, what was committed but not yet posted is posted after a restart, and a
clean stop writes the pointers still pending. At both paces (issue 26): after a kill, a slow
game's open decisions keep their deadlines and their pings still to send."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    board,
    board_text,
    drive_new_game,
    is_board,
    message_by_id,
    open_lobby,
    reset_decision,
    start_game,
    stored,
)
from databases import TestDatabase, connect
from posting_checks import (
    assert_killed,
    killed_mid_game,
    posted_once_to_the_end,
)
from slow_sim import OPEN, PACES, pings, set_pace, slow_seats

from bot import rendering
from bot.app import AnimaBot
from bot.storage import KILL_STEPS, Killed, crash_points
from engine.game import Game

pytestmark = pytest.mark.both_backends

# The step, and how many times it passes before the kill (a few decisions into the game).
KILLS = [
    ("after start commit", 0),
    ("after commit", 6),
    ("after post", 6),
    ("before pointer", 6),
    ("after final commit", 0),
]


def test_every_named_step_is_tested() -> None:
    assert sorted(step for step, _ in KILLS) == sorted(KILL_STEPS)


@pytest.mark.parametrize("pace", PACES)
@pytest.mark.parametrize(("step", "passes"), KILLS)
async def test_killed_at_a_step_then_restarted_posts_every_line_once(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
    step: str,
    passes: int,
    pace: str,
) -> None:
    env = simcord_env
    await set_pace(w, pace)
    game_id, players = await killed_mid_game(w, database, step, passes)

    await env.restart_bot(make_bot())
    assert_killed(env, step)
    if pace == "slow" and stored(database, game_id).status == "running":
        # Every open decision of a member kept its 12 hours and its ping still to send,
        # sent once by the new bot.
        st = stored(database, game_id)
        seats = slow_seats(database, game_id)
        open_ = [p.player for p in st.game.pending() if not p.window and st.seats[p.player].user_id]
        assert open_ and all(seats[s]["deadline"] and seats[s]["slow"]["ping"] for s in open_)
        await env.advance_time(70)
        for s in open_:
            assert [p.kind for p in pings(env, st.seats[s].user_id or 0, game_id)] == [OPEN]
    await posted_once_to_the_end(env.bot, w, database, game_id, players)
    # Each member got his secret start once (redelivered if the kill came first).
    for member in (w.alice, w.bob):
        # (The DM is the seat's first panel, edited later: every other DM is a private line.)
        starts = [
            m
            for m in member.user.dm_channel.history()
            if not m.content.startswith((f"**Game #{game_id}**", OPEN))
        ]
        assert len(starts) == 1, [m.content for m in member.user.dm_channel.history()]


async def test_secret_starts_are_redelivered_once_after_a_crash(
    w: World, simcord_env: simcord.Env, database: TestDatabase, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    crash_points["after start commit"] = 0
    game_id, lobby = await open_lobby(w, w.alice, [w.bob, w.carol], ai=0, turns=2)
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert all(not m.user.dm_channel.history() for m in (w.alice, w.bob, w.carol))
    await env.restart_bot(make_bot())
    assert_killed(env, "after start commit")
    await env.restart_bot(make_bot())  # a second restart delivers nothing again
    for member in (w.alice, w.bob, w.carol):
        dms = member.user.dm_channel.history()
        assert len(dms) == 1 and "Your secret start" in (dms[0].embeds[0].title or "")
    with connect(database) as db:
        marks = db.execute("SELECT start_dm FROM seats WHERE game_id = ?", (game_id,)).fetchall()
    assert marks == [(1,), (1,), (1,)]
    # The lobby message says the game started and has no buttons left.
    closed = message_by_id(w.table, lobby.id)
    assert not closed.components and "has started" in (closed.embeds[0].description or "")
    assert len([m for m in w.table.history() if is_board(m, game_id)]) == 1


async def test_a_clean_stop_writes_the_pointers_still_pending(
    w: World, simcord_env: simcord.Env, database: TestDatabase
) -> None:
    env = simcord_env
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    driver = Driver(w, database, game_id, {m.id: m for m in (w.alice, w.bob)}, seed=8)
    driver.use_commands = False
    for _ in range(3):
        assert await driver.step()
    newest = board(w.table, database, game_id).id
    assert stored(database, game_id).board_message_id != newest  # saved with the next commit
    bot = env.bot
    assert isinstance(bot, AnimaBot)
    await bot.storage.close()
    assert stored(database, game_id).board_message_id == newest


async def test_what_was_committed_is_posted_after_a_restart(
    w: World, simcord_env: simcord.Env, database: TestDatabase, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    game_id, driver = await drive_new_game(w, database, [w.alice, w.bob], ai=1, turns=2, seed=4)
    players = driver.players
    st, prompts = await driver.until(reset_decision)

    async def crash(*args: Any, **kwargs: Any) -> list[str]:
        return []  # the bot "dies" right after the commit: nothing is posted

    env.bot.publisher.publish = crash  # type: ignore[method-assign]
    seat = st.seats[prompts[0].player]
    done = f"anima:{game_id}:{seat.since}:{prompts[0].choices.index('done')}"
    posted = len(w.table.history())
    await players[seat.user_id].click(board(w.table, database, game_id), custom_id=done)
    assert len(w.table.history()) == posted
    version = stored(database, game_id).version
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
    shown = board_text(board(w.table, database, game_id))  # the text board (no pictures)
    assert shown == rendering.board_text(expected, full=True)


async def test_a_start_dm_sent_before_a_kill_is_not_sent_again(
    w: World, simcord_env: simcord.Env, database: TestDatabase, make_bot: Callable[..., AnimaBot]
) -> None:
    """Killed between the first secret start's DM and its delivered mark: after the restart
    that member still has one start DM (found in the DM channel), the other gets his."""
    env = simcord_env
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], ai=0, turns=2)
    bot = env.bot
    assert isinstance(bot, AnimaBot)

    async def killed(*args: Any) -> None:
        raise Killed("before the delivered mark")

    bot.storage.set_start_delivered = killed  # type: ignore[method-assign]
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    sent = [m for m in (w.alice, w.bob) if m.user.dm_channel.history()]
    assert len(sent) == 1  # the first DM went out, then the bot died

    await env.restart_bot(make_bot())
    assert_killed(env, "before the delivered mark")
    for member in (w.alice, w.bob):
        dms = member.user.dm_channel.history()
        assert len(dms) == 1, [m.content for m in dms]
        assert "Your secret start" in (dms[0].embeds[0].title or "")
    with connect(database) as db:
        marks = db.execute("SELECT start_dm FROM seats WHERE game_id = ?", (game_id,)).fetchall()
    assert marks == [(1,), (1,)]
    # On Discord a start sent again within minutes is dropped too: each carries its nonce.
    dm_channels = {m.user.dm_channel.id for m in (w.alice, w.bob)}
    sends = [
        r.json
        for r in env.http_requests
        if r.method == "POST" and any(r.path == f"/channels/{c}/messages" for c in dm_channels)
    ]
    assert sorted(j["nonce"] for j in sends) == [f"start:{game_id}:p1", f"start:{game_id}:p2"]
    assert all(j["enforce_nonce"] for j in sends)
