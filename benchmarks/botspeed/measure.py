"""What ``benchmarks/bot_speed.py`` measures: its hooks on the bot and SimCord, each
interaction's record, the memory of a live game, and the flow of a game from its log.

Nothing in ``bot/`` is changed for this: :class:`Probe` traces the storage's database, wraps
its commit, the panel senders, the idle collector, SimCord's HTTP router and discord.py's
parser for one run only, and :meth:`Probe.uninstall` puts them back.
"""

from __future__ import annotations

import bisect
import contextvars
import gc
import inspect
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcord.http import router as simcord_router

from bot.app import AnimaBot
from bot.collector import COLLECTOR
from bot.database import Hop
from bot.migrate import dice_seeds
from engine.game import Game

#: The checkout's folder (its files are named from it in the memory table).
ROOT = str(Path(__file__).resolve().parents[2])
#: The flag of an ephemeral message (Discord's message flags).
EPHEMERAL = 1 << 6


@dataclass
class Record:
    """One interaction as the bot handled it, or one run of a game's panel sender."""

    phase: str  # "setup" or "play"
    kind: str  # what the member did, e.g. "board choice", "panel open"; or SENDER
    t0: float
    end: float = 0.0
    #: The process's CPU time (every thread: aiosqlite's too) at ``t0`` and at ``end``.
    cpu0: float = 0.0
    cpu_end: float = 0.0
    discord_s: float = 0.0  # inside SimCord's HTTP router
    discord_cpu_s: float = 0.0  # the event loop thread's CPU time inside it
    http_calls: int = 0
    sql_s: float = 0.0
    gc_s: float = 0.0  # Python's garbage collector, run while handling
    slowest_sql: tuple[float, str] = (0.0, "")
    statements: int = 0
    transactions: int = 0
    decisions: int = 0
    ai_moves: int = 0
    public: int = 0  # messages created in a channel
    dms: int = 0
    ephemeral: int = 0
    edits: int = 0
    loading: bool = False  # a deferred "thinking" response not yet completed
    #: A decision answered with a new ephemeral message that only says "✅ You chose …"
    #: (no private line, no panel): the board's edit already shows the same.
    plain_ack: bool = False

    @property
    def ms(self) -> float:
        return 1000 * (self.end - self.t0)

    @property
    def own_ms(self) -> float:
        return 1000 * (self.end - self.t0 - self.discord_s)

    @property
    def created(self) -> int:
        return self.public + self.dms + self.ephemeral

    def on_http(self, method: str, path: str, body: Any, channels: set[int]) -> None:
        """Classify one successful Discord call: a created message, an edit, or other."""
        self.http_calls += 1
        parts = path.strip("/").split("/")
        flags = 0
        if isinstance(body, dict):
            data = body.get("data") if parts[0] == "interactions" else body
            flags = int((data or {}).get("flags") or 0) if isinstance(data, dict) else 0
        if method == "POST" and parts[0] == "channels" and parts[-1] == "messages":
            if int(parts[1]) in channels:
                self.public += 1
            else:
                self.dms += 1
        elif method == "POST" and parts[0] == "interactions":
            kind = body.get("type") if isinstance(body, dict) else None
            if kind in (4, 5):  # a message, or a deferred "thinking" message
                self._created(flags)
                self.loading = kind == 5
            elif kind == 7:
                self.edits += 1
        elif method == "POST" and parts[0] == "webhooks" and len(parts) == 3:
            if self.loading:  # the first followup completes the thinking message
                self.loading = False
                self.edits += 1
            else:
                self._created(flags)
        elif method == "PATCH":
            self.edits += 1
            if parts[-1] == "@original":
                self.loading = False

    def _created(self, flags: int) -> None:
        if flags & EPHEMERAL:
            self.ephemeral += 1
        else:
            self.public += 1


CURRENT: contextvars.ContextVar[Record | None] = contextvars.ContextVar("bench_interaction")
#: The kind of the records of a game's panel sender (``bot.panels.Panels._send``): the other
#: players' live panels, rendered and edited after the click that changed them.
SENDER = "panels sent after"
#: The kind of the records of the collections run between units of work
#: (``bot.collector.IdleCollector.collect``).
COLLECTED = "garbage collected"
#: The kind of the records of a board picture drawn and edited into the board message after
#: the message went out without it (``bot.board_pictures.BoardPictures._follow``).
PICTURE = "board picture edited in after"
#: Kinds of work that runs after a click, not in it: reported apart from the interactions.
AFTER_KINDS = (SENDER, COLLECTED, PICTURE)
#: The row of the statement table that holds, per hop, the time awaited beyond its
#: statements' own time: the yield to the event loop (inline) or the thread hand-off.
HAND_OFF = "(per hop: the wait beyond its statements)"


class Probe:
    """Hooks on one bot and SimCord: interaction start, HTTP calls, SQLite calls."""

    def __init__(self, bot: AnimaBot, channels: set[int]) -> None:
        self.bot = bot
        self.channels = channels
        self.records: list[Record] = []
        #: Every garbage collection (start, end): it stalls whatever is in flight.
        self.gc_pauses: list[tuple[float, float]] = []
        #: SQL statement (its start) -> (executions, seconds), in the play phase.
        self.statements: dict[str, tuple[int, float]] = {}
        self.phase = "setup"
        self.kind = ""
        #: While holding, interaction events are kept (with their context) to be fed together.
        self.holding = False
        self.held: list[tuple[contextvars.Context, Any]] = []
        self._undo: list[Callable[[], None]] = []

    def install(self) -> None:
        state = self.bot._connection
        parse = state.parsers["INTERACTION_CREATE"]

        def timed_parse(data: Any) -> None:
            if self.holding:
                # The context carries SimCord's "bot-owned work" scope for the tasks.
                self.held.append((contextvars.copy_context(), data))
                return
            now, cpu = time.perf_counter(), time.process_time()
            record = Record(self.phase, self.kind, now, end=now, cpu0=cpu, cpu_end=cpu)
            self.records.append(record)
            token = CURRENT.set(record)
            try:
                parse(data)
            finally:
                CURRENT.reset(token)

        state.parsers["INTERACTION_CREATE"] = timed_parse
        self._undo.append(lambda: state.parsers.__setitem__("INTERACTION_CREATE", parse))

        dispatch = simcord_router.dispatch
        channels = self.channels

        def timed_dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            record = CURRENT.get()
            start, own = time.perf_counter(), time.thread_time()
            try:
                result = dispatch(backend, method, path, **kwargs)
            finally:
                if record is not None:
                    record.end, record.cpu_end = time.perf_counter(), time.process_time()
                    record.discord_s += record.end - start
                    record.discord_cpu_s += time.thread_time() - own
            if record is not None:
                record.on_http(method, path, kwargs.get("json"), channels)
            return result

        simcord_router.dispatch = timed_dispatch
        self._undo.append(lambda: setattr(simcord_router, "dispatch", dispatch))

        gc_start = 0.0

        def on_gc(phase: str, info: dict[str, int]) -> None:
            nonlocal gc_start
            if phase == "start":
                gc_start = time.perf_counter()
            else:
                self.gc_pauses.append((gc_start, time.perf_counter()))

        gc.callbacks.append(on_gc)
        self._undo.append(lambda: gc.callbacks.remove(on_gc))

        # A game's panel sender is a task of its own, started by a click and sending what
        # later clicks change too: its work is a record of its own (kind SENDER), not the
        # click's, and is reported beside the interactions.
        panels = self.bot.panels
        send = panels._send

        async def attributed_send(game_id: int) -> None:
            now, cpu = time.perf_counter(), time.process_time()
            record = Record(self.phase, SENDER, now, end=now, cpu0=cpu, cpu_end=cpu)
            self.records.append(record)
            token = CURRENT.set(record)
            try:
                await send(game_id)
            finally:
                CURRENT.reset(token)
                # Its rendering counts even when it sends nothing.
                record.end, record.cpu_end = time.perf_counter(), time.process_time()

        panels._send = attributed_send  # type: ignore[method-assign]
        self._undo.append(lambda: delattr(panels, "_send"))

        # A board message goes out at once, without its picture when the picture is not
        # drawn yet; a task of its own waits for the drawing and edits the picture in. That
        # edit is not the click's answer (the click was answered before), so it is a record
        # of its own (kind PICTURE): else every click that changed the board would count the
        # drawing's time, in whatever process it is drawn.
        board_pictures = self.bot.publisher.pictures
        follow = board_pictures._follow

        async def attributed_follow(*args: Any) -> None:
            now, cpu = time.perf_counter(), time.process_time()
            record = Record(self.phase, PICTURE, now, end=now, cpu0=cpu, cpu_end=cpu)
            self.records.append(record)
            token = CURRENT.set(record)
            try:
                await follow(*args)
            finally:
                CURRENT.reset(token)
                record.end, record.cpu_end = time.perf_counter(), time.process_time()

        board_pictures._follow = attributed_follow  # type: ignore[method-assign,assignment]
        self._undo.append(lambda: delattr(board_pictures, "_follow"))

        # The collections the bot runs once a unit of work has ended are records of their
        # own too (kind COLLECTED), not the click's that preceded them.
        collect = COLLECTOR.collect

        def attributed_collect() -> int | None:
            start, cpu = time.perf_counter(), time.process_time()
            generation = collect()
            if generation is not None:
                end, cpu_end = time.perf_counter(), time.process_time()
                self.records.append(Record(self.phase, COLLECTED, start, end, cpu, cpu_end))
            return generation

        COLLECTOR.collect = attributed_collect  # type: ignore[method-assign]
        self._undo.append(lambda: delattr(COLLECTOR, "collect"))

        storage = self.bot.storage
        storage.db.trace = self._on_hop
        self._undo.append(lambda: setattr(storage.db, "trace", None))
        commit = storage.commit
        signature = inspect.signature(commit)

        async def counted_commit(*args: Any, **kwargs: Any) -> Any:
            stored = await commit(*args, **kwargs)
            record = CURRENT.get()
            if record is not None:
                # One commit holds every action applied since the last one (bot.games).
                write = signature.bind(*args, **kwargs).arguments["write"]
                sources = [source for _v, _seat, _action, source in write.actions]
                record.decisions += sources.count("human")
                record.ai_moves += sources.count("ai")
            return stored

        storage.commit = counted_commit  # type: ignore[method-assign]
        self._undo.append(lambda: delattr(storage, "commit"))

    def _on_hop(self, hop: Hop) -> None:
        """One hop to the database (``bot.database.Database.trace``, called in the awaiting
        coroutine's context): its awaited time is the interaction's SQLite time; each
        ``execute``/``executemany`` in it is one statement (a ``BEGIN`` one transaction),
        with its own time; the rest of the hop is the wait (yield or thread hand-off)."""
        record = CURRENT.get()
        if record is None:
            return
        record.sql_s += hop.seconds
        shapes = [(" ".join(sql.split())[:60], took) for sql, took in hop.statements]
        if shapes and hop.seconds > record.slowest_sql[0]:
            slowest = max(shapes, key=lambda st: st[1])[0]
            more = f" (+{len(shapes) - 1} more)" if len(shapes) > 1 else ""
            record.slowest_sql = (hop.seconds, slowest + more)
        if record.phase == "play":
            for shape, took in shapes:
                count, total = self.statements.get(shape, (0, 0.0))
                self.statements[shape] = (count + 1, total + took)
            count, total = self.statements.get(HAND_OFF, (0, 0.0))
            rest = hop.seconds - sum(took for _shape, took in shapes)
            self.statements[HAND_OFF] = (count + 1, total + rest)
        record.statements += len(shapes)
        # A hop counts its transactions (a statement can be one of its own); the Hop of a
        # commit before issue 24 did not: its BEGINs are counted.
        record.transactions += (
            hop.transactions
            if hasattr(hop, "transactions")
            else sum(sql.startswith("BEGIN") for sql, _took in hop.statements)
        )

    def bot_work(self, phase: str) -> tuple[float, float, float]:
        """(wall seconds, process CPU seconds, of which inside SimCord's router) while the
        bot worked in ``phase``: the union of the records' windows (interactions, panel
        senders, collections), each instant counted once however many records overlap it.
        The process's CPU time covers every thread (aiosqlite's included); a PostgreSQL
        server's is its own process's (see ``server_cpu_s``)."""
        windows = sorted((r.t0, r.end, r.cpu0, r.cpu_end) for r in self.records if r.phase == phase)
        wall = cpu = 0.0
        start = end = cpu_start = cpu_end = None
        for t0, t1, c0, c1 in windows:
            if end is None or t0 > end:
                if end is not None:
                    assert start is not None and cpu_start is not None and cpu_end is not None
                    wall, cpu = wall + end - start, cpu + cpu_end - cpu_start
                start, end, cpu_start, cpu_end = t0, t1, c0, c1
            elif t1 > end:
                end, cpu_end = t1, c1
        if end is not None:
            assert start is not None and cpu_start is not None and cpu_end is not None
            wall, cpu = wall + end - start, cpu + cpu_end - cpu_start
        simcord_cpu = sum(r.discord_cpu_s for r in self.records if r.phase == phase)
        return wall, cpu, simcord_cpu

    def attribute_gc(self) -> None:
        """Charge each record the collections that ran while it was in flight."""
        starts = [a for a, _ in self.gc_pauses]
        for r in self.records:
            i = bisect.bisect_left(starts, r.t0)
            if i > 0 and self.gc_pauses[i - 1][1] > r.t0:
                i -= 1
            for a, b in self.gc_pauses[i:]:
                if a >= r.end:
                    break
                r.gc_s += min(b, r.end) - max(a, r.t0)

    def uninstall(self) -> None:
        while self._undo:
            self._undo.pop()()

    @contextmanager
    def held_events(self) -> Iterator[None]:
        """Hold the interaction events of the actor calls inside; feed them together after."""
        self.holding = True
        try:
            yield
        finally:
            self.holding = False


# ---------------------------------------------------------------------- flow of the games


@dataclass
class Flow:
    """How a group of games flowed, from their logged actions (setup excluded)."""

    games: int = 0
    turns: int = 0
    decisions: int = 0  # member decisions (source "human")
    windows: int = 0  # reaction windows opened (a re-opening after a play counts again)
    window_decisions: int = 0  # member decisions answering a window
    window_answers: int = 0  # every answer to a window: members, auto-pass, AI, time-outs

    def figures(self) -> dict[str, float]:
        turns = max(1, self.turns)
        return {
            "games": self.games,
            "turns": self.turns,
            "member_decisions_per_turn": round(self.decisions / turns, 2),
            "windows_per_turn": round(self.windows / turns, 2),
            "member_decisions_per_window": round(self.window_decisions / max(1, self.windows), 2),
            "answers_per_window": round(self.window_answers / max(1, self.windows), 2),
        }


def replay_flow(db: Any, game_id: int, flow: Flow) -> None:
    """Replay one game from its seed and logged actions (``db``: the benchmark's
    :class:`~botspeed.reader.Reader`) and add its figures to ``flow``."""
    seed, options, state_json = db.execute(
        "SELECT seed, options_json, state_json FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    seats = [
        r[0]
        for r in db.execute(
            "SELECT seat FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
        )
    ]
    # The keyed dice's seeds, as the bot created the game with them (docs/fair_dice.md).
    server_seed, seat_seeds = dice_seeds(state_json)
    game = Game.new(
        seats, json.loads(options), seed, server_seed=server_seed, seat_seeds=seat_seeds
    )
    rows = db.execute(
        "SELECT seat, action, source FROM actions WHERE game_id = ? ORDER BY version", (game_id,)
    ).fetchall()
    open_windows = 0
    for seat, action, source in rows:
        prompt = game.prompt_for(seat)
        assert prompt is not None, f"game {game_id}: {seat} had nothing to decide"
        in_play = game.table_view().phase != "setup"
        if in_play and source == "human":
            flow.decisions += 1
            flow.window_decisions += prompt.window
        flow.window_answers += prompt.window
        game.apply(seat, action)
        now_open = sum(p.window for p in game.pending())
        flow.windows += now_open > open_windows - prompt.window
        open_windows = now_open
    flow.games += 1
    flow.turns += game.table_view().turn


class ServerClock:
    """The CPU time of the PostgreSQL server process serving the bot's connection (the
    server on this machine: ``/proc/PID/stat``; None when it cannot be read), over the play
    phase. The bot has one connection, so one server process does its work."""

    def __init__(self, reader: Any) -> None:
        # The bot's connection is the other client of its database, named by the bot.
        row = reader.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'anima-bot' "
            "AND datname = current_database()"
        ).fetchone()
        self.stat = Path(f"/proc/{row[0]}/stat") if row is not None else None
        self.ticks = os.sysconf("SC_CLK_TCK")
        self.started: float | None = None

    def _cpu_s(self) -> float | None:
        if self.stat is None or not self.stat.exists():
            return None
        fields = self.stat.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.ticks  # utime + stime

    def start(self) -> None:
        self.started = self._cpu_s()

    def stop(self) -> float | None:
        now = self._cpu_s()
        return None if now is None or self.started is None else now - self.started
