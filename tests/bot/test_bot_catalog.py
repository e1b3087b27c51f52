"""Every ending, tie-break criterion and action type has a template in the bot's catalog
(issue 22), and each renders from sample data without leaving a placeholder."""

from __future__ import annotations

import re

from bot.rendering import Names
from bot.rendering.ending import ending_text, tiebreak_lines
from bot.rendering.messages import ENGLISH
from bot.storage import SeatRow
from engine import ENDINGS, TIEBREAKS

SEATS = {"p1": SeatRow(1, "p1", 1, 101, "Alice"), "p2": SeatRow(1, "p2", 2, 102, "Bob")}
NAMES = Names(SEATS)
#: A placeholder left in a rendered string.
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def test_every_ending_and_tiebreak_has_a_template() -> None:
    missing = [f"ending.{k}" for k in ENDINGS if not ENGLISH.get(f"ending.{k}")]
    missing += [f"tiebreak.{k}" for k in TIEBREAKS if not ENGLISH.get(f"tiebreak.{k}")]
    assert missing == []


def test_every_ending_renders_from_its_code() -> None:
    for ending in ENDINGS:
        for winner in ("p1", None):
            text = ending_text(winner, ending, NAMES)
            assert ENGLISH[f"ending.{ending}"] in text
            assert not PLACEHOLDER.search(text)
    assert "the game is over" in ending_text(None, None, NAMES)


def test_every_tiebreak_renders_from_its_criterion() -> None:
    for criterion in TIEBREAKS:
        text = ending_text("p1", "turn_cap", NAMES, criterion)
        assert f"decided on {ENGLISH[f'tiebreak.{criterion}']}" in text
        assert "**Alice**" in text
    scores = {"p1": dict.fromkeys(TIEBREAKS, 3), "p2": dict.fromkeys(TIEBREAKS, 2)}
    over = {"tiebreak": "die_roll", "scores": scores, "rolls": {"p1": [5], "p2": [2]}}
    lines = tiebreak_lines(over, NAMES)
    assert len(lines) == 2
    assert "completed missions **3**" in lines[0]
    assert "🎲 5" in lines[0]
    assert not any(PLACEHOLDER.search(line) for line in lines)
