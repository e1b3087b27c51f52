"""Issue 10's edge cases on the bot's side: a lobby never orphaned, the bot's permissions
checked before a game starts, panels without a view timer, startup integrity check and
backups, per-server stats kept up to date."""

from __future__ import annotations

import asyncio
from pathlib import Path

import simcord
from anima_sim import (
    Driver,
    chose,
    components,
    private_reply,
    start_game,
    world,
)


def view_timers() -> list[asyncio.Task[object]]:
    """discord.py's per-view timeout tasks still pending (one per message sent with a view
    that has a timeout; an ephemeral view gets 15 minutes unless it is stopped)."""
    return [
        t for t in asyncio.all_tasks() if not t.done() and "timeout_task_impl" in repr(t.get_coro())
    ]


async def test_a_panel_keeps_no_view_timer_and_works_after_15_minutes(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    w = world(simcord_env)
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=4)
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    driver = Driver(w, db_path, game_id, players, seed=2)
    # Random decisions until a board click is answered with a private panel: a follow-up
    # message with the player's buttons (discord.py gives such a view a 15-minute timer).
    panel, member = None, w.alice
    for _ in range(500):
        st, prompts = driver.human_prompts()
        assert st.status == "running", "no board click was answered with a panel"
        prompt = driver.rng.choice(prompts)
        member = players[st.seats[prompt.player].user_id or 0]
        r = await driver.choose(st, prompt, driver.rng.randrange(len(prompt.choices)))
        assert r.acknowledged and chose(r), private_reply(r)
        panel = next((f for f in r.followups if f.ephemeral and components(f)), None)
        if panel is not None:
            break
    assert panel is not None
    assert not view_timers()
    for _ in range(16):  # past Discord's 15 minutes, a minute at a time
        await simcord_env.advance_time(60)
    # The panel's buttons are DynamicItems: they still answer (Refresh: a fresh panel).
    refresh = f"anima:{game_id}:hand"
    assert refresh in {c.custom_id for c in components(panel)}
    r = await member.click(panel, custom_id=refresh)
    assert r.acknowledged and r.response is not None and r.response.embeds, private_reply(r)
    assert not view_timers()
    assert await driver.step()  # and the game goes on
