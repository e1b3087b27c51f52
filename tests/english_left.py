"""English left in another language's text (issue 22), for every front end's tests: the
Discord bot's messages (tests/bot/language_checks.py) and the terminal's lines
(tests/test_play.py).

"English left" is found by fragments: the literal words of every English template (the
parts between its ``{arguments}``) and of every card's English text, kept when they hold two
words or more and appear nowhere in the other language's catalogs. Player names and printed
English card names are arguments, never fragments."""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from functools import cache
from importlib.resources import files

from babel.messages.pofile import read_po

from words import SOURCE, catalog
from words.catalogs import files_of

#: Two words or more of letters, as a fragment must hold.
TWO_WORDS = re.compile(r"[^\W\d_]{2,}[ ,'\u2019-]+[^\W\d_]{2,}")
SPLIT = re.compile(r"[*_`~>|()\[\]:;!?.\u2014\u00b7\u2026\u2022\n]+")


def _literals(template: str) -> list[str]:
    out = []
    for literal, _field, _spec, _conv in string.Formatter().parse(template):
        for piece in SPLIT.split(literal):
            piece = piece.strip(" ,'\"-")
            if TWO_WORDS.search(piece):
                out.append(piece)
    return out


def _templates(language: str, cards: bool) -> list[str]:
    found: list[str] = []
    for template in catalog(language, cards=cards).values():
        found += list(template) if isinstance(template, tuple) else [template]
    return found


def _english_of(file: str) -> list[str]:
    """The English templates of one file of the words (``game.po``)."""
    folder = files("words").joinpath("locales", SOURCE, "LC_MESSAGES")
    with folder.joinpath(file).open("rb") as fp:
        po = read_po(fp, locale=SOURCE)
    found: list[str] = []
    for message in po:
        if message.id and message.string:
            string_ = message.string
            found += list(string_) if isinstance(string_, tuple) else [string_]
    return found


@cache
def foreign_fragments(language: str, of: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """English fragments that must not appear in a message for ``language``, longest
    first (empty for English): of every English template and card's words; or, with ``of``
    (the files of the words the language has so far), of those files' templates and of the
    cards' words it has, leaving out what the English it still lacks says too (a line of a
    file or a card's words not translated yet is said in English, by design)."""
    if language == SOURCE:
        return ()
    own = "\n".join(_templates(language, False) + _templates(language, True))
    en_cards = catalog(SOURCE, cards=True)
    own_cards = catalog(language, cards=True)
    names = {str(t) for id, t in en_cards.items() if id.endswith(".name")}
    card_words = {id: str(t) for id, t in en_cards.items() if not id.endswith(".name")}
    pending: list[str] = []
    if of is None:
        english = [*_templates(SOURCE, False), *card_words.values()]
    else:
        english = [t for f in of for t in _english_of(f)]
        english += [t for id, t in card_words.items() if id in own_cards]
        pending = [t for f in files_of(SOURCE) if f not in of for t in _english_of(f)]
        pending += [str(t) for id, t in en_cards.items() if id not in own_cards]
    fragments = {
        f
        for template in english
        for f in _literals(template)
        if f not in own and not any(f in n for n in names) and not any(f in p for p in pending)
    }
    return tuple(sorted(fragments, key=len, reverse=True))


def untranslated(text: str, language: str, of: Iterable[str] | None = None) -> list[str]:
    """The English fragments found in ``text`` (for a reader of ``language``); with ``of``,
    only those of the templates of these files of the words."""
    fragments = foreign_fragments(language, None if of is None else tuple(sorted(of)))
    return [f for f in fragments if re.search(rf"(?<![^\W\d_]){re.escape(f)}(?![^\W\d_])", text)]
