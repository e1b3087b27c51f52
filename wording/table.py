"""The table's parts in words, as every board shows them: a phase, a deck, a Region's level
and what lies on it, a party's cards in play by mark."""

from __future__ import annotations

from collections.abc import Sequence

from engine import AdvantageCard, CardDB, RegionView
from wording.cards import (
    BEATEN_MARK,
    GUARD_MARK,
    IN_PLAY_MARK,
    IN_PLAY_MARKS,
    TRAP_MARK,
    card_name,
    printed,
)
from words import counted, known, msg, say


def phase_text(phase: str) -> str:
    """A phase's name ("Movement phase"), an unknown one as it reads."""
    id = f"board.phase.{phase}"
    return say(msg(id)) if known(id) else phase


def deck_name(deck: str) -> str:
    """A deck's name on the board ("advantage"), an unknown one as it reads."""
    id = f"board.deck.{deck}"
    return say(msg(id)) if known(id) else deck


def level_text(r: RegionView) -> str:
    """``L2``, or ``L3 (printed 2)`` while a card changes the Region's level this turn."""
    if r.printed_level and r.level != r.printed_level:
        return say(msg("board.region.level.changed", level=r.level, printed=r.printed_level))
    return say(msg("board.region.level", level=r.level))


def region_extras(r: RegionView, db: CardDB) -> list[str]:
    """What lies on a Region besides its Preliminary Encounter: face-down Traps (only how
    many) and its guard, standing or beaten."""
    out = []
    if r.traps:
        out.append(f"{TRAP_MARK} {say(counted('board.region.traps', r.traps))}")
    if r.guard != "none":
        guard = db.region(r.card).guard
        name = printed(r.card, guard.name) if guard is not None else msg("board.region.its_guard")
        if r.guard == "standing":
            out.append(f"{GUARD_MARK} {say(msg('board.region.guarded', guard=name))}")
        else:
            out.append(f"{BEATEN_MARK} {say(msg('board.region.guard_beaten', guard=name))}")
    return out


def in_play_lines(cards: Sequence[str], db: CardDB) -> list[str]:
    """A party's cards in play, one line per mark: its Faction (🚩), Artifact (🏺), Incidents
    (🌀), and the rest (🏛: Organizations, Magic Objects)."""
    groups: dict[str, list[str]] = {}
    for c in cards:
        card = db.by_id.get(c)
        kind = card.kind if isinstance(card, AdvantageCard) else ""
        groups.setdefault(IN_PLAY_MARKS.get(kind, IN_PLAY_MARK), []).append(card_name(db, c))
    order = [IN_PLAY_MARK, *IN_PLAY_MARKS.values()]
    return [f"{mark} " + ", ".join(groups[mark]) for mark in order if mark in groups]
