"""``/anima games`` (issue 26): a member's lobbies and running games on this server, his own
decisions first, each with its channel or thread, whose decision it is, since when, and a link
to its newest message; on both backends (its one statement joins seats, games and actions)."""

from __future__ import annotations

import re
from collections.abc import Callable

import discord
import pytest
import simcord
from anima_sim import Driver, World, actions, board, open_lobby, start_game, stored
from databases import TestDatabase, connect

from bot.app import AnimaBot
from bot.rendering.games import MAX_GAMES, GameLine, games_embed
from bot.rendering.text import EMBED_DESCRIPTION_LIMIT
from bot.storage.seen import WRITE_EVERY, Seen
from bot.table import jump_url
from words import speaking

pytestmark = pytest.mark.both_backends

#: The timers' tick in these tests: SimCord's time travel runs every tick of the hours travelled.
TICK = 600.0

LINK = re.compile(r"\]\((https://discord\.com/channels/[0-9/]+)\)")


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot, its timers ticking every ten minutes (hours go by in these tests)."""
    return make_bot(timer_tick=TICK)


def lines_of(result: simcord.InteractionResult) -> list[str]:
    assert result.ephemeral and result.response is not None
    embed = result.response.embeds[0]
    return (embed.description or "").split("\n")


async def test_games_lists_his_games_his_turn_first_with_links_to_their_newest_messages(
    w: World, simcord_env: simcord.Env, database: TestDatabase
) -> None:
    # A game in a thread where alice must choose her start (her decision).
    threads = w.guild.create_text_channel("threads")
    r = await w.carol.slash(threads, "anima start", turns=2, thread=True)
    lobby = r.response.message
    in_thread = stored(database, 1).id
    await w.alice.click(lobby, custom_id=f"anima:lobby:{in_thread}:join")
    await w.carol.click(lobby, custom_id=f"anima:lobby:{in_thread}:start")
    (thread,) = threads.threads
    thread_started = discord.utils.utcnow().timestamp()
    await simcord_env.advance_time(2 * 3600)
    # A game in #table where only bob must decide.
    table_game = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    driver = Driver(w, database, table_game, {w.alice.id: w.alice, w.bob.id: w.bob}, seed=4)
    bob_seat = stored(database, table_game).seat_of(w.bob.id).seat
    await driver.until(
        lambda st, prompts: prompts and all(p.player == bob_seat and not p.window for p in prompts)
    )
    # A lobby alice joined; a game she played that was ended; a game on another server.
    lobby_channel = w.guild.create_text_channel("lobby")
    lobby_game, lobby_message = await open_lobby(w, w.bob, [w.alice], channel=lobby_channel)
    ended_channel = w.guild.create_text_channel("ended")
    ended = await start_game(w, w.alice, [w.carol], ai=0, turns=2, channel=ended_channel)
    asked = await w.alice.slash(ended_channel, "anima end")
    await w.alice.click(asked.response, custom_id=f"anima:end:{ended}:yes")
    assert stored(database, ended).status == "ended"
    other = simcord_env.create_guild("Elsewhere")
    elsewhere = other.create_text_channel("table")
    alice_there = other.add_member(w.alice.user)
    carol_there = other.add_member(w.carol.user)
    away = await start_game(w, alice_there, [carol_there], ai=0, turns=2, channel=elsewhere)
    # Dave sits nowhere; bob's own list is his.
    assert lines_of(await w.dave.slash(w.table, "anima games")) == [
        "You sit in no lobby and no running game on this server. `/anima start` opens one."
    ]

    result = await w.alice.slash(w.table, "anima games")
    lines = lines_of(result)
    assert len(lines) == 3, lines
    mine, waiting, lobby_line = lines
    guild = w.guild.id
    assert mine.startswith(f"**#{thread.name}** · game #{in_thread} · 🟢 **your turn** (opened <t:")
    assert waiting.startswith(f"**#table** · game #{table_game} · ⏳ waiting for **bob**")
    assert lobby_line.startswith(f"**#lobby** · game #{lobby_game} · 🪑 lobby, 2 players")
    links = [LINK.search(line)[1] for line in lines]  # type: ignore[index]
    assert links == [
        jump_url(guild, thread.id, board(thread, database, in_thread).id),
        jump_url(guild, w.table.id, board(w.table, database, table_game).id),
        jump_url(guild, lobby_channel.id, lobby_message.id),
    ]
    text = "\n".join(lines)
    assert f"#{ended}" not in text and f"#{away} " not in text
    assert result.response.embeds[0].footer.text == "Your decision is awaited in 1 game"
    # Since when: the time of the action that opened bob's decision (no new column).
    opened = max(a[0] for a in actions(database, table_game))
    at = _action_time(database, table_game, opened)
    assert f"(opened <t:{int(at)}:R>)" in waiting
    assert int(at) >= int(thread_started) + 2 * 3600
    assert f"(opened <t:{int(thread_started)}:R>)" in mine  # her start choice: since the start

    # Bob sees the same game as his turn, in his own language.
    await w.bob.slash(w.table, "anima settings", language="es")
    bobs = lines_of(await w.bob.slash(w.table, "anima games"))
    assert bobs[0].startswith(f"**#table** · partida n.º {table_game} · 🟢 **te toca**")
    assert any("sala" in line for line in bobs)


def _action_time(database: TestDatabase, game_id: int, version: int) -> float:
    with connect(database) as conn:
        row = conn.execute(
            "SELECT at FROM actions WHERE game_id = ? AND version = ?", (game_id, version)
        ).fetchone()
    return float(row[0])


@pytest.mark.sqlite_only
def test_many_games_are_cut_with_and_n_more_within_the_embed() -> None:
    long_name = "N" * 64
    games = [
        GameLine(
            i,
            10_000 + i,
            jump_url(1, 10_000 + i, 99_000 + i),
            False,
            waiting_for=(long_name, long_name, long_name, long_name),
            his_turn=i % 7 == 0,
            since=1_700_000_000.0 + i,
        )
        for i in range(1, 41)
    ]
    with speaking("en"):
        embed = games_embed(games)
    description = embed.description or ""
    assert len(description) <= EMBED_DESCRIPTION_LIMIT
    lines = description.split("\n")
    assert lines[-1] == f"… and {40 - (len(lines) - 1)} more games"
    assert len(lines) - 1 <= MAX_GAMES
    # His five turns come first.
    assert all("your turn" in line for line in lines[:5])
    assert not any("your turn" in line for line in lines[5:])


async def test_missed_events_are_his_and_the_public_ones_only(
    w: World, simcord_env: simcord.Env, database: TestDatabase
) -> None:
    """The one statement whose SQL differs between the backends (the JSON test of a private
    event's recipients): another seat's private event is never read for him."""
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    storage = simcord_env.bot.storage  # type: ignore[attr-defined]
    st = stored(database, game_id)
    alice, bob = st.seat_of(w.alice.id).seat, st.seat_of(w.bob.id).seat
    first = max(e.id for e in await storage.last_events(game_id, 1))
    notes = [
        ("public", None),
        ("to alice", f'["{alice}"]'),
        ("to bob", f'["{bob}"]'),
        ("to both", f'["{alice}","{bob}"]'),
    ]
    with connect(database) as conn:
        for text, recipients in notes:
            conn.execute(
                "INSERT INTO events (game_id, version, kind, text, recipients, data_json, at) "
                "VALUES (?, ?, 'paused', ?, ?, '{}', 0)",
                (game_id, st.version, text, recipients),
            )
    newest = max(e.id for e in await storage.last_events(game_id, 1))

    async def missed(seat: str, upto: int) -> list[str]:
        return [e.text for e in await storage.missed_events(game_id, seat, first, upto)]

    assert await missed(alice, newest) == ["public", "to alice", "to both"]
    assert await missed(bob, newest) == ["public", "to bob", "to both"]
    # Up to the given event only (the publish pointer: what was not posted is not missed).
    assert await missed(alice, first + 1) == ["public"]


async def test_a_look_is_stored_now_and_then_and_read_back(
    simcord_env: simcord.Env, simcord_bot: AnimaBot
) -> None:
    """``member_seen`` on both backends: the first look of a young game stays in memory, a
    look ``WRITE_EVERY`` after the game's start (or forced) is stored, read back by a process
    that has none in memory, and updated in place."""
    storage = simcord_bot.storage
    start = 1_767_225_600.0
    await storage.mark_seen(7, 42, 10, start + 60, start, force=False)
    storage._seen.clear()  # another process (a restart): nothing was stored
    assert await storage.last_seen(7, 42) is None
    await storage.mark_seen(7, 42, 12, start + WRITE_EVERY, start, force=False)
    await storage.mark_seen(7, 42, 15, start + WRITE_EVERY + 60, start, force=False)
    assert (await storage.last_seen(7, 42)) == Seen(
        15, start + WRITE_EVERY + 60, start + WRITE_EVERY
    )
    storage._seen.clear()
    assert await storage.last_seen(7, 42) == Seen(12, start + WRITE_EVERY, start + WRITE_EVERY)
    await storage.mark_seen(7, 42, 20, start + WRITE_EVERY + 90, start, force=True)
    storage._seen.clear()
    assert await storage.last_seen(7, 42) == Seen(
        20, start + WRITE_EVERY + 90, start + WRITE_EVERY + 90
    )
    assert await storage.last_seen(7, 43) is None  # another member's look is his own
