"""Checks of what a reader gets, in his language (issue 22): no English left in another
language's message, and Discord's limits on every part of a message.

"English left" is found by fragments: the literal words of every English template (the
parts between its ``{arguments}``) and of every card's English text, kept when they hold two
words or more and appear nowhere in the other language's catalogs. Player names and printed
English card names are arguments, never fragments."""

from __future__ import annotations

import re
import string
from functools import cache

import discord

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


def limits(m: discord.Message) -> list[str]:
    """Every part of ``m`` over one of Discord's limits."""
    over = []
    if len(m.content or "") > 2000:
        over.append(f"content {len(m.content)}")
    total = 0
    for e in m.embeds:
        parts = {
            "title": (e.title or "", 256),
            "description": (e.description or "", 4096),
            "footer": (e.footer.text or "", 2048),
            "author": (e.author.name or "", 256),
        }
        if len(e.fields) > 25:
            over.append(f"{len(e.fields)} fields")
        for i, f in enumerate(e.fields):
            parts[f"field {i} name"] = (f.name or "", 256)
            parts[f"field {i} value"] = (f.value or "", 1024)
        for what, (text, limit) in parts.items():
            total += len(text)
            if len(text) > limit:
                over.append(f"embed {what} {len(text)} > {limit}")
    if total > 6000:
        over.append(f"embeds {total} > 6000")
    for row in m.components:
        for child in getattr(row, "children", []):
            label = getattr(child, "label", None) or ""
            if len(label) > 80:
                over.append(f"label {label!r}")
            placeholder = getattr(child, "placeholder", None) or ""
            if len(placeholder) > 150:
                over.append(f"placeholder {placeholder!r}")
            for option in getattr(child, "options", []):
                if len(option.label) > 100 or len(option.description or "") > 100:
                    over.append(f"option {option.label!r}")
    return over
