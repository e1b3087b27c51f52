"""Choices on Discord: button labels, what a named reward gives, a choice named in a message.

A choice is worded by :mod:`wording.choices` (shared with the terminal); here its seat ids
become display names and its words fit Discord's limits."""

from __future__ import annotations

from collections.abc import Sequence

from bot.rendering.messages import msg, say
from bot.rendering.text import LABEL_LIMIT, Names, clip
from engine import CardDB, ChoiceView, PublicChoice, TableView
from wording.choices import action_label as action_label
from wording.choices import choice_words, named_reward_text
from wording.choices import kind_message as kind_message
from wording.choices import option_card as option_card


def choice_label(
    choice: ChoiceView | PublicChoice, names: Names, db: CardDB, card: str | None = None
) -> str:
    """A button label, worded by the bot, seat ids as display names (may name cards: only
    public choices go on the board); ``card`` prints its words (:func:`option_card`)."""
    return clip(names.plain(choice_words(choice, db, card)), LABEL_LIMIT)


def choice_text(
    choice: ChoiceView | PublicChoice, names: Names, db: CardDB, card: str | None = None
) -> str:
    """A choice named in a message ("You chose: …", "ran out of time: …"): its label with
    the display names escaped (a label is plain text, a message is markdown)."""
    return clip(names.text(choice_words(choice, db, card)), LABEL_LIMIT * 2)


def described_choices(
    choices: Sequence[ChoiceView | PublicChoice],
    view: TableView,
    player: str,
    db: CardDB,
    names: Names,
) -> list[str]:
    """A line for each of ``choices`` whose label only names it (a Region's named reward,
    E6), saying what it gives: shown above their buttons (the board's for the public ones,
    the panel's for all), so that a reward is one click. The text is the card's, quoted: its
    "you" is the card speaking to whoever takes it, never the bot to the reader."""
    region = view.party(player).region
    lines = []
    for c in choices:
        text = named_reward_text(c, view, player, db)
        if text:
            label = choice_text(c, names, db, option_card(c, None, region))
            lines.append(say(msg("choice.described", choice=label, text=text)))
    return lines
