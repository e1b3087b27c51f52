"""Clicks by the wrong people, double clicks and two clicks at once: one action, clear words."""

from __future__ import annotations

import asyncio
from pathlib import Path

import simcord
from anima_sim import (
    Driver,
    Stored,
    actions,
    chose,
    components,
    private_reply,
    start_game,
    stored,
    world,
)
from anima_sim import board as board_of

from engine.prompts import Prompt


def single_public_decision(st: Stored, prompts: list[Prompt]) -> bool:
    return len(prompts) == 1 and not prompts[0].window and prompts[0].kind == "reset"


async def test_strangers_and_other_players_cannot_decide(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    w = world(simcord_env)
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    driver = Driver(w, db_path, game_id, players, seed=2)
    st, prompts = await driver.until(single_public_decision)
    decider = st.seats[prompts[0].player]
    other = w.bob if decider.user_id == w.alice.id else w.alice
    board = board_of(w.table, db_path, game_id)
    done = f"anima:{game_id}:{decider.since}:{prompts[0].choices.index('done')}"
    before = stored(db_path, game_id).version

    r = await w.dave.click(board, custom_id=done)
    said = private_reply(r) or ""
    assert "You are not playing in this game" in said
    assert f"**{decider.name}**'s decision" in said
    r = await other.click(board, custom_id=done)
    assert f"it is **{decider.name}**'s decision" in (private_reply(r) or "")
    r = await w.dave.click(board, custom_id=f"anima:{game_id}:decide")
    assert r.ephemeral and "not playing" in r.response.content
    r = await other.click(board, custom_id=f"anima:{game_id}:decide")
    assert r.ephemeral and "Not your turn" in r.response.content
    r = await w.dave.click(board, custom_id=f"anima:{game_id}:hand")
    assert r.ephemeral and r.response.content == "You are not playing in this game."
    assert stored(db_path, game_id).version == before

    # The decider's own click works.
    member = players[decider.user_id]
    r = await member.click(board, custom_id=done)
    assert chose(r, "Done**")
    assert stored(db_path, game_id).version > before


async def test_double_click_applies_one_action(simcord_env: simcord.Env, db_path: Path) -> None:
    w = world(simcord_env)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    driver = Driver(w, db_path, game_id, players, seed=4)
    st, prompts = await driver.until(single_public_decision)
    seat = st.seats[prompts[0].player]
    member = players[seat.user_id]
    board = board_of(w.table, db_path, game_id)
    # Two private panels open for the same decision, the first one older than the 15 minutes
    # in which the bot may edit it (so it could not be marked outdated when the second one
    # opened): the same choice is clicked in both.
    first = await member.click(board, custom_id=f"anima:{game_id}:decide")
    for _ in range(15):
        await w.env.advance_time(60)
    assert "no longer updates itself" in first.response.content
    second = await member.click(board, custom_id=f"anima:{game_id}:decide")
    index = prompts[0].choices.index("done")
    custom_id = f"anima:{game_id}:{seat.since}:{index}"
    assert custom_id in [c.custom_id for c in components(first.response)]
    assert custom_id in [c.custom_id for c in components(second.response)]
    n_actions = len(actions(db_path, game_id))

    ok = await member.click(second.response, custom_id=custom_id)
    assert ok.response.content.startswith("✅")
    stale = await member.click(first.response, custom_id=custom_id)
    assert stale.response.content.startswith("That choice is no longer open.")
    # ... with a fresh prompt if he has one now, and exactly one action was applied by him.
    mine = [a for a in actions(db_path, game_id)[n_actions:] if a[3] == "human"]
    assert mine == [mine[0]] and mine[0][2] == "done"


async def test_two_clicks_at_once_apply_once(simcord_env: simcord.Env, db_path: Path) -> None:
    w = world(simcord_env)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    driver = Driver(w, db_path, game_id, players, seed=4)
    st, prompts = await driver.until(single_public_decision)
    seat = st.seats[prompts[0].player]
    index = prompts[0].choices.index("done")
    games = simcord_env.bot.games
    n_actions = len(actions(db_path, game_id))
    # Two interactions racing inside the bot: the game lock and the version check let one in.
    replies = await asyncio.gather(
        games.choose(game_id, seat.user_id, seat.since, index),
        games.choose(game_id, seat.user_id, seat.since, index),
    )
    assert sorted(r.ok for r in replies) == [False, True]
    assert any(r.content.startswith("That choice is no longer open.") for r in replies)
    mine = [a for a in actions(db_path, game_id)[n_actions:] if a[3] == "human"]
    assert len(mine) == 1
