"""The options of a game, chosen before it starts (O1-O3, V1-V4) and checked at the edge."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    """Game options chosen at the start (O1-O3, V1-V4) and limits of the table."""

    model_config = ConfigDict(extra="forbid")

    #: Card sets in play: any non-empty combination of ``shadow_of_omega``,
    #: ``beyond_good_and_evil`` and ``twilight_of_the_gods`` (G1; checked by ``Game.new``).
    sets: list[str] = Field(default_factory=lambda: ["shadow_of_omega"])
    #: S5, when Twilight of the Gods is combined with another set: play only its Basic and
    #: Final missions (``twilight``, the default), or the other sets' missions, with Twilight
    #: of the Gods' Missions, Regions and Events removed (``older``). No effect otherwise.
    combined_missions: Literal["twilight", "older"] = "twilight"
    #: O1/V4 Tree of Regions: off, or the SoO/TotG reading, or the BGE reading.
    tree_of_regions: Literal["off", "soo", "bge"] = "off"
    #: O2: both Basic missions must be completed before the Final mission.
    both_missions: bool = False
    #: O3: open rolls in battle (a 6 is rolled again and added).
    open_rolls: bool = False
    #: V1: reveal the Final mission at the start of a turn by choice (default) or at once (SoO).
    final_reveal: Literal["choose", "immediate"] = "choose"
    #: V2: a tie between two parties is rolled again (default) or stands (BGE).
    party_tie: Literal["reroll", "stands"] = "reroll"
    #: V3: the Crisis countdown (revised rules) is on.
    crisis: bool = True
    #: A short game (`/anima start turns:N`) or a simulation's safety net: the game ends after
    #: this many turns (0 = never) and a tie-break names the winner (rules/crisis.py).
    turn_cap: int = Field(default=0, ge=0)
