"""The decision's buttons are always on the game's newest message (the half-time ping carries
them too), and no relative time or raw link is left behind in the channel."""

from __future__ import annotations

from pathlib import Path

import discord
import simcord
from anima_sim import (
    Stored,
    World,
    board,
    board_text,
    components,
    drive_new_game,
    lines_text,
    stored,
    timed_game,
)


def public(w: World) -> list[discord.Message]:
    """The channel as a member who does not play sees it."""
    return w.table.history(viewer=w.dave)


def assert_buttons_on_newest(w: World, db_path: Path, game_id: int) -> Stored:
    """The game's newest message is its board, the only message with buttons, and they
    are the open decision's."""
    st = stored(db_path, game_id)
    messages = public(w)
    newest = messages[-1]
    with_buttons = [m.id for m in messages if components(m)]
    assert newest.id == board(w.table, db_path, game_id).id, lines_text(newest)
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
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
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
    lines = {m.id: lines_text(m) for m in messages}
    windows = [m.id for m in messages if "Reaction window:" in lines[m.id]]
    assert windows and all("it closes by itself at <t:" in lines[m] for m in windows)
    for m in messages:
        shown = f"{lines[m.id]}\n{board_text(m)}"  # its lines and its board
        assert ":R>" not in shown, shown
        assert "discord.com/channels" not in shown, shown


async def test_the_half_time_ping_carries_the_buttons(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    game_id = await timed_game(w)
    await env.advance_time(31)
    ping = public(w)[-1]
    said = lines_text(ping)
    assert "half of your time is gone" in said
    assert "discord.com" not in said and ":R>" not in said
    assert_buttons_on_newest(w, db_path, game_id)
    assert ping.id == board(w.table, db_path, game_id).id
