"""The running games kept in memory stay bounded: the cache of loaded games and the per-game
locks, however many games run, and a finished game leaves the cache."""

from __future__ import annotations

from pathlib import Path

import simcord
from anima_sim import (
    Driver,
    World,
    start_game,
)
from posting_checks import assert_posted_once

from bot.app import AnimaBot


async def test_the_game_cache_and_locks_stay_bounded(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
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
