"""The terminal's words: messages of the catalogs (:mod:`words`, the terminal's own ids
``terminal.*`` among them) said in the session's language, in plain text.

Templates shared with the Discord bot may set words apart with Markdown (``**bold**``,
``__underline__``); a terminal shows it as typed, so it is stripped here, from every line the
terminal prints (a card's name or text holds no Markdown to lose). Seats are named by their
ids (:class:`wording.PlainNames`).
"""

from __future__ import annotations

import re
import unicodedata

from words import Message, counted, msg, say

#: The Markdown of the shared templates: bold and underline marks.
_MARKDOWN = re.compile(r"\*\*|__")


def plain(text: str) -> str:
    """``text`` without the Markdown of the shared templates."""
    return _MARKDOWN.sub("", text)


def said(message: Message | str) -> str:
    """A message said in the current language, in plain text (a str as it is)."""
    return plain(say(message) if isinstance(message, Message) else message)


def line(id: str, /, **args: object) -> str:
    """The message ``id`` with its arguments, said in plain text."""
    return said(msg(id, **args))


def count(id: str, n: int, /, **args: object) -> str:
    """The counting message ``id`` for ``n``, said in plain text."""
    return said(counted(id, n, **args))


def folded(text: str) -> str:
    """``text`` lowercased without accents, to compare what a player types ("si" is "sí")."""
    decomposed = unicodedata.normalize("NFD", text.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
