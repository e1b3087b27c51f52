"""The report of ``benchmarks/bot_speed.py``: the text table and the ``--json`` figures,
each with its target where it has one."""

from __future__ import annotations

import math
import os
import platform
from typing import Any

import simcord

from .driver import Bench
from .measure import AFTER_KINDS, COLLECTED, PICTURE, SENDER, Flow, Record, replay_flow

#: The targets: the handling time's p50 and p99 (issue 24: p99 <= 15 ms with aiosqlite's or
#: PostgreSQL's round trips, 10 before), and the messages created per decision.
TARGET_P50_MS = 3.0
TARGET_P99_MS = 15.0
TARGET_MESSAGES_PER_DECISION = 1.5


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (0 < q <= 100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def p50_p99(ms: list[float]) -> str:
    """ "p50 / p99" of ``ms``, one decimal each."""
    return f"{percentile(ms, 50):.1f} / {percentile(ms, 99):.1f}"


def kind_table(records: list[Record]) -> list[str]:
    kinds: dict[str, list[Record]] = {}
    for r in records:
        kinds.setdefault(f"{r.phase}: {r.kind}", []).append(r)
    head = (
        f"{'interaction':<26}{'n':>7}{'p50 ms':>8}{'p99 ms':>8}{'max ms':>8}{'SQL %':>7}"
        f"{'stmts':>7}{'AI mv':>7}{'HTTP':>6}{'created':>8}"
    )
    lines = [head]
    for name, rs in sorted(kinds.items()):
        ms = [r.ms for r in rs]
        total = sum(ms) / 1000
        lines.append(
            f"{name:<26}{len(rs):>7,}{percentile(ms, 50):>8.1f}{percentile(ms, 99):>8.1f}"
            f"{max(ms):>8.1f}{100 * sum(r.sql_s for r in rs) / (total or 1):>6.0f}%"
            f"{sum(r.statements for r in rs) / len(rs):>7.1f}"
            f"{sum(r.ai_moves for r in rs) / len(rs):>7.2f}"
            f"{sum(r.http_calls for r in rs) / len(rs):>6.1f}"
            f"{sum(r.created for r in rs) / len(rs):>8.2f}"
        )
    return lines


def flows(bench: Bench) -> dict[str, Flow]:
    """The flow figures of the games with and without auto-pass."""
    out = {"with_autopass": Flow(), "without_autopass": Flow()}
    for t in bench.tables:
        replay_flow(bench.db, t.game_id, out["with_autopass" if t.autopass else "without_autopass"])
    return out


def report(bench: Bench, wall: float, args: Any) -> tuple[list[str], dict[str, Any]]:
    records = bench.probe.records
    bench.probe.attribute_gc()
    backend = "postgresql" if bench.db.postgres else "sqlite"
    play = [r for r in records if r.phase == "play" and r.kind not in AFTER_KINDS]
    setup = [r for r in records if r.phase == "setup" and r.kind not in AFTER_KINDS]
    sent = [r for r in records if r.phase == "play" and r.kind == SENDER]
    collected = [r for r in records if r.phase == "play" and r.kind == COLLECTED]
    followed = [r for r in records if r.phase == "play" and r.kind == PICTURE]
    ms = [r.ms for r in play]
    own = [r.own_ms for r in play]
    handled = sum(r.end - r.t0 for r in play)
    sql = sum(r.sql_s for r in play)
    decisions = sum(r.decisions for r in play)
    public = sum(r.public for r in play)
    dms = sum(r.dms for r in play)
    eph = sum(r.ephemeral for r in play)
    created = public + dms + eph
    per_decision = created / decisions if decisions else float("nan")
    p99 = percentile(ms, 99)
    over = sum(t.over for t in bench.tables)
    errors = [*bench.bot.errors, *bench.env.errors]
    mode = (
        "one interaction in flight at a time, the games interleaved"
        if args.concurrency == 1
        else f"the {args.concurrency} interactions of a wave handled concurrently"
    )
    lines = [
        f"Anima bot through SimCord {simcord.__version__}: Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {platform.machine()}",
        f"{args.games} games (3 members + 1 AI each, /anima start turns:{args.turns}), "
        f"seed {args.seed}, concurrency {args.concurrency} ({mode})",
        f"finished {over}/{len(bench.tables)} games in {wall:.0f} s wall (setup included); "
        f"{len(setup):,} setup interactions (excluded below); decisions rejected "
        f"{len(bench.tally.rejected)}/{bench.tally.decisions_tried:,}; choices missing from "
        f"panels {bench.tally.missing}; bot errors {len(errors)}",
        "",
        f"{'measure (play phase)':<44}{'measured':>12}{'target':>10}  met",
    ]

    def row(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
        met = "" if ok is None else ("yes" if ok else "NO")
        lines.append(f"{name:<44}{value:>12}{target:>10}  {met}".rstrip())

    row("interactions handled", f"{len(play):,}")
    row("player decisions (human actions applied)", f"{decisions:,}")
    row("AI moves made inside those interactions", f"{sum(r.ai_moves for r in play):,}")
    p50 = percentile(ms, 50)
    row("handling time p50 (ms)", f"{p50:.1f}", f"<= {TARGET_P50_MS:.0f}", p50 <= TARGET_P50_MS)
    row("handling time p95 (ms)", f"{percentile(ms, 95):.1f}")
    row("handling time p99 (ms)", f"{p99:.1f}", f"<= {TARGET_P99_MS:.0f}", p99 <= TARGET_P99_MS)
    row("handling time max (ms)", f"{max(ms, default=float('nan')):.1f}")
    row("  p50 / p99 excl. SimCord's own work (ms)", p50_p99(own))
    row(f"database ({backend}) share of handling time", f"{100 * sql / handled:.0f} %")
    row(
        "  SimCord / garbage collector share",
        f"{100 * sum(r.discord_s for r in play) / handled:.0f} / "
        f"{100 * sum(r.gc_s for r in play) / handled:.0f} %",
    )
    row(
        "  statements / transactions per interaction",
        f"{sum(r.statements for r in play) / len(play):.1f} / "
        f"{sum(r.transactions for r in play) / len(play):.1f}",
    )
    row(
        "messages created per decision",
        f"{per_decision:.2f}",
        f"<= {TARGET_MESSAGES_PER_DECISION}",
        per_decision <= TARGET_MESSAGES_PER_DECISION,
    )
    row(
        "  channel / DM / ephemeral per decision",
        f"{public / decisions:.2f} / {dms / decisions:.2f} / {eph / decisions:.2f}",
    )
    row(
        "  ephemeral replies saying only 'You chose ...'",
        f"{sum(r.plain_ack for r in play) / decisions:.2f}",
    )
    row("  edits per decision", f"{sum(r.edits for r in play) / decisions:.2f}")
    sent_ms, sent_s = [r.ms for r in sent], sum(r.end - r.t0 for r in sent)
    collected_ms, collected_s = [r.ms for r in collected], sum(r.end - r.t0 for r in collected)
    row(
        "other players' panels, sent after (edits/dec.)",
        f"{sum(r.edits for r in sent) / decisions:.2f}",
    )
    row("  one sender run p50 / p99 (ms)", p50_p99(sent_ms))
    row("garbage collected after (ms per decision)", f"{1000 * collected_s / decisions:.2f}")
    row(
        "  collections per decision; p50 / p99 (ms)",
        f"{len(collected) / decisions:.2f}; {p50_p99(collected_ms)}",
    )
    all_ms = 1000 * (handled + sent_s + collected_s) / decisions
    row("bot's work per decision, all included (ms)", f"{all_ms:.1f}")
    work_wall, work_cpu, simcord_cpu = bench.probe.bot_work("play")
    cpu_ms = 1000 * work_cpu / decisions
    row("bot's CPU per decision (ms, every thread)", f"{cpu_ms:.2f}")
    row("  wall time of the same work (ms)", f"{1000 * work_wall / decisions:.2f}")
    row("  CPU excl. SimCord's own work (ms)", f"{1000 * (work_cpu - simcord_cpu) / decisions:.2f}")
    server_ms = 1000 * bench.server_cpu_s / decisions if bench.server_cpu_s is not None else None
    if server_ms is not None:
        row("PostgreSQL server's CPU per decision (ms)", f"{server_ms:.2f}")
    if args.concurrency > 1:
        lines += [
            "(concurrency > 1: the handling times of a wave overlap and include waiting for",
            " each other; the shares are each interaction's own work over its whole time)",
        ]
    lines += [
        "",
        "By interaction (per interaction: statements, AI moves, HTTP calls, messages created):",
    ]
    lines += kind_table(records)
    lines += ["", f"Statements of the play phase ({backend}; per decision, ms per decision):"]
    shapes = sorted(bench.probe.statements.items(), key=lambda kv: kv[1][1], reverse=True)
    for shape, (count, seconds) in shapes[:10]:
        lines.append(f"  {count / decisions:>6.2f} {1000 * seconds / decisions:>6.2f}  {shape}")
    lines += ["", "Slowest interactions (ms: total, database, SimCord, garbage collector):"]
    for r in sorted(records, key=lambda r: r.ms, reverse=True)[:5]:
        lines.append(
            f"  {r.phase}: {r.kind:<16}{r.ms:>8.1f}{1000 * r.sql_s:>8.1f}"
            f"{1000 * r.discord_s:>8.1f}{1000 * r.gc_s:>8.1f}  slowest statement "
            f"{1000 * r.slowest_sql[0]:.1f} ms: {r.slowest_sql[1]}"
        )
    for text in bench.tally.rejected[:5]:
        lines.append(f"rejected: {text}")
    for exc in errors[:5]:
        lines.append(f"bot error: {exc!r}")
    flow = {name: f.figures() for name, f in flows(bench).items()}
    lines += [
        "",
        "Flow of the games (replayed from their logs; setup excluded; half the games have "
        "every member on auto-pass for everything):",
        f"  {'':<18}{'games':>6}{'turns':>7}{'member decisions/turn':>23}{'windows/turn':>14}"
        f"{'member decisions/window':>25}",
    ]
    for name, f in flow.items():
        lines.append(
            f"  {name.replace('_', ' '):<18}{f['games']:>6}{f['turns']:>7}"
            f"{f['member_decisions_per_turn']:>23}{f['windows_per_turn']:>14}"
            f"{f['member_decisions_per_window']:>25}"
        )
    statements = sum(r.statements for r in play)
    transactions = sum(r.transactions for r in play)
    memory = bench.memory
    kb_per_game = memory.bot_bytes / 1024 / memory.games if memory.measured else None
    db_kb_per_game = bench.db_bytes / 1024 / len(bench.tables)
    lines += [
        "",
        f"Per decision: {statements / decisions:.1f} statements ({backend}), "
        f"{transactions / decisions:.2f} transactions, {per_decision:.2f} messages created.",
        f"Database: {bench.db_bytes / 1024:,.0f} KB for {len(bench.tables)} finished games "
        f"({db_kb_per_game:.1f} KB per game"
        + (", WAL checkpointed)." if backend == "sqlite" else ", PostgreSQL's count)."),
    ]
    if memory.measured:
        lines += [
            f"Memory with all {len(bench.tables)} games live (tracemalloc over the setup of "
            f"the last {memory.games}, the others live already): the bot's side holds "
            f"{memory.bot_bytes / 1024:,.0f} KB for them ({kb_per_game:.1f} KB per live "
            f"game); SimCord's simulated Discord {memory.simcord_bytes / 1024:,.0f} KB; "
            f"unattributed {memory.other_bytes / 1024:,.0f} KB. Largest on the bot's side:",
        ]
        lines += [f"  {size / 1024:>10,.0f} KB  {name}" for name, size in memory.by_file]
    figures: dict[str, Any] = {
        "wall_s": round(wall, 1),
        "interaction_ms_p50": round(p50, 2),
        "interaction_ms_p99": round(p99, 2),
        # The same without the time SimCord's simulated Discord spends inside the bot's calls.
        "own_ms_p50": round(percentile(own, 50), 2),
        "own_ms_p99": round(percentile(own, 99), 2),
        "statements_per_decision": round(statements / decisions, 2),
        "transactions_per_decision": round(transactions / decisions, 3),
        "messages_per_decision": round(per_decision, 3),
        "kb_per_live_game": round(kb_per_game, 1) if kb_per_game is not None else None,
        "db_kb_per_game": round(db_kb_per_game, 1),
        "games": args.games,
        "seed": args.seed,
        "turns": args.turns,
        "concurrency": args.concurrency,
        "finished": over,
        "interactions": len(play),
        "decisions": decisions,
        "sqlite_share": round(sql / handled, 3),
        "simcord_share": round(sum(r.discord_s for r in play) / handled, 3),
        "gc_share": round(sum(r.gc_s for r in play) / handled, 3),
        # The other players' panels, edited by each game's sender after the click.
        "panel_edits_sent_after_per_decision": round(sum(r.edits for r in sent) / decisions, 3),
        "panel_sender_ms_p50": round(percentile(sent_ms, 50), 2),
        "panel_sender_ms_p99": round(percentile(sent_ms, 99), 2),
        # The collections run between units of work (bot.collector), after the clicks.
        "gc_after_ms_per_decision": round(1000 * collected_s / decisions, 3),
        "gc_after_per_decision": round(len(collected) / decisions, 3),
        "gc_after_ms_p50": round(percentile(collected_ms, 50), 2),
        "gc_after_ms_p99": round(percentile(collected_ms, 99), 2),
        # Interactions, senders and collections after them, SimCord included, per decision.
        "ms_per_decision_all": round(all_ms, 2),
        # The process's CPU (every thread) while the bot works, per decision; the wall time
        # of the same windows; the CPU without SimCord's router; the PostgreSQL server's.
        "cpu_ms_per_decision": round(cpu_ms, 3),
        "bot_wall_ms_per_decision": round(1000 * work_wall / decisions, 3),
        "cpu_ms_per_decision_excl_simcord": round(1000 * (work_cpu - simcord_cpu) / decisions, 3),
        "server_cpu_ms_per_decision": round(server_ms, 3) if server_ms is not None else None,
        "db": backend,
        "errors": len(errors),
        "flow": flow,
    }
    # The pictures (issue 23), drawn in the worker process off the clicks' path, over the
    # play phase: how many were drawn, reused and superseded, and the worker's CPU time
    # (measured there), per decision, beside the bot process's own CPU per decision.
    end, start = bench.bot.pictures.stats, bench.pictures_at_play
    drawn, seconds = end.drawn - start.drawn, end.seconds - start.seconds
    figures["pictures"] = bench.args.pictures
    figures["pictures_drawn"] = drawn
    figures["pictures_reused"] = end.hits - start.hits
    figures["pictures_superseded"] = end.superseded - start.superseded
    figures["pictures_drawn_per_decision"] = round(drawn / decisions, 3)
    figures["picture_cpu_ms_per_decision"] = round(1000 * seconds / decisions, 3)
    # The board pictures edited in after the board message went out without them: from the
    # click that sent the message to the edit (the drawing's wait included), apart from it.
    followed_ms = [r.ms for r in followed]
    figures["board_picture_after_per_decision"] = round(len(followed) / decisions, 3)
    for q in (50, 99):
        at = round(percentile(followed_ms, q), 2) if followed_ms else None
        figures[f"board_picture_after_ms_p{q}"] = at
    lines.append(
        f"Pictures ({'on' if bench.args.pictures else 'off'}, play phase): {drawn:,} drawn "
        f"({drawn / decisions:.2f} per decision), {figures['pictures_reused']:,} reused, "
        f"{figures['pictures_superseded']:,} superseded; {1000 * seconds / decisions:.2f} CPU "
        f"ms per decision in the worker process, beside the bot process's {cpu_ms:.2f}"
    )
    lines.append(
        f"Board pictures edited in after the board went out without them: "
        f"{len(followed) / decisions:.2f} per decision, p50 / p99 {p50_p99(followed_ms)} ms "
        "(drawing included; not part of the interactions above)"
    )
    return lines, figures


# ---------------------------------------------------------------------- main
