"""Ratings on Discord (issue 25): a game of two members and an AI player, played to its end
through the bot, changes their ratings as openskill's model says (computed here with the model
directly, from the finishing order the game logged); ``/anima leaderboard`` and ``/anima
profile`` show them. The lobby says whether the game is rated; a game of one member, or one
the host turned the option off for, is not; a game killed right after its last commit is
rated once, after the restart, and never again."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    actions,
    message_by_id,
    open_lobby,
    private_reply,
    stored,
)
from databases import TestDatabase, connect
from openskill.models import PlackettLuce
from posting_checks import assert_killed, killed_mid_game

from bot.app import AnimaBot
from engine import default_cards

MODEL = PlackettLuce()
SETS = "shadow_of_omega"

pytestmark = pytest.mark.both_backends


def ratings(database: TestDatabase) -> dict[tuple[int, str], tuple[float, float, int, int]]:
    """Every stored rating: (member, level) -> (mu, sigma, games, wins)."""
    with connect(database) as db:
        rows = db.execute("SELECT user_id, ai_level, mu, sigma, games, wins FROM ratings")
        return {(r[0], r[1]): (r[2], r[3], r[4], r[5]) for r in rows.fetchall()}


def the_model_says(database: TestDatabase, game_id: int) -> dict[tuple[int, str], Any]:
    """What openskill makes of the game's end, for players new to the model: its logged
    finishing order (groups, best first), its seats (an AI seat rated as its level)."""
    with connect(database) as db:
        (data,) = db.execute(
            "SELECT data_json FROM events WHERE game_id = ? AND kind = 'game_over'", (game_id,)
        ).fetchone()
        seats = db.execute(
            "SELECT seat, user_id, ai_level, ai FROM seats WHERE game_id = ? ORDER BY position",
            (game_id,),
        ).fetchall()
    over = json.loads(data)
    rank = {seat: i for i, group in enumerate(over["ranking"], start=1) for seat in group}
    assert all(not (user and ai) for _seat, user, _level, ai in seats)  # nobody taken over
    rated = MODEL.rate([[MODEL.rating()] for _ in seats], ranks=[rank[s[0]] for s in seats])
    return {
        (user or 0, "" if user else level): (r.mu, r.sigma, 1, int(seat == over["winner"]))
        for (seat, user, level, _ai), [r] in zip(seats, rated, strict=True)
    }


def assert_figures(got: dict[tuple[int, str], Any], want: dict[tuple[int, str], Any]) -> None:
    """The stored ratings are the model's figures (to the last bits of a float)."""
    assert set(got) == set(want)
    for key, figures in want.items():
        assert got[key] == pytest.approx(figures, rel=1e-12), key


async def play_to_the_end(
    w: World, database: TestDatabase, game_id: int, lobby: discord.Message, seed: int = 3
) -> None:
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert r.acknowledged and private_reply(r) is None, private_reply(r)
    players = {m.id: m for m in (w.alice, w.bob) if m.id in _seated(database, game_id)}
    await Driver(w, database, game_id, players, seed=seed).play()


def _seated(database: TestDatabase, game_id: int) -> set[int]:
    with connect(database) as db:
        rows = db.execute("SELECT user_id FROM seats WHERE game_id = ?", (game_id,)).fetchall()
    return {r[0] for r in rows if r[0] is not None}


def rated_field(lobby: discord.Message) -> str:
    return next(f.value or "" for f in lobby.embeds[0].fields if f.name == "Rated")


async def test_a_game_of_two_members_changes_their_ratings_as_openskill_says(
    w: World, database: TestDatabase
) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], ai_levels=["random"], turns=2)
    assert "yes" in rated_field(lobby)
    await play_to_the_end(w, database, game_id, lobby)
    want = the_model_says(database, game_id)
    assert set(want) == {(w.alice.id, ""), (w.bob.id, ""), (0, "random")}
    assert_figures(ratings(database), want)

    # The end message shows each seat's rating before (a newcomer's 0) and after the game.
    summary = next(
        m
        for m in w.table.history(viewer=w.dave)
        if m.embeds and m.embeds[0].title == f"Anima · game #{game_id} is over"
    )
    fields = {f.name: f.value or "" for f in summary.embeds[0].fields}
    for member in (w.alice, w.bob):
        mu, sigma, _games, _wins = want[(member.id, "")]
        after = round(mu - 3 * sigma)
        change = f"{after:+d}" if after else "±0"
        field = next(v for k, v in fields.items() if k.endswith(member.name))
        assert f"🏅 Rating 0 → {after} ({change})" in field, field

    # /anima leaderboard: everybody of the game, best first, the AI marked as AI.
    r = await w.dave.slash(w.table, "anima leaderboard")
    assert r.ephemeral
    embed = r.response.embeds[0]
    assert embed.title == "Leaderboard · Shadow of Omega"
    lines = (embed.description or "").split("\n")
    best = sorted(want, key=lambda k: -(want[k][0] - 3 * want[k][1]))
    who = {(w.alice.id, ""): f"<@{w.alice.id}>", (w.bob.id, ""): f"<@{w.bob.id}>"}
    for i, key in enumerate(best, start=1):
        name = who.get(key, "🤖 AI (random)")
        points = round(want[key][0] - 3 * want[key][1])
        assert lines[i - 1] == f"**{i}.** {name}: **{points}** · 1 rated game", lines

    # The server's rated set combinations are offered by name; another one has no board.
    offered = await w.dave.autocomplete(w.table, "anima leaderboard", "sets", "shad")
    assert offered == [{"name": "Shadow of Omega", "value": SETS}]
    r = await w.dave.slash(w.table, "anima leaderboard", sets="twilight_of_the_gods")
    assert r.response.content == "No rated game with these sets has ended on this server yet."

    # /anima profile of bob (asked by dave): his rating, record and leader.
    r = await w.dave.slash(w.table, "anima profile", member=w.bob)
    embed = r.response.embeds[0]
    assert embed.title == "Profile of bob"
    (field,) = embed.fields
    assert field.name == "Shadow of Omega"
    mu, sigma, _games, wins = want[(w.bob.id, "")]
    assert f"Rating **{round(mu - 3 * sigma)}** (μ {mu:.1f} ± {3 * sigma:.1f})" in field.value
    assert f"1 rated game, {wins} win" in field.value
    seat = next(s for s, u in _seats(database, game_id) if u == w.bob.id)
    kept = [a[2] for a in actions(database, game_id) if a[1] == seat and a[2].startswith("keep ")]
    leader = {c.id: c.name for c in default_cards()}[kept[0].split(" ", 1)[1]]
    assert f"Favourite leader: {leader} (1 game)" in field.value
    # Alice's own profile, by default.
    r = await w.alice.slash(w.table, "anima profile")
    assert r.response.embeds[0].title == "Profile of alice"


def _seats(database: TestDatabase, game_id: int) -> list[tuple[str, int | None]]:
    with connect(database) as db:
        return db.execute(
            "SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,)
        ).fetchall()


async def test_a_game_of_one_member_is_not_rated(w: World, database: TestDatabase) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [], ai_levels=["random"], turns=2)
    assert rated_field(lobby) == "no: fewer than two members at the table"
    await play_to_the_end(w, database, game_id, lobby)
    assert stored(database, game_id).status == "over"
    assert ratings(database) == {}
    r = await w.alice.slash(w.table, "anima leaderboard")
    assert r.response.content == "No rated game has ended on this server yet."


async def test_the_host_turns_the_rating_off(w: World, database: TestDatabase) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], ai_levels=["random"], turns=2)
    timer = f"anima:lobby:{game_id}:timer"
    r = await w.bob.select(lobby, ["rated:off"], custom_id=timer)
    assert "Only the host" in (private_reply(r) or "")  # nobody else may
    r = await w.alice.select(lobby, ["rated:off"], custom_id=timer)
    assert r.acknowledged and private_reply(r) is None, private_reply(r)
    lobby = message_by_id(w.table, lobby.id)
    assert rated_field(lobby) == "no: the host turned it off"
    # The select offers to turn it on again.
    options = [
        o for row in lobby.components for c in row.children for o in getattr(c, "options", [])
    ]
    assert "rated:on" in [o.value for o in options]
    await play_to_the_end(w, database, game_id, lobby)
    assert ratings(database) == {}


async def test_killed_after_the_last_commit_the_game_is_rated_once_with_it(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
) -> None:
    game_id, _players = await killed_mid_game(w, database, "after final commit", 0)
    assert stored(database, game_id).status == "over"
    # The last commit rated the game, in its transaction: the bot died after it.
    once = ratings(database)
    assert_figures(once, the_model_says(database, game_id))
    await simcord_env.restart_bot(make_bot())
    assert_killed(simcord_env, "after final commit")
    assert ratings(database) == once
    await simcord_env.restart_bot(make_bot())
    assert ratings(database) == once
    r = await w.carol.slash(w.table, "anima profile", member=w.alice)
    assert re.search(r"1 rated game, [01] wins?", r.response.embeds[0].fields[0].value)
