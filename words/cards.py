"""The cards' names and texts in the reader's language.

English is ``cards.json`` itself: the printed facts and our stand-ins, as the card database
reads them (``en/LC_MESSAGES/cards.po`` mirrors it for translators: ``make catalogs``). Every
other language's ``cards.po`` holds our translation of each card's words, by id:
``<card>.name``, ``<card>.text``, and the words inside its rules by their JSON path
(``<card>.rewards.0.name``, ``<card>.abilities.0.effects.0.options.1.label``). A card with no
translation is said in English; :func:`is_translated` tells a front end to mark ours as such.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from words.catalogs import SOURCE, catalog
from words.language import current

#: The keys whose strings are words a player reads (a name, a text, a choice's label).
WORDED = frozenset({"name", "text", "label", "opponent"})


def card_strings(card: Mapping[str, Any]) -> dict[str, str]:
    """A card's words as ``cards.json`` has them: message id -> English (the name and text
    first, then the words inside its rules in the file's order)."""
    return dict(_walk(card, str(card["id"])))


def _walk(value: object, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, Mapping):
        for key, inner in value.items():
            if key in WORDED and isinstance(inner, str):
                yield f"{path}.{key}", inner
            elif isinstance(inner, Mapping | list):
                yield from _walk(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _walk(inner, f"{path}.{index}")


def _said(id: str, english: str, language: str | None) -> str:
    language = language or current()
    if language == SOURCE:
        return english
    return str(catalog(language, cards=True).get(id, english))


def card_name(card_id: str, english: str, language: str | None = None) -> str:
    """A card's name in ``language`` (or the current one); ``english`` is cards.json's."""
    return _said(f"{card_id}.name", english, language)


def card_text(card_id: str, english: str, language: str | None = None) -> str:
    """A card's text in ``language`` (or the current one); ``english`` is cards.json's."""
    return _said(f"{card_id}.text", english, language)


def card_words(card_id: str, english: str, language: str | None = None) -> str:
    """Any words printed inside a card's rules (a reward's name, a choice's label), found by
    their English: the engine hands a front end the English label it read from the card."""
    language = language or current()
    if language == SOURCE:
        return english
    own = catalog(language, cards=True)
    for id in _english_ids(card_id).get(english, ()):
        if id in own:
            return str(own[id])
    return english


@cache
def _english_ids(card_id: str) -> dict[str, tuple[str, ...]]:
    """English words of a card -> their ids, from the English mirror of cards.json
    (``en/LC_MESSAGES/cards.po``, which ``make catalogs`` writes and a test keeps current)."""
    found: dict[str, list[str]] = {}
    for id, english in catalog(SOURCE, cards=True).items():
        if id.startswith(f"{card_id}.") and isinstance(english, str):
            found.setdefault(english, []).append(id)
    return {k: tuple(v) for k, v in found.items()}


def is_translated(card_id: str, language: str | None = None) -> bool:
    """Whether the card is shown in our translation (any language but English that has it)."""
    language = language or current()
    return language != SOURCE and f"{card_id}.name" in catalog(language, cards=True)


def any_card_words(english: str, language: str | None = None) -> str:
    """Words printed inside some card's rules, found by their English on any card: for a
    front end that is handed a card's words without the card (an option chosen, a monster
    named in a battle). The first card whose translation has them; as they are otherwise."""
    language = language or current()
    if language == SOURCE or not english:
        return english
    own = catalog(language, cards=True)
    for id in _all_english_ids().get(english, ()):
        if id in own:
            return str(own[id])
    return english


@cache
def _all_english_ids() -> dict[str, tuple[str, ...]]:
    """English words of every card -> their ids (see :func:`_english_ids`)."""
    found: dict[str, list[str]] = {}
    for id, english in catalog(SOURCE, cards=True).items():
        if isinstance(english, str):
            found.setdefault(english, []).append(id)
    return {k: tuple(v) for k, v in found.items()}
