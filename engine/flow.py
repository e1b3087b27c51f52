"""The registry of frame handlers: which function runs a frame of each kind, and which takes
a player's answer to it. Each rule module registers its own kinds; ``engine.game`` imports
them all, so a Game can run any frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.game import Game
    from engine.state import Frame

Handler = Callable[["Game", "Frame"], None]
Responder = Callable[["Game", "Frame", str, "Action"], None]

#: Frame kind -> what runs it / what takes a player's answer.
HANDLERS: dict[str, Handler] = {}
RESPONDERS: dict[str, Responder] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    """Register the handler that runs frames of ``kind``."""

    def register(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn

    return register


def responds(kind: str) -> Callable[[Responder], Responder]:
    """Register the function that takes a player's answer to a frame of ``kind``."""

    def register(fn: Responder) -> Responder:
        RESPONDERS[kind] = fn
        return fn

    return register
