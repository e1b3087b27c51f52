"""Choices on Discord: button labels, select descriptions, a choice named in a message.

A choice is worded by :mod:`wording.choices` (shared with the terminal); here its seat ids
become display names and its words fit Discord's limits."""

from __future__ import annotations

from bot.rendering.text import LABEL_LIMIT, OPTION_LABEL_LIMIT, Names, clip
from engine import CardDB, ChoiceView, PublicChoice, TableView
from wording.choices import action_label as action_label
from wording.choices import choice_words, reward_description
from wording.choices import kind_message as kind_message
from wording.choices import option_card as option_card


def choice_description(choice: ChoiceView, view: TableView, player: str, db: CardDB) -> str | None:
    """What a choice gives, for a select option's description, when its label alone does
    not say it: a Region's reward (E6) is named on the card ("Woodland Shrine"); its text
    says what it does."""
    said = reward_description(choice, view, player, db)
    return clip(said, OPTION_LABEL_LIMIT) if said is not None else None


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
