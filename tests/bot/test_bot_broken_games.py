"""A stored row that cannot be read breaks its own game only: the game is marked broken and
said so once in its channel, ``/anima end`` and ``/anima log`` still answer, and the other
games keep running."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    board,
    components,
    lines_text,
    open_lobby,
    start_game,
    stored,
)
from databases import TestDatabase, connect
from posting_checks import assert_killed, live_buttons, status

from bot.app import AnimaBot
from bot.storage import crash_points

pytestmark = pytest.mark.both_backends


async def other_game(w: World) -> tuple[simcord.ChannelHandle, int]:
    """A game of carol and dave in a channel of its own: the one that must keep running."""
    other = w.guild.create_text_channel("other")
    return other, await start_game(w, w.carol, [w.dave], ai=0, turns=2, channel=other)


def other_driver(
    w: World, database: TestDatabase, other: simcord.ChannelHandle, game_id: int, seed: int = 0
) -> Driver:
    """The driver of :func:`other_game`'s seats."""
    players = {w.carol.id: w.carol, w.dave.id: w.dave}
    return Driver(w, database, game_id, players, seed=seed, channel=other)


async def test_a_bad_options_row_breaks_its_game_only(
    w: World, simcord_env: simcord.Env, database: TestDatabase, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    await w.admin.slash(w.table, "anima settings", decision_timer=60)
    third = w.guild.create_text_channel("third")
    bad_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    other, fine_id = await other_game(w)
    lobby_id, _ = await open_lobby(w, w.alice, [], channel=third)
    with connect(database) as db:
        db.execute(
            "UPDATE games SET options_json = '{not json' WHERE id IN (?, ?)", (bad_id, lobby_id)
        )

    await env.restart_bot(make_bot())
    assert status(database, bad_id) == "broken"
    reports = [m for m in w.table.history() if "cannot be loaded" in lines_text(m)]
    assert len(reports) == 1 and "options" in reports[0].content
    assert live_buttons(w.table, bad_id) == []
    # Timers keep running for the others (and never trip over the broken game).
    await env.advance_time(65)
    assert [a for a in await env.bot.storage.actions(fine_id) if a[3] == "timeout"]
    assert len([m for m in w.table.history() if "cannot be loaded" in lines_text(m)]) == 1
    # The channel is free again; the damaged lobby can always be ended.
    r = await w.bob.slash(w.table, "anima log")
    assert r.ephemeral and "went wrong" not in (r.response.content or "")
    r = await w.alice.slash(third, "anima end")
    assert r.ephemeral and f"End game #{lobby_id}" in r.response.content
    await w.alice.click(r.response, custom_id=f"anima:end:{lobby_id}:yes")
    assert status(database, lobby_id) == "ended"
    assert await other_driver(w, database, other, fine_id).step()


async def test_a_bad_event_row_breaks_its_game_once(
    w: World, simcord_env: simcord.Env, database: TestDatabase, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    other, fine_id = await other_game(w)
    crash_points["after commit"] = 0  # the bad game's first action is never posted
    bad_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    with connect(database) as db:
        last = db.execute("SELECT MAX(id) FROM events WHERE game_id = ?", (bad_id,)).fetchone()
        db.execute("UPDATE events SET recipients = '[oops' WHERE id = ?", (last[0],))
    await env.restart_bot(make_bot())
    assert_killed(env, "after commit")
    assert status(database, bad_id) == "broken"
    assert len([m for m in w.table.history() if "cannot be loaded" in lines_text(m)]) == 1
    # A damaged row is private to nobody: /anima log still answers.
    r = await w.alice.slash(w.table, "anima log")
    assert r.ephemeral and r.response.embeds
    assert await other_driver(w, database, other, fine_id).step()


async def test_a_broken_game_is_reported_and_others_keep_running(
    w: World, simcord_env: simcord.Env, database: TestDatabase, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    broken_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    other, fine_id = await other_game(w)

    with connect(database) as db:
        db.execute("UPDATE games SET state_json = '{\"players\": 5}' WHERE id = ?", (broken_id,))
    await env.restart_bot(make_bot())

    assert stored(database, broken_id).status == "broken"
    report = w.table.last_message
    assert "cannot be loaded" in report.content and f"Game #{broken_id}" in report.content
    assert not components(board(w.table, database, broken_id))
    # An old button of the broken game (alice's secret start in her DMs) answers clearly.
    dm = w.alice.user.dm_channel.history()[-1]
    lead = next(c for c in components(dm) if c.label.startswith("Lead with"))
    r = await w.alice.user.click(dm, custom_id=lead.custom_id)
    assert "broken" in r.response.content
    r = await w.alice.slash(w.table, "anima hand")
    assert r.ephemeral and "no game here" in r.response.content

    # The other game is fine.
    driver = other_driver(w, database, other, fine_id, seed=3)
    for _ in range(5):
        assert await driver.step()
    # And the broken game's channel can host a new game.
    r = await w.bob.slash(w.table, "anima start")
    assert not r.ephemeral
