"""Seats as a picture writes them: by their members' display names as typed
(:class:`PictureNames`, the wording's :class:`wording.SeatNames`); its words are the
catalogs' in plain text (:mod:`words.plain`): a picture has no bold marks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from words import msg, say


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
