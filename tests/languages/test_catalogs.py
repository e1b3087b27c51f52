"""The catalogs are complete (issue 22): every message id of the English source has a
translation in every language, with the same arguments and every plural form of the
language; every card's words are translated; the English mirror of cards.json is current."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from words import LANGUAGES, SOURCE, catalog, counted, msg, say
from words.catalogs import Catalog, files_of
from words.extract import MIRROR, cards_po

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [lang for lang in LANGUAGES if lang != SOURCE]


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def _forms(template: str | tuple[str, ...]) -> tuple[str, ...]:
    return template if isinstance(template, tuple) else (template,)


def _problems(source: Catalog, own: Catalog, nplurals: int) -> list[str]:
    """Every id of ``source`` that ``own`` lacks, leaves empty, or says with other arguments."""
    problems = []
    for id, english in source.items():
        if id not in own:
            problems.append(f"{id}: missing")
            continue
        theirs = own[id]
        if isinstance(english, tuple) != isinstance(theirs, tuple):
            problems.append(f"{id}: plural in one language, not in the other")
            continue
        if isinstance(theirs, tuple) and len(theirs) != nplurals:
            problems.append(f"{id}: {len(theirs)} plural forms, the language has {nplurals}")
        want = set().union(*(_fields(f) for f in _forms(english)))
        for form in _forms(theirs):
            # A plural form may leave the count out ("un Avantage"), never add an argument.
            if not _fields(form) <= want or not want - {"n"} <= _fields(form):
                problems.append(f"{id}: arguments {sorted(_fields(form))}, want {sorted(want)}")
    problems += [f"{id}: not in English" for id in own if id not in source]
    return problems


@pytest.mark.parametrize("language", OTHERS)
def test_every_message_is_translated_with_its_arguments(language: str) -> None:
    nplurals = {"es": 3, "it": 3, "ru": 3}[language]
    assert _problems(catalog(SOURCE), catalog(language), nplurals) == []


@pytest.mark.parametrize("language", OTHERS)
def test_every_card_is_translated(language: str) -> None:
    assert _problems(catalog(SOURCE, cards=True), catalog(language, cards=True), 3) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_the_same_files(language: str) -> None:
    assert files_of(language) == files_of(SOURCE)
    assert files_of(language, cards=True) == ["cards.po"]


def test_the_english_mirror_of_the_cards_is_current() -> None:
    cards = json.loads((ROOT / "cards.json").read_text(encoding="utf-8"))
    assert MIRROR.read_bytes() == cards_po(cards), "run `make catalogs`"


def test_russian_has_three_plural_forms() -> None:
    said = [say(counted("event.draw", n, player="A"), "ru") for n in (1, 2, 5, 11, 21, 22)]
    one, few, many, eleven, twenty_one, twenty_two = said
    assert len({one, few, many}) == 3
    assert eleven.replace("11", "5") == many
    assert twenty_one.replace("21", "1") == one
    assert twenty_two.replace("22", "2") == few


def test_an_id_a_language_lacks_is_said_in_english() -> None:
    assert say(msg("word.nothing"), "xx") == say(msg("word.nothing"), SOURCE)
