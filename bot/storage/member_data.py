"""What the bot keeps about a member, in one list (:data:`KINDS`): each kind of his data, how
``/anima privacy`` shows it and how his deletion removes it. A kind added later (a table with
a member's rows) is one entry here, and its line in the catalogs (``privacy.kind.<name>``).

What is kept, and why, is docs/privacy.md. In short:

- his **seats** (a game's seat: his user id and display name; its result row; the games he
  hosted): a finished game keeps the seat, anonymous (:data:`ANONYMOUS` for the user id, an
  empty name, shown as "a former member"), so that its records, log and replay stay whole;
  a game still running or a lobby still open is not touched until it ends: the deletion
  waits in ``member_deletions`` (his id and the game's) and is applied when the game stops
  (:meth:`MemberDataStore.apply_member_deletions`, run after the game's last commit, after
  any stop, and at every start in case the bot stopped in between);
- his **stats** on each server (``player_stats``), his **auto-pass** on each server, his
  **language** (chosen, and the Discord locale last seen) and whether his **DMs** are closed:
  deleted.

A seat's dice seed (his Join's interaction id: a number Discord gave his click, not his
user id) stays: the game's dice are verified with it (docs/fair_dice.md). The event log and
the game's state name seats (``p1``), never members. The panels in memory belong to running
games only and expire with their interaction tokens.

The whole deletion is one transaction; a second one finds nothing more to do. Afterwards the
member is a new person: a new lobby, settings or stats start from nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.database import Session
from bot.storage.games import GamesStore

#: The user id of a former member's seat (a Discord id is never 0; not NULL, which is an AI
#: seat's); its stored name is empty, and the renderer says "a former member".
ANONYMOUS = 0

#: The statuses of a game the member's deletion waits for (``bot.storage.ACTIVE``).
_ACTIVE = "('lobby', 'running')"


@dataclass(frozen=True)
class Found:
    """One line of what is stored about a member: ``name`` (its words are the catalog's
    ``privacy.kind.<name>``), how many rows on the server asked from and on others, and the
    values shown (the ones of this server for a kind per server)."""

    name: str
    here: int
    elsewhere: int = 0
    values: tuple[Any, ...] = ()

    @property
    def total(self) -> int:
        return self.here + self.elsewhere


class Kind(Protocol):
    """A kind of data kept about a member."""

    @property
    def name(self) -> str:
        """Its words are the catalog's ``privacy.kind.<name>``."""

    async def show(self, s: Session, user_id: int, guild_id: int) -> list[Found]:
        """What is stored of him (lines for ``/anima privacy``)."""

    async def erase(self, s: Session, user_id: int) -> int:
        """Delete or anonymise his rows, but those of a game still running or a lobby still
        open; the rows changed. Runs in the deletion's transaction."""

    async def ended(self, s: Session, user_id: int, game_id: int) -> None:
        """``game_id``, which he sat in when he asked, has ended: its part of his data.
        Runs in a transaction."""


@dataclass(frozen=True)
class Rows:
    """A table of a member's own rows (``user`` his id; ``guild`` the server's, for a kind
    kept per server): shown as counts (and the ``shown`` columns), deleted whole."""

    name: str
    table: str
    user: str = "user_id"
    guild: str | None = None
    shown: tuple[str, ...] = field(default=())

    async def show(self, s: Session, user_id: int, guild_id: int) -> list[Found]:
        columns = ", ".join(self.shown) or "1"
        if self.guild is None:
            rows = await s.all(
                f"SELECT {columns} FROM {self.table} WHERE {self.user} = ?", (user_id,)
            )
            if not rows:
                return []
            return [Found(self.name, len(rows), 0, tuple(rows[0]) if self.shown else ())]
        rows = await s.all(
            f"SELECT {self.guild} = ?, {columns} FROM {self.table} WHERE {self.user} = ?",
            (guild_id, user_id),
        )
        if not rows:
            return []
        here = [r for r in rows if r[0]]
        values = tuple(here[0][1:]) if here and self.shown else ()
        return [Found(self.name, len(here), len(rows) - len(here), values)]

    async def erase(self, s: Session, user_id: int) -> int:
        done = await s.execute(f"DELETE FROM {self.table} WHERE {self.user} = ?", (user_id,))
        return max(done.rowcount, 0)

    async def ended(self, s: Session, user_id: int, game_id: int) -> None:
        return None


@dataclass(frozen=True)
class Stats(Rows):
    """``/anima stats``' rows: deleted; a game that ends after the deletion counted him again
    (the results' trigger): its own win and game are taken off, and an empty row goes."""

    async def ended(self, s: Session, user_id: int, game_id: int) -> None:
        row = await s.one(
            "SELECT guild_id, won FROM results WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        if row is None:  # stopped without a result: it counted nobody
            return
        await s.execute(
            "UPDATE player_stats SET wins = wins - ?, games = games - 1 "
            "WHERE guild_id = ? AND user_key = ?",
            (row[1], row[0], user_id),
        )
        await s.execute(
            "DELETE FROM player_stats WHERE guild_id = ? AND user_key = ? AND games <= 0",
            (row[0], user_id),
        )


@dataclass(frozen=True)
class Rewritten(Rows):
    """Rows that a game he goes on playing after his deletion may write again: deleted, and
    deleted again when that game ends. His ratings (issue 25, :mod:`bot.storage.ratings`: a
    game rates its seats after his seat was made anonymous, and a former member is placed,
    so the others' ratings count him, with nothing of him kept; a rating written before that
    goes here) and his looks at his games (issue 26, :mod:`bot.storage.seen`)."""

    async def ended(self, s: Session, user_id: int, game_id: int) -> None:
        await self.erase(s, user_id)


class Seats:
    """His seats (user id and display name), their result rows, and the games he hosted:
    anonymous in every game no longer played; a game still played waits for its end."""

    name = "seats"

    async def show(self, s: Session, user_id: int, guild_id: int) -> list[Found]:
        rows = await s.all(
            f"SELECT g.guild_id = ?, g.status IN {_ACTIVE} FROM seats t "
            "JOIN games g ON g.id = t.game_id WHERE t.user_id = ?",
            (guild_id, user_id),
        )
        out = []
        for name, active in (("seats", False), ("seats.playing", True)):
            mine = [bool(r[0]) for r in rows if bool(r[1]) == active]
            if mine:
                out.append(Found(name, sum(mine), len(mine) - sum(mine)))
        return out

    async def erase(self, s: Session, user_id: int) -> int:
        return await self._anonymise(s, user_id, f"status NOT IN {_ACTIVE}", ())

    async def ended(self, s: Session, user_id: int, game_id: int) -> None:
        await self._anonymise(s, user_id, "id = ?", (game_id,))

    async def _anonymise(
        self, s: Session, user_id: int, which: str, params: tuple[int, ...]
    ) -> int:
        """Anonymise his seats, results and hosting in the games matching ``which``."""
        games = f"SELECT id FROM games WHERE {which}"
        done = await s.execute(
            f"UPDATE seats SET user_id = ?, name = '' WHERE user_id = ? AND game_id IN ({games})",
            (ANONYMOUS, user_id, *params),
        )
        await s.execute(
            f"UPDATE results SET user_id = ?, name = '' WHERE user_id = ? AND game_id IN ({games})",
            (ANONYMOUS, user_id, *params),
        )
        await s.execute(
            f"UPDATE games SET host_id = ? WHERE host_id = ? AND id IN ({games})",
            (ANONYMOUS, user_id, *params),
        )
        # A slow game's bookkeeping (its pings, a vote's ballots by member id) is of no use
        # once the game stopped.
        await s.execute(
            f"UPDATE seats SET slow_json = NULL WHERE slow_json IS NOT NULL "
            f"AND game_id IN ({games})",
            params,
        )
        return max(done.rowcount, 0)


#: Every kind of data kept about a member, in the order ``/anima privacy`` lists them (a
#: game's end handles them in the reverse order: the seats last).
KINDS: tuple[Kind, ...] = (
    Seats(),
    Stats("stats", "player_stats", user="user_key", guild="guild_id"),
    Rows("autopass", "autopass", guild="guild_id", shown=("kinds",)),
    Rows("language", "member_settings", shown=("language", "locale")),
    Rows("dms_closed", "dm_refused"),
    Rows("pings", "member_pings", shown=("quiet_hours", "timezone", "heads_up")),
    Rewritten("ratings", "ratings", guild="guild_id"),
    Rewritten("seen", "member_seen"),
)


@dataclass(frozen=True)
class Deleted:
    """What a deletion did: rows deleted or anonymised, and the games it waits for."""

    changed: int
    waiting: int


class MemberDataStore(GamesStore):
    """A member's data: shown, deleted, and the deletions waiting for a game's end."""

    async def member_data(self, user_id: int, guild_id: int) -> tuple[list[Found], int]:
        """Everything stored about a member (:data:`KINDS`, as seen from ``guild_id``), and
        the games his deletion still waits for (one hop)."""

        async def read(s: Session) -> tuple[list[Found], int]:
            found: list[Found] = []
            for kind in KINDS:
                found += await kind.show(s, user_id, guild_id)
            row = await s.one("SELECT COUNT(*) FROM member_deletions WHERE user_id = ?", (user_id,))
            return found, int(row[0])

        return await self.db.run(read)

    async def delete_member_data(self, user_id: int, now: float) -> Deleted:
        """Delete a member's data (every kind of :data:`KINDS`) in one transaction; a game
        he sits in that still runs, or a lobby still open, waits for its end (recorded in
        ``member_deletions``). Asking twice is harmless."""

        async def delete(s: Session) -> Deleted:
            changed = 0
            for kind in KINDS:
                changed += await kind.erase(s, user_id)
            games = await s.all(
                f"SELECT g.id FROM games g WHERE g.status IN {_ACTIVE} AND (g.host_id = ? "
                "OR EXISTS (SELECT 1 FROM seats t WHERE t.game_id = g.id AND t.user_id = ?))",
                (user_id, user_id),
            )
            for (game_id,) in games:
                await s.execute(
                    "INSERT INTO member_deletions (user_id, game_id, at) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id, game_id) DO NOTHING",
                    (user_id, game_id, now),
                )
            return Deleted(changed, len(games))

        done = await self.transaction(delete)
        if done.waiting:
            # A game that another process ended meanwhile (shard clusters) is not left
            # waiting for the next start.
            await self.apply_member_deletions()
        # The copies in memory go with the rows (this process is their one writer).
        self._languages.pop(user_id, None)
        self._dm_refused.pop(user_id, None)
        self._pings.pop(user_id, None)
        for key in [k for k in self._autopass if k[1] == user_id]:
            del self._autopass[key]
        return done

    async def apply_member_deletions(self, game_id: int | None = None) -> int:
        """The deletions that waited for a game now stopped (``game_id``'s, else every
        game's) applied, in one transaction; how many."""
        return await self.transaction(lambda s: self._apply_deletions(s, game_id))

    async def _apply_deletions(self, s: Session, game_id: int | None) -> int:
        """:meth:`apply_member_deletions` in the caller's transaction."""
        which = "" if game_id is None else "AND d.game_id = ?"
        due = await s.all(
            "SELECT d.user_id, d.game_id FROM member_deletions d "
            f"JOIN games g ON g.id = d.game_id WHERE g.status NOT IN {_ACTIVE} {which}",
            () if game_id is None else (game_id,),
        )
        applied = 0
        for user_id, game in due:
            # Claimed first: another process applying it at the same moment (shard
            # clusters starting together) waits for this row, then finds it gone.
            claimed = await s.execute(
                "DELETE FROM member_deletions WHERE user_id = ? AND game_id = ?",
                (user_id, game),
            )
            if claimed.rowcount != 1:
                continue
            # Backwards: the seats (first listed) are anonymised last, once the other
            # kinds have found their part of the game by his id (his result's stats).
            for kind in reversed(KINDS):
                await kind.ended(s, user_id, game)
            applied += 1
        return applied

    # The hooks: wherever a game stops, the deletions waiting for it are applied.

    async def open(self) -> None:
        """Open (:meth:`~bot.storage.core.StorageCore.open`), then apply the deletions whose
        game stopped while the bot was not there to apply them."""
        await super().open()
        await self.apply_member_deletions()

    async def at_finish(self, s: Session, game_id: int, now: float, ai_level: str) -> None:
        """A game's last commit (its ratings first) applies the deletions that waited for its
        end, in its transaction."""
        await super().at_finish(s, game_id, now, ai_level)
        await self._apply_deletions(s, game_id)

    async def stop_game(
        self, game_id: int, status: str, now: float, reason: str | None = None
    ) -> bool:
        """:meth:`~bot.storage.games.GamesStore.stop_game`, then the deletions that waited
        for this game."""
        stopped = await super().stop_game(game_id, status, now, reason)
        if stopped:
            await self.apply_member_deletions(game_id)
        return stopped


def former(user_id: int | None) -> bool:
    """Whether a seat's user id is a former member's (:data:`ANONYMOUS`)."""
    return user_id == ANONYMOUS
