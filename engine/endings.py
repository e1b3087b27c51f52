"""How a game can end: one table of ending codes (``GameState.ending``, the ``game_over``
event's ``ending``) with a neutral description, for every reader (the simulator, the bot)."""

from __future__ import annotations

from typing import Literal

Ending = Literal["final_mission", "crisis_won", "crisis_lost", "last_player", "turn_cap"]

#: Every ending, in report order, with what happened in a few words.
ENDINGS: dict[Ending, str] = {
    "final_mission": "Final mission completed",
    "crisis_won": "Crisis! challenge won",
    "crisis_lost": "Crisis! lost by all (Omega breaks free)",
    "last_player": "last player standing after the Crisis!",
    "turn_cap": "turn limit reached",
}
