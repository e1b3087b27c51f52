"""How a game can end: one table of ending codes (``GameState.ending``, the ``game_over``
event's ``ending``) with a neutral description, for every reader (the simulator, the bot), and
the tie-break that decides a game ended by its turn limit (``game_over`` data ``tiebreak``)."""

from __future__ import annotations

from typing import Literal

Ending = Literal["final_mission", "crisis_won", "crisis_lost", "last_player", "turn_cap"]

#: Every ending, in report order, with what happened in a few words.
ENDINGS: dict[Ending, str] = {
    "final_mission": "Final mission completed",
    "crisis_won": "Crisis! challenge won",
    "crisis_lost": "Crisis! lost by all (Omega breaks free)",
    "last_player": "last player standing after the Crisis!",
    "turn_cap": "turn limit reached (tie-break)",
}

Tiebreak = Literal[
    "completed_missions", "final_mission_progress", "characters", "strength_speed", "die_roll"
]

#: The tie-break at a turn limit, in the order it is applied (the ruling in docs/engine.md):
#: each criterion keeps the players with the highest score, until one is left. What each
#: compares, in a few words (the ``game_over`` event's ``scores`` hold the numbers).
TIEBREAKS: dict[Tiebreak, str] = {
    "completed_missions": "completed missions",
    "final_mission_progress": "turns held on the Final mission",
    "characters": "characters in the party",
    "strength_speed": "party Strength + Speed",
    "die_roll": "a die roll",
}
