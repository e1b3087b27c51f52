"""A choice's action in words: ``action.<type>`` of the catalog filled from its argument
(a card, a seat) and the :class:`~engine.ChoiceData` of what the card prints (a pick's option,
a named reward). Below the choices' labels (:mod:`wording.choices`) and the event
builders, which word again a decision's default action stored with its time-out."""

from __future__ import annotations

from engine import CardDB, ChoiceData
from wording.cards import card_name, printed
from words import Message, counted, known, msg

#: Actions worded from their data (the option, the reward), not from the action alone.
NEED_DATA = frozenset({"pick", "reward"})


def reward_message(data: ChoiceData, index: str, card: str | None = None) -> Message | str:
    """A Region's reward (E6): by its kind, or as printed when the card names it."""
    if data.reward == "advantage":
        return counted("reward.advantage", data.level or 1)
    if data.reward in ("hire",):
        return msg("reward.hire")
    if data.option:
        return printed(card, data.option)
    if data.reward in ("remote_mission", "discredit"):
        return msg(f"reward.{data.reward}")
    return msg("reward.special") if data.reward else msg("reward.unknown", index=index)


def action_message(action: str, data: ChoiceData, db: CardDB, card: str | None = None) -> Message:
    """The choice ``action`` ("go r_ruins", "attack p2", "pick 1") as a message, seat ids
    left as they are (the caller turns them into display names); ``card`` prints its words
    (:func:`option_card`), when known."""
    kind, _, arg = action.partition(" ")
    name = card_name(db, arg)
    if kind == "ask" and arg == "hand":
        return msg("action.ask.hand")
    if kind == "explore_new" and arg:
        return msg("action.explore_new.discard", card=name)
    if kind == "reward":
        return msg("action.reward", reward=reward_message(data, arg, card))
    if kind == "pick":
        option = printed(card, data.option) if data.option is not None else name
        return msg("action.pick.idle" if data.idle else "action.pick", option=option)
    if not known(f"action.{kind}"):
        return msg("action.unknown", action=action)
    return msg(f"action.{kind}", card=name, seat=arg)
