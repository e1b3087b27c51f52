"""What the terminal reads from its player: a typed word compared without case or accents
(:func:`folded`). What it prints is the catalogs' words in plain text
(:mod:`words.plain`), seats named by their ids (:class:`wording.PlainNames`)."""

from __future__ import annotations

import unicodedata


def folded(text: str) -> str:
    """``text`` lowercased without accents, to compare what a player types ("si" is "sí")."""
    decomposed = unicodedata.normalize("NFD", text.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
