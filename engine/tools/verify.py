"""Checking a game's dice: ``anima verify FILE``.

A replay record of a game of the keyed stream (engine.rng, docs/fair_dice.md) carries the
seeds, revealed after the end, and every die, shuffle and random pick of every step. The check:
the server seed must hash to the commitment the table was shown at the start (SHA-256), and
replaying the actions from the seeds must draw exactly what the record says, step by step. Any
difference is one line naming the step and the draw; the command then exits 1.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import rng
from engine.game import Draw
from engine.tools.replay import (
    DieDraw,
    GameRecord,
    PickDraw,
    RecordedDraw,
    ReplayError,
    ShuffleDraw,
    load_record,
    recorded_draw,
    replay_steps,
)

#: Problems listed for one record at most (a wrong seed would list every draw).
MAX_PROBLEMS = 20


@dataclass(slots=True)
class Verdict:
    """What :func:`verify` found: the problems (none: verified) and the draws checked."""

    problems: list[str] = field(default_factory=list)
    #: Draws recomputed, by kind: die, shuffle, pick.
    counts: Counter[str] = field(default_factory=Counter)
    steps: int = 0
    commitment: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


def _what(draw: RecordedDraw) -> str:
    if isinstance(draw, DieDraw):
        return "die"
    return "pick" if isinstance(draw, PickDraw) else "shuffle"


def _differences(where: str, recorded: Sequence[RecordedDraw], drawn: list[Draw]) -> list[str]:
    """One line per draw of the step that the seeds do not give."""
    computed = [recorded_draw(d) for d in drawn]
    lines: list[str] = []
    numbers: Counter[str] = Counter()
    for said, made in zip(recorded, computed, strict=False):
        kind = _what(made)
        numbers[kind] += 1
        label = f"{where}: {kind} {numbers[kind]}"
        if said == made:
            continue
        if isinstance(said, DieDraw) and isinstance(made, DieDraw):
            lines.append(f"{label} is {said.die} in the record, the seeds roll {made.die}")
        elif isinstance(said, ShuffleDraw) and isinstance(made, ShuffleDraw):
            lines.append(label + _shuffle_difference(said.shuffle, made.shuffle))
        elif isinstance(said, PickDraw) and isinstance(made, PickDraw):
            lines.append(
                f"{label} is {said.pick} of {said.of} in the record, "
                f"the seeds pick {made.pick} of {made.of}"
            )
        else:
            lines.append(f"{label}: the record has a {_what(said)} there")
    if len(recorded) != len(computed):
        lines.append(
            f"{where}: the record has {len(recorded)} draw(s), the seeds make {len(computed)}"
        )
    return lines


def _shuffle_difference(said: Sequence[str], made: Sequence[str]) -> str:
    for place, (a, b) in enumerate(zip(said, made, strict=False), start=1):
        if a != b:
            return f" differs at card {place}: {a!r} in the record, the seeds give {b!r}"
    return f" has {len(said)} cards in the record, the seeds shuffle {len(made)}"


def verify(record: GameRecord) -> Verdict:
    """Check ``record``'s commitment and recompute every draw from its seeds and actions."""
    verdict = Verdict()
    dice = record.dice
    if dice is None:
        verdict.problems.append(
            "the record has no dice seeds: its game drew from the old generator, "
            "with no commitment to check"
        )
        return verdict
    verdict.commitment = dice.commitment
    try:
        seed_hash = rng.commitment(rng.check_server_seed(dice.server_seed))
    except ValueError as exc:
        verdict.problems.append(str(exc))
        return verdict
    if seed_hash != dice.commitment.lower():
        verdict.problems.append(
            f"the server seed does not match the commitment: its SHA-256 is {seed_hash}, "
            f"the commitment {dice.commitment}"
        )
    try:
        for _game, step in replay_steps(record):
            if step.number == 0:
                where, recorded = "setup", record.setup_draws
            else:
                action = record.actions[step.number - 1]
                where = f"step {step.number} ({step.player}: {step.action!r})"
                recorded = action.draws
            verdict.problems += _differences(where, recorded, step.draws)
            verdict.counts.update(d[0] for d in step.draws)
            verdict.steps = step.number
    except ReplayError as exc:
        verdict.problems.append(str(exc))
    return verdict


def _cmd_verify(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.file)
    except ReplayError as exc:
        print(f"anima verify: {args.file}: {exc}", file=sys.stderr)
        return 1
    verdict = verify(record)
    for line in verdict.problems[:MAX_PROBLEMS]:
        print(f"anima verify: {args.file}: {line}", file=sys.stderr)
    more = len(verdict.problems) - MAX_PROBLEMS
    if more > 0:
        print(f"anima verify: {args.file}: ... and {more} more problem(s)", file=sys.stderr)
    if not verdict.ok:
        return 1
    n = verdict.counts
    print(
        f"{args.file}: verified. The server seed matches the commitment {verdict.commitment}; "
        f"the seeds give every draw of the record: {n['die']} dice, {n['shuffle']} shuffles "
        f"and {n['pick']} random picks over the setup and {verdict.steps} action(s)."
    )
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``anima verify`` to the ``anima`` subcommands."""
    cmd = sub.add_parser(
        "verify",
        help="check a game record's dice and shuffles against its seeds and commitment",
        description="Check that the record's server seed matches its commitment (SHA-256) and "
        "that its seeds and actions give every die, shuffle and random pick the record shows "
        "(docs/fair_dice.md). Each problem is one line on standard error (exit 1).",
    )
    cmd.add_argument("file", help="the game record (JSON; - reads standard input)")
    cmd.set_defaults(func=_cmd_verify)
