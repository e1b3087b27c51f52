"""Active Regions (M3, M4, D2) and the Tree of Regions (O1): where a party may go.

Shared by the Movement phase and by the cards that move a party (Zeppelin Voyage, Expedition
Charter), so it sits below both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.state import Player, Region

if TYPE_CHECKING:
    from engine.game import Game


#: The range of a Region's level (the cards print 1-3; a level change stays within it).
MIN_LEVEL, MAX_LEVEL = 1, 3


def region_level(g: Game, card: str) -> int:
    """The Region's level now: as printed, changed until the end of the turn by cards such as
    the Trap Unleashed Danger (``modify_region``), within 1-3; while a mission there says the
    Region counts as some level (``region_counts_as``), that level. M8/E5 (false alarms), E6
    (how many Advantages) and conditions read it; the Tree of Regions (O1) places a Region by
    its printed level."""
    for frame in g.s.stack:
        if frame.kind == "mission" and frame.region == card and "counts_as" in frame.data:
            return int(frame.data["counts_as"])
    printed = g.db.region(card).level
    region = active_region(g, card)
    if region is None or not region.level_bonus:
        return printed
    return max(MIN_LEVEL, min(MAX_LEVEL, printed + region.level_bonus))


def lay_out(g: Game, card: str) -> None:
    """A Region just put into play (S4, M4): a printed guard stands again (TotG)."""
    region = active_region(g, card)
    assert region is not None
    region.guarded = g.db.region(card).guard is not None


def guard_stands(g: Game, card: str, kind: str) -> bool:
    """The active Region ``card`` is guarded by a ``kind`` (monster, trap) not yet beaten."""
    region = active_region(g, card)
    guard = g.db.region(card).guard
    return region is not None and region.guarded and guard is not None and guard.kind == kind


def max_regions(g: Game) -> int:
    """M3: at most 2 x (number of players) active Regions."""
    return 2 * len(g.s.seats)


def active_region(g: Game, card: str) -> Region | None:
    """The active Region ``card``, if it is in play."""
    return next((r for r in g.s.regions if r.card == card), None)


def can_explore_new(g: Game) -> bool:
    """M1/M4/D2: one explorer per turn, from the deck or the Region discard pile."""
    return not g.s.explored_new and bool(g.s.decks["region"] or g.s.discards["region"])


def new_region_choices(g: Game) -> list[str]:
    """M4/D2: where a new Region may come from: ``""`` for the top of the Region deck, or any
    Region of the Region discard pile (the only source once the deck is empty)."""
    return ([""] if g.s.decks["region"] else []) + list(g.s.discards["region"])


def can_enter_level(g: Game, p: Player, level: int) -> bool:
    """O1 Tree of Regions: from outside the tree only level 1; SoO reading: up one level at a
    time (down freely); BGE reading: the same level or one up or down."""
    mode = g.s.options.tree_of_regions
    if mode == "off":
        return True
    if p.tree_level is None:
        return level == 1
    if mode == "soo":
        return level <= p.tree_level + 1
    return abs(level - p.tree_level) <= 1


def destinations(g: Game, name: str) -> list[str]:
    """Active Regions the party may declare a move to (X1: its own Region included)."""
    if g.s.options.tree_of_regions == "off":  # every level may be entered: skip the lookups
        return [r.card for r in g.s.regions]
    p = g.player(name)
    return [r.card for r in g.s.regions if can_enter_level(g, p, g.db.region(r.card).level)]
