"""The bot's words for a refused action, from the refusal's kind and parameters.

The engine says *why* (:class:`~engine.errors.Refusal` and ``params``); the bot says it to
the member, naming seats by their display names and cards by their names, never with the
engine's own English sentence (which stays in logs and the terminal). Each kind is the
message ``refusal.<kind>`` of the catalogs, its ``{arguments}`` the refusal's parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.rendering import Names, card_name, escape
from engine import CardDB, IllegalAction, Refusal
from words import Message, listing, msg, say

#: The arguments a refusal's message may take (its parameters, worded by :func:`_fields`).
ARGUMENTS = frozenset(
    {"action", "limit", "waiting", "card", "player", "set", "low", "high", "players"}
)


def message_id(kind: Refusal) -> str:
    """The message id of a refusal kind."""
    return f"refusal.{kind.value}"


def _fields(exc: IllegalAction, names: Names | None, db: CardDB | None) -> dict[str, Any]:
    seat: Callable[[str], str] = names.bold if names is not None else escape
    fields: dict[str, Any] = {key: escape(str(value)) for key, value in exc.params.items()}
    if "waiting" in exc.params:
        waiting = [seat(s) for s in exc.params["waiting"]]
        fields["waiting"] = listing(waiting) if waiting else msg("refusal.nobody")
    if "player" in exc.params:
        fields["player"] = seat(exc.params["player"])
    if "card" in exc.params and db is not None:
        fields["card"] = escape(card_name(db, exc.params["card"]))
    return fields


def refusal_message(
    exc: IllegalAction, names: Names | None = None, db: CardDB | None = None
) -> Message:
    """What the bot tells a member whose action ``exc`` refused, as a message of the
    catalogs: seats by display name (``names``), cards by name (``db``)."""
    return msg(message_id(exc.kind), **_fields(exc, names, db))


def refusal_text(exc: IllegalAction, names: Names | None = None, db: CardDB | None = None) -> str:
    """:func:`refusal_message` said in the current language: one sentence."""
    return say(refusal_message(exc, names, db))
