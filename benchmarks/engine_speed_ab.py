"""Engine speed of this checkout against another commit, measured in the same run.

Run: ``.venv/bin/python benchmarks/engine_speed_ab.py BASE [--rounds N] [--games N]
[--repeat N] [--check-json N]``

The machine is shared and its speed drifts, so two figures taken minutes apart say little. This
checks BASE out into a temporary git worktree, copies this checkout's
``benchmarks/engine_speed.py`` into it (both sides measured by the same code) and runs the
benchmark ``--rounds`` times on each side, alternating base and new, with this interpreter
(``PYTHONPATH`` pointing at each tree). It prints each run, the medians and the ratio.

``--check-json N`` first plays N simulated games (2-5 players, several option sets) on each
side and compares ``to_json()`` after every action and the events' digest: the same seed and
actions must give byte-identical JSON (X5) unless a rule changed on purpose.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Plays games and prints one digest of every state and event (run inside each tree).
_DIGEST = """
import hashlib, sys
from engine.cards import default_cards
from engine.tools.simulate import play_game

OPTIONS = [{}, {"tree_of_regions": "soo"}, {"open_rolls": True, "both_missions": True},
           {"tree_of_regions": "bge", "party_tie": "stands", "final_reveal": "immediate"}]
db = default_cards()
digest = hashlib.sha256()
def observe(game, events):
    digest.update(game.to_json().encode())
    for e in events:
        digest.update(repr((e.kind, e.text, e.to, sorted(e.data.items(), key=str))).encode())
for seed in range(1, int(sys.argv[1]) + 1):
    result = play_game(seed, 2 + seed % 4, options=OPTIONS[seed % 4], cards=db, observe=observe)
    assert result.error is None, result.error
print(digest.hexdigest())
"""


def _run(tree: Path, args: list[str]) -> str:
    """Run this interpreter in ``tree`` with the engine of that tree; its standard output."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare with (e.g. main, HEAD~1)")
    parser.add_argument("--rounds", type=int, default=5, help="benchmark runs on each side")
    parser.add_argument("--games", type=int, default=40, help="4-player games per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per game, the best kept")
    parser.add_argument("--check-json", type=int, default=0, metavar="N", help="games to diff")
    args = parser.parse_args()

    base = Path(tempfile.mkdtemp(prefix="engine-speed-base-"))
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(base), args.base],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    try:
        shutil.copy(ROOT / "benchmarks" / "engine_speed.py", base / "benchmarks")
        sides = {"base": base, "new": ROOT}
        if args.check_json:
            digests = {n: _run(t, ["-c", _DIGEST, str(args.check_json)]) for n, t in sides.items()}
            same = digests["base"] == digests["new"]
            print(
                f"JSON after every action of {args.check_json} games: "
                f"{'byte-identical' if same else 'DIFFERENT'}"
            )
        bench = [
            "benchmarks/engine_speed.py",
            "--json",
            f"--games={args.games}",
            f"--repeat={args.repeat}",
            "--size-games=1",
        ]
        reports: dict[str, list[dict[str, Any]]] = {"base": [], "new": []}
        for round_ in range(1, args.rounds + 1):
            for name, tree in sides.items():
                report = json.loads(_run(tree, bench))
                reports[name].append(report)
                print(
                    f"round {round_} {name:<4} {report['actions_per_s']:>8,} actions/s  "
                    f"median game {report['median_game_ms']:6.1f} ms  "
                    f"({report['actions']:,} actions, {report['errors']} errors)"
                )
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
    rate = {n: statistics.median(r["actions_per_s"] for r in runs) for n, runs in reports.items()}
    game_ms = {
        n: statistics.median(r["median_game_ms"] for r in runs) for n, runs in reports.items()
    }
    print()
    print(f"base {args.base}: median {rate['base']:,.0f} actions/s, {game_ms['base']:.1f} ms/game")
    print(f"new (this checkout): median {rate['new']:,.0f} actions/s, {game_ms['new']:.1f} ms/game")
    print(f"ratio new/base: {rate['new'] / rate['base']:.2f}x actions/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
