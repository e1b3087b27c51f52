"""Engine speed and state size, measured against the project's targets.

Run: ``.venv/bin/python benchmarks/engine_speed.py [--games N] [--size-games N] [--seed S]
[--json]``

(a) applied actions per second with random agents on one core (target >= 20,000);
(b) median time of a whole 4-player game between random agents (target <= 100 ms);
(c) the largest ``game.to_json()`` of a 5-player game over its whole life, over several games
    (target <= 32 KB).

Games are those of ``anima simulate`` (turn cap 60). Times are the CPU time of this process
(``time.process_time``: one core, and time the machine gave to other processes is not
counted), so that a shared machine disturbs them less. Nothing is asserted: timings depend on
the machine; the table says which targets are met. ``--json`` prints one JSON object instead
(``benchmarks/engine_speed_ab.py`` reads it to compare two commits).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.tools.simulate import DEFAULT_TURN_CAP, play_game

TARGET_ACTIONS_PER_SECOND = 20_000
TARGET_GAME_MS = 100.0
TARGET_JSON_KB = 32.0


@dataclass
class GameRuns:
    """One 4-player game of (a), (b), played several times."""

    seed: int
    actions: int
    error: bool
    #: CPU seconds of each run.
    seconds: list[float]


def speed(games: int, seed: int, repeat: int) -> list[GameRuns]:
    """Play ``games`` 4-player games ``repeat`` times each (games are deterministic)."""
    db = default_cards()
    play_game(seed - 1, 4, cards=db)  # warm up: imports, caches
    played: list[GameRuns] = []
    for i in range(games):
        seconds: list[float] = []
        for _ in range(repeat):
            start = time.process_time()
            result = play_game(seed + i, 4, DEFAULT_TURN_CAP, cards=db)
            seconds.append(time.process_time() - start)
        played.append(GameRuns(seed + i, result.actions, result.error is not None, seconds))
    return played


def rate_and_median(played: list[GameRuns]) -> tuple[float, float]:
    """(actions per second, median ms per game), each game counted at its fastest run, as
    ``timeit`` does: the slower runs only measure what else the machine was doing."""
    best = [min(game.seconds) for game in played]
    return sum(game.actions for game in played) / sum(best), 1000 * statistics.median(best)


def json_size(games: int, seed: int) -> tuple[float, float, int]:
    """(max KB, median of the per-game max KB, the seed of the largest) over 5-player games."""
    db = default_cards()
    per_game: list[tuple[int, int]] = []
    for i in range(games):
        largest = 0

        def observe(game: Game, events: list[Event]) -> None:
            nonlocal largest
            largest = max(largest, len(game.to_json().encode()))

        play_game(seed + i, 5, DEFAULT_TURN_CAP, cards=db, observe=observe)
        per_game.append((largest, seed + i))
    top, top_seed = max(per_game)
    return top / 1024, statistics.median(size for size, _ in per_game) / 1024, top_seed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="4-player games for (a), (b)")
    parser.add_argument("--size-games", type=int, default=8, help="5-player games for (c)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--repeat", type=int, default=3, help="runs per game, the best kept")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    played = speed(args.games, args.seed, args.repeat)
    rate, median_ms = rate_and_median(played)
    actions = sum(game.actions for game in played)
    errors = sum(game.error for game in played)
    top_kb, median_kb, top_seed = json_size(args.size_games, args.seed)
    if args.json:
        report = {
            "actions_per_s": round(rate),
            "median_game_ms": round(median_ms, 2),
            "largest_json_kb": round(top_kb, 2),
            "python": platform.python_version(),
            "clock": "process_time",
            "actions": actions,
            "errors": errors,
            "runs": [asdict(game) for game in played],
        }
        print(json.dumps(report))
        return 0

    rows = [
        (
            "(a) applied actions per second, 1 core",
            f"{rate:,.0f}",
            f">= {TARGET_ACTIONS_PER_SECOND:,}",
            rate >= TARGET_ACTIONS_PER_SECOND,
        ),
        (
            "(b) median 4-player game (ms)",
            f"{median_ms:.1f}",
            f"<= {TARGET_GAME_MS:.0f}",
            median_ms <= TARGET_GAME_MS,
        ),
        (
            "(c) max 5-player game JSON (KB)",
            f"{top_kb:.1f}",
            f"<= {TARGET_JSON_KB:.0f}",
            top_kb <= TARGET_JSON_KB,
        ),
    ]
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(
        f"(a), (b): {args.games} 4-player games, seeds {args.seed}-{args.seed + args.games - 1}, "
        f"{actions:,} actions, {errors} engine errors, turn cap {DEFAULT_TURN_CAP}, "
        f"best of {args.repeat} runs per game, CPU time"
    )
    print(
        f"(c): {args.size_games} 5-player games; median of the per-game max {median_kb:.1f} KB; "
        f"largest in seed {top_seed}"
    )
    print()
    print(f"{'measure':<42}{'measured':>12}{'target':>12}  met")
    for name, measured, target, ok in rows:
        print(f"{name:<42}{measured:>12}{target:>12}  {'yes' if ok else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
