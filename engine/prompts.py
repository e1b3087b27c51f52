"""Prompts: the decisions some player must take now, stored in the state (never a callback)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.plain import Plain


@dataclass(slots=True, kw_only=True)
class Prompt(Plain):
    """A decision some player must take now: the legal choices and the time-out default."""

    player: str
    kind: str
    text: str
    choices: list[str]
    default: str
    #: Several prompts may be open at once (start choices, reaction windows).
    window: bool = False
