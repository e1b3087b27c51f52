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
from functools import cache

from words import SOURCE, catalog

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


@cache
def foreign_fragments(language: str) -> tuple[str, ...]:
    """English fragments that must not appear in a message for ``language``, longest
    first (empty for English)."""
    if language == SOURCE:
        return ()
    own = "\n".join(_templates(language, False) + _templates(language, True))
    names = {str(t) for id, t in catalog(SOURCE, cards=True).items() if id.endswith(".name")}
    english = [
        *_templates(SOURCE, False),
        *(str(t) for id, t in catalog(SOURCE, cards=True).items() if not id.endswith(".name")),
    ]
    fragments = {
        f
        for template in english
        for f in _literals(template)
        if f not in own and not any(f in n for n in names)
    }
    return tuple(sorted(fragments, key=len, reverse=True))


def untranslated(text: str, language: str) -> list[str]:
    """The English fragments found in ``text`` (a message for a reader of ``language``)."""
    # A plain substring test first: the word-bounded search runs on the few that match.
    return [
        f
        for f in foreign_fragments(language)
        if f in text and re.search(rf"(?<![^\W\d_]){re.escape(f)}(?![^\W\d_])", text)
    ]
