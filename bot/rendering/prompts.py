"""Decisions: a prompt's sentence worded by the bot from its kind and data (issue 22).

One template per prompt kind (``prompt.<kind>``, or ``prompt.<kind>.<variant>`` when the kind
asks in several ways: a window's moment, what a card's effect asks for), filled from the
prompt's data (:attr:`engine.PromptView.data`): seat ids become bold display names, card and
Region ids card names; never the engine's own sentence (``PromptView.text``)."""

from __future__ import annotations

from bot.rendering.cards import card_name, printed
from bot.rendering.choices import kind_message
from bot.rendering.messages import ENGLISH, Message, counted, listing, msg, say
from bot.rendering.text import Names
from engine import CardDB, PromptData, PromptView, WaitingView


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


def prompt_message(kind: str, data: PromptData, names: Names, db: CardDB) -> Message:
    """The decision of ``kind`` worded from its ``data``."""
    key = f"prompt.{kind}.{data.variant}" if data.variant else f"prompt.{kind}"
    if key not in ENGLISH:
        key = f"prompt.{kind}" if f"prompt.{kind}" in ENGLISH else "kind.unknown"
    asks: list[str] = [card_name(db, c) for c in data.ask]
    if data.ask_hand:
        asks.append(say(counted("prompt.trade.ask_hand", data.ask_hand)))
    return msg(
        key,
        player=names.bold(data.player),
        other=names.bold(data.other),
        card=card_name(db, data.card) if data.card else "",
        region=card_name(db, data.region) if data.region else "",
        left=data.left,
        strength=data.strength,
        margin=data.margin,
        give=listing([card_name(db, c) for c in data.give]),
        ask=listing(asks),
        options=_options(data.options, data.card),
    )


#: A prompt with no data at all.
_NO_DATA = PromptData()


def stored_before_data(kind: str, data: PromptData) -> bool:
    """Whether a decision was stored by an older version of the bot, before prompts carried
    their data: it has none, and its kind's sentence needs some. Such a decision (one per
    running game at most, until its player answers) reads its stored sentence, as an old
    event reads its stored line (:func:`bot.rendering.events.legacy_line`)."""
    if data != _NO_DATA:
        return False
    template = ENGLISH.get(f"prompt.{kind}", "")
    return "{" in (template if isinstance(template, str) else template[1])


def prompt_text(prompt: PromptView, names: Names, db: CardDB) -> str:
    """A player's own decision, worded by the bot (his private panel)."""
    if stored_before_data(prompt.kind, prompt.data):
        return names.sub(prompt.text)
    return say(prompt_message(prompt.kind, prompt.data, names, db))


def waiting_text(waiting: WaitingView, names: Names, db: CardDB) -> str:
    """What the table reads about a decision it waits for: worded from its kind and data,
    or, when the decision is withheld from the table (``WaitingView.withheld``), from its
    kind alone."""
    if waiting.withheld:
        return say(kind_message(waiting.kind))
    if stored_before_data(waiting.kind, waiting.data):
        return names.sub(waiting.text)
    return say(prompt_message(waiting.kind, waiting.data, names, db))
