"""The AI levels a seat can be given, by name: one table for the simulator, the terminal game
and the bot.

Each level is a factory ``(seed, budget_ms) -> Agent``: ``seed`` makes the agent's own choices
replayable (agents never draw from the game's generator, X5) and ``budget_ms`` is the thinking
time per decision of a searching agent (levels that do not search ignore it).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.agents import Agent, RandomAgent
from engine.agents.hard import DEFAULT_BUDGET_MS, HardAgent
from engine.agents.normal import NormalAgent

#: A level's factory: ``(seed, budget_ms)`` to a fresh agent.
AgentFactory = Callable[[str, float | None], Agent]


def _random(seed: str, budget_ms: float | None) -> Agent:
    return RandomAgent(seed)


def _normal(seed: str, budget_ms: float | None) -> Agent:
    return NormalAgent(seed)


def _hard(seed: str, budget_ms: float | None) -> Agent:
    return HardAgent(seed, budget_ms=budget_ms if budget_ms is not None else DEFAULT_BUDGET_MS)


#: Every level by name, weakest first.
LEVELS: dict[str, AgentFactory] = {
    "random": _random,
    "normal": _normal,
    "hard": _hard,
}

#: The level of an AI seat when nobody chose one (``anima play``, the bot's AI seats and its
#: time-out takeover).
DEFAULT_LEVEL = "normal"


def make_agent(level: str, seed: str, budget_ms: float | None = None) -> Agent:
    """A fresh agent of ``level`` (a key of :data:`LEVELS`); a clear ``ValueError`` names the
    levels when ``level`` is not one."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r}: choose one of {', '.join(LEVELS)}") from None
    return factory(seed, budget_ms)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "AgentFactory", "make_agent"]
