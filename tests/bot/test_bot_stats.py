"""Per-server stats: the migration that adds them counts the games finished before it, and
they follow each finished game."""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    start_game,
)
from databases import TestDatabase, connect

from bot.storage import GuildSettings, Storage

pytestmark = pytest.mark.both_backends


def stats_from_scratch(
    database: TestDatabase, guild_id: int
) -> tuple[int, int, list[tuple[Any, ...]]]:
    """(games, Omega wins, players) counted from every finished game, the way /anima stats
    did before it kept aggregates (names: the member's latest)."""
    with connect(database) as db:
        games, omega = db.execute(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN winner_seat IS NULL THEN 1 ELSE 0 END), 0) "
            "FROM games WHERE guild_id = ? AND status = 'over'",
            (guild_id,),
        ).fetchone()
        players = db.execute(
            "SELECT CASE WHEN user_id IS NULL THEN 'AI players' ELSE (SELECT l.name FROM "
            "results l WHERE l.guild_id = r.guild_id AND l.user_id = r.user_id ORDER BY "
            "l.game_id DESC LIMIT 1) END, user_id, SUM(won), COUNT(*) FROM results r "
            "WHERE guild_id = ? GROUP BY r.guild_id, r.user_id "
            "ORDER BY SUM(won) DESC, COUNT(*) DESC, COALESCE(user_id, -1)",
            (guild_id,),
        ).fetchall()
    return games, omega, [tuple(p) for p in players]


async def stats_now(storage: Storage, guild_id: int) -> tuple[int, int, list[tuple[Any, ...]]]:
    games, players = await storage.guild_stats(guild_id)
    # Ties in any order: compare sorted like stats_from_scratch.
    ranked = sorted(players, key=lambda p: (-p[2], -p[3], p[1] if p[1] is not None else -1))
    return games, await storage.omega_wins(guild_id), ranked


async def test_stats_migration_counts_the_games_finished_before_it(
    database: TestDatabase,
) -> None:
    migrations = database.dialect.migrations
    stats_migration = next(
        i for i, m in enumerate(migrations) if any("CREATE TABLE guild_stats" in s for s in m)
    )
    with connect(database) as db:  # a database of the bot just before the migration
        for migration in migrations[:stats_migration]:
            for statement in migration:
                db.execute(statement)
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (?)", (stats_migration,))
        rng = random.Random(4)
        for game_id in range(1, 61):
            guild = 1 + game_id % 3
            status = rng.choice(["over", "over", "over", "ended", "running", "cancelled"])
            seats = rng.sample([(11, "ann"), (12, "ben"), (13, "cid"), (None, "AI 1")], 3)
            winner = rng.choice([None, "p1", "p2", "p3"]) if status == "over" else None
            db.execute(
                "INSERT INTO games (id, guild_id, channel_id, host_id, status, options_json, "
                "winner_seat, created_at) VALUES (?, ?, ?, 11, ?, '{}', ?, 0)",
                (game_id, guild, 100 + game_id, status, winner),
            )
            if status == "over":
                for i, (user, name) in enumerate(seats):
                    seat = f"p{i + 1}"
                    db.execute(
                        "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            game_id,
                            guild,
                            seat,
                            user,
                            f"{name}{game_id}",
                            int(user is None),
                            int(seat == winner),
                        ),
                    )
    storage = Storage(database.target, GuildSettings(0, 0, 30, True, 3))
    await storage.open()
    try:
        for guild in (1, 2, 3, 4):
            expected = stats_from_scratch(database, guild)
            assert await stats_now(storage, guild) == expected
            assert (expected[0] > 0) == (guild != 4)
    finally:
        await storage.close()


async def test_stats_follow_each_finished_game(
    w: World, simcord_env: simcord.Env, database: TestDatabase
) -> None:
    storage = simcord_env.bot.storage  # type: ignore[attr-defined]
    assert await stats_now(storage, w.guild.id) == (0, 0, [])
    players = {w.alice.id: w.alice, w.bob.id: w.bob, w.carol.id: w.carol}
    for seed, (host, joiners) in enumerate([(w.alice, [w.bob]), (w.carol, [w.alice])]):
        game_id = await start_game(w, host, joiners, ai=1, turns=2)
        await Driver(w, database, game_id, players, seed=seed).play()
        assert await stats_now(storage, w.guild.id) == stats_from_scratch(database, w.guild.id)
    games, _, ranked = await stats_now(storage, w.guild.id)
    assert games == 2 and sum(p[3] for p in ranked) == 6
    r = await w.dave.slash(w.table, "anima stats")
    assert "Games played: **2**" in (r.response.embeds[0].description or "")
