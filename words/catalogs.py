"""The message catalogs: gettext ``.po`` files per language, read with Babel.

A language's folder (``locales/<lang>/LC_MESSAGES/``) holds the bot's and terminal's words in
several files by area (``game.po`` for the game's course, ``board.po``, ``lobby.po``, ...): one
catalog, each id in one file. ``cards.po`` is apart: the cards' names and texts in the
language, which English takes from ``cards.json`` (the printed facts) instead.

A catalog maps a message id (``event.draw``, ``panel.title``) to its template in one language;
a counting message has one template per plural form of the language (English two, Russian
three), chosen by the gettext ``Plural-Forms`` rule that Babel writes from CLDR. Templates
take named ``{arguments}`` (Python's :meth:`str.format`).

The ``.po`` files are the source: adding a language is adding its folder under ``locales/``
(docs/translating.md says how). A catalog is read once per process and kept.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.resources import files

from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.pofile import read_po

#: The languages the bot speaks, English first (the source, and every id's fallback).
LANGUAGES: tuple[str, ...] = ("en", "es", "ru", "it")
SOURCE = "en"
#: The domain of the cards' names and texts; every other file of a language is the words'.
CARDS = "cards"

Template = str | tuple[str, ...]


class Catalog(Mapping[str, Template]):
    """One language's templates of one domain: id -> template, or one template per plural
    form for a counting message. Ids without a translation are absent (not empty)."""

    def __init__(self, language: str, templates: dict[str, Template], plural_expr: str) -> None:
        self.language = language
        self._templates = templates
        # gettext's own compiler of a Plural-Forms expression (the C-like rule in the header).
        self._plural = gettext.c2py(plural_expr)

    def __getitem__(self, id: str) -> Template:
        return self._templates[id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._templates)

    def __len__(self) -> int:
        return len(self._templates)

    def form(self, id: str, n: int | None) -> str:
        """The template of ``id`` for a count ``n`` (the language's plural rule picks the
        form; a message that does not count has one)."""
        template = self._templates[id]
        if isinstance(template, str):
            return template
        index = self._plural(abs(n)) if n is not None else len(template) - 1
        return template[min(int(index), len(template) - 1)]


class DuplicateId(ValueError):
    """Two files of one language define the same message id."""


@cache
def catalog(language: str, cards: bool = False) -> Catalog:
    """The words of ``language`` (every file but ``cards.po``), or with ``cards`` its cards'
    names and texts; empty for a language without them."""
    templates: dict[str, Template] = {}
    plural_expr = PoCatalog(locale=language).plural_expr
    for po in _read(language, cards):
        plural_expr = po.plural_expr
        for message in po:
            if not message.id or message.fuzzy:
                continue
            id = message.id if isinstance(message.id, str) else message.id[0]
            if id in templates:
                raise DuplicateId(f"{language}: {id} is defined twice")
            string = message.string
            if isinstance(string, str):
                if string:
                    templates[id] = string
            elif string and all(string):
                templates[id] = tuple(string)
    return Catalog(language, templates, plural_expr)


def files_of(language: str, cards: bool = False) -> list[str]:
    """The names of the ``.po`` files of ``language`` that make one catalog, sorted."""
    folder = files("words").joinpath("locales", language, "LC_MESSAGES")
    if not folder.is_dir():
        return []
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".po"))
    return [n for n in names if (n == f"{CARDS}.po") == cards]


def _read(language: str, cards: bool) -> Iterator[PoCatalog]:
    folder = files("words").joinpath("locales", language, "LC_MESSAGES")
    for name in files_of(language, cards):
        with folder.joinpath(name).open("rb") as fp:
            yield read_po(fp, locale=language, domain=name.removesuffix(".po"))
