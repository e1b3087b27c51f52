"""The catalogs' words in plain text, for a front end that shows no Markdown (the terminal, a
picture): the templates shared with the Discord bot set words apart with ``**bold**`` and
``__underline__``, stripped here (a card's name or text holds no Markdown to lose)."""

from __future__ import annotations

import re

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
