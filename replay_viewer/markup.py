"""The catalogs' words as HTML: seat names coloured by seat, the shared templates' Markdown as
tags, every other character escaped.

The wording's builders put a seat in a line through :class:`HtmlNames` (a :class:`SeatNames`),
which writes a marker, not HTML: the line is escaped whole afterwards (:func:`html_of`), so a
display name or a card's text can never inject markup, and the markers become the seat's
coloured name. Arguments that are HTML already (a list of cards drawn as spans) go through
:func:`fill` the same way.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from words import Message, counted, msg, say

#: A seat in a line: ``\x01<index>\x02`` (bold, a sentence's name) or ``\x03<index>\x02`` (a
#: name inside words already set apart). Control characters no template or name holds.
_SEAT = re.compile("([\x01\x03])(\\d+)\x02")
#: An argument already in HTML: ``\x00<index>\x00``.
_ARG = re.compile("\x00(\\d+)\x00")
#: The shared templates' Markdown: ``**bold**`` and ``__underline__`` (escaped text keeps both).
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_UNDER = re.compile(r"__(.+?)__")
#: Characters that must not reach a template from a name: the markers, and Markdown marks.
_UNSAFE = str.maketrans({c: " " for c in "\x00\x01\x02\x03"})


@dataclass(frozen=True)
class HtmlNames:
    """Seats named by their display names (``names``; a seat id stands for itself), each
    marked for :func:`html_of`, which colours it by its place at the table."""

    seats: tuple[str, ...]
    names: Mapping[str, str]

    def label(self, seat: str) -> str:
        """The seat's display name as typed (plain text)."""
        return self.names.get(seat, seat).translate(_UNSAFE)

    def who(self, seat: str | None) -> str:
        """A seat as a sentence names it: a marker :func:`html_of` draws as its name."""
        if seat is None:
            return say(msg("name.nobody"))
        if seat not in self.seats:
            return seat.translate(_UNSAFE)
        return f"\x01{self.seats.index(seat)}\x02"

    def text(self, text: str) -> str:
        """A line worded elsewhere, its seat ids as names (not in bold)."""
        if not self.seats:
            return text
        pattern = re.compile(r"\b(" + "|".join(re.escape(s) for s in self.seats) + r")\b")
        return pattern.sub(lambda m: f"\x03{self.seats.index(m.group(1))}\x02", text)

    def is_seat(self, name: str) -> bool:
        """Whether ``name`` is a seat of the game."""
        return name in self.seats

    def strong(self, words: str) -> str:
        """Words set apart as a name is (a monster's name): in bold."""
        return f"**{words.translate(_UNSAFE)}**"

    def seat_html(self, seat: str, bold: bool = True) -> str:
        """The seat's name as HTML, in its seat's colour."""
        if seat not in self.seats:
            return html.escape(seat)
        tag = "b" if bold else "span"
        index = self.seats.index(seat)
        return f'<{tag} class="seat s{index}">{html.escape(self.label(seat))}</{tag}>'


def html_of(text: str, names: HtmlNames, args: Sequence[str] = ()) -> str:
    """``text`` (a line said by the catalogs, with seat markers and Markdown) as HTML."""
    out = html.escape(text, quote=False)
    out = _BOLD.sub(r"<b>\1</b>", out)
    out = _UNDER.sub(r"<u>\1</u>", out)
    out = _SEAT.sub(lambda m: names.seat_html(names.seats[int(m[2])], m[1] == "\x01"), out)
    return _ARG.sub(lambda m: args[int(m[1])], out)


def fill(names: HtmlNames, id: str, n: int | None = None, /, **html_args: str) -> str:
    """The message ``id`` (counting ``n`` when given) as HTML, its arguments HTML already."""
    keys = list(html_args)
    tokens = {k: f"\x00{i}\x00" for i, k in enumerate(keys)}
    message: Message = msg(id, **tokens) if n is None else counted(id, n, **tokens)
    return html_of(say(message), names, [html_args[k] for k in keys])


def said_html(message: Message | str, names: HtmlNames) -> str:
    """A message (or a line worded already) as HTML."""
    return html_of(say(message) if isinstance(message, Message) else message, names)
