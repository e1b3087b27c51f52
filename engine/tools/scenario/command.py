"""``anima scenario FILE``: the command."""

from __future__ import annotations

import argparse
import json
import sys

from engine.tools.scenario.format import ScenarioError
from engine.tools.scenario.show import as_json, render
from engine.tools.scenario.steps import run_file


def _cmd_scenario(args: argparse.Namespace) -> int:
    try:
        outcome = run_file(args.file)
    except ScenarioError as exc:
        print(f"anima scenario: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(as_json(outcome, args.file), ensure_ascii=False, indent=2))
    else:
        print(render(outcome.game))
        print()
    if outcome.failure is not None:
        print(f"{args.file}: {outcome.failure}", file=sys.stderr)
        return 1
    if not args.json:
        print(f"{args.file}: all {len(outcome.scenario.steps)} steps hold.")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scenario`` subcommand to the ``anima`` parser."""
    parser = sub.add_parser(
        "scenario",
        help="run a scenario file (docs/scenarios.md)",
        description="Run a scenario file and print the final state; exit 0 when every step "
        "holds, 1 at the first failing step, 2 for a malformed file.",
    )
    parser.add_argument("file", help="the scenario file (JSON)")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.set_defaults(func=_cmd_scenario)
