"""Which language is spoken: the one set around a block with :func:`speaking` (a context
variable, so each interaction and task of the bot has its own), English by default."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from words.catalogs import LANGUAGES, SOURCE

_current: ContextVar[str] = ContextVar("language", default=SOURCE)


def current() -> str:
    """The language spoken when a call is given none."""
    return _current.get()


@contextmanager
def speaking(language: str) -> Iterator[str]:
    """Say everything inside the block in ``language`` (English if it is not one of
    :data:`~words.catalogs.LANGUAGES`)."""
    token = _current.set(language if language in LANGUAGES else SOURCE)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def language_of(locale: object) -> str:
    """The language of a Discord locale (``es-ES``, ``es-419``, ``ru``, ``it``, ``en-GB``, or
    a :class:`discord.Locale`): one of :data:`~words.catalogs.LANGUAGES`, English for any
    other."""
    text = str(getattr(locale, "value", locale) or "")
    base = text.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else SOURCE
