"""Issue 10's edge cases on the bot's side: a lobby never orphaned, the bot's permissions
checked before a game starts, panels without a view timer, startup integrity check and
backups, per-server stats kept up to date."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    chose,
    components,
    default_options,
    game_ids,
    message_by_id,
    open_lobby,
    private_reply,
    start_game,
    stored,
    world,
)
from simcord import assert_error

from bot.__main__ import main
from bot.app import AnimaBot
from bot.autopass import describe
from bot.database import Hop
from bot.integrity import DatabaseDamaged
from bot.lobby import UNPOSTED_GRACE
from bot.panels import fingerprint
from bot.storage import MIGRATIONS, GuildSettings, Storage


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
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=6)
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    driver = Driver(w, db_path, game_id, players, seed=2)
    # Random decisions until a board click is answered with a private panel: a follow-up
    # message with the player's buttons (discord.py gives such a view a 15-minute timer).
    # Six turns: with no empty choice offered (issue 20), seed 2's first such click (a reward
    # asking a further choice) comes on turn 5.
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


# ---------------------------------------------------------------------- fault 3: orphan lobby


async def test_start_answers_before_it_writes_the_lobby(
    simcord_env: simcord.Env, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world(simcord_env)
    storage = simcord_env.bot.storage  # type: ignore[attr-defined]
    real = storage.create_lobby
    answered: list[bool] = []

    async def create_lobby(*args: Any) -> int | None:
        callbacks = [e for e in simcord_env.http_requests if e.path.endswith("/callback")]
        answered.append(bool(callbacks))
        return await real(*args)

    monkeypatch.setattr(storage, "create_lobby", create_lobby)
    r = await w.alice.slash(w.table, "anima start")
    assert not r.ephemeral and r.response is not None
    assert answered == [True]
    assert stored(db_path, 1).lobby_message_id == r.response.message.id


async def test_a_lobby_whose_answer_failed_is_closed_at_once(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    w = world(simcord_env)
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", status=500)
    await w.alice.slash(w.table, "anima start")
    assert_error(simcord_env, discord.HTTPException)
    assert stored(db_path, 1).status == "cancelled"
    r = await w.bob.slash(w.table, "anima start")
    assert not r.ephemeral and stored(db_path, 2).status == "lobby"


async def test_a_lobby_never_posted_expires(simcord_env: simcord.Env, db_path: Path) -> None:
    w = world(simcord_env)
    storage = simcord_env.bot.storage  # type: ignore[attr-defined]
    # The bot died between writing the lobby and posting its message.
    t = simcord_env.now().timestamp()
    await storage.create_lobby(w.guild.id, w.table.id, w.alice.id, "alice", default_options(), t)
    r = await w.bob.slash(w.table, "anima start")
    assert r.ephemeral and "already a game" in r.response.content
    await simcord_env.advance_time(UNPOSTED_GRACE)
    r = await w.bob.slash(w.table, "anima start")
    assert not r.ephemeral
    assert stored(db_path, 1).status == "cancelled" and stored(db_path, 2).status == "lobby"


async def test_an_idle_lobby_expires(simcord_env: simcord.Env, db_path: Path) -> None:
    w = world(simcord_env)
    simcord_env.bot.lobby.idle_after = 120  # type: ignore[attr-defined]
    game_id, lobby = await open_lobby(w, w.alice, [])
    await simcord_env.advance_time(90)
    await w.bob.click(lobby, custom_id=f"anima:lobby:{game_id}:join")  # a change: not idle
    await simcord_env.advance_time(90)
    r = await w.carol.slash(w.table, "anima start")
    assert r.ephemeral and "a lobby is open" in r.response.content
    await simcord_env.advance_time(31)
    r = await w.carol.slash(w.table, "anima start")
    assert not r.ephemeral
    assert stored(db_path, game_id).status == "cancelled"
    old = message_by_id(w.table, lobby.id)
    assert "expired" in (old.embeds[0].description or "") and not old.components


# ---------------------------------------------------------------------- fault 4: permissions


async def test_start_refuses_without_the_bots_permissions(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    w = world(simcord_env)
    me = w.guild.me
    assert me is not None
    quiet = w.guild.create_text_channel(
        "quiet",
        overwrites={me: discord.PermissionOverwrite(send_messages=False, embed_links=False)},
    )
    r = await w.alice.slash(quiet, "anima start")
    assert r.ephemeral
    assert "**Embed Links**, **Send Messages**" in r.response.content, r.response.content
    assert game_ids(db_path) == []  # nothing changed
    # A game in a thread needs the thread permissions too.
    no_threads = w.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    r = await w.alice.slash(no_threads, "anima start", thread=True)
    assert r.ephemeral and "**Create Public Threads**" in r.response.content
    assert "Send Messages" not in r.response.content
    assert game_ids(db_path) == []
    r = await w.alice.slash(no_threads, "anima start")  # played in the channel: fine
    assert not r.ephemeral and game_ids(db_path) == [1]


# ---------------------------------------------------------------------- fault 5: hostile names

#: Nicknames that would be markdown, a masked link, a ping or a mention if echoed as typed.
HOSTILE = ["[Free Nitro](https://evil.example)", "@everyone", "**bold**", "`tick`", "<@123>"]
#: What each looks like when it was echoed unescaped.
UNESCAPED = [
    r"(?<!\\)\[Free Nitro\]",
    r"@everyone",
    r"(?<!\\)\*\*bold",
    r"(?<!\\)`tick",
    r"(?<!\\)<@123>",
]


def rendered_texts(payload: Any) -> list[str]:
    """The parts of a message payload that Discord renders as markdown: its content, and
    its embeds' titles, descriptions, field names and values (not button labels, select
    options or footers, which Discord shows as plain text)."""
    if not isinstance(payload, dict):
        return []
    if isinstance(payload.get("data"), dict):  # an interaction callback
        payload = payload["data"]
    texts = [payload["content"]] if isinstance(payload.get("content"), str) else []
    for e in payload.get("embeds") or []:
        texts += [e.get("title") or "", e.get("description") or ""]
        texts += [x for f in e.get("fields") or [] for x in (f.get("name"), f.get("value"))]
    return texts


def sent_texts(env: simcord.Env) -> list[str]:
    """Every markdown text of every message the bot sent or edited (channel, DMs, answers
    to interactions, ephemeral panels), from the REST calls it made."""
    out = []
    for e in env.http_requests:
        out += rendered_texts(e.json)
        raw = (e.params or {}).get("payload_json")
        if isinstance(raw, str):
            out += rendered_texts(json.loads(raw))
    return out


async def test_hostile_nicknames_are_escaped_in_every_message(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    guild = env.create_guild("Anima Test")
    table = guild.create_text_channel("table")
    members = [
        guild.add_member(env.create_user(f"user{i}"), nick=name) for i, name in enumerate(HOSTILE)
    ]
    storage = env.bot.storage  # type: ignore[attr-defined]
    await storage.save_guild_settings(GuildSettings(guild.id, 60, 30, True, 3))
    w = World(env, guild, table, *members[:4], members[4])
    game_id = await start_game(w, members[0], members[1:], ai=0, turns=2)
    assert [s.name for s in stored(db_path, game_id).seats.values()] == HOSTILE
    players = {m.id: m for m in members}
    # The players attack and offer trades whenever they can: choices that name a player.
    driver = Driver(
        w, db_path, game_id, players, seed=5, prefer=lambda c: c.startswith(("attack", "offer"))
    )
    # Half the game by the players, one decision left to its timer (the table is told whose
    # time ran out and what was chosen), the rest by the players.
    await driver.until(lambda st, prompts: st.game.s.turn >= 2)
    await env.advance_time(61)
    await members[0].slash(table, "anima log")
    # Typed text is echoed back escaped too.
    await members[0].slash(table, "anima play", card="**bold** <@123>")
    await members[1].slash(table, "anima card", name="[Free Nitro](https://evil.example)")
    await members[2].slash(table, "anima rules", topic="`tick` @everyone")
    for m in members:
        await m.slash(table, "anima hand")
    await driver.play()
    await members[1].slash(table, "anima stats")
    await members[1].slash(table, "anima log")
    await members[1].slash(table, "anima history")
    texts = sent_texts(env)
    assert any("Free Nitro" in t for t in texts) and any("bold" in t for t in texts)
    assert any("ran out of time" in t for t in texts)
    assert any("You chose: **Attack" in t or "You chose: **Offer" in t for t in texts)
    for t in texts:
        for pattern in UNESCAPED:
            assert not re.search(pattern, t), (pattern, t)


# ---------------------------------------------------------------------- fault 9: integrity


def damage(path: Path) -> None:
    """Scribble over the third page of a database file (a b-tree page of some table)."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) >= 4 * page
    data[2 * page : 2 * page + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))


def game_database(path: Path, games: int = 40) -> None:
    """A database of the bot's schema with some games in it (written like the bot does)."""

    async def fill() -> None:
        storage = Storage(path, GuildSettings(0, 0, 30, True, 3))
        await storage.open()
        for i in range(games):
            await storage.create_lobby(1, 100 + i, 7, "alice" * 40, default_options(), 0.0)
        await storage.close()

    asyncio.run(fill())


@pytest.mark.parametrize("how", ["empty", "damaged", "not a database"])
def test_a_damaged_database_is_refused_with_how_to_restore(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    path = tmp_path / "anima.sqlite3"
    if how == "empty":
        path.write_bytes(b"")
    elif how == "damaged":
        game_database(path)
        damage(path)
    else:
        path.write_text("these are not the games you are looking for\n" * 200)
    before = path.read_bytes()
    with pytest.raises(DatabaseDamaged, match="anima-bot backup"):
        asyncio.run(Storage(path, GuildSettings(0, 0, 30, True, 3)).open())
    # The command line says it in one message and does not start (no connection to Discord).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANIMA_DB_PATH", str(path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "not starting" in err and "To restore a backup" in err and str(path) in err
    assert "Traceback" not in err
    assert path.read_bytes() == before  # nothing written


async def test_backup_while_the_bot_runs(
    simcord_env: simcord.Env,
    db_path: Path,
    tmp_path: Path,
    make_bot: Callable[..., AnimaBot],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    w = world(simcord_env)
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    driver = Driver(w, db_path, game_id, {w.alice.id: w.alice, w.bob.id: w.bob}, seed=3)
    for _ in range(10):
        await driver.step()
    version = stored(db_path, game_id).version
    copy = tmp_path / "backups" / "anima-1.sqlite3"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANIMA_DB_PATH", str(db_path))
    assert main(["backup", str(copy)]) == 0  # the bot's connection is open (WAL)
    assert "quick_check ok" in capsys.readouterr().out
    assert main(["backup", str(copy)]) == 2  # never over an existing file
    assert "exists already" in capsys.readouterr().err
    # The game goes on in the original; the copy is the game as it was, and a bot restored
    # from it plays on from there.
    await driver.step()
    assert stored(copy, game_id).version == version < stored(db_path, game_id).version
    await simcord_env.restart_bot(make_bot(db_path=copy))
    r = await w.bob.slash(w.table, "anima board")
    assert r.response is not None and r.response.embeds
    assert stored(copy, game_id).status == "running"


# ---------------------------------------------------------------------- /anima stats


def stats_from_scratch(path: Path, guild_id: int) -> tuple[int, int, list[tuple[Any, ...]]]:
    """(games, Omega wins, players) counted from every finished game, the way /anima stats
    did before it kept aggregates (names: the member's latest)."""
    with sqlite3.connect(path) as db:
        games, omega = db.execute(
            "SELECT COUNT(*), COALESCE(SUM(winner_seat IS NULL), 0) FROM games "
            "WHERE guild_id = ? AND status = 'over'",
            (guild_id,),
        ).fetchone()
        players = db.execute(
            "SELECT CASE WHEN user_id IS NULL THEN 'AI players' ELSE (SELECT l.name FROM "
            "results l WHERE l.guild_id = r.guild_id AND l.user_id = r.user_id ORDER BY "
            "l.game_id DESC LIMIT 1) END, user_id, SUM(won), COUNT(*) FROM results r "
            "WHERE guild_id = ? GROUP BY COALESCE(user_id, -1) "
            "ORDER BY SUM(won) DESC, COUNT(*) DESC, COALESCE(user_id, -1)",
            (guild_id,),
        ).fetchall()
    return games, omega, players


async def stats_now(storage: Storage, guild_id: int) -> tuple[int, int, list[tuple[Any, ...]]]:
    games, players = await storage.guild_stats(guild_id)
    # Ties in any order: compare sorted like stats_from_scratch.
    ranked = sorted(players, key=lambda p: (-p[2], -p[3], p[1] if p[1] is not None else -1))
    return games, await storage.omega_wins(guild_id), ranked


async def test_stats_migration_counts_the_games_finished_before_it(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    stats_migration = next(
        i for i, m in enumerate(MIGRATIONS) if any("CREATE TABLE guild_stats" in s for s in m)
    )
    with sqlite3.connect(path) as db:  # a database of the bot just before the migration
        for migration in MIGRATIONS[:stats_migration]:
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
                            user is None,
                            seat == winner,
                        ),
                    )
    storage = Storage(path, GuildSettings(0, 0, 30, True, 3))
    await storage.open()
    try:
        for guild in (1, 2, 3, 4):
            expected = stats_from_scratch(path, guild)
            assert await stats_now(storage, guild) == expected
            assert (expected[0] > 0) == (guild != 4)
    finally:
        await storage.close()


async def test_stats_follow_each_finished_game(simcord_env: simcord.Env, db_path: Path) -> None:
    w = world(simcord_env)
    storage = simcord_env.bot.storage  # type: ignore[attr-defined]
    assert await stats_now(storage, w.guild.id) == (0, 0, [])
    players = {w.alice.id: w.alice, w.bob.id: w.bob, w.carol.id: w.carol}
    for seed, (host, joiners) in enumerate([(w.alice, [w.bob]), (w.carol, [w.alice])]):
        game_id = await start_game(w, host, joiners, ai=1, turns=2)
        await Driver(w, db_path, game_id, players, seed=seed).play()
        assert await stats_now(storage, w.guild.id) == stats_from_scratch(db_path, w.guild.id)
    games, _, ranked = await stats_now(storage, w.guild.id)
    assert games == 2 and sum(p[3] for p in ranked) == 6
    r = await w.dave.slash(w.table, "anima stats")
    assert "Games played: **2**" in (r.response.embeds[0].description or "")


# ---------------------------------------------------------------------- panels' SQL


async def test_a_panel_rendered_again_reads_nothing_it_knows(
    simcord_env: simcord.Env, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A panel's private events and auto-pass are read once; a change (a publish that tells
    the seat something, a new auto-pass) shows without a stale read."""
    w = world(simcord_env)
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    bot = simcord_env.bot
    storage, panels = bot.storage, bot.panels  # type: ignore[attr-defined]
    reads: list[str] = []

    def counted(hop: Hop) -> None:  # every statement handed to the database's thread
        reads.extend(sql for sql, _seconds in hop.statements if sql.startswith("SELECT"))

    monkeypatch.setattr(storage.db, "trace", counted)
    table = await bot.games.load(game_id)  # type: ignore[attr-defined]
    seat = table.seat_of(w.alice.id)
    first = await panels.parts(table, seat)
    read_once = len(reads)
    again = await panels.parts(table, seat)
    assert len(reads) == read_once and fingerprint(*again) == fingerprint(*first)
    # A change of the member's auto-pass (here by /anima settings) shows at once.
    await w.alice.slash(w.table, "anima settings", auto_moves=True)
    embed, _ = await panels.parts(table, seat)
    assert describe(frozenset({"move_declared"})) in str(embed.to_dict())
