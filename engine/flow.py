"""The registry of frame handlers: which function runs a frame of each kind, and which takes
a player's answer to it. Each rule module registers its own kinds; ``engine.game`` imports
them all, so a Game can run any frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.game import Game
    from engine.state import Frame

Handler = Callable[["Game", "Frame"], None]
Responder = Callable[["Game", "Frame", str, "Action"], None]

F = TypeVar("F")

#: Frame kind -> what runs it / what takes a player's answer.
HANDLERS: dict[str, Handler] = {}
RESPONDERS: dict[str, Responder] = {}


def registrar(table: dict[str, F]) -> Callable[[str], Callable[[F], F]]:
    """A decorator factory: ``@registrar(table)(name)`` puts the decorated function in
    ``table`` under ``name`` (the frame handlers here, the interpreter's operations)."""

    def by(name: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            table[name] = fn
            return fn

        return register

    return by


#: ``@handles(kind)``: register the handler that runs frames of ``kind``.
handles = registrar(HANDLERS)
#: ``@responds(kind)``: register the function that takes a player's answer to a frame of
#: ``kind``.
responds = registrar(RESPONDERS)
