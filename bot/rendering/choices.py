"""Choices: button labels, select descriptions, a choice named in a message.

A choice is worded by the bot from its data (issue 22): its action type picks the template
(``action.<type>`` in the catalog), its argument the card, seat or option it names, and the
view's :class:`~engine.ChoiceData` what the card prints (a pick's option, a named reward),
said in the current language: the card's own words through its translation, found on the card
that prints them (``card``: the card whose effect asks, or the Region of a reward) when the
caller knows it."""

from __future__ import annotations

from bot.rendering.actions import action_message
from bot.rendering.cards import printed
from bot.rendering.messages import ENGLISH, Message, msg, say, speaking
from bot.rendering.text import LABEL_LIMIT, OPTION_LABEL_LIMIT, Names, clip
from engine import (
    CardDB,
    ChoiceView,
    PromptView,
    PublicChoice,
    TableView,
)
from words import SOURCE


def choice_description(choice: ChoiceView, view: TableView, player: str, db: CardDB) -> str | None:
    """What a choice gives, for a select option's description, when its label alone does
    not say it: a Region's reward (E6) is named on the card ("Woodland Shrine"); its text
    says what it does."""
    kind, _, arg = choice.action.partition(" ")
    if kind != "reward" or not arg.isdigit():
        return None
    region = view.party(player).region
    if region is None or region not in db.by_id:
        return None
    rewards = db.region(region).rewards
    if int(arg) >= len(rewards):
        return None
    reward = rewards[int(arg)]
    if reward.kind == "advantage":
        return say(msg("choice.reward.advantage"))
    if reward.kind == "hire":
        return say(msg("choice.reward.hire"))
    return clip(printed(region, reward.text), OPTION_LABEL_LIMIT) if reward.text else None


def option_card(
    choice: ChoiceView | PublicChoice, prompt: PromptView | None, region: str | None
) -> str | None:
    """The card that prints a choice's words: the card whose effect asks (a ``pick``), or
    the Region whose reward it is (a ``reward``); None for any other choice."""
    kind = choice.action.partition(" ")[0]
    if kind == "pick" and prompt is not None:
        return prompt.data.card
    if kind == "reward":
        return region
    return None


def kind_message(kind: str) -> Message:
    """A decision of ``kind`` in a few words ("choose a leader"), read after "waiting for
    Alice to …": what the table reads when the decision's own text is withheld."""
    key = f"kind.{kind}"
    return msg(key if key in ENGLISH else "kind.unknown")


def action_label(choice: ChoiceView | PublicChoice, db: CardDB) -> str:
    """A choice's label in English, seat ids as they are: for event data that is stored
    (the log is read later, by readers of any language; the event renderer words it with
    display names)."""
    with speaking(SOURCE):
        return say(action_message(choice.action, choice, db))


def _said(choice: ChoiceView | PublicChoice, db: CardDB, card: str | None) -> str:
    """A choice's label in the current language, seat ids as they are."""
    return say(action_message(choice.action, choice, db, card))


def choice_label(
    choice: ChoiceView | PublicChoice, names: Names, db: CardDB, card: str | None = None
) -> str:
    """A button label, worded by the bot, seat ids as display names (may name cards: only
    public choices go on the board); ``card`` prints its words (:func:`option_card`)."""
    return clip(names.plain(_said(choice, db, card)), LABEL_LIMIT)


def choice_text(
    choice: ChoiceView | PublicChoice, names: Names, db: CardDB, card: str | None = None
) -> str:
    """A choice named in a message ("You chose: …", "ran out of time: …"): its label with
    the display names escaped (a label is plain text, a message is markdown)."""
    return clip(names.text(_said(choice, db, card)), LABEL_LIMIT * 2)
