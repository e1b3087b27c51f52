"""Events: what happened, each saying who may see it."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from engine.plain import Plain as _Plain


class Event(_Plain):
    """Something that happened. ``to`` is None for everyone, else the players who may see it."""

    kind: str
    text: str
    to: list[str] | None = None
    data: dict[str, Any] = Field(default_factory=dict)
