"""Issue 8, "a table that flows": a game whose humans all left pauses instead of playing
itself to the end, and a click resumes it; the decision's buttons are always on the game's
newest message; no relative time or raw link is left behind in the channel; private panels
are refreshed when their owner's situation changes, or say that they are outdated."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import discord
import simcord
from anima_sim import (
    Stored,
    World,
    actions,
    board,
    components,
    drive_new_game,
    start_game,
    stored,
    world,
)

from bot.app import AnimaBot
from bot.panels import OUTDATED
from bot.rendering import AI_AWAY, PAUSED_TEXT


def paused_at(db_path: Path, game_id: int) -> float | None:
    with sqlite3.connect(db_path) as db:
        value = db.execute("SELECT paused_at FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    return float(value) if value is not None else None


def public(w: World) -> list[discord.Message]:
    """The channel as a member who does not play sees it."""
    return w.table.history(viewer=w.dave)


async def test_everybody_away_pauses_the_game_and_a_click_resumes_it(
    simcord_env: simcord.Env, db_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    w = world(env)
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
    assert PAUSED_TEXT in (shown.embeds[0].description or "")
    fields = [f.name or "" for f in shown.embeds[0].fields]
    for s in taken:
        assert any(name.startswith(f"{s.name} {AI_AWAY}") for name in fields), fields
    pings = [m for m in public(w) if "the game waits for you" in m.content]
    assert len(pings) == 1 and all(m.mention in pings[0].content for m in members.values())

    # Nothing moves while everybody is away, not even across a restart; nobody wins.
    n = len(actions(db_path, game_id))
    await env.restart_bot(make_bot())
    for _ in range(30):
        await env.advance_time(60)
    assert len(actions(db_path, game_id)) == n
    st = stored(db_path, game_id)
    assert st.status == "running" and paused_at(db_path, game_id) is not None
    assert len([m for m in public(w) if "the game waits for you" in m.content]) == 1

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
    assert any(f"**{back.user.name}** is back" in m.content for m in public(w))
    assert PAUSED_TEXT not in (board(w.table, db_path, game_id).embeds[0].description or "")


def assert_buttons_on_newest(w: World, db_path: Path, game_id: int) -> Stored:
    """The game's newest message is its board, the only message with buttons, and they
    are the open decision's."""
    st = stored(db_path, game_id)
    messages = public(w)
    newest = messages[-1]
    with_buttons = [m.id for m in messages if components(m)]
    assert newest.id == board(w.table, db_path, game_id).id, newest.content
    assert with_buttons == [newest.id]
    ids = [c.custom_id for c in components(newest)]
    assert f"anima:{game_id}:hand" in ids
    human = [p for p in st.game.pending() if not st.seats[p.player].ai]
    windows = [p for p in human if p.window]
    if windows:  # the public Pass of the window, and Respond
        since = st.seats[windows[0].player].since
        assert f"anima:{game_id}:{since}:0" in ids and f"anima:{game_id}:respond" in ids
    else:
        assert f"anima:{game_id}:decide" in ids
    return st


async def test_the_decisions_buttons_are_always_on_the_newest_message(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    w = world(simcord_env)
    game_id, driver = await drive_new_game(
        w, db_path, [w.alice, w.bob, w.carol], ai=1, turns=3, seed=3
    )
    assert_buttons_on_newest(w, db_path, game_id)
    decisions = 0
    while await driver.step():
        decisions += 1
        if stored(db_path, game_id).status != "running":
            break
        assert_buttons_on_newest(w, db_path, game_id)
        if decisions % 23 == 0:  # a reaction window or decision runs out of time now and then
            await simcord_env.advance_time(31)
            if stored(db_path, game_id).status == "running":
                assert_buttons_on_newest(w, db_path, game_id)
    assert stored(db_path, game_id).status == "over"
    assert decisions > 30

    # Lines that stay in the channel name absolute times (or none), never a relative time
    # that would go stale ("closes 6 seconds ago"), and no raw link.
    messages = public(w)
    windows = [m for m in messages if "Reaction window:" in m.content]
    assert windows and all("It closes at <t:" in m.content for m in windows)
    for m in messages:
        assert ":R>" not in m.content, m.content
        assert "discord.com/channels" not in m.content, m.content
        for e in m.embeds:
            assert ":R>" not in (e.description or ""), e.description


async def test_the_half_time_ping_carries_the_buttons(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    w = world(env)
    await w.admin.slash(w.table, "anima settings", decision_timer=60)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    await env.advance_time(31)
    ping = public(w)[-1]
    assert "half of your time is gone" in ping.content
    assert "discord.com" not in ping.content and ":R>" not in ping.content
    assert_buttons_on_newest(w, db_path, game_id)
    assert ping.id == board(w.table, db_path, game_id).id


async def test_private_panels_are_refreshed_or_say_they_are_outdated(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    w = world(simcord_env)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    gid = game_id

    async def hand(member: simcord.MemberActor) -> simcord.InteractionResult:
        r = await member.click(board(w.table, db_path, gid), custom_id=f"anima:{gid}:hand")
        assert r.ephemeral and r.response is not None
        return r

    alice, bob = await hand(w.alice), await hand(w.bob)
    before = bob.response.embeds[0].to_dict()
    before.pop("timestamp", None)

    # Alice makes her two start choices in her panel (answered in place each time).
    for _ in range(2):
        st = stored(db_path, gid)
        since = st.seats["p1"].since
        r = await w.alice.click(alice.response, custom_id=f"anima:{gid}:{since}:0")
        assert r.response is not None and r.response.content.startswith("✅")
    # Bob's situation did not change: his panel was not touched.
    after = bob.response.embeds[0].to_dict()
    after.pop("timestamp", None)
    assert after == before

    # Bob makes his start choices in his panel; the first decision of the game goes to one
    # of them, and his panel (whoever it is) shows it with its buttons.
    for _ in range(2):
        st = stored(db_path, gid)
        since = st.seats["p2"].since
        r = await w.bob.click(bob.response, custom_id=f"anima:{gid}:{since}:0")
        assert r.response is not None and r.response.content.startswith("✅")
    st = stored(db_path, gid)
    (decider,) = [p.player for p in st.game.pending()]
    panel = alice if decider == "p1" else bob
    assert "Your decision" in (panel.response.embeds[0].description or "")
    ids = [c.custom_id for c in components(panel.response)]
    assert any(i.startswith(f"anima:{gid}:{st.seats[decider].since}:") for i in ids)
    # Alice's panel was a "✅ You chose" answer: it became her full, current panel.
    assert alice.response.embeds and alice.response.embeds[0].title.startswith("Your hand")

    # A newer panel makes the older one say it is outdated (and lose its buttons).
    newer = await hand(w.alice)
    assert alice.response.content == OUTDATED
    assert not alice.response.embeds and not components(alice.response)
    assert newer.response.embeds[0].title.startswith("Your hand")
