"""The hard AI's strength and thinking time.

Run: ``nice -n 5 .venv/bin/python benchmarks/hard_strength.py [--games 200] [--budget-ms 100]
[--ceiling-ms MS] [--opponents normal] [--players 4] [--seed 1] [--iterations N] [--json]``

One hard seat plays against ``players - 1`` seats of the ``--opponents`` level (default
normal), in ``--games`` games of ``anima simulate`` (turn cap 60). Game ``i`` uses seed
``seed + i`` and puts the hard seat at position ``i % players``, so that no seat position
favours it. Reported:

- the hard seat's wins, its win rate and the 95% Wilson score interval (a fair share is
  ``1 / players``; the target: at least 35% of 200 4-player games against three normal
  seats at a budget of 100 ms);
- the wall-clock time of each hard decision that ran a search (p50, p99, max; target p99 <=
  1 s), its CPU time, how many rollouts a search played (p50), and how many searches the
  wall-clock ceiling cut short;
- how games ended, and the machine's load average at the start and the end: the budget is the
  deciding thread's CPU time (issue 20), so a loaded machine slows the games down but leaves
  the search its rollouts until the wall-clock ceiling (10 times the budget) is reached.

A line per game goes to stderr as the run goes, so that a long run can be read before its
end. Nothing is asserted: strength and timings are measured, not tested.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.agents import Agent
from engine.agents.hard import HardAgent
from engine.agents.levels import make_agent
from engine.prompts import Prompt
from engine.tools.simulate import DEFAULT_TURN_CAP, play_game, seat_names, wilson
from engine.views import PromptView, SeatView

TARGET_WIN_RATE = 0.35
TARGET_P99_MS = 1000.0


class TimedHard:
    """The hard agent, with the wall-clock time of every decision that searched."""

    def __init__(self, agent: HardAgent) -> None:
        self.agent = agent
        self.ms: list[float] = []
        self.cpu_ms: list[float] = []
        self.rollouts: list[int] = []
        self.ceilings = 0

    def choose(self, view: SeatView, prompt: Prompt | PromptView) -> str:
        before = self.agent.searches
        start = time.perf_counter()
        action = self.agent.choose(view, prompt)
        elapsed = (time.perf_counter() - start) * 1000
        if self.agent.searches > before:
            self.ms.append(elapsed)
            self.cpu_ms.append(self.agent.last.cpu_ms)
            self.rollouts.append(self.agent.last.iterations)
            self.ceilings += self.agent.last.hit_ceiling
        return action


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Play the games and gather the figures."""
    names = seat_names(args.players)
    load_start = os.getloadavg()
    start = time.perf_counter()
    wins = 0
    finished = 0
    errors: list[str] = []
    endings: Counter[str] = Counter()
    ms: list[float] = []
    cpu_ms: list[float] = []
    rollouts: list[int] = []
    ceilings = 0
    turns: list[int] = []
    for i in range(args.games):
        seed = args.seed + i
        hard_seat = names[i % args.players]
        hard = TimedHard(
            HardAgent(
                f"{seed}:hard",
                budget_ms=args.budget_ms or None,
                iterations=args.iterations,
                ceiling_ms=args.ceiling_ms,
            )
        )
        agents: dict[str, Agent] = {
            name: make_agent(args.opponents, f"{seed}:{name}") for name in names
        }
        agents[hard_seat] = hard
        result = play_game(seed, args.players, turn_cap=args.turn_cap, agents=agents)
        ms += hard.ms
        cpu_ms += hard.cpu_ms
        rollouts += hard.rollouts
        ceilings += hard.ceilings
        if result.error is not None:
            errors.append(result.error)
        else:
            finished += 1
            turns.append(result.turns)
            endings[result.ending or "none"] += 1
            won = result.winner_seat == names.index(hard_seat) + 1
            wins += won
        print(
            f"game {i + 1}/{args.games} seed {seed}: hard {hard_seat} "
            f"{'won' if result.error is None and won else 'lost'} "
            f"({result.ending}, {result.turns} turns, {len(hard.ms)} searches, "
            f"rollouts p50 {statistics.median(hard.rollouts) if hard.rollouts else 0:.0f}, "
            f"{hard.ceilings} stopped by the ceiling, load {os.getloadavg()[0]:.1f}, "
            f"{result.seconds:.0f} s); hard wins {wins}/{finished}",
            file=sys.stderr,
            flush=True,
        )
    low, high = wilson(wins, finished)
    return {
        "games": args.games,
        "finished": finished,
        "errors": errors,
        "players": args.players,
        "opponents": args.opponents,
        "budget_ms": args.budget_ms,
        "iterations": args.iterations,
        "seed": args.seed,
        "hard_wins": wins,
        "win_rate": wins / finished if finished else 0.0,
        "wilson95": [low, high],
        "target_win_rate": TARGET_WIN_RATE,
        "decisions_searched": len(ms),
        "decision_ms": {
            "p50": percentile(ms, 0.5),
            "p99": percentile(ms, 0.99),
            "max": max(ms, default=0.0),
        },
        "decision_cpu_ms": {"p50": percentile(cpu_ms, 0.5), "p99": percentile(cpu_ms, 0.99)},
        "stopped_by_ceiling": ceilings,
        "target_p99_ms": TARGET_P99_MS,
        "rollouts_per_search_p50": statistics.median(rollouts) if rollouts else 0,
        "turns_median": statistics.median(turns) if turns else 0,
        "endings": dict(endings),
        "loadavg_start": list(load_start),
        "loadavg_end": list(os.getloadavg()),
        "seconds": time.perf_counter() - start,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=100.0,
        help="CPU time of the deciding thread per decision; 0: no time limit",
    )
    parser.add_argument(
        "--ceiling-ms",
        type=float,
        default=None,
        help="wall-clock ceiling per decision (default: 10 times the budget)",
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="cap on rollouts per decision (with --budget-ms 0: a run the same on any machine)",
    )
    parser.add_argument("--opponents", default="normal", help="the level of the other seats")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn-cap", type=int, default=DEFAULT_TURN_CAP)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures = run(args)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    low, high = figures["wilson95"]
    times = figures["decision_ms"]
    print(
        f"hard vs {args.players - 1} x {args.opponents}, budget {args.budget_ms:g} ms: "
        f"{figures['hard_wins']}/{figures['finished']} wins = {figures['win_rate']:.1%} "
        f"(95% Wilson {low:.1%}-{high:.1%}; target >= {TARGET_WIN_RATE:.0%}, fair share "
        f"{1 / args.players:.0%})"
    )
    print(
        f"time per searched decision: p50 {times['p50']:.0f} ms, p99 {times['p99']:.0f} ms, "
        f"max {times['max']:.0f} ms over {figures['decisions_searched']} decisions "
        f"(target p99 <= {TARGET_P99_MS:.0f} ms); rollouts per search p50 "
        f"{figures['rollouts_per_search_p50']}; CPU time p50 "
        f"{figures['decision_cpu_ms']['p50']:.0f} ms; stopped by the wall-clock ceiling "
        f"{figures['stopped_by_ceiling']} times"
    )
    print(
        f"endings {figures['endings']}; median {figures['turns_median']} turns; "
        f"load average {figures['loadavg_start'][0]:.1f} -> {figures['loadavg_end'][0]:.1f}; "
        f"{figures['seconds']:.0f} s; errors {len(figures['errors'])}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
