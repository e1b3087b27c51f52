"""The ratings' store (issue 25), on both backends: a game over is rated once, in the finishing
order the engine gave (its ``game_over`` ranking), a member whose seat the AI had taken over
last, every AI seat of a level sharing one rating; the figures are openskill's own, computed
here with the model directly. Not rated: the option off, fewer than two members, a game ended
early; a marked game is never rated again."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
import pytest_asyncio
from databases import TestDatabase, connect
from openskill.models import PlackettLuce

from bot.storage import GuildSettings, Storage

DEFAULTS = GuildSettings(0, 300, 45, True, 3)
GUILD = 77
SETS = "shadow_of_omega+beyond_good_and_evil"
MODEL = PlackettLuce()

pytestmark = pytest.mark.both_backends


@pytest_asyncio.fixture
async def storage(database: TestDatabase) -> AsyncIterator[Storage]:
    store = Storage(database.path or database.url, DEFAULTS)
    await store.open()
    yield store
    await store.close()


#: A seat: (seat id, member id or None, AI level or None, taken over by the AI).
SeatSpec = tuple[str, int | None, str | None, bool]


def finished_game(
    database: TestDatabase,
    seats: Sequence[SeatSpec],
    ranking: list[list[str]] | None,
    winner: str | None,
    status: str = "over",
    rated: int = 1,
) -> int:
    """A game of ``seats`` stored as it is at its end: its row, its seats, its game_over."""
    options = json.dumps({"sets": SETS.split("+")})
    data: dict[str, Any] = {"winner": winner, "ending": "turn_cap"}
    if ranking is not None:
        data["ranking"] = ranking
    with connect(database) as db:
        (game_id,) = db.execute(
            "INSERT INTO games (guild_id, channel_id, host_id, status, options_json, "
            "winner_seat, created_at, rated) VALUES (?, 1, 1, ?, ?, ?, 0, ?) RETURNING id",
            (GUILD, status, options, winner, rated),
        ).fetchone()
        for position, (seat, user, level, taken) in enumerate(seats):
            db.execute(
                "INSERT INTO seats (game_id, seat, position, user_id, name, ai, ai_level) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seat, position, user, seat, int(user is None or taken), level),
            )
        db.execute(
            "INSERT INTO events (game_id, version, kind, text, data_json, at) "
            "VALUES (?, 1, 'game_over', '', ?, 0)",
            (game_id, json.dumps(data)),
        )
    return game_id


def stored(database: TestDatabase) -> dict[tuple[int, str], tuple[float, float, int, int]]:
    """Every rating of the server's combination: (member, level) -> (mu, sigma, games, wins)."""
    with connect(database) as db:
        rows = db.execute(
            "SELECT user_id, ai_level, mu, sigma, games, wins FROM ratings "
            "WHERE guild_id = ? AND sets = ?",
            (GUILD, SETS),
        ).fetchall()
    return {(r[0], r[1]): (r[2], r[3], r[4], r[5]) for r in rows}


def expected(ranks: Sequence[int]) -> list[tuple[float, float]]:
    """openskill's own figures: players new to the model, finishing at ``ranks``."""
    rated = MODEL.rate([[MODEL.rating()] for _ in ranks], ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


MEMBERS = [("p1", 101, None, False), ("p2", 102, None, False), ("p3", 103, None, False)]


async def test_the_tiebreak_order_rates_as_openskill_says(
    storage: Storage, database: TestDatabase
) -> None:
    seats = [*MEMBERS, ("p4", 104, None, False)]
    # p2 won, p1 second, p3 and p4 tied (equal tie-break scores).
    game = finished_game(database, seats, [["p2"], ["p1"], ["p3", "p4"]], "p2")
    assert await storage.rate_game(game, 5.0, "normal")
    ratings = stored(database)
    figures = expected([2, 1, 3, 3])
    for (_seat, user, _level, _taken), (mu, sigma) in zip(seats, figures, strict=True):
        assert ratings[(user, "")][:2] == pytest.approx((mu, sigma), rel=1e-12)
    assert ratings[(102, "")][2:] == (1, 1)  # one game, one win
    assert ratings[(101, "")][2:] == (1, 0)
    assert ratings[(103, "")][0] == ratings[(104, "")][0] < ratings[(101, "")][0]


async def test_a_crisis_nobody_won_ranks_by_the_crisis_order_without_a_win(
    storage: Storage, database: TestDatabase
) -> None:
    game = finished_game(database, MEMBERS, [["p3"], ["p1"], ["p2"]], None)
    assert await storage.rate_game(game, 5.0, "normal")
    ratings = stored(database)
    figures = expected([2, 3, 1])
    for (_seat, user, _level, _taken), (mu, sigma) in zip(MEMBERS, figures, strict=True):
        assert ratings[(user, "")] == pytest.approx((mu, sigma, 1, 0), rel=1e-12)


async def test_a_member_taken_over_by_the_ai_counts_as_last(
    storage: Storage, database: TestDatabase
) -> None:
    # The engine ranked p1 first (the AI played his seat to the win): he is last all the same.
    seats = [("p1", 101, None, True), ("p2", 102, None, False), ("p3", 103, None, False)]
    game = finished_game(database, seats, [["p1"], ["p2"], ["p3"]], "p1")
    assert await storage.rate_game(game, 5.0, "normal")
    ratings = stored(database)
    figures = expected([3, 1, 2])
    for (_seat, user, _level, _taken), (mu, sigma) in zip(seats, figures, strict=True):
        assert ratings[(user, "")][:2] == pytest.approx((mu, sigma), rel=1e-12)
    assert ratings[(101, "")][3] == 0  # no win for a seat the AI played
    assert set(ratings) == {(101, ""), (102, ""), (103, "")}  # the AI that played it: none


async def test_every_ai_seat_of_a_level_shares_one_rating(
    storage: Storage, database: TestDatabase
) -> None:
    seats = [
        ("p1", 101, None, False),
        ("p2", 102, None, False),
        ("p3", None, "random", False),
        ("p4", None, "random", False),
        ("p5", None, None, False),  # an AI seat of no level: the default level's
    ]
    game = finished_game(database, seats, [["p3"], ["p1"], ["p4"], ["p2"], ["p5"]], "p3")
    assert await storage.rate_game(game, 5.0, "normal")
    ratings = stored(database)
    figures = expected([2, 4, 1, 3, 5])
    assert set(ratings) == {(101, ""), (102, ""), (0, "random"), (0, "normal")}
    assert ratings[(101, "")][:2] == pytest.approx(figures[0], rel=1e-12)
    # The level moves by both its seats' changes and keeps the smaller sigma.
    (mu3, sigma3), (mu4, sigma4) = figures[2], figures[3]
    shared = (MODEL.mu + (mu3 - MODEL.mu) + (mu4 - MODEL.mu), min(sigma3, sigma4), 2, 1)
    assert ratings[(0, "random")] == pytest.approx(shared, rel=1e-12)
    assert ratings[(0, "normal")] == pytest.approx((*figures[4], 1, 0), rel=1e-12)

    # The next game starts from the level's shared rating.
    seats = [("p1", 101, None, False), ("p2", 102, None, False), ("p3", None, "random", False)]
    game = finished_game(database, seats, [["p1"], ["p2"], ["p3"]], "p1")
    assert await storage.rate_game(game, 6.0, "normal")
    before = [(101, ""), (102, ""), (0, "random")]
    teams = [[MODEL.rating(mu=ratings[k][0], sigma=ratings[k][1])] for k in before]
    after = MODEL.rate(teams, ranks=[1, 2, 3])
    now = stored(database)
    for key, [r] in zip(before, after, strict=True):
        assert now[key][:2] == pytest.approx((r.mu, r.sigma), rel=1e-12)
    assert now[(0, "random")][2:] == (3, 1)


async def test_an_older_game_without_a_ranking_puts_the_winner_first_the_rest_tied(
    storage: Storage, database: TestDatabase
) -> None:
    game = finished_game(database, MEMBERS, None, "p2")
    assert await storage.rate_game(game, 5.0, "normal")
    ratings = stored(database)
    for (_seat, user, _level, _taken), (mu, sigma) in zip(
        MEMBERS, expected([2, 1, 2]), strict=True
    ):
        assert ratings[(user, "")][:2] == pytest.approx((mu, sigma), rel=1e-12)


@pytest.mark.parametrize(
    ("seats", "status", "rated"),
    [
        ([("p1", 101, None, False), ("p2", None, "normal", False)], "over", 1),  # one member
        (MEMBERS, "over", 0),  # the host turned it off
        (MEMBERS, "ended", 1),  # /anima end
        (MEMBERS, "broken", 1),
        (MEMBERS, "running", 1),
    ],
)
async def test_not_rated(
    storage: Storage,
    database: TestDatabase,
    seats: list[SeatSpec],
    status: str,
    rated: int,
) -> None:
    game = finished_game(database, seats, [["p1"], ["p2"]], "p1", status=status, rated=rated)
    assert not await storage.rate_game(game, 5.0, "normal")
    assert stored(database) == {}
    assert await storage.games_to_rate() == []


async def test_a_game_is_rated_once(storage: Storage, database: TestDatabase) -> None:
    game = finished_game(database, MEMBERS, [["p1"], ["p2"], ["p3"]], "p1")
    assert await storage.games_to_rate() == [(game, GUILD)]
    assert await storage.rate_game(game, 5.0, "normal")
    once = stored(database)
    assert await storage.games_to_rate() == []
    assert not await storage.rate_game(game, 6.0, "normal")  # a retry, a second process
    assert stored(database) == once
    with connect(database) as db:
        marked = db.execute("SELECT rated_at FROM games WHERE id = ?", (game,)).fetchone()
    assert marked == (5.0,)


async def test_the_readers(storage: Storage, database: TestDatabase) -> None:
    seats = [*MEMBERS, ("p4", None, "hard", False)]
    finished_game(database, seats, [["p4"], ["p1"], ["p2"], ["p3"]], "p4")
    (game,) = [g for g, _ in await storage.games_to_rate()]
    await storage.rate_game(game, 5.0, "normal")
    assert await storage.rating_sets(GUILD) == [SETS]
    board = await storage.leaderboard(GUILD, SETS, 3)
    assert [(r.user_id, r.ai_level) for r in board] == [(None, "hard"), (101, None), (102, None)]
    assert board[0].conservative == pytest.approx(board[0].mu - 3 * board[0].sigma)
    (mine,) = await storage.member_ratings(GUILD, 101)
    assert (mine.sets, mine.games, mine.wins) == (SETS, 1, 0)
    assert await storage.member_ratings(GUILD + 1, 101) == []
