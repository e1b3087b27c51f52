"""How steady this machine runs a fixed piece of Python: the spread it puts on any timing.

Run: ``.venv/bin/python benchmarks/machine_noise.py [--seconds 20] [--ms 2.7] [--json]``

The same deterministic work (a JSON round trip of a game-sized document and a dict filled,
no I/O, no garbage to collect, nothing that differs between repetitions) is timed over and
over, back to back, for ``--seconds``; its size is set at the start so that one repetition
takes about ``--ms`` milliseconds (by default the bot's median interaction in
``benchmarks/bot_speed.py``). Every repetition runs the very same instructions, so the
spread of the times (p99 / p50) is the machine's, not the program's: on a quiet dedicated
machine it is close to 1; on the shared 2-core machine this project is measured on it was
2.47 and 2.81 in two runs of 20 s (p50 2.71 / p99 6.70 ms, then 1.65 / 4.62 ms), with the
process on the CPU the whole time (CPU time / wall time 1.0).

Why it matters: ``bot_speed.py``'s p99 is a tail over ten thousand interactions, and on such a
machine the tail of *any* work is about ``ratio`` times its median. Read the bot's figures
against this one, measured in the same hour.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

#: A document the size of a game's stored state (~20 KB of JSON).
DOCUMENT: dict[str, Any] = {
    "seats": [
        {"seat": f"P{i}", "hand": [f"card_{j}" for j in range(6)], "strength": i, "ok": True}
        for i in range(5)
    ],
    "regions": [{"card": f"region_{i}", "level": i % 3 + 1, "traps": []} for i in range(9)],
    "log": [{"kind": "moved", "text": "x" * 60, "to": None, "n": i} for i in range(120)],
}


def work(rounds: int) -> int:
    """The fixed piece of work: ``rounds`` JSON round trips and dicts filled."""
    total = 0
    for _ in range(rounds):
        text = json.dumps(DOCUMENT)
        total += len(json.loads(text)["log"])
        filled = {i: str(i) for i in range(300)}
        total += len(filled)
    return total


def rounds_for(ms: float) -> int:
    """How many rounds take about ``ms`` milliseconds here (the best of a few tries)."""
    best = min(_timed(10) for _ in range(20)) / 10
    return max(1, round(ms / best))


def _timed(rounds: int) -> float:
    start = time.perf_counter()
    work(rounds)
    return 1000 * (time.perf_counter() - start)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of sorted ``values`` (nearest rank)."""
    return values[min(len(values) - 1, int(q * len(values)))]


def measure(seconds: float, ms: float) -> dict[str, float]:
    """Time the fixed work back to back for ``seconds``; its percentiles and spread."""
    rounds = rounds_for(ms)
    times: list[float] = []
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        times.append(_timed(rounds))
    cpu, wall = time.process_time() - cpu_start, time.perf_counter() - wall_start
    times.sort()
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    return {
        "repetitions": len(times),
        "ms_p50": round(p50, 3),
        "ms_p90": round(percentile(times, 0.9), 3),
        "ms_p99": round(p99, 3),
        "ms_max": round(times[-1], 3),
        "p99_over_p50": round(p99 / p50, 2),
        "share_over_2x_p50": round(sum(t > 2 * p50 for t in times) / len(times), 4),
        "share_over_3x_p50": round(sum(t > 3 * p50 for t in times) / len(times), 4),
        "cpu_over_wall": round(cpu / wall, 3),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to measure")
    parser.add_argument("--ms", type=float, default=2.7, help="one repetition's target time")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures = measure(args.seconds, args.ms)
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"Python {sys.version.split()[0]}: the same work timed {figures['repetitions']:,} times "
        f"over {args.seconds:g} s"
    )
    print(
        f"p50 {figures['ms_p50']} ms, p90 {figures['ms_p90']} ms, p99 {figures['ms_p99']} ms, "
        f"max {figures['ms_max']} ms"
    )
    print(
        f"p99 / p50 = {figures['p99_over_p50']} (1 on a steady machine); over 2x the median: "
        f"{100 * figures['share_over_2x_p50']:.2f} %, over 3x: "
        f"{100 * figures['share_over_3x_p50']:.2f} %; CPU time / wall time "
        f"{figures['cpu_over_wall']}"
    )


if __name__ == "__main__":
    main()
