"""Events: what happened, each saying who may see it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.plain import Plain


@dataclass(slots=True)  # not kw_only: Game.emit builds it positionally (see there)
class Event(Plain):
    """Something that happened. ``to`` is None for everyone, else the players who may see it."""

    kind: str
    text: str
    to: list[str] | None = None
    data: dict[str, Any] = field(default_factory=dict)
