"""Time per decision of an AI level, measured against the project's targets.

Run: ``.venv/bin/python benchmarks/agent_speed.py --level normal [--games N] [--seed S]
[--players N] [--budget-ms MS] [--json]``

Every seat plays at ``--level`` (any key of ``engine.agents.levels.LEVELS``) in whole games of
``anima simulate`` (turn cap 60). Each decision is timed from the call of the agent's
``choose`` to its answer: that includes building the seat's view, which the simulator builds
only when the agent first reads it (``lazy_seat_view``), because a real seat needs it to
decide. A decision with only one legal choice needs no thought: those are counted and timed
apart, and left out of the percentiles.

Times are the CPU time of this process (``time.process_time``), so that other processes of a
shared machine disturb them less. Nothing is asserted: the table says whether the level's
target is met (normal: p99 <= 5 ms; hard: p99 <= its budget per decision, 1 s by default).
``--json`` prints one JSON object instead.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.agents import Agent, choice_actions
from engine.agents.levels import LEVELS, make_agent
from engine.cards import default_cards
from engine.tools.simulate import DEFAULT_TURN_CAP, play_game, seat_names

if TYPE_CHECKING:
    from engine.prompts import Prompt
    from engine.views import PromptView, SeatView

#: p99 targets in ms per decision by level (a searching level: its budget, see ``target``).
TARGET_P99_MS = {"random": 5.0, "normal": 5.0}
DEFAULT_HARD_BUDGET_MS = 1000.0


class Timed:
    """An agent whose decisions are timed (CPU time), those with one choice apart."""

    def __init__(self, agent: Agent, thought: list[float], forced: list[float]) -> None:
        self.agent = agent
        self.thought = thought
        self.forced = forced

    def choose(self, view: SeatView, prompt: Prompt | PromptView) -> str:
        start = time.process_time()
        action = self.agent.choose(view, prompt)
        elapsed = 1000 * (time.process_time() - start)
        (self.forced if len(choice_actions(prompt)) == 1 else self.thought).append(elapsed)
        return action


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, interpolated (0 when empty)."""
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[round(q * 10) - 1]


def target(level: str, budget_ms: float | None) -> float | None:
    """The p99 target of ``level`` in ms (None: the project sets none)."""
    if level in TARGET_P99_MS:
        return TARGET_P99_MS[level]
    if level == "hard":
        return budget_ms if budget_ms is not None else DEFAULT_HARD_BUDGET_MS
    return None


def measure(
    level: str, games: int, seed: int, players: int, budget_ms: float | None
) -> dict[str, object]:
    """Play ``games`` games with every seat at ``level`` and time its decisions."""
    db = default_cards()
    thought: list[float] = []
    forced: list[float] = []
    errors = 0
    decisions_per_game: list[int] = []
    for i in range(games):
        agents: dict[str, Agent] = {
            name: Timed(make_agent(level, f"{seed + i}:{name}", budget_ms), thought, forced)
            for name in seat_names(players)
        }
        before = len(thought) + len(forced)
        result = play_game(seed + i, players, DEFAULT_TURN_CAP, agents=agents, cards=db)
        errors += result.error is not None
        decisions_per_game.append(len(thought) + len(forced) - before)
    goal = target(level, budget_ms)
    p99 = percentile(thought, 99)
    return {
        "level": level,
        "budget_ms": budget_ms,
        "games": games,
        "players": players,
        "seeds": [seed, seed + games - 1],
        "errors": errors,
        "decisions": len(thought),
        "decisions_one_choice": len(forced),
        "decisions_per_game": statistics.mean(decisions_per_game) if decisions_per_game else 0,
        "ms": {
            "p50": round(percentile(thought, 50), 3),
            "p90": round(percentile(thought, 90), 3),
            "p99": round(p99, 3),
            "max": round(max(thought, default=0.0), 3),
            "mean": round(statistics.mean(thought), 3) if thought else 0.0,
        },
        "ms_one_choice": {
            "p50": round(percentile(forced, 50), 3),
            "p99": round(percentile(forced, 99), 3),
        },
        "target_p99_ms": goal,
        "target_met": None if goal is None else p99 <= goal,
        "python": platform.python_version(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=list(LEVELS), default="normal")
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--players", type=int, choices=range(2, 6), default=4)
    parser.add_argument(
        "--budget-ms", type=float, default=None, help="thinking time per decision (searching AIs)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    report = measure(args.level, args.games, args.seed, args.players, args.budget_ms)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    ms = report["ms"]
    assert isinstance(ms, dict)
    goal = report["target_p99_ms"]
    verdict = "no target" if goal is None else ("met" if report["target_met"] else "NOT met")
    print(
        f"level {args.level}: {report['games']} games of {args.players} players, "
        f"{report['errors']} errors"
    )
    print(
        f"decisions: {report['decisions']} timed, {report['decisions_one_choice']} with one "
        "choice (left out)"
    )
    print(
        f"ms per decision: p50 {ms['p50']}, p90 {ms['p90']}, p99 {ms['p99']}, max {ms['max']}"
        f" (target p99 <= {goal} ms: {verdict})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
