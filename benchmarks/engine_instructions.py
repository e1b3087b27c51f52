"""Engine cost in CPU instructions per applied action, counted by valgrind.

Run: ``.venv/bin/python benchmarks/engine_instructions.py [--games N] [--seed S] [--json]``

Times on a shared machine drift by a third from one minute to the next; the number of
instructions a game takes does not (the games are deterministic). This plays a warm-up game,
then ``--games`` 4-player games between random agents (those of ``anima simulate`` and
``benchmarks/engine_speed.py``) under ``valgrind --tool=callgrind``, once more with no game
after the warm-up, and divides the difference by the actions applied: start-up, imports and
the warm-up cancel out. Both runs take a minute or two (valgrind slows Python about 50-fold).

Where valgrind is not installed it says so and exits with status 0: this is a benchmark, not a
test. ``--json`` prints one JSON object (``{"skipped": ...}`` without valgrind).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import default_cards
from engine.tools.simulate import DEFAULT_TURN_CAP, play_game

ROOT = Path(__file__).resolve().parent.parent

#: Run under valgrind: a warm-up game (seed S - 1), then games S .. S + N - 1.
_GAMES = """
import sys
from engine.cards import default_cards
from engine.tools.simulate import DEFAULT_TURN_CAP, play_game
db = default_cards()
seed, games = int(sys.argv[1]), int(sys.argv[2])
play_game(seed - 1, 4, DEFAULT_TURN_CAP, cards=db)
for i in range(games):
    play_game(seed + i, 4, DEFAULT_TURN_CAP, cards=db)
"""


def instructions(seed: int, games: int) -> int:
    """Instructions (callgrind's ``Ir``) of a whole run of ``_GAMES``."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            _GAMES,
            str(seed),
            str(games),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"refs:\s*([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="4-player games counted")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    if shutil.which("valgrind") is None:
        reason = "valgrind is not installed: no instruction count (apt-get install valgrind)"
        print(json.dumps({"skipped": reason}) if args.json else f"skipped: {reason}")
        return 0
    db = default_cards()
    # Outside valgrind: the actions the games apply (and the compiled modules, so that the
    # counted runs do not compile any).
    actions = sum(
        play_game(args.seed + i, 4, DEFAULT_TURN_CAP, cards=db).actions for i in range(args.games)
    )
    start = instructions(args.seed, 0)
    total = instructions(args.seed, args.games)
    per_action = (total - start) / actions
    if args.json:
        report = {
            "instructions_per_action": round(per_action),
            "games": args.games,
            "seed": args.seed,
            "actions": actions,
            "instructions": total - start,
            "python": sys.version.split()[0],
        }
        print(json.dumps(report))
        return 0
    print(
        f"{args.games} 4-player games, seeds {args.seed}-{args.seed + args.games - 1}, "
        f"{actions:,} actions: {per_action:,.0f} instructions per applied action "
        f"(valgrind callgrind, start-up and a warm-up game subtracted)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
