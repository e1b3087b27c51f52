"""Imported by the pictures' fork server only (:data:`bot.pictures.pool.PRELOAD`), for its
effect: the drawing modules imported, and the published cards, every language's catalogs and
the fonts loaded (a card drawn in each language), once, in the server process. Every worker
forked from it starts with them (the pages are shared until written), so a new worker's first
picture costs what any other does (a cold worker: some 100 ms more, per worker)."""

from __future__ import annotations

# The board's, the hand's and the battle's modules, loaded.
import bot.pictures.battle
import bot.pictures.board
import bot.pictures.hand  # noqa: F401
from bot.pictures.card import draw_card
from engine import default_cards
from words import LANGUAGES

_CARDS = default_cards()
for _language in LANGUAGES:
    draw_card(_CARDS.characters[0].id, _CARDS, _language)
