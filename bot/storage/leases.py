"""Leases (issue 24): what one process at a time does for a game, claimed from the database
for a while, so that it is done once whichever processes are alive.

A lease is a row of ``leases`` (kind, game, holder, expiry). Its kinds:

- ``timer``: a game's due deadlines (``bot.timers``), claimed by the timer loop of the
  process whose shards carry the game's server, or by any process once they are overdue by
  a lease's length (the owner is gone);
- ``ai``: AI turns run outside a player's decision (after a restart);
- ``post``: posting a game's events (the outbox: :mod:`bot.publishing`). A post in flight
  is written down with its claim: its last event, its version and what it is
  (``posting``). The post's pointer and the lease's end are written together once it is out
  (:meth:`LeaseStore.end_post`). Whoever claims the lease next and finds a post in flight
  past the pointer sends it again first, with the same nonce: Discord keeps the one message
  if the first went out (``enforce_nonce``).

A lease is held until it expires (``expires_at``) or its holder ends it; a holder renews its
own at will. The holder is a name of the process (:attr:`LeaseStore.holder`): a cluster's
shards, so that a cluster restarted after a crash gets its own leases back at once, without
waiting for their expiry.

On PostgreSQL a batch of claims (the timer loop's) locks the lease rows with ``FOR UPDATE
SKIP LOCKED``: two processes claiming at once never wait for each other and never both get
a game. On SQLite there is one process; a claim is a plain transaction. One claim is one
statement on both (``INSERT ... ON CONFLICT DO UPDATE ... WHERE``: the row is locked and the
condition read again on its latest version).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.database import Session
from bot.storage.claims import CLAIM
from bot.storage.core import StorageCore
from bot.storage.rows import Pointer

#: The kinds of lease.
TIMER, AI, POST = "timer", "ai", "post"
#: What a post in flight is (``leases.posting``): the events and the board, or half-time
#: pings (``ping`` and the JSON of their lines and mentions: sent again as they were).
EVENTS, PING = "post", "ping"


@dataclass(frozen=True)
class PostClaim:
    """A game's posting lease, claimed: what is posted of it (the pointer as stored), and the
    post to make now: up to event ``upto_event`` and version ``upto_version``; ``posting``
    says what it is (``"post"``: the events and the board; ``"ping"``: half-time pings);
    ``again``: it was in flight when its last holder stopped (send it again, same nonce)."""

    pointer: Pointer
    upto_event: int
    upto_version: int
    posting: str
    again: bool
    #: When it was claimed (``time.monotonic``): a post about to go out late renews it first.
    at: float = field(default_factory=time.monotonic)


class LeaseStore(StorageCore):
    """The leases of the games (see the module's doc)."""

    #: This process's name as a lease holder (the app sets it from its shards).
    holder: str = "anima-bot"

    async def claim(self, kind: str, game_id: int, seconds: float, now: float) -> bool:
        """Claim (or renew) one lease for ``seconds``; False if another live holder has it."""
        row = await self._guarded(
            self.db.run(lambda s: s.one(CLAIM, (kind, game_id, self.holder, now + seconds, now)))
        )
        return row is not None

    async def claim_many(
        self, kind: str, game_ids: Sequence[int], seconds: float, now: float
    ) -> list[int]:
        """Claim the leases of ``game_ids`` that are free (or this process's); the games
        claimed, in order."""
        if not game_ids:
            return []
        claim = self.dialect.claim_leases
        holder, until = self.holder, now + seconds
        return await self._guarded(
            self.db.run(lambda s: claim(s, kind, game_ids, holder, until, now))
        )

    async def renew(self, kind: str, game_id: int, seconds: float, now: float) -> bool:
        """Make this process's live lease last ``seconds`` more; False if it is not its own
        any more (it expired and another process took it: what it was for is not to be done
        here now)."""

        async def renew(s: Session) -> bool:
            done = await s.execute(
                "UPDATE leases SET expires_at = ? WHERE kind = ? AND game_id = ? AND holder = ? "
                "AND expires_at > ?",
                (now + seconds, kind, game_id, self.holder, now),
            )
            return done.rowcount == 1

        return await self._guarded(self.db.run(renew))

    async def release(self, kind: str, game_id: int) -> None:
        """End this process's lease (anybody may claim it now)."""
        await self._write(
            [
                (
                    "UPDATE leases SET expires_at = 0 WHERE kind = ? AND game_id = ? "
                    "AND holder = ?",
                    (kind, game_id, self.holder),
                )
            ]
        )

    async def holders(self, kind: str, now: float) -> dict[int, str]:
        """The live leases of a kind: game -> holder (tests, the operator's look)."""
        rows = await self.fetchall(
            "SELECT game_id, holder FROM leases WHERE kind = ? AND expires_at > ?", (kind, now)
        )
        return {int(r[0]): str(r[1]) for r in rows}

    # ------------------------------------------------------------------ the outbox

    async def begin_post(
        self, game_id: int, version: int, posting: str, seconds: float, now: float
    ) -> PostClaim | None:
        """Claim a game's posting lease and write down the post about to go out: its events
        up to the last of ``version`` (the game as the caller shows it), ``posting`` its
        kind. If a post was in flight (its holder stopped before :meth:`end_post`) past the
        stored pointer, that one is returned to send again (``again``) and stays written
        down. None: another live process posts the game now."""
        holder, until = self.holder, now + seconds

        async def begin(s: Session) -> PostClaim | None:
            async with s.transaction():
                if await s.one(CLAIM, (POST, game_id, holder, until, now)) is None:
                    return None
                game = await s.one(
                    "SELECT published_event_id, published_version, board_message_id, "
                    "board_turn FROM games WHERE id = ?",
                    (game_id,),
                )
                if game is None:
                    return None
                pointer = Pointer(int(game[0]), int(game[1]), game[2], game[3])
                flight = await s.one(
                    "SELECT upto_event, upto_version, posting FROM leases "
                    "WHERE kind = ? AND game_id = ?",
                    (POST, game_id),
                )
                if (
                    flight is not None
                    and flight[2] is not None
                    and (
                        flight[0] > pointer.event_id
                        or (flight[0] == pointer.event_id and flight[1] > pointer.version)
                        or flight[2] == "ping"
                    )
                ):
                    return PostClaim(pointer, int(flight[0]), int(flight[1]), flight[2], True)
                last = await s.one(
                    "SELECT MAX(id) FROM events WHERE game_id = ? AND version <= ?",
                    (game_id, version),
                )
                upto = max(int(last[0] or 0), pointer.event_id)
                await s.execute(
                    "UPDATE leases SET upto_event = ?, upto_version = ?, posting = ? "
                    "WHERE kind = ? AND game_id = ?",
                    (upto, version, posting, POST, game_id),
                )
                return PostClaim(pointer, upto, version, posting, False)

        return await self._guarded(self.db.run(begin))

    async def end_post(self, game_id: int, pointer: Pointer | None) -> int | None:
        """The post is out (or given up: ``pointer`` None): its pointer written, if this
        process still holds the posting lease, and the lease ended, in one transaction.
        None if it held the lease; else (a process held up longer than its lease, another
        took the game's posts over) the game's board message as stored (0: none), so that
        the caller retires a board it posted meanwhile that is not that one."""

        async def end(s: Session) -> int | None:
            if pointer is not None:
                await s.execute(
                    "UPDATE games SET published_event_id = ?, published_version = ?, "
                    "board_message_id = ?, board_turn = ? WHERE id = ? AND EXISTS (SELECT 1 "
                    "FROM leases WHERE kind = ? AND game_id = ? AND holder = ?)",
                    (
                        pointer.event_id,
                        pointer.version,
                        pointer.board_message_id,
                        pointer.board_turn,
                        game_id,
                        POST,
                        game_id,
                        self.holder,
                    ),
                )
            ended = await s.execute(
                "UPDATE leases SET expires_at = 0, upto_event = NULL, upto_version = NULL, "
                "posting = NULL WHERE kind = ? AND game_id = ? AND holder = ?",
                (POST, game_id, self.holder),
            )
            if ended.rowcount == 1:
                return None
            row = await s.one("SELECT board_message_id FROM games WHERE id = ?", (game_id,))
            return int(row[0] or 0) if row is not None else 0

        return await self.transaction(end)

    async def games_to_post(self, now: float, settled: float) -> list[tuple[int, int, bool]]:
        """Games with something committed and not posted (running, or ended within the
        hour) whose posting lease is free, expired or this process's: (game, server,
        whether it waits since before ``settled``: a process that is not the game's owner
        takes over only those)."""
        rows = await self.fetchall(
            "SELECT g.id, g.guild_id, COALESCE((SELECT MIN(e.at) FROM events e "
            "WHERE e.game_id = g.id AND e.id > g.published_event_id), ?) FROM games g "
            "WHERE (g.status = 'running' OR (g.status = 'over' AND g.ended_at > ?)) "
            "AND (g.published_version < g.version OR EXISTS (SELECT 1 FROM events e "
            "WHERE e.game_id = g.id AND e.id > g.published_event_id)) "
            "AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.kind = ? AND l.game_id = g.id "
            "AND l.holder <> ? AND l.expires_at > ?) ORDER BY g.id",
            (now, now - 3600, POST, self.holder, now),
        )
        return [(int(r[0]), int(r[1]), float(r[2]) <= settled) for r in rows]

    async def due_timers(self, now: float) -> list[tuple[int, int, float]]:
        """Running games, not paused, where a deadline or a half-time ping is due: (game,
        server, the earliest due time)."""
        rows = await self.fetchall(
            "SELECT s.game_id, g.guild_id, MIN(CASE WHEN s.deadline IS NOT NULL AND "
            "s.deadline <= ? THEN s.deadline WHEN s.half_at <= ? AND s.pinged = 0 "
            "THEN s.half_at ELSE s.wake_at END) "
            "FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.status = 'running' AND g.paused_at IS NULL "
            "AND ((s.deadline IS NOT NULL AND s.deadline <= ?) "
            "OR (s.half_at IS NOT NULL AND s.half_at <= ? AND s.pinged = 0) OR s.wake_at <= ?) "
            "GROUP BY s.game_id, g.guild_id ORDER BY s.game_id",
            (now, now, now, now, now),
        )
        return [(int(r[0]), int(r[1]), float(r[2])) for r in rows]
