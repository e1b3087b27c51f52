"""Players that are programs: the :class:`Agent` protocol and a uniformly random agent.

An agent answers one open :class:`~engine.state.Prompt` with one of its ``choices`` (an action
string). Agents never touch the game's own generator (X5): a random agent has its own, so the
game's dice and shuffles do not depend on how many decisions the agents took.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from engine.game import Game
    from engine.prompts import Prompt


@runtime_checkable
class Agent(Protocol):
    """Something that takes a seat's decisions (a random player now, a smarter AI later)."""

    def choose(self, game: Game, prompt: Prompt) -> str:
        """One of ``prompt.choices``: the action to apply for ``prompt.player``."""
        ...


class RandomAgent:
    """Picks uniformly among the legal choices, with its own seeded generator."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)
        self.random = self.rng.random

    def choose(self, game: Game, prompt: Prompt) -> str:
        choices = prompt.choices
        # random() * n: uniform up to float precision, and several times cheaper than
        # randrange in the simulator's hot loop.
        return choices[int(self.random() * len(choices))]


__all__ = ["Agent", "RandomAgent"]
