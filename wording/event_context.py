"""What every event builder shares: the :class:`Context` it reads besides the payload, the
table type a module of builders fills (kind -> builder), and a few message helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import CardDB, RegionCard
from wording.cards import card_name, card_text, printed
from wording.names import SeatNames
from words import Message, msg


@dataclass(frozen=True)
class Context:
    """What a builder needs besides the payload: the game's names and cards, the event's
    kind (one builder may serve kinds alike) and whether the event is private (told to some
    players alone)."""

    names: SeatNames
    db: CardDB
    kind: str = ""
    private: bool = False

    def who(self, seat: str | None) -> str:
        """A seat as the front end names it."""
        return self.names.who(seat)

    def side(self, side: str) -> str:
        """One side of a battle: a seat's name, or a monster's name as its card prints it (a
        mission's enemy, an Encounter), set apart as a seat's name is."""
        if self.names.is_seat(side):
            return self.names.who(side)
        return self.names.strong(self.printed(None, side))

    def card(self, card_id: str) -> str:
        """A card's name in the current language."""
        return card_name(self.db, card_id)

    def text(self, card_id: str) -> str:
        """A card's text in the current language."""
        return card_text(self.db, card_id)

    def printed(self, card_id: str | None, english: str) -> str:
        """Words printed inside a card's rules (``card_id``'s, or any card's when unknown)."""
        return printed(card_id, english)

    def region(self, region_id: str) -> RegionCard | None:
        """The Region card of ``region_id`` (None for an unknown id)."""
        card = self.db.by_id.get(region_id)
        return card if isinstance(card, RegionCard) else None


Builder = Callable[[dict[str, Any], Context], Message | str]


class Builders(dict[str, Builder]):
    """Event kind -> builder (a str only for a line drawn elsewhere: the game's ending);
    called with kinds, a decorator that registers the function for them."""

    def __call__(self, *kinds: str) -> Callable[[Builder], Builder]:
        def register(fn: Builder) -> Builder:
            for kind in kinds:
                self[kind] = fn
            return fn

        return register


def with_text(id: str, card_id: str, c: Context, /, **args: object) -> Message:
    """``id`` with the card's text, or its ``.bare`` form for a card without text."""
    text = c.text(card_id)
    return msg(id, text=text, **args) if text else msg(f"{id}.bare", **args)


def outcome(success: bool) -> Message:
    """A roll's outcome in a word."""
    return msg("word.success" if success else "word.failure")
