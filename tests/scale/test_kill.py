"""The kill test of issue 24 ("Done when"): three shard clusters, each a process of its own, on
one PostgreSQL database, play whole games (rounds of one game per shard, until the kills are
enough) while one of them is killed with ``SIGKILL`` at random instants, over a hundred
times, and started again at once. The games are opened and dealt between the rounds, with no
kill: the kills are about playing.

What holds at the end: every game is over; its stored state is what its actions give when
replayed one by one (no decision applied twice or lost in storage); every click a worker
answered as a choice made is in the action log; every public line of the log is in the
game's channel exactly once and in order, with one end summary; every half-time ping was
posted once; no message of the game keeps buttons (the last board lost its own at the end);
and each kill came while the games were being played.

Discord here is SimCord's, in this process, reached by the workers over a socket
(:mod:`scale_bridge` says what is real and what is modelled); its nonce rule is Discord's
(:mod:`discord_nonces`). The workers are forked by a process that imported the bot once
(:mod:`scale_worker`), so that one is back within a second of its kill.
"""

from __future__ import annotations

import asyncio
import functools
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from anima_sim import Stored, chose, lines_text, private_reply, stored
from databases import TestDatabase
from discord_nonces import honour_nonces
from postgres_cluster import PostgresCluster
from posting_checks import assert_posted_once, live_buttons
from scale_bridge import Hub
from scale_harness import (
    Clicks,
    Operations,
    Worker,
    Zygote,
    answered,
    appears,
    custom_ids,
    newest_with,
)

from bot.database import PostgresDatabase
from bot.migrate import Verdict, verify
from bot.settings import shard_of
from bot.storage import GuildSettings, Storage
from engine import default_cards
from words import LANGUAGES, msg, say

#: Shard clusters, one shard each.
CLUSTERS = 3
#: Games per shard, each in a channel of its own: two members and an AI player, one turn.
GAMES_PER_SHARD = 1
#: Kills wanted over the run, and the longest the games may take (seconds).
KILLS = 100
PLAY_BUDGET = 120.0
#: The share of his decisions the guest lets run out.
SLOW = 0.25
#: The workers' settings: short timers so that deadlines, pings and windows run out during
#: the run; a short lease so that a dead cluster's timers are taken over within seconds.
SETTINGS = {
    "DISCORD_TOKEN": "",
    "ANIMA_DECISION_TIMER": "6",
    "ANIMA_WINDOW_TIMER": "2",
    "ANIMA_AI_TAKEOVER": "2",
    "ANIMA_TIMER_TICK": "0.5",
    "ANIMA_LEASE": "3",
    # The text board: the posts, not the pictures, are what this test is about.
    "ANIMA_TABLE_PICTURES": "false",
    "ANIMA_LOG_LEVEL": "WARNING",
}


#: How "you chose ..." begins, in every language (``anima_sim.chose``).
CHOSE = tuple(say(msg("play.chose", choice="\0"), lang).split("\0")[0] for lang in LANGUAGES)
#: Where a failed check leaves what it saw (debugging).
DUMP = Path("/tmp/scale_kill_dump.txt")
#: The players' SimCord operations, one at a time.
OPS = Operations()


@dataclass
class Table:
    """One game and its players."""

    shard: int
    channel: simcord.ChannelHandle
    host: simcord.MemberActor
    guest: simcord.MemberActor
    game_id: int = 0

    @property
    def members(self) -> dict[int, simcord.MemberActor]:
        return {self.host.id: self.host, self.guest.id: self.guest}


def hub_env() -> simcord.Env:
    """The test's SimCord: its bot is a stand-in that runs every shard and does nothing (the
    interactions go to the workers: :class:`scale_bridge.Hub`)."""
    return simcord.Env(
        discord.AutoShardedClient(intents=discord.Intents(guilds=True), shard_count=CLUSTERS),
        shard_count=CLUSTERS,
    )


async def _setup(env: simcord.Env, hub: Hub, tables: list[Table], db: TestDatabase) -> None:
    """Open and start every game (before the kills: the kills are about playing)."""
    for t in tables:
        r = await OPS.slash(t.host, t.channel, "anima start", turns=1)
        assert await answered(r)
        lobby = await appears(functools.partial(newest_with, t.channel, "anima:lobby:"))
        assert lobby is not None
        t.game_id = int(next(c for c in custom_ids(lobby) if c.endswith(":join")).split(":")[2])
        r = await OPS.click(t.guest, lobby, f"anima:lobby:{t.game_id}:join")
        assert await answered(r)
        r = await OPS.click(t.host, lobby, f"anima:lobby:{t.game_id}:ai")
        assert await answered(r) and r.response is not None, private_reply(r)
        r = await OPS.click(t.host, r.response, f"anima:lobby:{t.game_id}:ai:random")
        assert await answered(r)
        r = await OPS.click(t.host, lobby, f"anima:lobby:{t.game_id}:start")
        assert await answered(r)
        # (The click is acknowledged first, the deal committed after.)
        running = functools.partial(_running, db, t.game_id)
        assert await appears(running), stored(db, t.game_id).status


def _followed(result: simcord.InteractionResult) -> bool | None:
    return True if result.followups else None


def _running(db: TestDatabase, game_id: int) -> bool | None:
    return True if stored(db, game_id).status == "running" else None


async def _choose(t: Table, st: Stored, seat: str, index: int, clicks: Clicks) -> None:
    """Take choice ``index`` of ``seat``'s decision: on the board if it is there, else in the
    Decide / Respond panel; count the answer."""
    s = st.seats[seat]
    member = t.members[s.user_id or 0]
    custom_id = f"anima:{t.game_id}:{s.since}:{index}"
    board = newest_with(t.channel, f"anima:{t.game_id}:")
    if board is None:
        return
    clicks.sent += 1
    panel: Any = None
    result = await OPS.pick(member, board, custom_id, index)
    if result is None:
        prompt = st.game.prompt_for(seat)
        what = "respond" if prompt is not None and prompt.window else "decide"
        if f"anima:{t.game_id}:{what}" not in custom_ids(board):
            return
        opened = await OPS.click(member, board, f"anima:{t.game_id}:{what}")
        if not await answered(opened) or opened.response is None:
            clicks.unanswered += 1
            return
        panel = opened.response
        result = await OPS.pick(member, panel, custom_id, index)
        if result is None:
            return  # the panel shows another decision by now
    if not await answered(result):
        clicks.unanswered += 1
        return
    clicks.answered += 1
    if result.deferred:  # acknowledged first: its words (a refusal) may follow
        await appears(functools.partial(_followed, result), wait=2.0)
    prompt = st.game.prompt_for(seat)
    # A click acknowledged and then nothing (its worker killed before it decided) decided
    # nothing the player was told of: the board's edit or the words "you chose" say it did.
    told = not result.deferred or private_reply(result) is not None
    if panel is not None:
        # A panel's choice is answered in the panel, edited in place: its words say whether
        # the choice was made ("You chose") or refused.
        edited = panel._env.backend.get_message(panel.channel_id, panel.id).content
        told = told and edited.startswith(CHOSE)
    if prompt is not None and s.since is not None and told and chose(result):
        clicks.chosen.append((t.game_id, seat, s.since, prompt.choices[index]))
        clicks.answers.append(
            (
                t.game_id,
                seat,
                s.since,
                prompt.choices[index],
                private_reply(result),
                result.deferred,
                len(result.followups),
            )
        )


async def _play(t: Table, db: TestDatabase, clicks: Clicks, rng: random.Random) -> None:
    """Play the members' seats until the game is over; the guest lets some of his decisions
    run out (the timers)."""
    slow: set[tuple[str, int]] = set()
    seen: set[tuple[str, int]] = set()
    while True:
        st = stored(db, t.game_id)
        if st.status != "running":
            return
        game = st.game
        prompts = [p for p in game.pending() if not st.seats[p.player].ai]
        ready = []
        for p in prompts:
            s = st.seats[p.player]
            key = (p.player, s.since or 0)
            new = key not in slow and key not in seen
            seen.add(key)
            if new and s.user_id == t.guest.id and not p.window and rng.random() < SLOW:
                slow.add(key)
            if key not in slow:
                ready.append(p)
        if not ready:
            await asyncio.sleep(0.3)  # a timer's turn
            continue
        p = rng.choice(ready)
        await _choose(t, st, p.player, rng.randrange(len(p.choices)), clicks)
        await asyncio.sleep(0.05)


async def _kill_loop(
    workers: list[Worker],
    hub: Hub,
    killing: asyncio.Event,
    done: asyncio.Event,
    rng: random.Random,
) -> None:
    """While the games are played (``killing``), kill a live cluster at a random instant and
    start it again at once; until ``done``."""
    while not done.is_set():
        await asyncio.sleep(rng.uniform(0.05, 0.6))
        live = [w for w in workers if hub.live(w.shards)]
        if not live or not killing.is_set():
            continue
        w = rng.choice(live)
        w.kill()
        w.start()


async def _all_live(hub: Hub) -> None:
    started = time.monotonic()
    while not hub.live(list(range(CLUSTERS))):
        assert time.monotonic() - started < 60, "the clusters did not start"
        await asyncio.sleep(0.05)


def _round(env: simcord.Env, guilds: list[simcord.GuildHandle], round_: int) -> list[Table]:
    """A new game per shard: its channel, its two members."""
    tables = []
    for shard, guild in enumerate(guilds):
        for n in range(GAMES_PER_SHARD):
            name = f"{round_}-{shard}-{n}"
            host = guild.add_member(env.create_user(f"host{name}"))
            guest = guild.add_member(env.create_user(f"guest{name}"))
            tables.append(Table(shard, guild.create_text_channel(f"t{name}"), host, guest))
    return tables


@pytest.mark.slow
async def test_three_clusters_killed_a_hundred_times_lose_nothing_and_post_once(
    postgres_cluster: PostgresCluster, tmp_path: Path
) -> None:
    name = postgres_cluster.new_database()
    db = TestDatabase.postgresql(postgres_cluster.url(name))
    rng = random.Random(24)
    env = hub_env()
    with honour_nonces() as nonces:
        await env.start()
        hub = Hub(env, CLUSTERS)
        await hub.start()
        guilds = [env.create_guild(f"Shard {shard}", shard_id=shard) for shard in range(CLUSTERS)]
        assert [shard_of(g.id, CLUSTERS) for g in guilds] == list(range(CLUSTERS))
        zygote = Zygote(
            {**SETTINGS, "DATABASE_URL": db.url, "ANIMA_HUB_PORT": str(hub.port)}, CLUSTERS
        )
        workers = [Worker(zygote, [s], tmp_path / f"cluster{s}.log") for s in range(CLUSTERS)]
        clicks = Clicks()
        tables: list[Table] = []
        try:
            for w in workers:
                w.start()
            await _all_live(hub)
            started = time.monotonic()
            while not env.backend.commands:
                assert time.monotonic() - started < 60, "the commands were never synced"
                await asyncio.sleep(0.05)
            killing, done = asyncio.Event(), asyncio.Event()
            killer = asyncio.ensure_future(_kill_loop(workers, hub, killing, done, rng))
            played = 0.0
            try:
                # Rounds of games (one per shard) until the kills are enough.
                while not tables or sum(w.kills for w in workers) < KILLS:
                    round_ = _round(env, guilds, len(tables) // CLUSTERS + 1)
                    await _all_live(hub)
                    await _setup(env, hub, round_, db)
                    killing.set()
                    begun = time.monotonic()
                    await asyncio.wait_for(
                        asyncio.gather(
                            *(_play(t, db, clicks, random.Random(t.game_id)) for t in round_)
                        ),
                        PLAY_BUDGET - played,
                    )
                    killing.clear()
                    played += time.monotonic() - begun
                    tables += round_
            finally:
                done.set()
                await killer
            # The last posts of the last kills, by the clusters alive now.
            deadline = time.monotonic() + 30
            storage = Storage(db.url, GuildSettings(0, 0, 0, True, 0))
            await storage.open()
            try:
                while time.monotonic() < deadline:
                    behind = await storage.games_to_post(time.time(), time.time())
                    if not behind:
                        break
                    await asyncio.sleep(0.2)
                figures = await _check(env, tables, db, storage, clicks)
            finally:
                await storage.close()
        finally:
            for w in workers:
                w.stop()
            zygote.close()
            await hub.close()
            await env.shutdown()
    kills = sum(w.kills for w in workers)
    print(
        f"\n{CLUSTERS} clusters, {len(tables)} games, {kills} kills in {played:.0f} s of play; "
        f"{clicks.sent} clicks ({clicks.answered} answered, {clicks.unanswered} not: their "
        f"worker was killed); {figures.decisions} decisions ({figures.timeouts} timed out), "
        f"{figures.lines} event lines posted once each, {figures.pings} half-time pings, "
        f"{nonces.deduplicated} posts sent again after a kill and kept once by their nonce; "
        f"{hub.requests} requests to Discord"
    )
    # What the clusters logged as failing (a kill cuts a process anywhere: nothing of this
    # may be a lost or doubled decision, which the checks above rule out).
    logged = [
        line
        for w in workers
        for line in w.log.read_text(errors="replace").splitlines()
        if line.startswith(("ERROR", "WARNING"))
    ]
    print(f"the clusters' warnings and errors: {len(logged)}; the first ones: {logged[:8]}")
    assert kills >= KILLS
    assert figures.timeouts > 0 and figures.pings > 0  # the timers did fire


@dataclass
class Figures:
    decisions: int = 0
    timeouts: int = 0
    lines: int = 0
    pings: int = 0


async def _check(
    env: simcord.Env, tables: list[Table], db: TestDatabase, storage: Storage, clicks: Clicks
) -> Figures:
    """Every game replays, every answered choice is logged, every line posted once in
    order, every ping once, no buttons left; the run's figures."""
    figures = Figures()
    verdict = Verdict()
    pg = PostgresDatabase(db.url)
    await pg.open()
    try:
        await verify(pg, default_cards(), verdict)
    finally:
        await pg.close()
    assert verdict.failed == [] and verdict.verified == len(tables)
    with db.pg().conn.cursor() as cur:
        cur.execute("SELECT game_id, seat, version, action, source FROM actions")
        rows = cur.fetchall()
    log = [(g, s, v, a) for g, s, v, a, _src in rows]
    figures.decisions = len(log)
    figures.timeouts = sum(1 for row in rows if row[4] == "timeout")
    for game_id, seat, since, action in clicks.chosen:
        if not any(g == game_id and s == seat and v > since and a == action for g, s, v, a in log):
            DUMP.write_text(
                f"{(game_id, seat, since, action)}\n{clicks.answers}\n"
                + "\n".join(str(r) for r in sorted(rows) if r[0] == game_id)
            )
        assert any(
            g == game_id and s == seat and v > since and a == action for g, s, v, a in log
        ), (game_id, seat, since, action)
    checker = _Checker(storage)
    for t in tables:
        assert stored(db, t.game_id).status == "over"
        live = live_buttons(t.channel, t.game_id)
        history = t.channel.history()
        if live:
            DUMP.write_text(
                "\n".join(
                    f"{i} {m.id} live={m.id in live} embeds={[e.title for e in m.embeds]} "
                    f"ids={custom_ids(m)[:3]} {m.content!r}"
                    for i, m in enumerate(history)
                )
                + f"\npointer={stored(db, t.game_id).board_message_id}"
            )
        assert live == [], [
            (i, m.id, m.id in live, m.content[:60], len(m.embeds), custom_ids(m)[:2])
            for i, m in enumerate(history)
        ]
        await assert_posted_once(checker, t.channel, t.game_id, over=True)  # type: ignore[arg-type]
        # A half-time ping names its deadline (``<t:…:T>``): each one once.
        pings = [
            line
            for m in t.channel.history()
            for line in lines_text(m).split("\n")
            if line.startswith("⏰") and "<t:" in line
        ]
        assert len(pings) == len(set(pings)), pings
        figures.pings += len(pings)
        figures.lines += len(await storage.events_after(t.game_id, 0))
    return figures


@dataclass
class _Checker:
    """What ``posting_checks`` reads of a bot: its storage and its cards."""

    storage: Storage

    @property
    def cards(self) -> object:
        return default_cards()
