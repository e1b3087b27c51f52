"""The three sets and how they combine: who may play (G1), which cards are dealt (S5), the
decks (S1, C7), how many Regions an explorer reveals (M10) and whether a party may flee (E7).

Shared by the setup, the Movement and Exploration phases and the tools, so it sits below them.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, CardDB, EncounterCard, deck_of
from engine.errors import IllegalAction, Refusal
from engine.options import Options

SHADOW_OF_OMEGA = "shadow_of_omega"
BEYOND_GOOD_AND_EVIL = "beyond_good_and_evil"
TWILIGHT_OF_THE_GODS = "twilight_of_the_gods"
#: Every set id, in publication order.
SETS: tuple[str, ...] = (SHADOW_OF_OMEGA, BEYOND_GOOD_AND_EVIL, TWILIGHT_OF_THE_GODS)
#: The sets whose rules have Arcane characters (C7: Beyond Good and Evil brings them;
#: Twilight of the Gods has its own).
ARCANE_SETS = frozenset({BEYOND_GOOD_AND_EVIL, TWILIGHT_OF_THE_GODS})
#: The decks of every game (S1); the Arcane deck is added when a set in play has one (C7).
DECKS: tuple[str, ...] = ("character", "region", "encounter", "advantage")
ARCANE_DECK = "arcane"


def player_range(sets: Sequence[str]) -> tuple[int, int]:
    """G1: how many players the sets allow: 2-4 for Twilight of the Gods alone, else 2-5
    (Beyond Good and Evil alone included: the digest names only Twilight of the Gods)."""
    if list(sets) == [TWILIGHT_OF_THE_GODS]:
        return 2, 4
    return 2, 5


def check_table(sets: Sequence[str], players: int, db: CardDB | None = None) -> None:
    """G1: refuse (``IllegalAction``) an empty, repeated or unknown set, a player count the
    sets do not allow, or (with ``db``) a set that has no cards in the database."""
    if not sets:
        raise IllegalAction(Refusal.NO_SET, "choose at least one set", "G1")
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        raise IllegalAction(
            Refusal.UNKNOWN_SET,
            f"unknown set {unknown[0]!r} (the sets are {', '.join(SETS)})",
            "G1",
            set=unknown[0],
            sets=tuple(SETS),
        )
    if len(set(sets)) != len(sets):
        raise IllegalAction(Refusal.REPEATED_SET, "each set may be chosen only once", "G1")
    low, high = player_range(sets)
    if not low <= players <= high:
        alone = f"{sets[0]} alone" if len(sets) == 1 else "these sets"
        raise IllegalAction(
            Refusal.PLAYER_COUNT,
            f"{alone}: a game has {low} to {high} players, not {players}",
            "G1",
            players=players,
            low=low,
            high=high,
        )
    if db is not None:
        empty = [s for s in sets if not any(c.set == s for c in db)]
        if empty:
            raise IllegalAction(
                Refusal.EMPTY_SET, f"the set {empty[0]!r} has no cards yet", set=empty[0]
            )


def totg_combined(options: Options) -> bool:
    """S5: Twilight of the Gods is combined with another set."""
    return TWILIGHT_OF_THE_GODS in options.sets and len(options.sets) > 1


def in_game(card: Card, options: Options) -> bool:
    """S5: whether ``card`` is dealt in a game with these options. Sets are merged by type;
    with Twilight of the Gods combined, either only its Missions are used (``twilight``), or
    its Missions, Regions and Events are removed (``older``)."""
    if card.set not in options.sets:
        return False
    if not totg_combined(options):
        return True
    mission = card.type in ("mission", "final_mission")
    if options.combined_missions == "twilight":
        return not mission or card.set == TWILIGHT_OF_THE_GODS
    if card.set != TWILIGHT_OF_THE_GODS:
        return True
    event = isinstance(card, EncounterCard) and card.kind == "event"
    return not (mission or event or card.type == "region")


def decks(options: Options) -> tuple[str, ...]:
    """S1, C7: the decks of a game: the four of every game, and the Arcane characters' when
    a set in play has them."""
    if ARCANE_SETS.intersection(options.sets):
        return (*DECKS, ARCANE_DECK)
    return DECKS


def dealt(db: CardDB, options: Options, deck: str) -> list[str]:
    """The ids of the cards of ``deck`` in a game with these options, in database order."""
    return [c.id for c in db if deck_of(c) == deck and in_game(c, options)]


def region_sets(options: Options) -> list[str]:
    """The sets whose Regions are in the game (S5: ``older`` removes Twilight of the Gods')."""
    if totg_combined(options) and options.combined_missions == "older":
        return [s for s in options.sets if s != TWILIGHT_OF_THE_GODS]
    return list(options.sets)


def regions_to_reveal(options: Options) -> int:
    """M10: exploring a new Region reveals one Region per set whose Regions are in play."""
    return max(1, len(region_sets(options)))


def can_flee(options: Options) -> bool:
    """E7: a party may flee a monster whenever Twilight of the Gods is in play."""
    return TWILIGHT_OF_THE_GODS in options.sets
