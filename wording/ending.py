"""The end of a game in words: how it ended (its ending code), the tie-break criterion that
decided it and every player's scores on the criteria compared."""

from __future__ import annotations

from typing import Any

from engine import TIEBREAKS
from wording.names import SeatNames
from words import Message, known, msg, say


def ending_message(ending: str | None) -> Message:
    """How a game ended, in a few words, from its ending code (``ending.<code>``)."""
    key = f"ending.{ending}"
    return msg(key if ending and known(key) else "ending.unknown")


def tiebreak_message(criterion: str) -> Message | None:
    """What a tie-break criterion compares (``tiebreak.<criterion>``), or None if unknown."""
    key = f"tiebreak.{criterion}"
    return msg(key) if known(key) else None


def ending_text(
    winner: str | None, ending: str | None, names: SeatNames, tiebreak: str | None = None
) -> str:
    """How the game ended, worded from its ending code (engine.endings); a game ended by its
    turn limit names the tie-break criterion that decided it."""
    how = ending_message(ending)
    if winner:
        decided = tiebreak_message(tiebreak) if tiebreak else None
        if decided is not None:
            return say(
                msg("ending.won.decided", player=names.who(winner), how=how, criterion=decided)
            )
        return say(msg("ending.won", player=names.who(winner), how=how))
    return say(msg("ending.nobody", how=how))


def tiebreak_lines(over: dict[str, Any], names: SeatNames) -> list[str]:
    """Every player's scores at the turn limit, on the criteria the tie-break compared (up
    to the one that decided), and the dice of a final roll (``over``: the ``game_over``
    event's data)."""
    decided = over.get("tiebreak")
    scores: dict[str, dict[str, int]] = over.get("scores") or {}
    if not decided or not scores:
        return []
    compared = [c for c in TIEBREAKS if c != "die_roll"]
    if decided in compared:
        compared = compared[: compared.index(decided) + 1]
    rolls: dict[str, list[int]] = over.get("rolls") or {}
    lines = []
    for seat, score in scores.items():
        parts = [
            say(msg("tiebreak.score", criterion=msg(f"tiebreak.{c}"), score=score.get(c, 0)))
            for c in compared
        ]
        if seat in rolls:
            parts.append("🎲 " + ", ".join(map(str, rolls[seat])))
        lines.append(f"{names.who(seat)}: " + " · ".join(parts))
    return lines
