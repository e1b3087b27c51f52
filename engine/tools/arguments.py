"""The command-line arguments ``anima simulate`` and ``anima play`` share: the sets, the turn
cap, the seats' AI levels, and a whole number with a floor."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from engine.agents.levels import LEVELS
from engine.rules.sets import SETS, SHADOW_OF_OMEGA
from engine.tools.simulate import DEFAULT_TURN_CAP


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}")
        return value

    return parse


def parse_sets(text: str) -> list[str]:
    """``--sets``: comma-separated set ids (``shadow_of_omega,twilight_of_the_gods``)."""
    sets = [part.strip() for part in text.split(",") if part.strip()]
    if not sets:
        raise argparse.ArgumentTypeError("name at least one set")
    return sets


def add_table_arguments(cmd: argparse.ArgumentParser, whose: str) -> None:
    """``--sets`` and ``--turn-cap``, as ``anima play`` and ``anima simulate`` both take them
    (``whose``: "the game" or "a game")."""
    cmd.add_argument(
        "--sets",
        type=parse_sets,
        default=[SHADOW_OF_OMEGA],
        help=f"comma-separated sets in play (default {SHADOW_OF_OMEGA}; any of {', '.join(SETS)})",
    )
    cmd.add_argument(
        "--turn-cap",
        type=at_least(0),
        default=DEFAULT_TURN_CAP,
        help=f"end {whose} after this many turns (default {DEFAULT_TURN_CAP}; 0 = never)",
    )


def parse_seats(text: str) -> list[str]:
    """``--seats``: an AI level per seat, comma-separated (``hard,normal,random,random``)."""
    levels = [part.strip() for part in text.split(",")]
    if not all(levels):
        raise argparse.ArgumentTypeError("name a level for every seat, e.g. normal,random,random")
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown AI level {unknown[0]!r}: choose among {', '.join(LEVELS)}"
        )
    return levels
