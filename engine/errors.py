"""The one exception type for refused input."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules do not allow now. The state is left exactly as it was.

    ``reason`` is for humans; ``rule`` is the digest rule ID when one applies (e.g. ``"M1"``).
    """

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule


class GameDataError(Exception):
    """A stored game that cannot be loaded (malformed JSON or an impossible state)."""
