"""Seats and words as a picture writes them: a seat by its member's display name as typed
(:class:`PictureNames`, the wording's :class:`wording.SeatNames`), and the catalogs' words
without the Markdown of the shared templates (:func:`plain`): a picture has no bold marks."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

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
    """The catalog's ``id`` with its arguments, said in plain text."""
    return said(msg(id, **args))


def count(id: str, n: int, /, **args: object) -> str:
    """The counting message ``id`` for ``n``, said in plain text."""
    return said(counted(id, n, **args))


@dataclass(frozen=True)
class PictureNames:
    """Seat ids as the players' display names (as typed: a picture escapes nothing), for
    the wording's builders; a seat with no name is said by its id."""

    names: Mapping[str, str]

    def who(self, seat: str | None) -> str:
        """The seat's display name (the catalog's "nobody" for None)."""
        if seat is None:
            return say(msg("name.nobody"))
        return self.names.get(seat) or seat

    def text(self, text: str) -> str:
        """A lone seat id as its name; any other text as it is."""
        return self.names.get(text) or text

    def is_seat(self, name: str) -> bool:
        """Whether ``name`` is a seat of the game."""
        return name in self.names

    def strong(self, words: str) -> str:
        """The words as they are (a picture sets names apart by its layout)."""
        return words
