"""The bot's words: messages of the catalogs in :mod:`words` (gettext ``.po`` files, one per
language), said in the language of whoever reads them.

Every line a player reads is a :class:`Message` (an id and its arguments), never the
engine's own sentence. Arguments are already drawn: display names bold and escaped, card
names, numbers, or other messages. :data:`ENGLISH` is the source catalog, which holds every
id.
"""

from __future__ import annotations

from words import Message, catalog, counted, known, listing, msg, say, speaking

#: Message id -> English template (or one template per plural form).
ENGLISH = catalog("en")

__all__ = ["ENGLISH", "Message", "counted", "known", "listing", "msg", "say", "speaking"]
