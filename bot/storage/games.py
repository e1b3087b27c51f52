"""Games and lobbies: creating a lobby, its seats and its activity, starting and stopping a
game, and the reads of games (by id, by channel, to play, to recover after a restart, with a
timer due).

Every game row read here carries its publish pointer not yet written
(:meth:`~bot.storage.commit.CommitStore._row`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.database import IntegrityError, Session
from bot.storage.commit import CommitStore
from bot.storage.faults import _NotALobby, kill_point
from bot.storage.rows import (
    _GAME_COLUMNS,
    _SEAT_COLUMNS,
    EventRow,
    GameRow,
    NewEvent,
    SeatRow,
    SeatUpdate,
    _seat,
)
from bot.storage.writes import seat_updates


class GamesStore(CommitStore):
    """Lobbies and games, their seats, and the reads of games."""

    # ------------------------------------------------------------------ games and lobbies

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        now: float,
        dice_seed: str | None = None,
        host_dice_seed: str | None = None,
    ) -> int | None:
        """A new lobby with the host in seat 1; None if the channel already has a game.
        ``dice_seed``: the game's server seed (secret), ``host_dice_seed`` the host's seat
        seed (docs/fair_dice.md)."""

        async def create(s: Session) -> int:
            row = await s.one(
                "INSERT INTO games (guild_id, channel_id, host_id, status, options_json, "
                "created_at, dice_seed) VALUES (?, ?, ?, 'lobby', ?, ?, ?) RETURNING id",
                (guild_id, channel_id, host_id, json.dumps(options), now, dice_seed),
            )
            game_id = int(row[0])
            await s.execute(
                "INSERT INTO seats (game_id, seat, position, user_id, name, dice_seed) "
                "VALUES (?, 'p1', 0, ?, ?, ?)",
                (game_id, host_id, host_name, host_dice_seed),
            )
            return game_id

        try:
            return await self.transaction(create)
        except IntegrityError:  # the channel's one active game exists already
            return None

    async def game(self, game_id: int) -> GameRow | None:
        return await self._game_where("id = ?", (game_id,))

    async def game_to_play(self, game_id: int) -> tuple[GameRow, list[SeatRow], bool] | None:
        """A game read back to be played (``bot.games.Games.load``), in one hop of two
        statements: its row, its seats (none for a lobby, a cancelled or a broken game) and
        whether some of its events were not published (those after its publish pointer, the
        pointer not yet written included: :meth:`behind` without its own hop). None: no
        such game. A damaged seat row sets the game's :attr:`~GameRow.damage`."""
        pending = self._pointers.get(game_id)
        after = pending.event_id if pending is not None else None

        async def read(s: Session) -> tuple[Any, Sequence[Any]]:
            row = await s.one(
                f"SELECT {_GAME_COLUMNS}, EXISTS (SELECT 1 FROM events e "
                "WHERE e.game_id = g.id AND e.id > COALESCE(?, g.published_event_id)) "
                "FROM games g WHERE id = ?",
                (after, game_id),
            )
            if row is None or row[4] in ("lobby", "cancelled", "broken"):
                return row, []
            seats = await s.all(
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY position",
                (game_id,),
            )
            return row, seats

        raw, seats = await self.db.run(read)
        if raw is None:
            return None
        row = self._row(raw)
        unpublished = row.published_version != row.version or bool(raw[-1])
        seat_rows = [_seat(r) for r in seats]
        if row.damage is None:
            # A damaged seat is its game's damage: the game alone is marked broken.
            row.damage = next((s.damage for s in seat_rows if s.damage is not None), None)
        return row, seat_rows, unpublished

    async def stored_version(self, game_id: int) -> int | None:
        """The game's version as stored (None: no such game): one indexed read, for a process
        that must not trust its copy in memory past it (:attr:`shared`)."""
        row = await self.fetchone("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(row[0]) if row is not None else None

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The lobby or running game of a channel."""
        return await self._game_where(
            "channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        )

    async def last_game(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel that was dealt (running, over, ended or broken)."""
        return await self._game_where(
            "channel_id = ? AND status NOT IN ('lobby', 'cancelled') ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )

    async def _game_where(self, where: str, params: tuple[int, ...]) -> GameRow | None:
        """The first game row matching the SQL condition ``where`` (and its order), if any."""
        row = await self.fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", params)
        return self._row(row) if row else None

    async def running_games(self) -> list[GameRow]:
        rows = await self.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'running' ORDER BY id"
        )
        return [self._row(r) for r in rows]

    async def games_to_recover(self) -> list[GameRow]:
        """After a restart: every running game, and every finished one whose last action or
        events were not all published (fault 1: its ending and summary are still to post)."""
        rows = await self.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE status = 'running' "
            "OR (status = 'over' AND (published_version < version OR EXISTS "
            "(SELECT 1 FROM events e WHERE e.game_id = g.id AND e.id > g.published_event_id))) "
            "ORDER BY id"
        )
        return [self._row(r) for r in rows]

    async def behind(self, row: GameRow) -> bool:
        """Whether some of the game's events or its last version were not published."""
        if row.published_version != row.version:
            return True
        found = await self.fetchone(
            "SELECT 1 FROM events WHERE game_id = ? AND id > ? LIMIT 1",
            (row.id, row.published_event_id),
        )
        return found is not None

    async def update_game(self, game_id: int, **fields: Any) -> None:
        """Set some columns of a game (not its state: see :meth:`commit`)."""
        if "options" in fields:
            fields["options_json"] = json.dumps(fields.pop("options"))
        cols = ", ".join(f"{k} = ?" for k in fields)
        await self._write([(f"UPDATE games SET {cols} WHERE id = ?", (*fields.values(), game_id))])

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.fetchall(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
        )
        return [_seat(r) for r in rows]

    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Replace a lobby's seats (join, leave, add AI)."""
        statements: list[tuple[str, Sequence[Any]]] = [
            ("DELETE FROM seats WHERE game_id = ?", (game_id,))
        ]
        for s in seats:
            statements.append(
                (
                    "INSERT INTO seats (game_id, seat, position, user_id, name, ai, ai_level, "
                    "dice_seed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        s.seat,
                        s.position,
                        s.user_id,
                        s.name,
                        int(s.ai),
                        s.ai_level,
                        s.dice_seed,
                    ),
                )
            )
        await self._write(statements)

    async def start_game(
        self,
        game_id: int,
        state_json: str,
        version: int,
        seed: int,
        decision_timer: int,
        window_timer: int,
        options: dict[str, Any],
        seats: Sequence[SeatUpdate],
        events: Sequence[NewEvent],
        now: float,
        pace: str = "live",
    ) -> bool:
        """Turn a lobby into a running game (at ``pace``, issue 26); False if it is no longer
        a lobby."""

        async def start(s: Session) -> list[EventRow]:
            done = await s.execute(
                "UPDATE games SET status = 'running', state_json = ?, version = ?, seed = ?, "
                "decision_timer = ?, window_timer = ?, options_json = ?, started_at = ?, pace = ? "
                "WHERE id = ? AND status = 'lobby'",
                (
                    state_json,
                    version,
                    seed,
                    decision_timer,
                    window_timer,
                    json.dumps(options),
                    now,
                    pace,
                    game_id,
                ),
            )
            if done.rowcount != 1:
                raise _NotALobby
            await seat_updates(s, game_id, seats)
            # Every member's secret start is to be DM'd (fault 7: redelivered on
            # recovery until marked delivered).
            await s.execute(
                "UPDATE seats SET start_dm = 0 WHERE game_id = ? AND user_id IS NOT NULL "
                "AND ai = 0",
                (game_id,),
            )
            return await self._insert_events(s, game_id, [(version, e) for e in events], now)

        try:
            stored = await self.transaction(start)
        except _NotALobby:
            return False
        self._remember_private(game_id, stored)
        kill_point("after start commit")
        return True

    async def set_start_delivered(self, game_id: int, seat: str) -> None:
        """A seat's secret start has been DM'd (or its member told in the channel)."""
        await self._write(
            [("UPDATE seats SET start_dm = 1 WHERE game_id = ? AND seat = ?", (game_id, seat))]
        )

    async def stop_game(
        self, game_id: int, status: str, now: float, reason: str | None = None
    ) -> bool:
        """End a lobby or running game without a result (cancelled, ended, broken)."""

        async def stop(s: Session) -> bool:
            done = await s.execute(
                "UPDATE games SET status = ?, ended_at = ?, broken_reason = ? "
                "WHERE id = ? AND status IN ('lobby', 'running')",
                (status, now, reason, game_id),
            )
            await s.execute(
                "UPDATE seats SET deadline = NULL, half_at = NULL WHERE game_id = ?",
                (game_id,),
            )
            return done.rowcount == 1

        return await self.transaction(stop)

    # ------------------------------------------------------------------ lobby activity

    async def touch_lobby(self, game_id: int, now: float) -> None:
        """Remember a lobby's last change (see :meth:`lobby_active_at`)."""
        await self._write(
            [
                (
                    "UPDATE games SET lobby_active_at = ? WHERE id = ? AND status = 'lobby'",
                    (now, game_id),
                )
            ]
        )

    async def lobby_active_at(self, game_id: int) -> float:
        """When a lobby last changed (its creation if it never did)."""
        row = await self.fetchone(
            "SELECT COALESCE(lobby_active_at, created_at) FROM games WHERE id = ?", (game_id,)
        )
        return float(row[0]) if row is not None else 0.0

    # ------------------------------------------------------------------ timers

    async def games_with_due_timers(self, now: float) -> list[int]:
        """Running games, not paused, where a deadline or a half-time ping is due."""
        rows = await self.fetchall(
            "SELECT DISTINCT s.game_id FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.status = 'running' AND g.paused_at IS NULL "
            "AND ((s.deadline IS NOT NULL AND s.deadline <= ?) "
            "OR (s.half_at IS NOT NULL AND s.half_at <= ? AND s.pinged = 0) "
            "OR s.wake_at <= ?) ORDER BY s.game_id",
            (now, now, now),
        )
        return [r[0] for r in rows]
