"""The write of a running game: one transaction per change (:meth:`CommitStore.commit`), and
the publish pointers that ride along with the commits.

A running game is written by one statement batch per change: its state, the actions and their
events, its seats and its publish pointer in one transaction. A post's pointer is not written
on its own: it waits in memory for the next commit (:meth:`CommitStore.defer_pointer`), and
every game row read meanwhile carries it (:meth:`CommitStore._row`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.database import Session
from bot.storage.core import _save_pointers
from bot.storage.faults import VersionConflict
from bot.storage.log import LogStore
from bot.storage.rows import EventRow, GameRow, GameWrite, Pointer, SeatUpdate, _game


class CommitStore(LogStore):
    """A running game's commits and its publish pointers."""

    # ------------------------------------------------------------------ commits

    async def commit(
        self, game_id: int, expected_version: int, write: GameWrite, now: float
    ) -> list[EventRow]:
        """One change of a running game in one transaction, one hop: its state, the actions
        and events since the last write (``executemany`` / one multi-row INSERT), every
        seat's bookkeeping, the pause and the publish pointer (and, for the last action, the
        result). Returns the events as stored (with their ids), for publishing.

        Raises :class:`VersionConflict` (nothing written) if the stored game is not at
        ``expected_version`` or no longer running; :class:`StorageUnavailable` if the database
        fails.
        """
        p = write.pointer
        sets = (
            "version = ?, paused_at = ?, published_event_id = ?, published_version = ?, "
            "board_message_id = ?, board_turn = ?"
        )
        params: list[Any] = [
            write.version,
            write.paused_at,
            p.event_id,
            p.version,
            p.board_message_id,
            p.board_turn,
        ]
        if write.state_json is not None:
            sets += ", state_json = ?"
            params.append(write.state_json)
        finish = write.finish
        if finish is not None:
            sets += ", status = 'over', winner_seat = ?, ending = ?, ended_at = ?"
            params += [finish.winner_seat, finish.ending, now]
        # The pointers of games no longer played in memory ride along (one statement).
        others = [
            (g, self._pointers[g]) for g in self._riders if g != game_id and g in self._pointers
        ]
        stored = await self.transaction(
            lambda s: self._commit(s, game_id, expected_version, write, sets, params, others, now)
        )
        # The private logs in memory learn the events once they are committed.
        self._remember_private(game_id, stored)
        if self._pointers.get(game_id) == write.pointer:
            del self._pointers[game_id]
            self._riders.discard(game_id)
        for other, p in others:
            if self._pointers.get(other) is p:
                del self._pointers[other]
                self._riders.discard(other)
        return stored

    async def _commit(
        self,
        s: Session,
        game_id: int,
        expected_version: int,
        write: GameWrite,
        sets: str,
        params: list[Any],
        others: list[tuple[int, Pointer]],
        now: float,
    ) -> list[EventRow]:
        # The hop of commit(), inside its transaction.
        finish = write.finish
        done = await s.execute(
            f"UPDATE games SET {sets} WHERE id = ? AND version = ? AND status = 'running'",
            (*params, game_id, expected_version),
        )
        if done.rowcount != 1:
            raise VersionConflict(f"game {game_id} is not at version {expected_version}")
        if write.actions:
            await s.executemany(
                "INSERT INTO actions (game_id, version, seat, action, source, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, v, seat, a, src, now) for v, seat, a, src in write.actions],
            )
        stored = await self._insert_events(s, game_id, write.events, now)
        seats = write.seats
        if finish is not None:
            seats = [replace(u, deadline=None, half_at=None) for u in seats]
        await _seat_updates(s, game_id, seats)
        if others:
            await s.executemany(
                "UPDATE games SET published_event_id = ?, published_version = ?, "
                "board_message_id = ?, board_turn = ? WHERE id = ?",
                [
                    (p.event_id, p.version, p.board_message_id, p.board_turn, other)
                    for other, p in others
                ],
            )
        if finish is not None:
            await s.executemany(
                "INSERT INTO results (game_id, guild_id, seat, user_id, name, ai, won) "
                "SELECT ?, guild_id, ?, ?, ?, ?, ? FROM games WHERE id = ?",
                [
                    (game_id, seat_id, user_id, name, int(ai), int(won), game_id)
                    for seat_id, user_id, name, ai, won in finish.results
                ],
            )
        return stored

    # ------------------------------------------------------------------ publish pointers

    def _row(self, raw: Sequence[Any]) -> GameRow:
        """A games row as this process knows it: with its publish pointer not yet written."""
        row = _game(raw)
        p = self._pointers.get(row.id)
        if p is not None:
            row.published_event_id, row.published_version = p.event_id, p.version
            row.board_message_id, row.board_turn = p.board_message_id, p.board_turn
        return row

    def defer_pointer(self, game_id: int, pointer: Pointer, own_commit: bool = True) -> None:
        """A post went out: its pointer is written with the game's next :meth:`commit`
        (``own_commit``: a running game in memory), else with the next commit of any game
        (:meth:`ride_along`): never in a transaction of its own. Until then every row read
        here carries it; a crash loses it, and the channel tells what was posted
        (``bot.publishing.Publisher.reconcile``)."""
        self._pointers[game_id] = pointer
        if not own_commit:
            self._riders.add(game_id)

    def ride_along(self, game_id: int) -> None:
        """A game leaves memory: its pointer not yet written goes with any game's commit."""
        if game_id in self._pointers:
            self._riders.add(game_id)

    async def save_pointer(self, game_id: int, pointer: Pointer) -> None:
        """Record what has been posted of a game now (a game reconciled with its channel)."""
        self._pointers.pop(game_id, None)
        self._riders.discard(game_id)
        await self._write(_save_pointers([(game_id, pointer)]))


async def _seat_updates(s: Session, game_id: int, seats: Sequence[SeatUpdate]) -> None:
    """Every seat's bookkeeping of a change (one ``executemany``)."""
    if not seats:
        return
    await s.executemany(
        "UPDATE seats SET ai = ?, timeouts = ?, prompt_since = ?, deadline = ?, "
        "half_at = ?, pinged = ? WHERE game_id = ? AND seat = ?",
        [
            (
                int(u.ai),
                u.timeouts,
                u.prompt_since,
                u.deadline,
                u.half_at,
                int(u.pinged),
                game_id,
                u.seat,
            )
            for u in seats
        ],
    )
