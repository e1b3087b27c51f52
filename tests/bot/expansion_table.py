"""The card database of the bot's expansion tests: the rule tests' two stand-in databases in
one (tests/rules: every base card, a stand-in copy of the base set in each expansion, Arcane
characters and Ascension; and the Traps, Incidents, Factions, Artifacts and guarded Regions),
until the expansions' own cards are in cards.json; then ``expansion_cards`` is to return
``default_cards()``, and the same tests play the real cards."""

from __future__ import annotations

from functools import cache

from rules.expansion_advantage_cards import EXPANSION_TEST_CARDS
from rules.expansion_cards import expansion_db

from engine.cards import CardDB, parse_cards

ALL_SETS = ["shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods"]


@cache
def expansion_cards() -> CardDB:
    """Every stand-in card of the rule tests, base set included."""
    cards = [*expansion_db(), *parse_cards(EXPANSION_TEST_CARDS)]
    return CardDB(cards)
