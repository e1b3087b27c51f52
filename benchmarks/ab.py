"""Any benchmark of this folder, on another commit and on this checkout, alternated in one run.

Run: ``.venv/bin/python benchmarks/ab.py BASE [--rounds 4] [--keys K,K] [--base-benchmarks]
[--nice 10] [--json] -- SCRIPT [ARGS...]``, e.g.
``benchmarks/ab.py HEAD~1 --rounds 4 -- bot_speed.py --games 100 --no-memory``.

A shared machine's speed drifts by a fifth or more from one minute to the next, so a figure
taken now says little against one taken an hour ago. This checks BASE out into a temporary
git worktree and runs ``SCRIPT ARGS --json`` ``--rounds`` times on each side, alternating
(base then new in odd rounds, new then base in even ones, so that a steady drift falls on
both), each run with this interpreter and ``PYTHONPATH`` set to its own tree. By default the
base runs this checkout's copy of the ``benchmarks/`` folder, so that both sides are measured
by the same code; ``--base-benchmarks`` keeps the base's own (when this checkout's driver
needs something the base does not have).

Every number of the JSON objects (nested keys joined with dots) is summarised: the median of
each side, the ratio new/base of the medians, and each side's range. ``--keys`` limits the
table to some keys (exact names, or a prefix ending in a dot). The runs are niced (``--nice``,
10 by default). Nothing is asserted: read the ratio against the ranges.
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


def flatten(report: dict[str, Any], prefix: str = "") -> dict[str, float]:
    """The numbers of a JSON object, nested keys joined with dots (booleans left out)."""
    out: dict[str, float] = {}
    for key, value in report.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, f"{name}."))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out[name] = float(value)
    return out


def wanted(key: str, keys: list[str]) -> bool:
    """Whether ``key`` is one of ``keys`` (a name, or a prefix ending in a dot)."""
    return not keys or any(key == k or (k.endswith(".") and key.startswith(k)) for k in keys)


def run_once(tree: Path, script: str, args: list[str]) -> dict[str, float]:
    """One run of ``benchmarks/SCRIPT ARGS --json`` in ``tree``: its numbers."""
    command = [sys.executable, str(tree / "benchmarks" / script), *args, "--json"]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {script} failed:\n{done.stderr[-3000:]}")
    text = done.stdout.strip()
    if not text:
        raise SystemExit(f"{tree}: {script} printed nothing")
    try:
        report = json.loads(text)
    except json.JSONDecodeError:  # lines before the object: the object is the last line
        report = json.loads(text.splitlines()[-1])
    return flatten(report)


def summary(runs: dict[str, list[dict[str, float]]], keys: list[str]) -> dict[str, Any]:
    """Per key: each side's median and range, and the ratio new/base of the medians."""
    out: dict[str, Any] = {}
    names = [k for k in runs["new"][0] if k in runs["base"][0] and wanted(k, keys)]
    for key in names:
        row: dict[str, Any] = {}
        for side in ("base", "new"):
            values = [r[key] for r in runs[side] if key in r]
            row[side] = statistics.median(values)
            row[f"{side}_range"] = [min(values), max(values)]
        row["ratio"] = round(row["new"] / row["base"], 3) if row["base"] else None
        out[key] = row
    return out


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"


def table(rows: dict[str, Any]) -> list[str]:
    """The summary as text: key, medians, ratio, ranges."""
    width = max((len(k) for k in rows), default=10) + 2
    lines = [f"{'key':<{width}}{'base':>12}{'new':>12}{'new/base':>10}   ranges (base; new)"]
    for key, row in rows.items():
        ratio = "-" if row["ratio"] is None else f"{row['ratio']:.3f}"
        ranges = "; ".join(
            f"{_number(row[f'{s}_range'][0])}-{_number(row[f'{s}_range'][1])}"
            for s in ("base", "new")
        )
        lines.append(
            f"{key:<{width}}{_number(row['base']):>12}{_number(row['new']):>12}{ratio:>10}"
            f"   {ranges}"
        )
    return lines


def main() -> int:
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    own, benchmark = argv[:split], argv[split + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare with (e.g. HEAD~1, main)")
    parser.add_argument("--rounds", type=int, default=4, help="runs on each side (default 4)")
    parser.add_argument("--keys", default="", help="comma-separated keys or dotted prefixes")
    parser.add_argument(
        "--base-benchmarks", action="store_true", help="run the base's own benchmarks/ folder"
    )
    parser.add_argument("--nice", type=int, default=10, help="niceness of the runs (default 10)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(own)
    if not benchmark:
        parser.error("name the benchmark after --, e.g. -- bot_speed.py --games 100")
    script, *script_args = benchmark
    if not (ROOT / "benchmarks" / script).is_file():
        raise SystemExit(f"no benchmark {script!r} in {ROOT / 'benchmarks'}")
    keys = [k for k in args.keys.split(",") if k]
    os.nice(args.nice)

    base = Path(tempfile.mkdtemp(prefix="anima-ab-"))
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(base), args.base],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    runs: dict[str, list[dict[str, float]]] = {"base": [], "new": []}
    try:
        if not args.base_benchmarks:
            shutil.rmtree(base / "benchmarks", ignore_errors=True)
            shutil.copytree(
                ROOT / "benchmarks",
                base / "benchmarks",
                ignore=shutil.ignore_patterns("__pycache__"),
            )
        sides = {"base": base, "new": ROOT}
        for round_ in range(1, args.rounds + 1):
            order = ["base", "new"] if round_ % 2 else ["new", "base"]
            for side in order:
                figures = run_once(sides[side], script, script_args)
                runs[side].append(figures)
                if not args.json:
                    shown = ", ".join(
                        f"{k} {_number(v)}" for k, v in figures.items() if wanted(k, keys)
                    )
                    print(f"round {round_} {side:<4} {shown[:300]}", flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
    rows = summary(runs, keys)
    if args.json:
        print(json.dumps({"base": args.base, "script": script, "rounds": args.rounds, **rows}))
        return 0
    print()
    print(f"{script} {' '.join(script_args)}: medians of {args.rounds} runs a side, alternated")
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
