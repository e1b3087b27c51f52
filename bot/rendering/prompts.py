"""Decisions on Discord: a prompt's sentence (worded by :mod:`wording.prompts` from its kind and
data, seats by display name) for its player and for the table.

A decision stored by an older version of the bot, before prompts carried their data, reads
its stored sentence (:func:`stored_before_data`)."""

from __future__ import annotations

from bot.rendering.messages import ENGLISH, say
from bot.rendering.text import Names
from engine import CardDB, PromptData, PromptView, WaitingView
from wording.choices import kind_message
from wording.prompts import prompt_message as prompt_message

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
