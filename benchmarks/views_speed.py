"""Time to build the engine's views (what the bot renders at every decision).

Run: ``.venv/bin/python benchmarks/views_speed.py [--games N] [--every K] [--repeat R]
[--json] [--base TREE [--rounds N]]``

Positions are taken from seeded 4-player games between random agents (``anima simulate``'s
games): every ``K``-th action of ``N`` games. At each position the script times, in CPU time
of this process (``time.process_time_ns``, so that other processes of a shared machine count
less), each of:

- ``table_view``: ``Game.table_view()``, the public board;
- ``seat_view``: ``Game.seat_view(seat)`` of every seat, with the sealed table (what an agent
  reads);
- ``seat_view_unsealed``: ``Game.seat_view(seat, sealed=False)``, the view without its sealed
  table;
- ``panel_view``: ``Game.seat_view(seat, sealed=False, table=board)`` with the board already
  built, what the bot builds for a private panel (these two: None on a tree whose engine has
  no such options);
- ``prompt_view``: ``Game.prompt_view(seat)`` of every seat with an open decision;
- ``decision``: what the bot builds for one decision: the board, every seat's panel and the
  prompt of every open decision. A panel is ``seat_view(seat, sealed=False, table=board)``
  (no sealed table; the seat's table derived from the board's) when the engine has those
  options, else the full ``seat_view(seat)``.

The positions are kept out of the garbage collector's walks (``gc.freeze``): the figures are
the views' own cost. Each call is timed ``R`` times and the fastest kept (the others measure
the machine); the report gives the median and the 90th percentile over positions, in microseconds.

``--base TREE`` runs this same script with the engine of another tree (e.g. a checkout of
main) and of this one, alternating ``--rounds`` times, and prints the medians of both and their
ratios (same machine, same run). Nothing is asserted: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine is imported from the tree asked for (--tree), after parsing
    from engine.events import Event
    from engine.game import Game
    from engine.views import TableView

ROOT = Path(__file__).resolve().parent.parent
OPS = ("table_view", "seat_view", "seat_view_unsealed", "panel_view", "prompt_view", "decision")


def _best(call: Callable[[], object], repeat: int) -> int:
    """The fastest of ``repeat`` calls, in nanoseconds of CPU time."""
    best = 0
    for i in range(repeat):
        start = time.process_time_ns()
        call()
        took = time.process_time_ns() - start
        best = took if i == 0 else min(best, took)
    return best


def _decision(g: Game, seats: list[str], asked: list[str], lean: bool) -> None:
    """What the bot builds for one decision: the board, every seat's panel, the prompt of
    every open decision (with the panel options when the engine has them)."""
    table = g.table_view()
    for seat in seats:
        if lean:
            g.seat_view(seat, sealed=False, table=table)
        else:
            g.seat_view(seat)
    for seat in asked:
        g.prompt_view(seat)


def _panel(g: Game, seat: str, board: TableView) -> object:
    return g.seat_view(seat, sealed=False, table=board)


def measure(games: int, every: int, repeat: int, seed: int) -> dict[str, Any]:
    """Time every view at the positions of ``games`` seeded games (see the module)."""
    from engine.cards import default_cards
    from engine.game import Game
    from engine.tools.simulate import play_game

    db = default_cards()
    positions: list[Game] = []
    count = 0

    def observe(game: Game, events: list[Event]) -> None:
        nonlocal count
        count += 1
        if count % every == 0 and not game.over:
            positions.append(game.clone())

    for i in range(games):
        play_game(seed + i, 4, cards=db, observe=observe)
    # Built positions stay in memory: keep the collector from walking them again and again
    # (the views' own garbage is still collected as usual).
    gc.freeze()
    # What this tree's engine offers: the panel options, or the views before them.
    params = inspect.signature(Game.seat_view).parameters
    lean = "sealed" in params and "table" in params
    ops: dict[str, Callable[[Game, str], object]] = {
        "seat_view": lambda g, seat: g.seat_view(seat),
        "prompt_view": lambda g, seat: g.prompt_view(seat),
    }
    if lean:
        ops["seat_view_unsealed"] = lambda g, seat: g.seat_view(seat, sealed=False)
    times: dict[str, list[int]] = {op: [] for op in OPS}
    for g in positions:
        seats = list(g.s.seats)
        asked = [p.player for p in g.pending()]
        times["table_view"].append(_best(g.table_view, repeat))
        if lean:
            board = g.table_view()
            ops["panel_view"] = partial(_panel, board=board)
        for op, call in ops.items():
            for seat in asked if op == "prompt_view" else seats:
                times[op].append(_best(partial(call, g, seat), repeat))
        times["decision"].append(_best(partial(_decision, g, seats, asked, lean), repeat))
    report: dict[str, Any] = {"positions": len(positions), "games": games, "repeat": repeat}
    for op, samples in times.items():
        if samples:
            samples.sort()
            report[f"{op}_us_p50"] = round(statistics.median(samples) / 1000, 1)
            report[f"{op}_us_p90"] = round(samples[int(0.9 * (len(samples) - 1))] / 1000, 1)
        else:
            report[f"{op}_us_p50"] = report[f"{op}_us_p90"] = None
    return report


def _run_tree(tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    """This script's ``--json`` report with the engine of ``tree`` (a fresh process)."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--json",
        f"--tree={tree}",
        f"--games={args.games}",
        f"--every={args.every}",
        f"--repeat={args.repeat}",
        f"--seed={args.seed}",
    ]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the benchmark failed:\n{done.stderr}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def compare(args: argparse.Namespace) -> dict[str, Any]:
    """Run the base tree and this one alternately; medians of each op and ratios new/base."""
    sides = {"base": Path(args.base).resolve(), "new": ROOT}
    runs: dict[str, list[dict[str, Any]]] = {"base": [], "new": []}
    for round_ in range(1, args.rounds + 1):
        for name, tree in sides.items():
            report = _run_tree(tree, args)
            runs[name].append(report)
            if not args.json:
                shown = "  ".join(
                    f"{op} {report[f'{op}_us_p50']}" for op in OPS if report[f"{op}_us_p50"]
                )
                print(f"round {round_} {name:<4} {shown} (µs, p50)", flush=True)
    out: dict[str, Any] = {"base": str(sides["base"]), "positions": runs["new"][0]["positions"]}
    for op in OPS:
        for stat in ("p50", "p90"):
            key = f"{op}_us_{stat}"
            for name in sides:
                values = [r[key] for r in runs[name] if r[key] is not None]
                out[f"{name}_{key}"] = round(statistics.median(values), 1) if values else None
    for op in OPS:
        new, base = out[f"new_{op}_us_p50"], out[f"base_{op}_us_p50"]
        out[f"{op}_ratio"] = round(new / base, 3) if new and base else None
    # What the bot's panels cost before (the full view) and now (the view without sealed).
    full, lean = out["base_seat_view_us_p50"], out["new_panel_view_us_p50"]
    out["panel_ratio"] = round(lean / full, 3) if full and lean else None
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="4-player games to take positions")
    parser.add_argument("--every", type=int, default=10, help="a position every K actions")
    parser.add_argument("--repeat", type=int, default=3, help="timings per call, fastest kept")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--tree", help="import the engine from this tree (default: this one)")
    parser.add_argument("--base", help="compare with the engine of this tree (e.g. main)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side with --base")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.tree).resolve() if args.tree else ROOT))
    if args.base:
        report = compare(args)
        if args.json:
            print(json.dumps(report))
            return 0
        print()
        print(f"{'µs per call':<20} {'base p50':>9} {'new p50':>9} {'ratio':>7}")
        for op in OPS:
            base, new = report[f"base_{op}_us_p50"], report[f"new_{op}_us_p50"]
            ratio = report[f"{op}_ratio"]
            print(
                f"{op:<20} {base if base is not None else '-':>9} "
                f"{new if new is not None else '-':>9} "
                f"{f'{ratio:.2f}x' if ratio else '-':>7}"
            )
        print(
            f"a panel's view, base seat_view -> new seat_view(sealed=False, table=board): "
            f"{report['panel_ratio']}x"
        )
        return 0
    report = measure(args.games, args.every, args.repeat, args.seed)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['positions']} positions of {report['games']} games")
    for op in OPS:
        print(f"{op:<20} p50 {report[f'{op}_us_p50']} µs  p90 {report[f'{op}_us_p90']} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
