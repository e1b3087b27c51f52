"""Decisions in words: a prompt's sentence from its kind and data (issue 22).

One template per prompt kind (``prompt.<kind>``, or ``prompt.<kind>.<variant>`` when the kind
asks in several ways: a window's moment, what a card's effect asks for), filled from the
prompt's data (:attr:`engine.PromptView.data`): seat ids become the front end's names, card
and Region ids card names; never the engine's own sentence (``PromptView.text``)."""

from __future__ import annotations

from engine import CardDB, PromptData
from wording.cards import card_name, printed
from wording.names import SeatNames
from words import Message, counted, known, listing, msg, say


def _options(options: tuple[tuple[str, str, bool], ...], card: str | None) -> str:
    """A card's options, numbered ("0: +2 Strength / 1: +2 Speed"), as ``card`` prints them
    (one that would change nothing says so)."""
    said = [
        say(msg("prompt.pick.choose.option", index=i, option=_option(printed(card, o), idle)))
        for i, o, idle in options
    ]
    joined = said[0] if said else ""
    for item in said[1:]:
        joined = say(msg("prompt.pick.choose.separator", first=joined, second=item))
    return joined


def _option(option: str, idle: bool) -> str:
    return say(msg("action.pick.idle" if idle else "action.pick", option=option))


def prompt_message(kind: str, data: PromptData, names: SeatNames, db: CardDB) -> Message:
    """The decision of ``kind`` worded from its ``data``."""
    key = f"prompt.{kind}.{data.variant}" if data.variant else f"prompt.{kind}"
    if not known(key):
        key = f"prompt.{kind}" if known(f"prompt.{kind}") else "kind.unknown"
    asks: list[str] = [card_name(db, c) for c in data.ask]
    if data.ask_hand:
        asks.append(say(counted("prompt.trade.ask_hand", data.ask_hand)))
    return msg(
        key,
        player=names.who(data.player),
        other=names.who(data.other),
        card=card_name(db, data.card) if data.card else "",
        region=card_name(db, data.region) if data.region else "",
        left=data.left,
        strength=data.strength,
        margin=data.margin,
        give=listing([card_name(db, c) for c in data.give]),
        ask=listing(asks),
        options=_options(data.options, data.card),
    )
