"""Decision timers: a ping at half time, the default at expiry (X6), an AI after N
time-outs in a row; reaction windows close for everybody when their time is up."""

from __future__ import annotations

from pathlib import Path

import simcord
from anima_sim import (
    Driver,
    Stored,
    World,
    actions,
    board,
    board_text,
    chose,
    drive_new_game,
    lines_text,
    start_game,
    stored,
)

from engine.prompts import Prompt


async def test_half_time_ping_timeout_and_ai_takeover(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    await w.admin.slash(w.table, "anima settings", decision_timer=60, ai_takeover=3)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    # bob chooses his start at once; alice does not answer.
    players = {w.bob.id: w.bob}
    driver = Driver(w, db_path, game_id, players, seed=1)
    st, prompts = driver.human_prompts()
    bob_prompt = next(p for p in prompts if p.player == "p2")
    await driver.choose(st, bob_prompt, 0)
    st, prompts = driver.human_prompts()
    await driver.choose(st, next(p for p in prompts if p.player == "p2"), 0)

    await env.advance_time(29)
    assert not any("half of your time" in lines_text(m) for m in w.table.history())
    await env.advance_time(2)
    pings = [m for m in w.table.history() if "half of your time" in lines_text(m)]
    assert len(pings) == 1 and w.alice.mention in lines_text(pings[0])
    await env.advance_time(20)
    assert len([m for m in w.table.history() if "half of your time" in lines_text(m)]) == 1

    await env.advance_time(10)  # 61 s: the default is taken, the table is told
    told = [m for m in w.table.history() if "ran out of time" in lines_text(m)]
    said = "**alice** ran out of time: the default choice."
    assert len(told) == 1 and said in lines_text(told[0])
    st = stored(db_path, game_id)
    # A setup choice's time-out does not count towards being away (issue 8).
    assert st.seats["p1"].timeouts == 0 and not st.seats["p1"].ai
    assert st.game.s.players["p1"].party  # the default kept a leader

    # Her Advantages time out too (not counted), then three real decisions in a row while
    # bob plays on: the AI takes her seat, since bob is still there.
    await env.advance_time(61)
    st = stored(db_path, game_id)
    assert st.seats["p1"].timeouts == 0
    driver.players = {w.bob.id: w.bob}
    for _ in range(200):
        st, prompts = driver.human_prompts()
        if st.seats["p1"].ai or st.status != "running":
            break
        if any(p.player == "p1" and not p.window for p in prompts):
            await env.advance_time(61)
            continue
        bob = [p for p in prompts if p.player == "p2"]
        if bob:
            await driver.choose(st, bob[0], 0)
        else:  # a reaction window where only alice is left
            await env.advance_time(31)
    st = stored(db_path, game_id)
    assert st.seats["p1"].ai and st.seats["p1"].user_id == w.alice.id
    assert any("an AI player takes over" in lines_text(m) for m in w.table.history())
    assert [a[3] for a in actions(db_path, game_id)].count("timeout") >= 5
    assert st.seats["p1"].timeouts == 3 and st.status == "running"
    # The board marks the seat the AI plays.
    text = board_text(board(w.table, db_path, game_id))
    assert "\n**alice 🤖 (AI, away)" in text, text  # her party's heading

    # alice is told and can take her seat back.
    r = await w.alice.slash(w.table, "anima hand")
    assert "taken over your seat" in r.response.content
    r = await w.alice.click(r.response, custom_id=f"anima:{game_id}:reclaim")
    assert "yours again" in r.response.content
    st = stored(db_path, game_id)
    assert not st.seats["p1"].ai and st.seats["p1"].timeouts == 0


def window_open(st: Stored, prompts: list[Prompt]) -> bool:
    return len([p for p in prompts if p.window]) == 3


async def test_reaction_window_closes_for_everybody(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    game_id, driver = await drive_new_game(
        w, db_path, [w.alice, w.bob, w.carol], ai=0, turns=2, seed=5
    )
    players = driver.players
    st, prompts = await driver.until(window_open)
    since = {p.player: st.seats[p.player].since for p in prompts}
    assert len(set(since.values())) == 1  # one window, one version for everybody
    deadline = st.seats[prompts[0].player].deadline
    assert deadline is not None
    # One player passes with the public button; the window stays open for the others.
    first = prompts[0]
    member = players[st.seats[first.player].user_id]
    r = await member.click(
        board(w.table, db_path, game_id), custom_id=f"anima:{game_id}:{since[first.player]}:0"
    )
    assert chose(r, "Pass**")
    st = stored(db_path, game_id)
    waiting = [p for p in st.game.pending() if p.window]
    assert len(waiting) == 2
    assert all(st.seats[p.player].deadline == deadline for p in waiting)
    # Respond shows the private choices; nobody answers; time runs out for both.
    other = players[st.seats[waiting[0].player].user_id]
    r = await other.click(board(w.table, db_path, game_id), custom_id=f"anima:{game_id}:respond")
    assert r.ephemeral and r.response.embeds[0].title.startswith("Your hand")
    n = len(actions(db_path, game_id))
    await env.advance_time(deadline - env.now().timestamp() + 5)
    timed_out = [a for a in actions(db_path, game_id)[n:] if a[3] == "timeout"]
    assert sorted(a[1] for a in timed_out) == sorted(p.player for p in waiting)
    assert all(a[2] == "pass" for a in timed_out)
    assert any("reaction window is closed" in lines_text(m) for m in w.table.history())
    # Window time-outs do not count towards an AI takeover.
    st = stored(db_path, game_id)
    assert all(s.timeouts == 0 for s in st.seats.values())
