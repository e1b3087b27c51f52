"""The engine's data in words, for every front end (the Discord bot and the terminal).

The engine hands its front ends data: event payloads, prompt kinds and their data, choices'
actions and data, ending codes, card ids. This package turns each into a message of the
catalogs (:mod:`words`) said in the current language (:func:`words.speaking`), one
implementation for every front end. What a front end adds stays with it: the bot's embeds,
Discord's limits and Markdown escaping (``bot.rendering``), the terminal's plain lines
(``engine.tools.play``).

Seats are named by the front end (:class:`SeatNames`): the bot by its members' display names
in bold, the terminal by the seat ids (:class:`PlainNames`). Templates may hold Markdown
(``**bold**``, ``__underline__``), which a plain-text front end strips.

The modules, by job: :mod:`.names` (the seat-name protocol), :mod:`.cards` (card names,
kinds, objectives and rewards, the marks beside them), :mod:`.table` (a phase, a deck, a
Region's level and what lies on it), :mod:`.actions` (a choice's action),
:mod:`.choices`, :mod:`.prompts` (a decision), :mod:`.ending`, and the events:
:mod:`.event_context` (what a builder reads), :mod:`.event_messages` and
:mod:`.event_outcomes` (one builder per kind), :mod:`.events` (a line from a kind and its
payload). ``wording`` reads the engine only through its public face (``engine``).
"""

from wording.actions import NEED_DATA, action_message, reward_message
from wording.cards import (
    STAND_IN_MARK,
    TRANSLATED_MARK,
    any_translated,
    card_kind,
    card_marks,
    card_name,
    card_text,
    card_type,
    printed,
    stand_in_legend,
    translated_legend,
)
from wording.choices import (
    action_label,
    choice_words,
    kind_message,
    option_card,
    reward_description,
)
from wording.ending import ending_message, ending_text, tiebreak_lines, tiebreak_message
from wording.event_context import Context
from wording.events import EVENT_MESSAGES, event_words
from wording.names import PlainNames, SeatNames
from wording.prompts import prompt_message

__all__ = [
    "EVENT_MESSAGES",
    "NEED_DATA",
    "STAND_IN_MARK",
    "TRANSLATED_MARK",
    "Context",
    "PlainNames",
    "SeatNames",
    "action_label",
    "action_message",
    "any_translated",
    "card_kind",
    "card_marks",
    "card_name",
    "card_text",
    "card_type",
    "choice_words",
    "ending_message",
    "ending_text",
    "event_words",
    "kind_message",
    "option_card",
    "printed",
    "prompt_message",
    "reward_description",
    "reward_message",
    "stand_in_legend",
    "tiebreak_lines",
    "tiebreak_message",
    "translated_legend",
]
