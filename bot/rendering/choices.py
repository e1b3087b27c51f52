"""Choices: button labels, select descriptions, a choice named in a message."""

from __future__ import annotations

from bot.rendering.text import LABEL_LIMIT, OPTION_LABEL_LIMIT, Names, clip
from engine import (
    CardDB,
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


def choice_label(choice: ChoiceView | PublicChoice, names: Names) -> str:
    """A button label: the engine's neutral label, seat ids as display names (may name
    cards: only public choices go on the board)."""
    return clip(names.plain(choice.label), LABEL_LIMIT)


def choice_text(choice: ChoiceView | PublicChoice, names: Names) -> str:
    """A choice named in a message ("You chose: …", "ran out of time: …"): its label with
    the display names escaped (a label is plain text, a message is markdown)."""
    return clip(names.text(choice.label), LABEL_LIMIT * 2)
