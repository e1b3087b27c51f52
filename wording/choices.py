"""Choices in words: a choice's label from its action and data (:mod:`wording.actions`), the
card that prints its words, what a reward gives, and a decision's kind in a few words.

A choice is worded from its data (issue 22): its action type picks the template
(``action.<type>`` in the catalog), its argument the card, seat or option it names, and the
view's :class:`~engine.ChoiceData` what the card prints (a pick's option, a named reward),
said in the current language: the card's own words through its translation, found on the card
that prints them (``card``: the card whose effect asks, or the Region of a reward) when the
caller knows it. Seat ids are left as they are: the front end names them."""

from __future__ import annotations

from engine import CardDB, ChoiceView, PromptView, PublicChoice, TableView
from wording.actions import action_message
from wording.cards import printed
from words import SOURCE, Message, known, msg, say, speaking


def reward_description(
    choice: ChoiceView | PublicChoice, view: TableView, player: str, db: CardDB
) -> str | None:
    """What a choice gives when its label alone does not say it: a Region's reward (E6) is
    named on the card ("Woodland Shrine"); its text says what it does. None for any other
    choice."""
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
    return printed(region, reward.text) if reward.text else None


def named_reward_text(
    choice: ChoiceView | PublicChoice, view: TableView, player: str, db: CardDB
) -> str | None:
    """The printed text of a Region's *named* reward (E6: "Woodland Shrine"), whose label
    says only its name; None for any other choice, a drawn Advantage or a hire among them
    (their labels say what they give)."""
    kind, _, arg = choice.action.partition(" ")
    region = view.party(player).region
    if kind != "reward" or not arg.isdigit() or region is None or region not in db.by_id:
        return None
    rewards = db.region(region).rewards
    if int(arg) >= len(rewards) or rewards[int(arg)].kind in ("advantage", "hire"):
        return None
    text = rewards[int(arg)].text
    return printed(region, text) if text else None


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
    return msg(key if known(key) else "kind.unknown")


def action_label(choice: ChoiceView | PublicChoice, db: CardDB) -> str:
    """A choice's label in English, seat ids as they are: for event data that is stored
    (the log is read later, by readers of any language; the event builders word it again)."""
    with speaking(SOURCE):
        return say(action_message(choice.action, choice, db))


def choice_words(choice: ChoiceView | PublicChoice, db: CardDB, card: str | None = None) -> str:
    """A choice's label in the current language, seat ids as they are; ``card`` prints its
    words (:func:`option_card`)."""
    return say(action_message(choice.action, choice, db, card))
