"""The words players read, in every language the game speaks: for the Discord bot and the
terminal alike.

The engine hands its front ends data (event payloads, prompt kinds, action types, refusal
kinds); a front end turns each into a :class:`Message`, an id of the catalogs and its named
arguments, and :func:`say` puts it into words in one language. The catalogs are gettext
``.po`` files read with Babel (:mod:`words.catalogs`); a missing translation falls back to
English, and a test lists every id that some language lacks.

Which language: :func:`say` takes one, or the one set around it with :func:`speaking` (a
context variable, as Red-DiscordBot's translated cogs do), English by default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from words.cards import card_name, card_text, card_words, is_translated
from words.catalogs import LANGUAGES, SOURCE, Catalog, catalog
from words.language import current, language_of, speaking

__all__ = [
    "LANGUAGES",
    "SOURCE",
    "Catalog",
    "Message",
    "card_name",
    "card_text",
    "card_words",
    "catalog",
    "counted",
    "current",
    "is_translated",
    "known",
    "language_of",
    "listing",
    "msg",
    "say",
    "speaking",
]


@dataclass(frozen=True)
class Message:
    """A sentence to say: its id in the catalogs and its named arguments (``n`` chooses the
    plural form of a counting message, and is an argument too)."""

    id: str
    args: Mapping[str, object] = field(default_factory=dict)
    n: int | None = None


def msg(id: str, /, **args: object) -> Message:
    """A :class:`Message`."""
    return Message(id, args)


def counted(id: str, n: int, /, **args: object) -> Message:
    """A :class:`Message` that counts: ``n`` chooses its form and is the argument ``{n}``."""
    return Message(id, {**args, "n": n}, n)


def known(id: str) -> bool:
    """Whether ``id`` is a message of the catalogs (the English one holds every id)."""
    return id in catalog(SOURCE)


def say(message: Message, language: str | None = None) -> str:
    """The message in ``language`` (or the current one), its arguments put in; a nested
    :class:`Message` is said first, in the same language. An id the language lacks is said
    in English."""
    language = language or current()
    own = catalog(language)
    chosen = own if message.id in own else catalog(SOURCE)
    template = chosen.form(message.id, message.n)
    args = {k: say(v, language) if isinstance(v, Message) else v for k, v in message.args.items()}
    return template.format(**args)


def listing(items: list[str] | list[Message]) -> Message | str:
    """Items joined as a list ("A, B, C"), or ``nothing`` for none."""
    said = [say(i) if isinstance(i, Message) else i for i in items]
    if not said:
        return msg("word.nothing")
    joined = said[0]
    for item in said[1:]:
        joined = say(msg("word.list", first=joined, second=item))
    return joined
