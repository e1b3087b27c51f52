"""Players that are programs: the :class:`Agent` protocol and a uniformly random agent.

An agent sees what its seat may see and nothing more: it answers one open prompt from the
seat's :class:`~engine.views.SeatView` (never the :class:`~engine.game.Game`, which holds
every hand) with one of the prompt's choices (an action string). Agents never touch the
game's own generator (X5): a random agent has its own, so the game's dice and shuffles do not
depend on how many decisions the agents took. An agent that needs to look ahead samples the
hidden cards with :func:`engine.determinize.determinize`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from engine.prompts import Prompt
    from engine.views import PromptView, SeatView


def choice_actions(prompt: Prompt | PromptView) -> list[str]:
    """The action strings of ``prompt``'s choices, in order."""
    return [c if isinstance(c, str) else c.action for c in prompt.choices]


@runtime_checkable
class Agent(Protocol):
    """Something that takes a seat's decisions (a random player now, a smarter AI later)."""

    def choose(self, view: SeatView, prompt: Prompt | PromptView) -> str:
        """One of ``prompt``'s choices: the action to apply for the seat of ``view`` (a full
        view, with its sealed table: ``seat_view(g, seat)`` or ``lazy_seat_view``)."""
        ...


class RandomAgent:
    """Picks uniformly among the legal choices, with its own seeded generator; it never
    reads the view."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)
        self.random = self.rng.random

    def choose(self, view: SeatView, prompt: Prompt | PromptView) -> str:
        choices = prompt.choices
        # random() * n: uniform up to float precision, and several times cheaper than
        # randrange in the simulator's hot loop.
        choice = choices[int(self.random() * len(choices))]
        return choice if isinstance(choice, str) else choice.action


__all__ = ["Agent", "RandomAgent", "choice_actions"]
