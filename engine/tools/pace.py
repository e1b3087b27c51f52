"""The pace of simulated games (issue 20): when the game's middle begins and ends.

Per game, read from the events as they happen (:func:`track_pace`): the turn of the first
completed Basic mission of the game (anyone's), the turn the Final mission was revealed, the
value the Crisis! countdown was set to (F5), and how many Basic missions the winner had
completed. Per run (:func:`pace_summary`): the medians of those, the share of winners with
both Basic missions done (the rulebook: "players often prefer to complete both of their Basic
missions before attempting the Final one"), and the quartiles of the game length.

Kept apart from :mod:`engine.tools.simulate` so that its other figures can grow beside it.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.events import Event
from engine.game import Game


@dataclass
class GamePace:
    """The pace of one game (None: it did not happen in this game)."""

    #: The turn the first Basic mission of the game was completed, by anyone.
    first_basic_mission_turn: int | None = None
    #: The turn the Final mission was revealed (F3, V1).
    final_revealed_turn: int | None = None
    #: What the Crisis! countdown was set to at the reveal (F5; None without the countdown).
    crisis_countdown: int | None = None
    #: Basic missions the winner had completed (None: nobody won).
    winner_basic_missions: int | None = None


def track_pace(game: Game, events: Sequence[Event], pace: GamePace) -> None:
    """Note in ``pace`` what ``events`` (just emitted by ``game``) tell of the game's pace."""
    for event in events:
        if event.kind == "mission_completed" and pace.first_basic_mission_turn is None:
            pace.first_basic_mission_turn = game.s.turn
        elif event.kind == "final_revealed" and pace.final_revealed_turn is None:
            pace.final_revealed_turn = game.s.turn
            # Read once the reveal is applied: the countdown as the rules set it (F5).
            pace.crisis_countdown = game.s.crisis
        elif event.kind == "game_over" and game.s.winner is not None:
            pace.winner_basic_missions = len(game.s.players[game.s.winner].completed)


def quartiles(values: Sequence[int]) -> tuple[float, float]:
    """The lower and upper quartiles of ``values`` (inclusive method; 0, 0 with none)."""
    if not values:
        return 0.0, 0.0
    if len(values) == 1:
        return float(values[0]), float(values[0])
    low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    return low, high


def _median(values: Sequence[int]) -> float | None:
    return statistics.median(values) if values else None


def pace_summary(paces: Sequence[GamePace]) -> dict[str, Any]:
    """The pace figures of a run (``pace`` in ``anima simulate --json``): medians over the
    games in which the thing happened, with how many games that was."""
    firsts = [p.first_basic_mission_turn for p in paces if p.first_basic_mission_turn is not None]
    reveals = [p.final_revealed_turn for p in paces if p.final_revealed_turn is not None]
    countdowns = [p.crisis_countdown for p in paces if p.crisis_countdown is not None]
    winners = [p.winner_basic_missions for p in paces if p.winner_basic_missions is not None]
    two = sum(n >= 2 for n in winners)
    return {
        "first_basic_mission_turn_median": _median(firsts),
        "games_with_a_basic_mission": len(firsts),
        "final_revealed_turn_median": _median(reveals),
        "games_with_final_revealed": len(reveals),
        "crisis_countdown_median": _median(countdowns),
        "winners_with_two_basic_missions": round(two / len(winners), 4) if winners else 0.0,
        "winners": len(winners),
    }


def format_pace(turns: dict[str, Any], pace: dict[str, Any]) -> list[str]:
    """The text summary's lines for the pace figures."""

    def shown(value: float | None) -> str:
        return "-" if value is None else f"{value:g}"

    return [
        f"turns quartiles: p25 {turns['p25']:g}, p75 {turns['p75']:g}",
        "pace: first Basic mission completed on turn "
        f"{shown(pace['first_basic_mission_turn_median'])} (median of "
        f"{pace['games_with_a_basic_mission']} games), Final mission revealed on turn "
        f"{shown(pace['final_revealed_turn_median'])} (median of "
        f"{pace['games_with_final_revealed']}), Crisis! countdown set to "
        f"{shown(pace['crisis_countdown_median'])} (median)",
        f"winners with both Basic missions: {100 * pace['winners_with_two_basic_missions']:.1f}% "
        f"of {pace['winners']}",
    ]
