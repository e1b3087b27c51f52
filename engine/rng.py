"""The game's one random generator (X5): SplitMix64, whose whole state is one integer, so it
serializes into the game state in a few bytes and replays identically on every platform."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def next_state(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) without modulo bias (rejection sampling)."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_state(state)
        if value < limit:
            return state, value % n


def shuffle(state: int, items: MutableSequence[T]) -> int:
    """Fisher-Yates shuffle in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
