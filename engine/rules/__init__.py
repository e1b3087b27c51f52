"""The rules of the game, one module per rulebook concept.

Importing this package registers every frame handler and responder in :mod:`engine.flow`,
so that a :class:`~engine.game.Game` can run any step of the game.
"""

from engine.rules import (
    advantages,
    battle,
    crisis,
    exploration,
    interaction,
    interpreter,
    missions,
    movement,
    order,
    party,
    play,
    regions,
    reset,
    setup,
    turn,
    windows,
)

__all__ = [
    "advantages",
    "battle",
    "crisis",
    "exploration",
    "interaction",
    "interpreter",
    "missions",
    "movement",
    "order",
    "party",
    "play",
    "regions",
    "reset",
    "setup",
    "turn",
    "windows",
]
