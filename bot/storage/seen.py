"""What a member last saw of a game, and the member's games on a server (issue 26).

``member_seen`` holds, per game and member, the newest event posted when he last looked (a
panel opened, a click in the game) and when: a member's own data. It is kept in memory
(exact) and written apart from any decision's commit, at most every :data:`WRITE_EVERY`
seconds of a member's looking (and whenever "Since you last looked" was shown), so that a
game's clicks cost no statement for it: after a restart the stored mark is at most that old.

A member's games (``/anima games``) are read in one statement: the games of the server he
sits in (lobbies and running games), with every seat, and for a seat with an open decision
the time it opened: the time of the action that produced the prompt's version (a seat's
``prompt_since`` is the game version at which his prompt appeared; the ``actions`` row of that
version was written in the same commit), nothing new written for it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.database import Session
from bot.storage.core import StorageCore
from bot.storage.rows import _EVENT_COLUMNS, EventRow, GuildSettings, _event

#: A member's look is written at most this often (seconds): the rest is in memory.
WRITE_EVERY = 10 * 60.0
#: Marks kept in memory at most (the least recently used leave first: read back if needed).
SEEN_CACHE = 20_000
#: Missed events read at most for one "Since you last looked" (the newest).
MISSED_LIMIT = 500


@dataclass
class Seen:
    """When a member last looked at a game, and the newest event posted then."""

    event_id: int
    at: float
    #: The time of the mark as stored (None: nothing stored yet, or not known).
    stored_at: float | None = None


@dataclass
class GameSeat:
    """A seat of one of a member's games, as ``/anima games`` shows it."""

    seat: str
    user_id: int | None
    name: str
    ai: bool
    #: The time its open decision opened (None: none open; 0.0: open, its time unknown).
    deciding_since: float | None


@dataclass
class MemberGame:
    """A lobby or running game a member sits in."""

    id: int
    channel_id: int
    status: str
    board_message_id: int | None
    lobby_message_id: int | None
    created_at: float
    started_at: float | None
    paused_at: float | None
    seats: list[GameSeat] = field(default_factory=list)


class SeenStore(StorageCore):
    """The members' looks at their games, and the games a member sits in."""

    def __init__(self, target: Path | str, defaults: GuildSettings) -> None:
        super().__init__(target, defaults)
        #: (game, member) -> his last look, the least recently used first.
        self._seen: OrderedDict[tuple[int, int], Seen] = OrderedDict()

    async def last_seen(self, game_id: int, user_id: int, read: bool = True) -> Seen | None:
        """The member's last look at the game: from memory, else (``read``) from the database
        (one hop); None if he never looked (or it is not known without reading)."""
        cache = self._seen
        key = (game_id, user_id)
        seen = cache.get(key)
        if seen is not None:
            cache.move_to_end(key)
            return seen
        if not read:
            return None
        row = await self._guarded(
            self.fetchone(
                "SELECT event_id, seen_at FROM member_seen WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
        )
        if row is None:
            return None
        seen = Seen(int(row[0]), float(row[1]), float(row[1]))
        self._keep_seen(key, seen)
        return seen

    async def mark_seen(
        self, game_id: int, user_id: int, event_id: int, at: float, since: float, force: bool
    ) -> None:
        """The member looked at the game at ``at``, everything up to ``event_id`` posted.
        Written (one hop) when ``force``, or when the stored mark (none: ``since``, the
        game's start) is :data:`WRITE_EVERY` old; otherwise kept in memory only."""
        cache = self._seen
        key = (game_id, user_id)
        before = cache.get(key)
        stored = before.stored_at if before is not None else None
        event_id = max(event_id, before.event_id if before is not None else 0)
        if force or at - (stored if stored is not None else since) >= WRITE_EVERY:
            await self.transaction(_upsert_seen(game_id, user_id, event_id, at))
            stored = at
        self._keep_seen(key, Seen(event_id, at, stored))

    def forget_seen(self, user_id: int) -> None:
        """Forget a member's looks kept in memory (his data deleted: ``/anima privacy``)."""
        for key in [k for k in self._seen if k[1] == user_id]:
            del self._seen[key]

    def _keep_seen(self, key: tuple[int, int], seen: Seen) -> None:
        cache = self._seen
        cache[key] = seen
        cache.move_to_end(key)
        while len(cache) > SEEN_CACHE:
            cache.popitem(last=False)

    async def missed_events(
        self, game_id: int, seat: str, after_id: int, upto_id: int
    ) -> list[EventRow]:
        """The events posted in ``(after_id, upto_id]`` that ``seat`` may read: the public
        ones and those addressed to him (never another seat's private events), oldest first,
        the newest :data:`MISSED_LIMIT` at most."""
        rows = await self._guarded(
            self.fetchall(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND id > ? AND id <= ? "
                f"AND (recipients IS NULL OR {self.dialect.recipient_is}) "
                "ORDER BY id DESC LIMIT ?",
                (game_id, after_id, upto_id, seat, MISSED_LIMIT),
            )
        )
        return [_event(r) for r in reversed(rows)]

    async def member_games(self, guild_id: int, user_id: int) -> list[MemberGame]:
        """The lobbies and running games of the server that the member sits in, with their
        seats (one statement); the board message as posted (a pointer not yet written
        included)."""
        rows = await self.fetchall(
            "SELECT g.id, g.channel_id, g.status, g.board_message_id, g.lobby_message_id, "
            "g.created_at, g.started_at, g.paused_at, o.seat, o.user_id, o.name, o.ai, "
            "o.prompt_since, a.at "
            "FROM seats m JOIN games g ON g.id = m.game_id "
            "JOIN seats o ON o.game_id = g.id "
            "LEFT JOIN actions a ON a.game_id = o.game_id AND a.version = o.prompt_since "
            "WHERE m.user_id = ? AND g.guild_id = ? AND g.status IN ('lobby', 'running') "
            "ORDER BY g.id, o.position",
            (user_id, guild_id),
        )
        games: dict[int, MemberGame] = {}
        for r in rows:
            game = games.get(r[0])
            if game is None:
                game = games[r[0]] = _member_game(r)
                pending = self._pointers.get(game.id)
                if pending is not None and pending.board_message_id is not None:
                    game.board_message_id = pending.board_message_id
            since: float | None = None
            if r[12] is not None:
                since = float(r[13]) if r[13] is not None else (game.started_at or 0.0)
            game.seats.append(GameSeat(r[8], r[9], r[10], bool(r[11]), since))
        return list(games.values())


def _member_game(r: Sequence[Any]) -> MemberGame:
    return MemberGame(
        id=int(r[0]),
        channel_id=int(r[1]),
        status=str(r[2]),
        board_message_id=r[3],
        lobby_message_id=r[4],
        created_at=float(r[5]),
        started_at=float(r[6]) if r[6] is not None else None,
        paused_at=float(r[7]) if r[7] is not None else None,
    )


def _upsert_seen(
    game_id: int, user_id: int, event_id: int, at: float
) -> Callable[[Session], Awaitable[None]]:
    """The transaction that stores a member's look at a game."""

    async def write(s: Session) -> None:
        await s.execute(
            "INSERT INTO member_seen (game_id, user_id, event_id, seen_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET event_id = excluded.event_id, "
            "seen_at = excluded.seen_at",
            (game_id, user_id, event_id, at),
        )

    return write
