"""What a crash or a failure may leave in a game's channel, checked: every line posted once and
in order, one end summary, live buttons on the newest board only; and the game's status."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
import simcord
from anima_sim import (
    Driver,
    World,
    board,
    components,
    lines_text,
    open_lobby,
    stored,
)
from databases import TestDatabase, connect

from bot import rendering
from bot.app import AnimaBot
from bot.storage import Killed, crash_points


def status(db_path: Path | TestDatabase, game_id: int) -> str:
    with connect(db_path) as db:
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
        for line in lines_text(m).split("\n")
        if line in wanted
    ]
    missing = [line for line in expected if line not in posted]
    twice = sorted({line for line in posted if posted.count(line) > expected.count(line)})
    assert posted == expected, (len(posted), len(expected), missing[:3], twice[:3])
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


def sent_payloads(env: simcord.Env) -> list[dict[str, Any]]:
    """Every payload of every message the bot sent or edited (channel, DMs, answers to
    interactions, whose message is under ``data``; ephemeral panels), from its REST calls."""
    out = []
    for e in env.http_requests:
        raw = (e.params or {}).get("payload_json")
        for payload in (e.json, json.loads(raw) if isinstance(raw, str) else None):
            if isinstance(payload, dict):
                out.append(payload)
    return out


async def killed_mid_game(
    w: World, database: TestDatabase, step: str, passes: int
) -> tuple[int, dict[int, simcord.MemberActor]]:
    """Arm the crash point ``step`` (after ``passes`` passes), start a game of alice, bob and
    an AI player, and play it until the bot is killed there: (the game, its players)."""
    crash_points[step] = passes
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], ai=1, turns=2)
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    players = {m.id: m for m in (w.alice, w.bob)}
    driver = Driver(w, database, game_id, players, seed=5)
    driver.use_commands = False
    driver.killed = lambda: step not in crash_points
    for _ in range(3000):
        if step not in crash_points:
            break  # killed
        assert await driver.step()
    assert step not in crash_points, "the step was never reached"
    return game_id, players


async def posted_once_to_the_end(
    bot: AnimaBot, w: World, database: TestDatabase, game_id: int, players: dict[int, Any]
) -> None:
    """After a restart: every line of the game posted once so far, then the game played to
    its end, every line once again."""
    st = stored(database, game_id)
    await assert_posted_once(bot, w.table, game_id, over=st.status == "over")
    if st.status == "running":
        final = await Driver(w, database, game_id, players, seed=6).play()
        assert final.status == "over"
    await assert_posted_once(bot, w.table, game_id, over=True)
