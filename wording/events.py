"""Events in words: every event kind's builder (:data:`EVENT_MESSAGES`) and one event's line
from its kind and payload (:func:`event_words`)."""

from __future__ import annotations

from typing import Any

from engine import CardDB
from wording.event_context import Builders, Context
from wording.event_messages import COURSE
from wording.event_outcomes import OUTCOMES
from wording.names import SeatNames
from words import say

#: Every event kind (the engine's, ``engine.EVENT_PAYLOADS``, and the Discord bot's own,
#: :data:`wording.event_messages.BOT_EVENT_KINDS`) -> the builder of its message from its
#: payload.
EVENT_MESSAGES = Builders({**COURSE, **OUTCOMES})


def event_words(
    kind: str, data: dict[str, Any], names: SeatNames, db: CardDB, private: bool = False
) -> str | None:
    """One event as a line in the current language, from its kind's message and its payload
    (never the engine's text); ``private``: told to some players alone, worded for them.
    None for a kind without a builder or a payload that lacks what its message needs (an
    event stored by an older version): the front end says what it kept of it."""
    build = EVENT_MESSAGES.get(kind)
    if build is None:
        return None
    try:
        line = build(data, Context(names, db, kind, private))
        return line if isinstance(line, str) else say(line)
    except (KeyError, IndexError, TypeError):
        return None
