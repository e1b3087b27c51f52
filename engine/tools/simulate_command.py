"""The ``anima simulate`` command: its arguments, the progress bar, and the summary printed
(text or ``--json``) and written as a report (``--report DIR``). The games and the summary
themselves are :mod:`engine.tools.simulate`'s."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.agents.levels import LEVELS
from engine.cards import default_cards
from engine.errors import IllegalAction
from engine.rules.sets import check_table
from engine.tools.arguments import add_table_arguments, at_least, parse_seats
from engine.tools.simulate import DEFAULT_LEVEL, GameResult, format_summary, simulate


def _command_line(args: argparse.Namespace, players: int) -> str:
    """The command that repeats this run (for the report's page)."""
    line = (
        f"anima simulate --games {args.games} --players {players} --seed {args.seed} "
        f"--turn-cap {args.turn_cap} --sets {','.join(args.sets)}"
    )
    if args.seats:
        line += f" --seats {','.join(args.seats)}"
    if args.keyed_dice:
        line += " --keyed-dice"
    return line + f" --report {args.report}"


@contextmanager
def progress_bar(total: int, enabled: bool) -> Iterator[Callable[[], None]]:
    """A progress bar of ``total`` games on stderr (rich), removed when done; yields the
    function that advances it by one game (a no-op when ``enabled`` is False)."""
    if not enabled:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=True, console=Console(stderr=True)) as progress:
        task = progress.add_task("games", total=total)
        yield lambda: progress.advance(task)


def _cmd_simulate(args: argparse.Namespace) -> int:
    players = args.players if args.players is not None else len(args.seats or ()) or 4
    if args.seats is not None and len(args.seats) != players:
        print(
            f"anima simulate: --seats names {len(args.seats)} levels for {players} players",
            file=sys.stderr,
        )
        return 2
    try:  # G1: refuse what the rules forbid, and a set without cards, before playing
        check_table(args.sets, players, default_cards())
    except IllegalAction as exc:
        print(f"anima simulate: {exc}", file=sys.stderr)
        return 2
    uses = None
    if args.report is not None:
        from engine.tools.report import CardUses  # matplotlib only for a report

        uses = CardUses()
    # The bar goes to stderr, on a terminal only: the summary on stdout stays clean for a pipe.
    bar = not args.json and sys.stdout.isatty() and sys.stderr.isatty()
    with progress_bar(args.games, enabled=bar) as advance:

        def done(result: GameResult) -> None:
            advance()
            if uses is not None:
                uses.finish(result)

        summary = simulate(
            args.games,
            players,
            args.seed,
            args.turn_cap,
            {"sets": args.sets},
            args.seats,
            progress=done,
            watch=uses.watch if uses is not None else None,
            keyed=args.keyed_dice,
        )
    if args.report is not None and uses is not None:
        from engine.tools.report import ReportError, write_report

        try:
            page = write_report(summary, uses, args.report, _command_line(args, players))
        except ReportError as exc:
            print(f"anima simulate: {exc}", file=sys.stderr)
            return 2
        print(f"report: {page}", file=sys.stderr)
    if args.json:
        print(json.dumps({**summary.deterministic(), "timing": summary.timing()}, indent=2))
    else:
        print(format_summary(summary, verbose=args.verbose))
    if summary.errors:
        print(f"{len(summary.errors)} game(s) failed", file=sys.stderr)
        return 1
    return 0


def register(sub: Any) -> None:
    """Add ``anima simulate`` to the ``anima`` subcommands."""
    cmd = sub.add_parser(
        "simulate",
        help="play whole games between AI players and summarize them",
        description="Play N games between AI players (random unless --seats says otherwise; "
        "game i uses seed S+i) and print a deterministic summary (plus timing): errors, turns, "
        "endings, wins per seat and per AI level with 95% confidence intervals, card coverage.",
    )
    cmd.add_argument("--games", type=at_least(1), default=100, help="games to play (default 100)")
    cmd.add_argument(
        "--players",
        type=int,
        choices=range(2, 6),
        default=None,
        help="players per game (2-5; default: as many as --seats names, else 4)",
    )
    cmd.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    add_table_arguments(cmd, "a game")
    cmd.add_argument(
        "--seats",
        type=parse_seats,
        default=None,
        help="the AI level of each seat, comma-separated, e.g. normal,random,random,random "
        f"(levels: {', '.join(LEVELS)}; default: {DEFAULT_LEVEL} for every seat)",
    )
    cmd.add_argument("--json", action="store_true", help="print the summary as JSON")
    cmd.add_argument(
        "--report",
        type=Path,
        default=None,
        metavar="DIR",
        help="also write DIR/index.html with plots (needs matplotlib: the 'report' extra)",
    )
    cmd.add_argument(
        "-v", "--verbose", action="store_true", help="list never-resolved cards and errors"
    )
    cmd.add_argument(
        "--keyed-dice",
        action="store_true",
        help="draw from the keyed stream of the bot's games (docs/fair_dice.md), its server "
        "seed derived from each game's seed, instead of the old generator",
    )
    cmd.set_defaults(func=_cmd_simulate)
