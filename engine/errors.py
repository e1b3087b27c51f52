"""Refused input: one exception type, with a kind a front end words for its reader."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Refusal(StrEnum):
    """Why an action (or a new game) was refused. A front end words each kind from the kind
    and :attr:`IllegalAction.params` (boardgame.io's action error types, python-chess's
    ``IllegalMoveError``); the engine's English ``reason`` is for logs and the terminal.
    Each kind's comment names its ``params``.
    """

    #: Not an action of the vocabulary (``action``: what was sent).
    UNKNOWN_ACTION = "unknown_action"
    #: An action of the vocabulary, wrongly formed (``action``; ``needs_argument``: True when
    #: an argument is missing, False when one was given to an action that takes none).
    MALFORMED = "malformed"
    #: Longer than an action may be (``limit``: characters).
    TOO_LONG = "too_long"
    #: The seat is not in this game (``player``).
    NOT_A_PLAYER = "not_a_player"
    #: The game has ended.
    GAME_OVER = "game_over"
    #: Somebody else decides now (``waiting``: the seats whose decision is open).
    NOT_YOUR_DECISION = "not_your_decision"
    #: The decision the action answered was closed since it was offered. The engine cannot
    #: tell an old choice from a wrong one: a front end that versions its buttons raises it.
    NO_LONGER_OPEN = "no_longer_open"
    #: The action names a card this game does not have (``card``).
    UNKNOWN_CARD = "unknown_card"
    #: Well formed, but not among the choices of the seat's open decision (``action``;
    #: ``decision``: the prompt's kind).
    NOT_LEGAL_NOW = "not_legal_now"
    #: A time-out for a seat that has no open decision (``player``).
    NO_OPEN_DECISION = "no_open_decision"
    #: Player names that are empty, repeated or hold a space.
    BAD_PLAYER_NAMES = "bad_player_names"
    #: No set chosen (G1).
    NO_SET = "no_set"
    #: A set the game does not know (``set``; ``sets``: the known ones) (G1).
    UNKNOWN_SET = "unknown_set"
    #: A set chosen twice (G1).
    REPEATED_SET = "repeated_set"
    #: A set with no cards in the card database (``set``).
    EMPTY_SET = "empty_set"
    #: A player count the sets do not allow (``players``, ``low``, ``high``) (G1).
    PLAYER_COUNT = "player_count"
    #: A replayed time-out whose recorded action is not the decision's default (``default``).
    NOT_THE_DEFAULT = "not_the_default"
    #: ``undo`` when the seat may not take his last decision back (``why``: an
    #: :class:`engine.undo.UndoRefusal`, issue 25).
    UNDO_REFUSED = "undo_refused"


class IllegalAction(Exception):
    """An action the rules do not allow now. The state is left exactly as it was.

    ``kind`` says why (:class:`Refusal`) and ``params`` its details, for a front end to word;
    ``reason`` is a plain English sentence for logs, tests and the terminal; ``rule`` is the
    digest rule ID when one applies (e.g. ``"M1"``).
    """

    def __init__(self, kind: Refusal, reason: str, rule: str | None = None, **params: Any) -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.kind = kind
        self.reason = reason
        self.rule = rule
        self.params: dict[str, Any] = params


class GameDataError(Exception):
    """A stored game that cannot be loaded (malformed JSON or an impossible state)."""
