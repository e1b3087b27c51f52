"""The game log: writing a change's events (inside its transaction) and reading them back,
the action log (the replay), and the players' private logs kept in memory.

Every event row is read without raising (:func:`bot.storage.rows._event`): a damaged one is
private to nobody.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.database import Session
from bot.storage.core import StorageCore
from bot.storage.rows import _EVENT_COLUMNS, EventRow, NewEvent, _compact, _event
from bot.storage.writes import insert_events

#: Private logs (game, seat) kept in memory at most (bot.panels draws them).
PRIVATE_CACHE = 4096


class LogStore(StorageCore):
    """A game's events and actions."""

    # ------------------------------------------------------------------ writing the log

    async def _insert_events(
        self, s: Session, game_id: int, events: Sequence[tuple[int, NewEvent]], now: float
    ) -> list[EventRow]:
        """Log ``events`` (version, event) in order; the rows as stored, with their ids.
        Runs in the hop of the caller's transaction (:func:`bot.storage.writes.insert_events`)."""
        values = [(version, e, *_event_values(e)) for version, e in events]
        ids = await insert_events(
            s, game_id, [(v, e.kind, e.text, r, d) for v, e, r, d in values], now
        )
        return [
            # The data as a reader of the row gets it (JSON: tuples become lists).
            EventRow(event_id, game_id, version, e.kind, e.text, e.recipients, json.loads(d), now)
            for event_id, (version, e, _r, d) in zip(ids, values, strict=True)
        ]

    # ------------------------------------------------------------------ log queries

    async def events_after(self, game_id: int, after_id: int) -> list[EventRow]:
        rows = await self.fetchall(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND id > ? ORDER BY id",
            (game_id, after_id),
        )
        return [_event(r) for r in rows]

    async def last_events(self, game_id: int, limit: int) -> list[EventRow]:
        """The latest events (oldest first), public and private."""
        rows = await self.fetchall(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? ORDER BY id DESC LIMIT ?",
            (game_id, limit),
        )
        return [_event(r) for r in reversed(rows)]

    async def private_events(self, game_id: int, seat: str, limit: int) -> list[EventRow]:
        """The latest events addressed to ``seat`` alone or with others (oldest first).

        Kept in memory once read (a private panel is drawn again after most clicks) and
        brought up to date by every insert of the game's events."""
        key = (game_id, seat, limit)
        cached = self._private.get(key)
        if cached is not None:
            self._private.move_to_end(key)
            return list(cached)
        rows = await self.fetchall(
            f"SELECT {_EVENT_COLUMNS} FROM events "
            f"WHERE game_id = ? AND recipients IS NOT NULL AND {self.dialect.recipient_is} "
            "ORDER BY id DESC LIMIT ?",
            (game_id, seat, limit),
        )
        events = [_event(r) for r in reversed(rows)]
        self._private[key] = events
        self._private_keys.setdefault(game_id, set()).add(key)
        while len(self._private) > PRIVATE_CACHE:
            (old_game, old_seat, old_limit), _ = self._private.popitem(last=False)
            self._private_keys.get(old_game, set()).discard((old_game, old_seat, old_limit))
        return list(events)

    def _remember_private(self, game_id: int, events: Sequence[EventRow]) -> None:
        # New events of a game reach the private logs kept in memory for its seats.
        keys = self._private_keys.get(game_id)
        if not keys:
            return
        for key in list(keys):
            cached = self._private.get(key)
            if cached is None:
                keys.discard(key)
                continue
            _, seat, limit = key
            cached += [e for e in events if e.recipients is not None and seat in e.recipients]
            del cached[: max(0, len(cached) - limit)]

    async def actions(self, game_id: int) -> list[tuple[int, str, str, str]]:
        """Every applied action: (version, seat, action, source), in order."""
        rows = await self.fetchall(
            "SELECT version, seat, action, source FROM actions WHERE game_id = ? ORDER BY version",
            (game_id,),
        )
        return [(r[0], r[1], r[2], r[3]) for r in rows]


def _event_values(e: NewEvent) -> tuple[str | None, str]:
    """An event's recipients and data as stored (compact JSON)."""
    return (_compact(e.recipients) if e.recipients is not None else None), _compact(e.data)
