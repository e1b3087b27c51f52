"""Choices: button labels, select descriptions, a choice named in a message.

A choice is worded by the bot from its data (issue 22): its action type picks the template
(``action.<type>`` in the catalog), its argument the card, seat or option it names, and the
view's :class:`~engine.ChoiceData` what the card prints (a pick's option, a named reward)."""

from __future__ import annotations

from bot.rendering.messages import ENGLISH, Message, counted, msg, say
from bot.rendering.text import LABEL_LIMIT, OPTION_LABEL_LIMIT, Names, clip
from engine import (
    CardDB,
    ChoiceData,
    ChoiceView,
    PublicChoice,
    TableView,
)


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
        return "Into your hand"
    if reward.kind == "hire":
        return "A character from the deck joins your party"
    return clip(reward.text, OPTION_LABEL_LIMIT) if reward.text else None


def reward_message(data: ChoiceData, index: str) -> Message | str:
    """A Region's reward (E6): by its kind, or as printed when the card names it."""
    if data.reward == "advantage":
        return counted("reward.advantage", data.level or 1)
    if data.reward in ("hire",):
        return msg("reward.hire")
    if data.option:
        return data.option
    if data.reward in ("remote_mission", "discredit"):
        return msg(f"reward.{data.reward}")
    return msg("reward.special") if data.reward else msg("reward.unknown", index=index)


def kind_message(kind: str) -> Message:
    """A decision of ``kind`` in a few words ("choose a leader"), read after "waiting for
    Alice to …": what the table reads when the decision's own text is withheld."""
    key = f"kind.{kind}"
    return msg(key if key in ENGLISH else "kind.unknown")


def action_message(action: str, data: ChoiceData, db: CardDB) -> Message:
    """The choice ``action`` ("go r_ruins", "attack p2", "pick 1") as a message, seat ids
    left as they are (the caller turns them into display names)."""
    kind, _, arg = action.partition(" ")
    card = db.by_id.get(arg)
    name = card.name if card is not None else arg
    if kind == "ask" and arg == "hand":
        return msg("action.ask.hand")
    if kind == "explore_new" and arg:
        return msg("action.explore_new.discard", card=name)
    if kind == "reward":
        return msg("action.reward", reward=reward_message(data, arg))
    if kind == "pick":
        option = data.option if data.option is not None else name
        return msg("action.pick.idle" if data.idle else "action.pick", option=option)
    if f"action.{kind}" not in ENGLISH:
        return msg("action.unknown", action=action)
    return msg(f"action.{kind}", card=name, seat=arg)


def action_label(choice: ChoiceView | PublicChoice, db: CardDB) -> str:
    """A choice's label in the bot's words, seat ids as they are (for event data that the
    event renderer words with display names)."""
    return say(action_message(choice.action, choice, db))


def choice_label(choice: ChoiceView | PublicChoice, names: Names, db: CardDB) -> str:
    """A button label, worded by the bot, seat ids as display names (may name cards: only
    public choices go on the board)."""
    return clip(names.plain(action_label(choice, db)), LABEL_LIMIT)


def choice_text(choice: ChoiceView | PublicChoice, names: Names, db: CardDB) -> str:
    """A choice named in a message ("You chose: …", "ran out of time: …"): its label with
    the display names escaped (a label is plain text, a message is markdown)."""
    return clip(names.text(action_label(choice, db)), LABEL_LIMIT * 2)
