"""The write of a running game: one transaction per change (:meth:`CommitStore.commit`), and
the publish pointers that ride along with the commits.

A running game is written by one statement batch per change: its state, the actions and their
events, its seats and its publish pointer in one transaction. A post's pointer is not written
on its own: it waits in memory for the next commit (:meth:`CommitStore.defer_pointer`), and
every game row read meanwhile carries it (:meth:`CommitStore._row`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.storage.core import _save_pointers
from bot.storage.log import LogStore, _event_values
from bot.storage.rows import EventRow, GameRow, GameWrite, Pointer, _game
from bot.storage.writes import CommitRows


class CommitStore(LogStore):
    """A running game's commits and its publish pointers."""

    # ------------------------------------------------------------------ commits

    async def commit(
        self, game_id: int, expected_version: int, write: GameWrite, now: float
    ) -> list[EventRow]:
        """One change of a running game in one transaction, one hop: its state, the actions
        and events since the last write, every seat's bookkeeping, the pause and the publish
        pointer (and, for the last action, the result), sent the dialect's way
        (:mod:`bot.storage.writes`). Returns the events as stored (with their ids), for
        publishing.

        Raises :class:`VersionConflict` (nothing written) if the stored game is not at
        ``expected_version`` or no longer running; :class:`StorageUnavailable` if the database
        fails.
        """
        p = write.pointer
        sets = "version = ?, paused_at = ?"
        params: list[Any] = [write.version, write.paused_at]
        if not self.shared:
            # On a shared database the pointer is written by the post itself, under its
            # posting lease (bot.storage.leases): a commit's copy may be older than another
            # process's post.
            sets += ", published_event_id = ?, published_version = ?, board_message_id = ?, "
            sets += "board_turn = ?"
            params += [p.event_id, p.version, p.board_message_id, p.board_turn]
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
        events = [(version, e, *_event_values(e)) for version, e in write.events]
        rows = CommitRows(
            game_id=game_id,
            expected_version=expected_version,
            sets=sets,
            params=params,
            actions=write.actions,
            events=[
                (version, e.kind, e.text, recipients, data)
                for version, e, recipients, data in events
            ],
            # A finished game has no deadline left.
            seats=write.seats
            if finish is None
            else [replace(u, deadline=None, half_at=None) for u in write.seats],
            riders=others,
            results=finish.results if finish is not None else [],
            now=now,
            after=(
                None
                if finish is None
                else (lambda s: self.at_finish(s, game_id, now, finish.ai_level))
            ),
        )
        # The dialect's writer is one transaction (bot.storage.writes).
        write_commit = self.dialect.write_commit
        ids = await self._guarded(self.db.run(lambda s: write_commit(s, rows)))
        stored = [
            # The data as a reader of the row gets it (JSON: tuples become lists).
            EventRow(
                event_id, game_id, version, e.kind, e.text, e.recipients, json.loads(data), now
            )
            for event_id, (version, e, _recipients, data) in zip(ids, events, strict=True)
        ]
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
