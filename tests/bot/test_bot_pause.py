"""A game pauses rather than play itself to the end or time out unseen: when every human has
left (a click resumes it) and when its channel is lost (the host is told once)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import discord
import simcord
from anima_sim import (
    World,
    actions,
    board,
    board_text,
    lines_text,
    start_game,
    stored,
    timed_game,
)

from bot.app import AnimaBot
from bot.rendering import AI_AWAY, PAUSED_TEXT


def paused_at(db_path: Path, game_id: int) -> float | None:
    with sqlite3.connect(db_path) as db:
        value = db.execute("SELECT paused_at FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    return float(value) if value is not None else None


def public(w: World) -> list[discord.Message]:
    """The channel as a member who does not play sees it."""
    return w.table.history(viewer=w.dave)


async def test_everybody_away_pauses_the_game_and_a_click_resumes_it(
    w: World, simcord_env: simcord.Env, db_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    await w.admin.slash(w.table, "anima settings", decision_timer=60, ai_takeover=3)
    game_id = await start_game(w, w.alice, [w.bob, w.carol], ai=1, turns=3)
    members = {m.id: m for m in (w.alice, w.bob, w.carol)}

    # Nobody answers any more.
    for _ in range(200):
        if paused_at(db_path, game_id) is not None:
            break
        await env.advance_time(61)
    st = stored(db_path, game_id)
    assert paused_at(db_path, game_id) is not None, "the game never paused"
    assert st.status == "running"
    humans = [s for s in st.seats.values() if s.user_id is not None]
    taken = [s for s in humans if s.ai]
    last = [s for s in humans if not s.ai]
    # Two seats went to the AI; the last human seat did not: the game paused instead.
    assert len(taken) == 2 and len(last) == 1 and last[0].timeouts >= 3
    assert all(s.deadline is None for s in st.seats.values())  # no timer runs
    shown = board(w.table, db_path, game_id)
    text = board_text(shown)
    assert PAUSED_TEXT in text
    # The text board's parties (a heading each): the seats the AI took are marked.
    parties = [line.removeprefix("**") for line in text.split("\n") if line.startswith("**")]
    for s in taken:
        assert any(name.startswith(f"{s.name} {AI_AWAY}") for name in parties), parties
    pings = [m for m in public(w) if "the game waits for you" in lines_text(m)]
    assert len(pings) == 1 and all(m.mention in lines_text(pings[0]) for m in members.values())

    # Nothing moves while everybody is away, not even across a restart; nobody wins.
    n = len(actions(db_path, game_id))
    await env.restart_bot(make_bot())
    for _ in range(30):
        await env.advance_time(60)
    assert len(actions(db_path, game_id)) == n
    st = stored(db_path, game_id)
    assert st.status == "running" and paused_at(db_path, game_id) is not None
    assert len([m for m in public(w) if "the game waits for you" in lines_text(m)]) == 1

    # A member whose seat the AI took clicks My hand: the game resumes, his seat is his
    # again, and every open decision gets a fresh deadline.
    back = members[taken[0].user_id or 0]
    r = await back.click(board(w.table, db_path, game_id), custom_id=f"anima:{game_id}:hand")
    assert r.ephemeral and r.response.embeds[0].title.startswith("Your hand")
    st = stored(db_path, game_id)
    assert paused_at(db_path, game_id) is None
    assert not st.seats[taken[0].seat].ai and st.seats[taken[0].seat].timeouts == 0
    t = env.now().timestamp()
    open_seats = [p.player for p in st.game.pending()]
    assert open_seats and all(st.seats[p].deadline is not None for p in open_seats)
    assert all(
        (st.seats[p].deadline or 0) - t in (30, 60) for p in open_seats
    )  # a window's or a decision's full time, from now
    assert any(f"**{back.user.name}** is back" in lines_text(m) for m in public(w))
    assert PAUSED_TEXT not in board_text(board(w.table, db_path, game_id))


async def test_a_deleted_channel_pauses_the_game_and_tells_the_host_once(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    game_id = await timed_game(w)
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
