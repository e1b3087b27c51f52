"""Decisions per second with 1, 2 and 4 bot processes (shard clusters) on one PostgreSQL
database (issue 24).

Run: ``.venv/bin/python benchmarks/throughput.py [--processes 1,2,4] [--seconds 20]
[--games 6] [--db postgresql://...] [--json]``

Each process is the bot as a shard cluster builds it (``SHARD_COUNT=4``, its ``SHARD_IDS``: all
four shards for one process, two each for two, one each for four; ``bot.app.create_bot``, the
garbage collector tuned as ``run_bot`` does), with SimCord's in-memory Discord of its own and
``--games`` games of its own (two members and an AI player each, in servers of its shards),
played by its own driver as fast as it answers: each step one member's uniformly random legal
choice, on the board or through the Decide / Respond panel; a game over is replaced by a new
one. Every process is set up first, then all of them are told to start together and play for
``--seconds``; a *decision* is a member's choice applied (an answered choice click), with the
AI moves after it in the same commit. The figure: all processes' decisions over the window.
Beside it, per process: CPU seconds over the window (``time.process_time``) and decisions per
CPU second; and the PostgreSQL server's CPU over the window (``/proc``).

What the figure says, and what it does not: each process here also runs its players' driver
and SimCord's Discord, which cost as much CPU as the bot itself; on a machine of two cores
(``os.cpu_count()`` is printed) two processes already take every core, so the figure with 4
processes says that the database and the leases do not serialise the processes (they would
make it fall), not how far the bot scales: that is set by the cores given to the processes
and to the PostgreSQL server (one decision is one transaction of a few statements; the
outbox adds a claim and a pointer write per post). Without ``--db``, a throwaway PostgreSQL
15 cluster is started for the run (``tests/postgres_cluster.py``), a new database for each
process count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
#: The shards of the whole bot; each run splits them among its processes.
SHARD_COUNT = 4


def shard_ranges(processes: int) -> list[str]:
    """``SHARD_IDS`` of each of ``processes`` (4 shards split evenly: 1, 2 or 4)."""
    per = SHARD_COUNT // processes
    return [f"{i * per}-{i * per + per - 1}" if per > 1 else str(i * per) for i in range(processes)]


# ---------------------------------------------------------------------- one process


async def _worker(url: str, shards: str, games: int, seconds: float, seed: int) -> dict[str, Any]:
    import simcord

    from bot.app import create_bot, tune_gc
    from bot.settings import Settings

    _quick_settle(simcord.Env)
    settings = Settings(
        _env_file=None,
        DISCORD_TOKEN="",
        DATABASE_URL=url,
        SHARD_COUNT=SHARD_COUNT,
        SHARD_IDS=shards,
        ANIMA_DECISION_TIMER=0,
        ANIMA_WINDOW_TIMER=0,
        ANIMA_LOG_LEVEL="WARNING",
        ANIMA_TABLE_PICTURES=False,  # decisions, not drawings
        # No process takes another's games over here (none dies; their clocks differ by
        # minutes, see below): each plays its own.
        ANIMA_LEASE=3600,
    )
    bot = create_bot(settings)
    tune_gc()
    env = simcord.Env(bot)
    await env.start()
    rng = random.Random(seed)
    # Each process's Discord is its own SimCord, whose ids come from its clock: a minute
    # apart per process, so that no two processes' channels share an id (Discord's ids
    # are unique; the database holds one game per channel).
    await env.advance_time(60.0 * seed)
    own = list(settings.shards)
    guilds = [env.create_guild(f"Shard {s}", shard_id=s) for s in own]
    tables = []
    for i in range(games):
        guild = guilds[i % len(guilds)]
        channel = guild.create_text_channel(f"table-{i}")
        members = [guild.add_member(env.create_user(f"p{seed}-{i}-{n}")) for n in range(2)]
        tables.append({"guild": guild, "channel": channel, "members": members, "game": 0})
    for t in tables:
        t["game"] = await _new_game(t)
    print("ready", flush=True)
    sys.stdin.readline()  # all processes start together
    decisions = 0
    # The database's share of the time: its hops, awaited (the connection is one per
    # process: were it busy most of the time, a pool of connections would help).
    hops = [0, 0.0]

    def traced(hop: Any) -> None:
        hops[0] += 1
        hops[1] += hop.seconds

    bot.storage.db.trace = traced
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for t in rng.sample(tables, len(tables)):
            made = await _step(bot, t, rng)
            if made is None:  # over: the next game in a new channel
                t["channel"] = t["guild"].create_text_channel(f"table-{rng.randrange(10**9)}")
                t["game"] = await _new_game(t)
            else:
                decisions += made
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    await env.shutdown()
    return {
        "shards": shards,
        "decisions": decisions,
        "wall_s": wall,
        "cpu_s": cpu,
        "hops": hops[0],
        "db_s": hops[1],
    }


def _quick_settle(env_class: Any) -> None:
    """SimCord re-checks a bot that is not yet idle every 50 ms: with asyncpg's callbacks on
    the loop, each click would wait ~50 ms for nothing (the bot idle). Every millisecond
    instead (as ``benchmarks/bot_speed.py`` settles), so that the driver follows the bot."""
    settle = env_class._settle_internal

    async def quick(self: Any, **kwargs: Any) -> None:
        kwargs["idle"] = min(kwargs.get("idle", 0.05), 0.001)
        await settle(self, **kwargs)

    env_class._settle_internal = quick


async def _new_game(t: dict[str, Any]) -> int:
    """A game of the table's two members and an AI player, set up as players do."""
    host, guest = t["members"]
    r = await host.slash(t["channel"], "anima start", turns=2)
    assert r.response is not None
    found = re.search(r"anima:lobby:(\d+):join", str(r.response.components))
    assert found is not None, f"no lobby: {r.response.content!r} {r.followups!r}"
    game_id = int(found[1])
    lobby = r.response.message
    await guest.click(lobby, custom_id=f"anima:lobby:{game_id}:join")
    picker = await host.click(lobby, custom_id=f"anima:lobby:{game_id}:ai")
    assert picker.response is not None
    await host.click(picker.response.message, custom_id=f"anima:lobby:{game_id}:ai:random")
    await host.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    return game_id


def _parts(message: Any) -> list[dict[str, Any]]:
    from simcord.components import walk_components

    return [c for c in walk_components(message.components) if c.get("custom_id")]


async def _step(bot: Any, t: dict[str, Any], rng: random.Random) -> int | None:
    """One member's random choice in the table's game: 1 if applied, 0 if not; None when
    the game is over. The game is read from the bot's memory (no extra database read)."""
    table = bot.games._cache.get(t["game"])
    if table is None:  # not in memory (just dealt, or over): the stored status says
        row = await bot.storage.game(t["game"])
        return 0 if row is not None and row.status == "running" else None
    if table.row.status != "running":
        return None
    game = table.game
    prompts = [p for p in game.pending() if not table.seats[p.player].ai]
    if not prompts:
        return 0
    prompt = rng.choice(prompts)
    index = rng.randrange(len(prompt.choices))
    seat = table.seats[prompt.player]
    member = next(m for m in t["members"] if m.id == seat.user_id)
    custom_id = f"anima:{t['game']}:{seat.prompt_since}:{index}"
    board = _board(t)
    if board is None:
        return 0
    result = await _pick(member, board, custom_id, index)
    if result is None:
        what = "respond" if prompt.window else "decide"
        opened = await member.click(board, custom_id=f"anima:{t['game']}:{what}")
        if opened.response is None:
            return 0
        result = await _pick(member, opened.response.message, custom_id, index)
    return 1 if result is not None and result.acknowledged else 0


def _board(t: dict[str, Any]) -> Any:
    prefix = f"anima:{t['game']}:"
    for message in reversed(t["channel"].history()):
        for row in message.components:
            for child in getattr(row, "children", [row]):
                if (getattr(child, "custom_id", None) or "").startswith(prefix):
                    return message
    return None


async def _pick(member: Any, message: Any, custom_id: str, index: int) -> Any:
    import discord
    from simcord import ResponseMessage

    if isinstance(message, ResponseMessage):
        parts = [(c["custom_id"], c.get("type"), c.get("options")) for c in _parts(message)]
    else:
        parts = []
        for row in message.components:
            for child in getattr(row, "children", [row]):
                options = (
                    [{"value": o.value} for o in child.options]
                    if isinstance(child, discord.SelectMenu)
                    else None
                )
                parts.append((getattr(child, "custom_id", "") or "", 3 if options else 2, options))
    for cid, kind, _options in parts:
        if kind == 2 and cid == custom_id:
            return await member.click(message, custom_id=custom_id)
    stem = custom_id.rsplit(":", 1)[0] + ":s"
    for cid, kind, options in parts:
        if kind == 3 and cid.startswith(stem) and str(index) in [o["value"] for o in options]:
            return await member.select(message, [str(index)], custom_id=cid)
    return None


# ---------------------------------------------------------------------- the runs


def _server_cpu(url: str) -> float | None:
    """The PostgreSQL server's CPU seconds so far (its processes' in ``/proc``); None if
    unknown (not local, no ``/proc``)."""
    try:
        import psycopg

        with psycopg.connect(url) as conn:
            pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]  # type: ignore[index]
        parent = int(Path(f"/proc/{pid}/stat").read_text().split()[3])
        total = 0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(entry.name) == parent:
                # Its own and its ended children's (the backends of closed connections).
                total += sum(int(f) for f in fields[11:15])
            elif int(fields[1]) == parent:
                total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")
    except Exception:
        return None


def run(url: str, processes: int, games: int, seconds: float) -> dict[str, Any]:
    """One run: ``processes`` shard clusters on ``url``, ``games`` games each."""
    workers = []
    for i, shards in enumerate(shard_ranges(processes)):
        workers.append(
            subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--worker",
                    url,
                    shards,
                    str(games),
                    str(seconds),
                    str(i + 1),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
        )
    for w in workers:
        assert w.stdout is not None and w.stdout.readline().strip() == "ready"
    server = _server_cpu(url)
    for w in workers:
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.flush()
    results = []
    for w in workers:
        out, _ = w.communicate(timeout=seconds + 300)
        results.append(json.loads(out.strip().splitlines()[-1]))
    after = _server_cpu(url)
    decisions = sum(r["decisions"] for r in results)
    wall = max(r["wall_s"] for r in results)
    return {
        "processes": processes,
        "decisions": decisions,
        "decisions_per_s": round(decisions / wall, 1),
        "per_process": [
            {
                "shards": r["shards"],
                "decisions": r["decisions"],
                "cpu_s": round(r["cpu_s"], 2),
                "decisions_per_cpu_s": round(r["decisions"] / max(r["cpu_s"], 1e-9), 1),
                "hops_per_decision": round(r["hops"] / max(r["decisions"], 1), 1),
                "database_share": round(r["db_s"] / r["wall_s"], 3),
            }
            for r in results
        ],
        "postgres_cpu_s": None if server is None or after is None else round(after - server, 2),
    }


def main() -> int:
    if "--worker" in sys.argv:
        url, shards, games, seconds, seed = sys.argv[sys.argv.index("--worker") + 1 :][:5]
        result = asyncio.run(_worker(url, shards, int(games), float(seconds), int(seed)))
        print(json.dumps(result), flush=True)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", default="1,2,4", help="process counts (1, 2 or 4)")
    parser.add_argument("--seconds", type=float, default=20.0, help="the measured window")
    parser.add_argument("--games", type=int, default=6, help="games per process")
    parser.add_argument("--db", help="an empty PostgreSQL database (default: a throwaway one)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    if any(n not in (1, 2, 4) for n in counts):
        parser.error("--processes takes 1, 2 or 4 (the 4 shards split evenly)")
    cluster = None
    if args.db is None:
        sys.path.insert(0, str(ROOT / "tests"))
        from postgres_cluster import PostgresCluster

        cluster = PostgresCluster.create()
        cluster.start()
    runs = []
    try:
        for n in counts:
            url = args.db if args.db else cluster.url(cluster.new_database())  # type: ignore[union-attr]
            runs.append(run(url, n, args.games, args.seconds))
    finally:
        if cluster is not None:
            cluster.stop()
    report = {
        "cpu_count": os.cpu_count(),
        "seconds": args.seconds,
        "games_per_process": args.games,
        "runs": runs,
        "note": (
            f"on {os.cpu_count()} cores, with each process's players and Discord (SimCord) "
            "beside its bot: past as many processes as cores the processes share the cores, "
            "and the figure shows that the shared database and the leases do not serialise "
            "them, not how far the bot scales; that is set by the cores of the processes and "
            "of the PostgreSQL server"
        ),
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"Decisions per second, PostgreSQL, {os.cpu_count()} cores, {args.seconds:.0f} s:")
    for r in runs:
        per = ", ".join(
            f"{p['shards']}: {p['decisions']} ({p['decisions_per_cpu_s']}/CPU s, "
            f"{p['hops_per_decision']} hops/decision, connection busy "
            f"{p['database_share']:.0%})"
            for p in r["per_process"]
        )
        print(
            f"  {r['processes']} process(es): {r['decisions_per_s']:>6} /s   "
            f"[{per}]  PostgreSQL CPU {r['postgres_cpu_s']} s"
        )
    print(report["note"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
