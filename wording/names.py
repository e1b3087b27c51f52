"""How a front end names a game's seats in the lines it is given (:class:`SeatNames`), and the
plain names of a front end without markup (:class:`PlainNames`: the terminal)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from words import msg, say


class SeatNames(Protocol):
    """Seat ids (``p1``, ``P2``) as a front end names them. The builders of :mod:`wording`
    never put a seat id in a line themselves: the Discord bot names a seat by its member's
    display name, in bold and escaped for Markdown (``bot.rendering.Names``); the terminal
    by the seat itself (:class:`PlainNames`)."""

    def who(self, seat: str | None) -> str:
        """A seat as a sentence names it (its subject, an object): "nobody" for None."""
        ...

    def text(self, text: str) -> str:
        """A line worded elsewhere (a choice's label, a stored label), or a lone seat id,
        with every seat id as a name that is not set apart (it sits inside a line that may
        already be)."""
        ...

    def is_seat(self, name: str) -> bool:
        """Whether ``name`` is a seat of the game (a battle's side may be a monster)."""
        ...

    def strong(self, words: str) -> str:
        """Words set apart as a name is (a monster's name on a battle's side)."""
        ...


@dataclass(frozen=True)
class PlainNames:
    """Seat ids as they are, in plain text (the terminal, where a seat is its id)."""

    seats: tuple[str, ...] = ()

    def who(self, seat: str | None) -> str:
        """The seat id (the catalog's "nobody" for None)."""
        return seat if seat is not None else say(msg("name.nobody"))

    def text(self, text: str) -> str:
        """The line as it is: its seat ids are the names."""
        return text

    def is_seat(self, name: str) -> bool:
        """Whether ``name`` is one of :attr:`seats`."""
        return name in self.seats

    def strong(self, words: str) -> str:
        """The words as they are (plain text sets nothing apart)."""
        return words
