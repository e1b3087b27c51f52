"""'Since you last looked' (issue 26): a member's looks at a game (a panel opened, a click),
and what he missed when he comes back after :data:`SINCE_AFTER` or more.

His look is the newest event posted when he looked, and the time
(:meth:`bot.storage.Storage.mark_seen`: exact in memory, stored at most every
``WRITE_EVERY``, never in a decision's commit). A game younger than :data:`SINCE_AFTER` reads
nothing stored: nobody can have been away that long from it, so the first panels and clicks
of a game cost no statement."""

from __future__ import annotations

import contextlib

from bot.rendering.since import since_text
from bot.storage import SeatRow, Storage, StorageUnavailable
from bot.table import Table

#: Away this long (seconds) with something new: his panel tells him what he missed.
SINCE_AFTER = 3600.0


def _started(table: Table) -> float:
    row = table.row
    return row.started_at or row.created_at


async def since_you_looked(storage: Storage, table: Table, seat: SeatRow, at: float) -> str:
    """The lines that tell ``seat``'s member what he missed since he last looked (empty if he
    looked less than :data:`SINCE_AFTER` ago, never looked, or nothing he may read happened),
    in the current language; his look at ``at`` is marked. A storage failure costs only the
    lines: the panel is shown all the same."""
    user = seat.user_id
    if user is None:
        return ""
    upto = table.row.published_event_id
    text = ""
    with contextlib.suppress(StorageUnavailable):
        seen = await storage.last_seen(table.id, user, read=at - _started(table) >= SINCE_AFTER)
        if seen is not None and at - seen.at >= SINCE_AFTER and upto > seen.event_id:
            events = await storage.missed_events(table.id, seat.seat, seen.event_id, upto)
            text = since_text(events, table.names, table.game.db, seen.at)
        await storage.mark_seen(table.id, user, upto, at, _started(table), force=bool(text))
    return text


async def looked(storage: Storage, table: Table, seat: SeatRow, at: float) -> None:
    """``seat``'s member clicked in the game at ``at``: his look is marked (in memory; stored
    now and then)."""
    if seat.user_id is None:
        return
    with contextlib.suppress(StorageUnavailable):
        await storage.mark_seen(
            table.id, seat.user_id, table.row.published_event_id, at, _started(table), False
        )
