"""The rules of the game, one module per rulebook concept.

Importing this package registers every frame handler and responder in :mod:`engine.flow`,
and every operation of the effect language in the interpreter's table (the ``ops_*``
modules), so that a :class:`~engine.game.Game` can run any step of the game.
"""

from engine.cards.effects import OPERATIONS
from engine.rules import (
    advantages,
    battle,
    crisis,
    exploration,
    interaction,
    interpreter,
    missions,
    movement,
    ops_cards,
    ops_characters,
    ops_flow,
    ops_movement,
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
    "ops_cards",
    "ops_characters",
    "ops_flow",
    "ops_movement",
    "order",
    "party",
    "play",
    "regions",
    "reset",
    "setup",
    "turn",
    "windows",
]

assert set(interpreter.OPS) == OPERATIONS, (
    f"operations without an interpreter: {OPERATIONS - set(interpreter.OPS)}"
)
