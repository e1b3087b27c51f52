"""Shard clusters (issue 24): with ``SHARD_COUNT`` the bot is an ``AutoShardedBot`` running
its ``SHARD_IDS``, plays the games of every server on its shards (DM clicks reach shard 0),
and resumes after a restart only the games of its own shards."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest
import simcord
from anima_sim import Driver, World, start_game, stored

from bot.app import AnimaBot, ShardedAnimaBot
from bot.settings import ShardSet, shard_of


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    return make_bot(shard_count=2)


def world_on(env: simcord.Env, shard: int) -> World:
    """A server whose events come through ``shard``, with its #table and members."""
    guild = env.create_guild(f"Shard {shard}", shard_id=shard)
    table = guild.create_text_channel("table")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    members = [guild.add_member(env.create_user(f"{n}{shard}")) for n in ("a", "b", "c", "d")]
    admin = guild.add_member(env.create_user(f"mod{shard}"), roles=[mods])
    return World(env, guild, table, *members, admin)


def test_a_process_owns_the_servers_of_its_shards_and_dms_are_shard_zeros() -> None:
    shards = ShardSet(4, (1, 2))
    on = {s: (1234 << 22) * 4 + (s << 22) for s in range(4)}  # a server id per shard
    assert [shard_of(on[s], 4) for s in range(4)] == [0, 1, 2, 3]
    assert [shards.owns(on[s]) for s in range(4)] == [False, True, True, False]
    assert not shards.owns(None) and ShardSet(4, (0,)).owns(None)
    assert ShardSet().owns(on[3])  # one process owns everything


async def test_a_two_shard_bot_plays_whole_games_on_both_shards(
    simcord_env: simcord.Env, db_path: object
) -> None:
    env = simcord_env
    bot = env.bot
    assert isinstance(bot, ShardedAnimaBot) and isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
    for shard in (0, 1):
        w = world_on(env, shard)
        assert shard_of(w.guild.id, 2) == shard
        game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
        players = {m.id: m for m in (w.alice, w.bob)}
        final = await Driver(w, db_path, game_id, players, seed=shard).play()  # type: ignore[arg-type]
        assert final.status == "over"
    assert not bot.errors


async def test_a_cluster_resumes_only_the_games_of_its_own_shards(
    simcord_env: simcord.Env, db_path: object, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    games = {}
    for shard in (0, 1):
        w = world_on(env, shard)
        games[shard] = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    for own in (0, 1):
        bot = make_bot(shard_count=2, shard_ids=str(own))
        await env.restart_bot(bot)
        assert list(bot.shards) == [own]
        # Recovery loads the games it resumes: its own shard's, not the other's.
        assert bot.games.cached(games[own]) and not bot.games.cached(games[1 - own])
        assert stored(db_path, games[own]).status == "running"  # type: ignore[arg-type]
