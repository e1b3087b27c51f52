"""Time and size of the pictures (bot/pictures): the board, a hand, a card and a battle.

Run: ``.venv/bin/python benchmarks/render_speed.py [--games N] [--every K] [--seed S]
[--language en] [--json]``

Positions are taken from seeded 5-player games of the three sets between normal AIs (the
games of ``anima simulate --seats normal,...``): every ``K``-th action of ``N`` games. At each
position the script draws, and times in CPU time of this process (``time.process_time_ns``:
one core, and time the machine gives to other processes is not counted):

- the **board** from the public table view (``board_ms_p50``, ``board_ms_p99``; targets
  p50 ≤ 40 ms and p99 ≤ 80 ms), and apart the share of it spent making the PNG
  (``board_encode_ms_p50``);
- the **hand** of the seat whose decision it is (``hand_ms_p50``);
- every ``battle_roll`` event of the games as a **battle** (``battle_ms_p50``);

and every card of the database once as a **card** (``card_ms_p50``). The sizes are the
PNGs' (``*_kb_max``, ``*_kb_p50``; target ≤ 250 KB each). Each picture is drawn once (the
figures are over many positions); one warm-up drawing of each kind first (fonts loaded,
caches filled). The positions are kept out of the garbage collector's walks (``gc.freeze``).
Nothing is asserted: the table says which targets are met.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures import Picture, canvas, draw_battle, draw_board, draw_card, draw_hand
from engine import seat_view
from engine.agents.levels import make_agent
from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.tools.simulate import DEFAULT_TURN_CAP, play_game

SETS = ["shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods"]
SEATS = ("P1", "P2", "P3", "P4", "P5")
NAMES = {"P1": "Alice", "P2": "Борис", "P3": "Chiara", "P4": "Diego", "P5": "Eve"}
TARGET_BOARD_P50_MS = 40.0
TARGET_BOARD_P99_MS = 80.0
TARGET_KB = 250.0


def games(count: int, seed: int, every: int) -> tuple[list[Game], list[Event]]:
    """Positions every ``every`` actions of ``count`` games, and every battle roll."""
    db = default_cards()
    positions: list[Game] = []
    battles: list[Event] = []
    for i in range(count):
        done = 0

        def observe(game: Game, events: list[Event]) -> None:
            nonlocal done
            done += 1
            battles.extend(e for e in events if e.kind == "battle_roll")
            if done % every == 0 and not game.over:
                positions.append(game.clone())

        agents = {s: make_agent("normal", f"{seed + i}:{s}") for s in SEATS}
        play_game(
            seed + i,
            len(SEATS),
            DEFAULT_TURN_CAP,
            options={"sets": SETS},
            agents=agents,
            cards=db,
            observe=observe,
        )
    return positions, battles


def _timed(draw: Callable[[], Picture]) -> tuple[float, int]:
    """(CPU ms, PNG bytes) of one drawing."""
    start = time.process_time_ns()
    picture = draw()
    return (time.process_time_ns() - start) / 1e6, len(picture.png)


def _p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(count: int, seed: int, every: int, language: str) -> dict[str, Any]:
    """Draw every picture at the positions of ``count`` games (see the module)."""
    db = default_cards()
    positions, battles = games(count, seed, every)
    gc.freeze()
    encode_ms: list[float] = []
    real_encode = canvas.encode

    def encode(image: Any) -> bytes:
        start = time.process_time_ns()
        png = real_encode(image)
        encode_ms.append((time.process_time_ns() - start) / 1e6)
        return png

    first = positions[0]
    draw_board(first.table_view(), db, NAMES, language)
    draw_hand(seat_view(first, "P1", sealed=False), db, language)
    draw_card(next(iter(db.by_id)), db, language)
    canvas.encode = encode  # the Canvas finds it there at each picture
    board = [_timed(lambda g=g: draw_board(g.table_view(), db, NAMES, language)) for g in positions]
    board_encode = list(encode_ms)
    hand = []
    for g in positions:
        seat = next((p.player for p in g.pending()), "P1")
        view = seat_view(g, seat, sealed=False)
        hand.append(_timed(lambda view=view: draw_hand(view, db, language)))
    cards = [_timed(lambda c=c: draw_card(c, db, language)) for c in db.by_id]
    battle = [_timed(lambda e=e: draw_battle(e.data, NAMES, language)) for e in battles]
    canvas.encode = real_encode
    report: dict[str, Any] = {
        "positions": len(positions),
        "games": count,
        "language": language,
        "python": platform.python_version(),
        "clock": "process_time",
    }
    for name, runs in (("board", board), ("hand", hand), ("card", cards), ("battle", battle)):
        ms = [t for t, _ in runs]
        kb = [b / 1024 for _, b in runs]
        report[f"{name}_ms_p50"] = round(statistics.median(ms), 1)
        report[f"{name}_ms_p99"] = round(_p(ms, 0.99), 1)
        report[f"{name}_kb_p50"] = round(statistics.median(kb), 1)
        report[f"{name}_kb_max"] = round(max(kb), 1)
        report[f"{name}_count"] = len(runs)
    report["board_encode_ms_p50"] = round(statistics.median(board_encode), 1)
    report["targets_met"] = {
        "board_ms_p50": report["board_ms_p50"] <= TARGET_BOARD_P50_MS,
        "board_ms_p99": report["board_ms_p99"] <= TARGET_BOARD_P99_MS,
        "kb_max": max(report[f"{n}_kb_max"] for n in ("board", "hand", "card", "battle"))
        <= TARGET_KB,
    }
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="5-player games to take positions")
    parser.add_argument("--every", type=int, default=10, help="a position every K actions")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--language", default="en", help="the pictures' language")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    report = measure(args.games, args.seed, args.every, args.language)
    if args.json:
        print(json.dumps(report))
        return 0
    met = report["targets_met"]
    print(f"{report['positions']} positions of {report['games']} games ({report['language']})")
    print(f"{'picture':<8} {'ms p50':>7} {'ms p99':>7} {'KB p50':>7} {'KB max':>7} {'drawn':>6}")
    for name in ("board", "hand", "card", "battle"):
        print(
            f"{name:<8} {report[f'{name}_ms_p50']:>7} {report[f'{name}_ms_p99']:>7} "
            f"{report[f'{name}_kb_p50']:>7} {report[f'{name}_kb_max']:>7} "
            f"{report[f'{name}_count']:>6}"
        )
    print(f"board: the PNG takes {report['board_encode_ms_p50']} ms of it (p50)")
    said = {key: "met" if ok else "MISSED" for key, ok in met.items()}
    print(
        f"targets: board p50 ≤ {TARGET_BOARD_P50_MS:.0f} ms {said['board_ms_p50']}, "
        f"p99 ≤ {TARGET_BOARD_P99_MS:.0f} ms {said['board_ms_p99']}, "
        f"≤ {TARGET_KB:.0f} KB {said['kb_max']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
