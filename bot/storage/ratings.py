"""The ratings (issue 25): openskill's Plackett-Luce model, per server and per set combination
(``shadow_of_omega``, ``shadow_of_omega+beyond_good_and_evil``...), one row per member and one
shared by every AI seat of a level (table ``ratings``).

A game is rated once, at its end, when its lobby's option was on (``games.rated``, on by
default) and at least two members sat at it: :meth:`RatingStore.rate_game` marks the game
(``games.rated_at``) and updates its players' ratings in one transaction, so a retried call, a
second process or the recovery after a restart (:meth:`RatingStore.games_to_rate`) rates it
no second time. The finishing order is the engine's (the ``game_over`` event's ``ranking``:
the winner, then the tie-break's or the Crisis! order, players it cannot order tied); a member
whose seat the AI had taken over for being away at the end counts as last.

A member's data here: his rows of ``ratings`` (``user_id``: his id; an AI level's rows have
``user_id`` 0 and the level in ``ai_level``, a member's ``''``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.database import Session
from bot.storage.core import StorageCore
from bot.storage.rows import _SEAT_COLUMNS, SeatRow, _seat

#: The model (its defaults: mu 25, sigma 25/3); pure Python, no state of its own.
MODEL = PlackettLuce()
#: The set combination of a game whose options name none (the engine's default).
BASE_SET = "shadow_of_omega"
#: An AI level's row has no member (``user_id`` 0), a member's row no level (``''``).
NO_MEMBER = 0
NO_LEVEL = ""
#: At least this many members at the table for a game to be rated.
MIN_HUMANS = 2

#: The key of a rating within a server and a set combination: (member id, AI level).
Key = tuple[int, str]


def conservative(mu: float, sigma: float) -> float:
    """The rating shown and ranked by: mu - 3 sigma, what the player is at least, nearly
    surely (0 for a newcomer: 25 - 3 x 25/3)."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class Rating:
    """A rating row: a member's (``user_id``) or an AI level's (``ai_level``)."""

    sets: str
    user_id: int | None
    ai_level: str | None
    mu: float
    sigma: float
    games: int
    wins: int
    updated_at: float

    @property
    def conservative(self) -> float:
        """The rating the leaderboard ranks by: mu - 3 sigma (0 for a newcomer)."""
        return conservative(self.mu, self.sigma)


@dataclass(frozen=True)
class Place:
    """Where one seat finished: ``rank`` 1 is first, equal ranks are tied."""

    key: Key
    rank: int
    won: bool


def set_combination(options: dict[str, Any]) -> str:
    """The ratings' set combination of a game's options: its sets joined by ``+`` in the
    lobby's order (``shadow_of_omega+beyond_good_and_evil``)."""
    sets = options.get("sets") or [BASE_SET]
    return "+".join(str(s) for s in sets)


def humans(seats: Sequence[SeatRow]) -> int:
    """How many members sit at the table (a seat the AI took over still counts)."""
    return sum(1 for s in seats if s.human)


def places(
    ranking: Sequence[Sequence[str]] | None,
    winner: str | None,
    seats: Sequence[SeatRow],
    default_level: str,
) -> list[Place]:
    """Every seat's place: the engine's ``ranking`` (groups best first, a group tied; a seat
    it does not name is tied behind them all; without a ranking, a game of an older engine:
    the winner first and the others tied), then every member whose seat the AI had taken
    over at the end, tied last (and no win for him). An AI seat is rated as its level
    (``default_level`` for a seat of no level)."""
    groups = [list(g) for g in ranking] if ranking else [[winner] if winner else [], []]
    rank_of: dict[str, int] = {}
    for i, group in enumerate(groups, start=1):
        for seat in group:
            rank_of.setdefault(seat, i)
    unnamed = len(groups) + 1
    last = unnamed + 1
    out = []
    for s in seats:
        if s.taken_over:
            out.append(Place((s.user_id or NO_MEMBER, NO_LEVEL), last, False))
            continue
        key = (
            (s.user_id, NO_LEVEL)
            if s.user_id is not None
            else (NO_MEMBER, s.ai_level or default_level)
        )
        out.append(Place(key, rank_of.get(s.seat, unnamed), s.seat == winner))
    return out


def updated(
    current: dict[Key, tuple[float, float]], finished: Sequence[Place]
) -> dict[Key, tuple[float, float, int, int]]:
    """The new (mu, sigma) of every key of ``finished`` after the game, with the games and
    wins it adds. Each seat is a team of one; ``current`` holds the keys rated before (the
    others start at the model's defaults). An AI level with several seats in the game moves
    by the sum of its seats' changes, each computed from its rating before the game, and keeps
    the smallest of their new sigmas (each seat is one more observation of the level)."""
    before = {p.key: current.get(p.key, (MODEL.mu, MODEL.sigma)) for p in finished}
    teams = [[MODEL.rating(mu=before[p.key][0], sigma=before[p.key][1])] for p in finished]
    rated = MODEL.rate(teams, ranks=[float(p.rank) for p in finished])
    out: dict[Key, tuple[float, float, int, int]] = {}
    for p, [r] in zip(finished, rated, strict=True):
        mu0 = before[p.key][0]
        mu, sigma, games, wins = out.get(p.key, (mu0, float("inf"), 0, 0))
        out[p.key] = (mu + r.mu - mu0, min(sigma, r.sigma), games + 1, wins + int(p.won))
    return out


_RATING_COLUMNS = "sets, user_id, ai_level, mu, sigma, games, wins, updated_at"


def _rating(row: Sequence[Any]) -> Rating:
    return Rating(
        sets=row[0],
        user_id=row[1] or None,
        ai_level=row[2] or None,
        mu=float(row[3]),
        sigma=float(row[4]),
        games=int(row[5]),
        wins=int(row[6]),
        updated_at=float(row[7]),
    )


#: The games over, rated and not yet rated (the mark ``rated_at``) with two members or more.
_TO_RATE = (
    "status = 'over' AND rated = 1 AND rated_at IS NULL AND "
    "(SELECT COUNT(*) FROM seats s WHERE s.game_id = games.id AND s.user_id IS NOT NULL) "
    f">= {MIN_HUMANS}"
)


class RatingStore(StorageCore):
    """The ratings: a game's update (once), the leaderboard and a member's profile."""

    async def rate_game(self, game_id: int, now: float, default_level: str) -> bool:
        """Rate a game that is over, once: mark it and update its players' ratings in one
        transaction. False (nothing written) if it is not to be rated (not over, the option
        off, fewer than two members) or was rated already. A game's last commit rates it
        (:meth:`at_finish`); this is for a game over that was not (an older bot's)."""
        return await self.transaction(lambda s: self._rate(s, game_id, now, default_level))

    async def at_finish(self, s: Session, game_id: int, now: float, ai_level: str) -> None:
        """A game's last commit rates it, in its transaction (once: its mark)."""
        await super().at_finish(s, game_id, now, ai_level)
        await self._rate(s, game_id, now, ai_level)

    async def _rate(self, s: Session, game_id: int, now: float, default_level: str) -> bool:
        """:meth:`rate_game` in the caller's transaction."""
        done = await s.execute(
            f"UPDATE games SET rated_at = ? WHERE id = ? AND {_TO_RATE}", (now, game_id)
        )
        if done.rowcount != 1:
            return False
        game = await s.one(
            "SELECT guild_id, options_json, winner_seat FROM games WHERE id = ?", (game_id,)
        )
        guild_id, options, winner = game[0], _json(game[1]), game[2]
        over = await s.one(
            "SELECT data_json FROM events WHERE game_id = ? AND kind = 'game_over' "
            "ORDER BY id DESC LIMIT 1",
            (game_id,),
        )
        ranking = _json(over[0]).get("ranking") if over else None
        seats = [
            _seat(r)
            for r in await s.all(
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY position",
                (game_id,),
            )
        ]
        sets = set_combination(options)
        finished = places(ranking, winner, seats, default_level)
        current: dict[Key, tuple[float, float]] = {}
        totals: dict[Key, tuple[int, int]] = {}
        for key in {p.key for p in finished}:
            row = await s.one(
                "SELECT mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND sets = ? "
                "AND user_id = ? AND ai_level = ?",
                (guild_id, sets, *key),
            )
            if row is not None:
                current[key] = (float(row[0]), float(row[1]))
                totals[key] = (int(row[2]), int(row[3]))
        new = updated(current, finished)
        await s.executemany(
            "INSERT INTO ratings (guild_id, sets, user_id, ai_level, mu, sigma, games, wins, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, sets, user_id, ai_level) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, "
            "updated_at = excluded.updated_at",
            [
                (
                    guild_id,
                    sets,
                    *key,
                    mu,
                    sigma,
                    totals.get(key, (0, 0))[0] + games,
                    totals.get(key, (0, 0))[1] + wins,
                    now,
                )
                for key, (mu, sigma, games, wins) in sorted(new.items())
                # A former member (/anima privacy) is placed, and nothing kept of him.
                if key != (NO_MEMBER, NO_LEVEL)
            ],
        )
        # What the end message shows each seat: its conservative rating before and after.
        changes = {
            seat.seat: [
                round(conservative(*current.get(p.key, (MODEL.mu, MODEL.sigma))), 2),
                round(conservative(*new[p.key][:2]), 2),
            ]
            for seat, p in zip(seats, finished, strict=True)
            if p.key != (NO_MEMBER, NO_LEVEL)
        }
        await s.execute(
            "UPDATE games SET rating_changes = ? WHERE id = ?",
            (json.dumps(changes, sort_keys=True), game_id),
        )
        return True

    async def rating_changes(self, game_id: int) -> dict[str, tuple[float, float]]:
        """The game's seats' conservative ratings before and after it (the end message); empty
        for a game not rated."""
        row = await self.fetchone("SELECT rating_changes FROM games WHERE id = ?", (game_id,))
        if row is None or not row[0]:
            return {}
        try:
            found = json.loads(row[0])
            return {str(seat): (float(b), float(a)) for seat, (b, a) in found.items()}
        except (ValueError, TypeError, AttributeError):  # a damaged row: shown as not rated
            return {}

    async def games_to_rate(self) -> list[tuple[int, int]]:
        """(game, server) of every game over that is to be rated and was not (its process
        stopped between the game's last commit and its rating)."""
        rows = await self.fetchall(f"SELECT id, guild_id FROM games WHERE {_TO_RATE} ORDER BY id")
        return [(r[0], r[1]) for r in rows]

    async def rating_sets(self, guild_id: int) -> list[str]:
        """The server's rated set combinations, the most played first."""
        rows = await self.fetchall(
            "SELECT sets FROM ratings WHERE guild_id = ? GROUP BY sets "
            "ORDER BY SUM(games) DESC, sets",
            (guild_id,),
        )
        return [r[0] for r in rows]

    async def leaderboard(self, guild_id: int, sets: str, limit: int) -> list[Rating]:
        """The ``limit`` best ratings of a server's set combination (members and AI levels),
        by conservative rating (mu - 3 sigma), then games."""
        rows = await self.fetchall(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND sets = ? "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?",
            (guild_id, sets, limit),
        )
        return [_rating(r) for r in rows]

    async def member_ratings(self, guild_id: int, user_id: int) -> list[Rating]:
        """A member's ratings on a server, one per set combination, the most played first."""
        rows = await self.fetchall(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? "
            "AND ai_level = ? ORDER BY games DESC, sets",
            (guild_id, user_id, NO_LEVEL),
        )
        return [_rating(r) for r in rows]

    async def leaders_played(self, guild_id: int, user_id: int) -> dict[str, dict[str, int]]:
        """The leaders a member chose in his finished games of a server (the start's ``keep``
        action of his seat): per set combination, leader card id -> games."""
        rows = await self.fetchall(
            "SELECT g.options_json, a.action FROM seats s JOIN games g ON g.id = s.game_id "
            "JOIN actions a ON a.game_id = s.game_id AND a.seat = s.seat "
            "WHERE s.user_id = ? AND g.guild_id = ? AND g.status = 'over' "
            "AND a.action LIKE 'keep %'",
            (user_id, guild_id),
        )
        out: dict[str, dict[str, int]] = {}
        for options, action in rows:
            counts = out.setdefault(set_combination(_json(options)), {})
            leader = str(action).removeprefix("keep ")
            counts[leader] = counts.get(leader, 0) + 1
        return out


def _json(text: Any) -> dict[str, Any]:
    """A JSON object column, or {} if it is not one (a damaged row rates as a default one)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}
