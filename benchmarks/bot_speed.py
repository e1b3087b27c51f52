"""The bot's own handling time per interaction, with many games live at once, through SimCord.

Run: ``.venv/bin/python benchmarks/bot_speed.py [--games 100] [--seed 1] [--concurrency 1]
[--turns 3] [--db postgresql://...] [--profile] [--no-memory] [--memory-sample 10]
[--no-tune-gc] [--pictures] [--json]``

The real bot (``bot.app.create_bot``, its SQLite file in a temporary directory, or the empty
PostgreSQL database ``--db`` names, the garbage collector tuned by ``bot.app.tune_gc`` as
``run_bot`` does unless ``--no-tune-gc``) runs in
SimCord's in-memory Discord: one server, one channel per game, three members per game. Every
game is set up like players do it (``/anima start turns:3``, two *Join* clicks, *Add AI
player*, *Start*), then all games are played to their end *interleaved*: in waves, each wave
takes ``--concurrency`` distinct live games in a seeded random order and performs the next
interaction of each. A member whose decision it is takes a uniformly random legal choice: on
the board when the board shows it, else through *Decide* / *Respond* and the private panel (two
interactions), and an Advantage is played with ``/anima play`` a quarter of the time.

With ``--concurrency 1`` (the default) one interaction is in flight at a time: SimCord refuses
overlapping actor operations, so the 100 games are concurrent in the sense that all of them
are live and their interactions interleave. With ``--concurrency K`` the K interactions of a
wave reach discord.py back to back (their gateway events are held, then fed together) and
the bot handles them concurrently: latencies then include queueing behind each other.

Measured per interaction (all with ``time.perf_counter``: SimCord virtualises
``time.monotonic`` inside bot code):

- handling time: from the moment discord.py's ``INTERACTION_CREATE`` parser receives the event
  to the end of the last Discord HTTP call the bot makes for it (interaction callback,
  followup/edit, channel posts, DMs, fetches). It includes the time SimCord's simulated
  Discord spends inside those calls, so it is an upper bound of the bot's own time (the row
  "excl. SimCord's own work" subtracts it), and the pauses of Python's garbage collector,
  whose heap here also holds everything SimCord stores. While the interactions of a wave are
  handled, the driver only awaits the tasks discord.py started for them; SimCord's settle,
  which wakes every millisecond to look over every task of the bot, runs after them (its
  looks, work no bot does in production, would otherwise fall inside the clicks and be
  counted in them: about 0.12 ms a click). The *other* players' live panels
  (``bot.panels``) are not the click's work: the click marks those whose owner's situation
  changed, and each game's sender task renders them again and edits them after the click
  (outside the click's lock), so they are measured apart, one record per run of a sender
  (from its start to its end; kind "panels sent after"), with their edits
  per decision. The same holds for the garbage collections the bot runs between its units
  of work (``bot.collector``: after a click's answers are sent): each is a record of its own
  (kind "garbage collected"), and the collections that still happen inside an
  interaction are part of its time; the row "bot's work per decision, all included" adds
  all of them up;
- the database: time awaiting the hops to it (``bot.database``: one hop per transaction or
  read: its statements, each a trip to aiosqlite's thread or to the PostgreSQL server, and
  the wait for the connection), as a share of the handling time; one ``execute``/
  ``executemany`` call is one statement, a ``BEGIN`` one transaction (``Database.trace``,
  installed for the run); the statement table gives each statement's own time and, in its
  own row, the rest of the hops;
- CPU per decision: what sets how many games a process carries. The process's CPU time
  (``time.process_time``: every thread, aiosqlite's included) while the bot works (the union
  of the windows of the interactions, the panel senders and the collections after them,
  each instant once), per decision, beside the wall time of the same windows; SimCord's own
  work inside them (its HTTP router, on the loop's thread) is given apart. With PostgreSQL
  on this machine, the server process's CPU time over the play phase is reported too
  (``/proc``), per decision;
- messages created: channel posts and DMs (``POST /channels/{id}/messages``), and interaction
  responses or followups that create a message (a deferred "thinking" response creates an
  ephemeral message that its later edit completes); edits are not counted;
- a *decision* is an interaction that committed a human action (an action with source
  ``human`` in a ``Storage.commit``); AI moves made in the same interaction are counted
  separately.

The flow of the games: every other game has its three members on auto-pass for
everything (``/anima settings`` with every ``auto_…`` option, during the setup); after the
run each game is replayed from its seed and logged actions with the engine, and the table
reports, with and without auto-pass, the *member decisions per game turn* (the clicks that
commit a human action, setup excluded), the reaction windows opened per turn and the member
decisions each window costs. ``--json`` prints the figures as one JSON object instead, with
at least the keys ``wall_s``, ``interaction_ms_p50``, ``interaction_ms_p99``,
``statements_per_decision``, ``transactions_per_decision``, ``messages_per_decision``,
``kb_per_live_game`` and ``db_kb_per_game``.

Per decision (with their targets): SQLite statements and transactions of the play phase
divided by the decisions, and the messages created per decision (above).

Memory per live game (``kb_per_live_game``): the games are set up (opened, joined and
started: live, each with its cached game, its seats, its board posted and its secret starts
sent) untraced but for the last ``--memory-sample`` games (10 by default), whose setup
``tracemalloc`` traces while all the others are live already; a snapshot is taken at its
end, when every game is live. Each allocation still alive is charged to the innermost frame
of its traceback (12 frames kept) that belongs either to the bot's side (``bot/``,
``engine/``, discord.py) or to SimCord's (its simulated Discord keeps every
message, channel and member; and this benchmark): the bot's side divided by the number of
traced games is the figure. What the process held before the setup (imports, the card
database) is not traced. The play phase is not traced (tracemalloc would slow every
interaction down several times); ``--no-memory`` skips the measurement. Database bytes per
game (``db_kb_per_game``): the SQLite file (WAL checkpointed) after every game has finished,
divided by the games.

Work is attributed to its interaction with a context variable set while discord.py parses
the event (the tasks it creates for the callback inherit it). Nothing in ``bot/`` is changed
for this: the hooks trace the storage's database, wrap its commit, SimCord's HTTP router and
discord.py's parser for this run only. Nothing is asserted: the table says which targets are met.

This file holds the options and the run; the parts are in ``benchmarks/botspeed/``: the hooks
and records (``measure.py``), the games set up and played (``driver.py``) and the table and
the JSON (``report.py``). ``benchmarks/README.md`` says how to compare two commits with it.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import json
import os
import pstats
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord
from botspeed.driver import Bench
from botspeed.measure import ServerClock
from botspeed.memory import MEMORY_FRAMES, bot_memory
from botspeed.report import report

from bot.app import create_bot, tune_gc
from bot.settings import Settings
from engine.agents.levels import DEFAULT_LEVEL, LEVELS

# ---------------------------------------------------------------------- main


async def run(args: Any, tmp: Path) -> tuple[list[str], dict[str, Any]]:
    db_path = tmp / "anima.sqlite3"
    database: Path | str = args.db if args.db else db_path
    settings = Settings(
        _env_file=None,
        DISCORD_TOKEN="",
        ANIMA_DB_PATH=db_path,
        ANIMA_DECISION_TIMER=300,
        ANIMA_WINDOW_TIMER=45,
        # The timer loop never runs during the measurement (virtual time does not move).
        ANIMA_TIMER_TICK=3600,
        # The board and hands drawn on every decision (issue 23), in the pictures' worker.
        ANIMA_TABLE_PICTURES=args.pictures,
    )
    bot = create_bot(settings, db_path=database)
    if args.tune_gc:
        tune_gc()  # as bot.app.run_bot does
    try:
        async with simcord.run(bot, settle_timeout=600) as env:
            bench = Bench(env, bot, database, args)
            bench.probe.install()
            server = ServerClock(bench.db) if args.db else None
            try:
                await env.settle()
                start = time.perf_counter()
                # The memory of a live game is measured on the last games set up, while all
                # the others are live already (tracing every game would slow the setup down
                # several times for no better figure).
                sample = min(args.memory_sample, len(bench.tables)) if args.memory else 0
                untraced, traced = (
                    bench.tables[: -sample or None],
                    bench.tables[len(bench.tables) - sample :],
                )
                if untraced:
                    await bench.setup(untraced)
                if traced:
                    tracemalloc.start(MEMORY_FRAMES)
                    await bench.setup(traced)
                    bench.memory = bot_memory(tracemalloc.take_snapshot(), len(traced))
                    tracemalloc.stop()
                if server is not None:
                    server.start()
                bench.pictures_at_play = dataclasses.replace(bot.pictures.stats)
                await bench.play()
                wall = time.perf_counter() - start
                if server is not None:
                    bench.server_cpu_s = server.stop()
            except BaseException:
                bench.db.close()
                raise
            finally:
                bench.probe.uninstall()
            if not args.db:  # the database as it stays: the WAL folded into the file
                await bot.storage.fetchone("PRAGMA wal_checkpoint(TRUNCATE)")
            bench.db_bytes = bench.db.database_bytes(None if args.db else db_path)
            try:
                return report(bench, wall, args)
            finally:
                bench.db.close()
    finally:
        bot.timers.cancel()
        await bot.storage.close()
        bot.pictures.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games played at once")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the choices")
    parser.add_argument("--turns", type=int, default=3, help="turn limit of every game")
    parser.add_argument(
        "--concurrency", type=int, default=1, help="interactions handled at once (default 1)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="profile the run with cProfile; print hot spots"
    )
    parser.add_argument(
        "--ai-level",
        choices=list(LEVELS),
        default=DEFAULT_LEVEL,
        help=f"level of each game's AI seat (default {DEFAULT_LEVEL}, the bot's default)",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="play on this empty PostgreSQL database (postgresql://...) instead of a new "
        "SQLite file",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--pictures",
        action="store_true",
        help="draw the board and the hands on every decision (ANIMA_TABLE_PICTURES)",
    )
    parser.add_argument(
        "--no-memory",
        dest="memory",
        action="store_false",
        help="skip the memory measurement (tracemalloc slows the setup down)",
    )
    parser.add_argument(
        "--no-tune-gc",
        dest="tune_gc",
        action="store_false",
        help="keep Python's default garbage collector settings (run_bot tunes them)",
    )
    parser.add_argument(
        "--memory-sample",
        type=int,
        default=10,
        metavar="K",
        help="games whose setup tracemalloc traces, the last ones set up (default 10)",
    )
    args = parser.parse_args()
    if args.db and not args.db.startswith(("postgresql://", "postgres://")):
        parser.error("--db takes a postgresql:// address")
    with tempfile.TemporaryDirectory(prefix="anima-bench-") as tmp:
        profiler = cProfile.Profile() if args.profile else None
        if profiler is not None:
            profiler.enable()
        lines, figures = asyncio.run(run(args, Path(tmp)))
        if profiler is not None:
            profiler.disable()
    print(json.dumps(figures) if args.json else "\n".join(lines))
    if profiler is not None:
        stats = pstats.Stats(profiler)
        print("\ncProfile of the whole run (driver and SimCord included), by own time:")
        stats.sort_stats("tottime").print_stats(25)
        print("cProfile: the bot's and the engine's functions, by cumulative time:")
        stats.sort_stats("cumulative").print_stats(r"/(bot|engine)/", 40)
        if os.environ.get("BOT_SPEED_CALLERS"):
            stats.print_callers(os.environ["BOT_SPEED_CALLERS"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
