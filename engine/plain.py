"""The base of the engine's stored models."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class Plain(BaseModel):
    """A state model: plain data once built. Assignment skips pydantic's assignment hook
    (validation on assignment is off anyway): the rules assign fields several times per
    action, and the hook cost a third of the engine's time. Loading still validates."""

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
