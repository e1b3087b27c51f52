"""The bot's words for a refused action, from the refusal's kind and parameters.

The engine says *why* (:class:`~engine.errors.Refusal` and ``params``); the bot says it to
the member, naming seats by their display names and cards by their names, never with the
engine's own English sentence (which stays in logs and the terminal).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rendering import Names, card_name, escape
from engine import CardDB, IllegalAction, Refusal

#: One sentence per kind; ``{...}`` are filled by :func:`_fields`.
TEMPLATES: dict[Refusal, str] = {
    Refusal.UNKNOWN_ACTION: "I do not know the action “{action}”.",
    Refusal.MALFORMED: "That action is not well formed: {action}.",
    Refusal.TOO_LONG: "An action is at most {limit} characters.",
    Refusal.NOT_A_PLAYER: "You are not seated in this game.",
    Refusal.GAME_OVER: "This game is over.",
    Refusal.NOT_YOUR_DECISION: "It is not your decision: the game waits for {waiting}.",
    Refusal.NO_LONGER_OPEN: "That choice is no longer open.",
    Refusal.UNKNOWN_CARD: "There is no card “{card}” in this game.",
    Refusal.NOT_LEGAL_NOW: "That is not one of your choices now: your panel shows them.",
    Refusal.NO_OPEN_DECISION: "{player} has no open decision.",
    Refusal.BAD_PLAYER_NAMES: "Every seat needs a distinct name.",
    Refusal.NO_SET: "Choose at least one set.",
    Refusal.UNKNOWN_SET: "There is no set “{set}”.",
    Refusal.REPEATED_SET: "Each set may be chosen only once.",
    Refusal.EMPTY_SET: "The set “{set}” has no cards yet.",
    Refusal.PLAYER_COUNT: "These sets are played by {low} to {high} players, not {players}.",
    Refusal.NOT_THE_DEFAULT: "The recorded time-out does not match the decision's default.",
}


def _fields(exc: IllegalAction, names: Names | None, db: CardDB | None) -> dict[str, Any]:
    seat: Callable[[str], str] = names.bold if names is not None else escape
    fields: dict[str, Any] = {key: escape(str(value)) for key, value in exc.params.items()}
    if "waiting" in exc.params:
        fields["waiting"] = ", ".join(seat(s) for s in exc.params["waiting"]) or "nobody"
    if "player" in exc.params:
        fields["player"] = seat(exc.params["player"])
    if "card" in exc.params and db is not None:
        fields["card"] = escape(card_name(db, exc.params["card"]))
    return fields


def refusal_text(exc: IllegalAction, names: Names | None = None, db: CardDB | None = None) -> str:
    """What the bot tells a member whose action ``exc`` refused: one sentence, with seats
    by display name (``names``) and cards by name (``db``)."""
    return TEMPLATES[exc.kind].format(**_fields(exc, names, db))
