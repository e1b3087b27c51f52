"""Crash-proof publishing and isolated bad rows (issue 10).

The bot is killed at each named step of an action (``bot.storage.crash_points``: the step
raises :class:`bot.storage.Killed`, a BaseException nothing in the bot catches, as if the
process died there), then restarted on the same database; every game must finish with every
line posted exactly once, one summary, and no live button on an old board."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import discord
import pytest
import simcord
from anima_sim import (
    Driver,
    board,
    components,
    drive_new_game,
    is_board,
    message_by_id,
    open_lobby,
    private_reply,
    start_game,
    stored,
    world,
)

from bot import rendering
from bot.app import AnimaBot
from bot.database import Hop
from bot.games.play import CANNOT_SAVE
from bot.storage import KILL_STEPS, Killed, crash_points


@pytest.fixture(autouse=True)
def disarmed() -> Iterator[None]:
    crash_points.clear()
    yield
    crash_points.clear()


def status(db_path: Path, game_id: int) -> str:
    with sqlite3.connect(db_path) as db:
        return str(db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0])


def assert_killed(env: simcord.Env, step: str) -> None:
    """The old bot "died" at ``step`` (SimCord saw the Killed escape its callback when it
    drained the old bot) and nothing else went wrong; reading ``env.errors`` acknowledges it."""
    assert [(type(e), str(e)) for e in env.errors] == [(Killed, step)]


def game_messages(channel: simcord.ChannelHandle, game_id: int) -> list[discord.Message]:
    """The bot's messages of a game in its channel (after its lobby)."""
    return [m for m in channel.history() if m.author.bot]


def live_buttons(channel: simcord.ChannelHandle, game_id: int) -> list[int]:
    """The messages of the channel that carry buttons of the game (its boards)."""
    prefix = f"anima:{game_id}:"
    return [
        m.id
        for m in channel.history()
        if any(c.custom_id.startswith(prefix) for c in components(m))
    ]


async def assert_posted_once(
    bot: AnimaBot, channel: simcord.ChannelHandle, game_id: int, over: bool
) -> None:
    """Every public line of the log is in the channel exactly once and in order; one end
    summary if the game is over; buttons on the newest board only (none once over)."""
    seats = await bot.storage.seats(game_id)
    events = await bot.storage.events_after(game_id, 0)
    expected = rendering.event_lines(events, rendering.seat_names(seats), bot.cards)
    wanted = set(expected)
    posted = [
        line
        for m in game_messages(channel, game_id)
        for line in m.content.split("\n")
        if line in wanted
    ]
    assert posted == expected
    summaries = [
        m
        for m in channel.history()
        if m.embeds and m.embeds[0].title == f"Anima · game #{game_id} is over"
    ]
    assert len(summaries) == (1 if over else 0)
    buttons = live_buttons(channel, game_id)
    if over:
        assert buttons == []
    else:
        assert buttons == [board(channel, Path(), game_id).id]
        assert board(channel, Path(), game_id).id == channel.history()[-1].id


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


@pytest.mark.parametrize(("step", "passes"), KILLS)
async def test_killed_at_a_step_then_restarted_posts_every_line_once(
    simcord_env: simcord.Env,
    db_path: Path,
    make_bot: Callable[..., AnimaBot],
    step: str,
    passes: int,
) -> None:
    env = simcord_env
    w = world(env)
    crash_points[step] = passes
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], ai=1, turns=2)
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    players = {m.id: m for m in (w.alice, w.bob)}
    driver = Driver(w, db_path, game_id, players, seed=5)
    driver.use_commands = False
    driver.killed = lambda: step not in crash_points
    for _ in range(3000):
        if step not in crash_points:
            break  # killed
        assert await driver.step()
    assert step not in crash_points, "the step was never reached"

    await env.restart_bot(make_bot())
    assert_killed(env, step)
    st = stored(db_path, game_id)
    await assert_posted_once(env.bot, w.table, game_id, over=st.status == "over")
    if st.status == "running":
        final = await Driver(w, db_path, game_id, players, seed=6).play()
        assert final.status == "over"
    await assert_posted_once(env.bot, w.table, game_id, over=True)
    # Each member got his secret start once (redelivered if the kill came first).
    for member in (w.alice, w.bob):
        # (The DM is the seat's first panel, edited later: every other DM is a private line.)
        starts = [
            m
            for m in member.user.dm_channel.history()
            if not m.content.startswith(f"**Game #{game_id}**")
        ]
        assert len(starts) == 1, [m.content for m in member.user.dm_channel.history()]


async def test_secret_starts_are_redelivered_once_after_a_crash(
    simcord_env: simcord.Env, db_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    w = world(env)
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
    with sqlite3.connect(db_path) as db:
        marks = db.execute("SELECT start_dm FROM seats WHERE game_id = ?", (game_id,)).fetchall()
    assert marks == [(1,), (1,), (1,)]
    # The lobby message says the game started and has no buttons left.
    closed = message_by_id(w.table, lobby.id)
    assert not closed.components and "has started" in (closed.embeds[0].description or "")
    assert len([m for m in w.table.history() if is_board(m, game_id)]) == 1


async def test_a_bad_options_row_breaks_its_game_only(
    simcord_env: simcord.Env, db_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    w = world(env)
    await w.admin.slash(w.table, "anima settings", decision_timer=60)
    other = w.guild.create_text_channel("other")
    third = w.guild.create_text_channel("third")
    bad_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    fine_id = await start_game(w, w.carol, [w.dave], ai=0, turns=2, channel=other)
    lobby_id, _ = await open_lobby(w, w.alice, [], channel=third)
    with sqlite3.connect(db_path) as db:
        db.execute(
            "UPDATE games SET options_json = '{not json' WHERE id IN (?, ?)", (bad_id, lobby_id)
        )

    await env.restart_bot(make_bot())
    assert status(db_path, bad_id) == "broken"
    reports = [m for m in w.table.history() if "cannot be loaded" in m.content]
    assert len(reports) == 1 and "options" in reports[0].content
    assert live_buttons(w.table, bad_id) == []
    # Timers keep running for the others (and never trip over the broken game).
    await env.advance_time(65)
    assert [a for a in await env.bot.storage.actions(fine_id) if a[3] == "timeout"]
    assert len([m for m in w.table.history() if "cannot be loaded" in m.content]) == 1
    # The channel is free again; the damaged lobby can always be ended.
    r = await w.bob.slash(w.table, "anima log")
    assert r.ephemeral and "went wrong" not in (r.response.content or "")
    r = await w.alice.slash(third, "anima end")
    assert r.ephemeral and f"End game #{lobby_id}" in r.response.content
    await w.alice.click(r.response, custom_id=f"anima:end:{lobby_id}:yes")
    assert status(db_path, lobby_id) == "ended"
    driver = Driver(w, db_path, fine_id, {w.carol.id: w.carol, w.dave.id: w.dave}, channel=other)
    assert await driver.step()


async def test_a_bad_event_row_breaks_its_game_once(
    simcord_env: simcord.Env, db_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    w = world(env)
    other = w.guild.create_text_channel("other")
    fine_id = await start_game(w, w.carol, [w.dave], ai=0, turns=2, channel=other)
    crash_points["after commit"] = 0  # the bad game's first action is never posted
    bad_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    with sqlite3.connect(db_path) as db:
        last = db.execute("SELECT MAX(id) FROM events WHERE game_id = ?", (bad_id,)).fetchone()
        db.execute("UPDATE events SET recipients = '[oops' WHERE id = ?", (last[0],))
    await env.restart_bot(make_bot())
    assert_killed(env, "after commit")
    assert status(db_path, bad_id) == "broken"
    assert len([m for m in w.table.history() if "cannot be loaded" in m.content]) == 1
    # A damaged row is private to nobody: /anima log still answers.
    r = await w.alice.slash(w.table, "anima log")
    assert r.ephemeral and r.response.embeds
    driver = Driver(w, db_path, fine_id, {w.carol.id: w.carol, w.dave.id: w.dave}, channel=other)
    assert await driver.step()


async def test_a_full_disk_is_reported_and_nothing_half_applied_stays(
    simcord_env: simcord.Env, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    env = simcord_env
    w = world(env)
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
            if private_reply(result) == CANNOT_SAVE:
                break
            st, prompts = driver.human_prompts()
            result = await driver.choose(st, prompts[0], 0)
    assert private_reply(result) == CANNOT_SAVE
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


async def test_a_deleted_channel_pauses_the_game_and_tells_the_host_once(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    w = world(env)
    await w.admin.slash(w.table, "anima settings", decision_timer=60)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    host_dms = len(w.alice.user.dm_channel.history())
    env.backend.delete_channel(w.table.id)
    await env.advance_time(65)  # both start choices time out: the post fails
    with sqlite3.connect(db_path) as db:
        paused = db.execute("SELECT paused_at FROM games WHERE id = ?", (game_id,)).fetchone()
    assert paused[0] is not None
    told = w.alice.user.dm_channel.history()[host_dms:]
    assert len(told) == 1 and "paused" in told[0].content and "deleted" in told[0].content
    assert not w.bob.user.dm_channel.history()[1:]  # only the host is told
    await env.advance_time(120)  # paused: no timer runs, nobody is told again
    assert len(w.alice.user.dm_channel.history()) == host_dms + 1


async def test_the_game_cache_and_locks_stay_bounded(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    w = world(env)
    bot = env.bot
    assert isinstance(bot, AnimaBot)
    bot.games.cache_size = 2
    channels = [w.table] + [w.guild.create_text_channel(f"t{i}") for i in range(3)]
    ids = [await start_game(w, w.alice, [w.bob], ai=0, turns=2, channel=c) for c in channels]
    players = {m.id: m for m in (w.alice, w.bob)}
    drivers = [
        Driver(w, db_path, g, players, seed=i, channel=c)
        for i, (g, c) in enumerate(zip(ids, channels, strict=True))
    ]
    for _ in range(3):
        for d in drivers:
            assert await d.step()
            cached, locks = bot.games.live
            assert cached <= 2 and locks == 0
    for c, g in zip(channels, ids, strict=True):
        await assert_posted_once(bot, c, g, over=False)
    final = await drivers[0].play()
    assert final.status == "over" and not bot.games.cached(ids[0])
    await assert_posted_once(bot, channels[0], ids[0], over=True)


async def test_an_old_log_is_migrated_and_still_read(tmp_path: Path) -> None:
    """A database of schema 4 (actions with a rowid, events written with spaces) is migrated
    in place: the replay (every action) and every event read as before."""
    from bot.storage import MIGRATIONS, GuildSettings, Storage

    path = tmp_path / "anima.sqlite3"
    with sqlite3.connect(path) as db:
        for migration in MIGRATIONS[:4]:
            for statement in migration:
                db.execute(statement)
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (4)")
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
    storage = Storage(path, GuildSettings(0, 300, 45, True, 3))
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
    with sqlite3.connect(path) as db:
        sql = db.execute("SELECT sql FROM sqlite_master WHERE name = 'actions'").fetchone()[0]
    assert "WITHOUT ROWID" in sql


async def test_a_decision_is_one_transaction_of_at_most_six_statements(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    """Speed (issue 10): a cached game's decision, with the AI moves after it, is written in
    one transaction (state, actions, events, seats and the publish pointer), handed to the
    database's thread in one hop, and reads nothing back (settings, auto-pass, closed DMs
    and private logs are kept in memory)."""
    env = simcord_env
    w = world(env)
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=2, seed=4)
    driver.use_commands = False
    bot = env.bot
    assert isinstance(bot, AnimaBot)
    for _ in range(10):  # warm up: each seat's panel and private log read once
        assert await driver.step()
    hops: list[Hop] = []
    bot.storage.db.trace = hops.append  # every hop to the database's worker thread
    steps = 30
    for _ in range(steps):
        assert await driver.step()
    bot.storage.db.trace = None
    assert stored(db_path, game_id).status == "running"
    statements = [sql for hop in hops for sql, _seconds in hop.statements]
    begins = [s for s in statements if s.startswith("BEGIN")]
    assert len(begins) == steps  # one commit per decision, nothing else written
    assert len(hops) == steps  # each handed to SQLite's thread once, as a whole
    assert len(statements) <= 6 * steps, statements[:12]
    assert not [s for s in statements if s.startswith("SELECT")], statements


async def test_a_clean_stop_writes_the_pointers_still_pending(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    w = world(env)
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    driver = Driver(w, db_path, game_id, {m.id: m for m in (w.alice, w.bob)}, seed=8)
    driver.use_commands = False
    for _ in range(3):
        assert await driver.step()
    newest = board(w.table, db_path, game_id).id
    assert stored(db_path, game_id).board_message_id != newest  # saved with the next commit
    bot = env.bot
    assert isinstance(bot, AnimaBot)
    await bot.storage.close()
    assert stored(db_path, game_id).board_message_id == newest
