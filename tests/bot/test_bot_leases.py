"""Leases (issue 24), on both backends: what one process at a time does for a game (timers,
AI turns, posting) is claimed from the database; a lease expires, its holder renews or ends
it; a post in flight is written down with its claim and found again by the next poster."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
from databases import TestDatabase, connect

from bot.storage import GuildSettings, Pointer, Storage
from bot.storage.leases import AI, POST, TIMER

DEFAULTS = GuildSettings(0, 300, 45, True, 3)
pytestmark = pytest.mark.both_backends


@pytest.fixture
async def stores(database: TestDatabase) -> AsyncIterator[Callable[[str], Storage]]:
    """``store(holder)``: a Storage on the test's database as one process named ``holder``
    (each its own connection), opened; all closed after."""
    opened: list[Storage] = []
    made: dict[str, Storage] = {}

    def store(holder: str) -> Storage:
        s = made.get(holder)
        if s is None:
            s = made[holder] = Storage(database.target, DEFAULTS)
            s.holder = holder
            opened.append(s)
        return s

    yield store
    for s in opened:
        await s.close()


def _game(database: TestDatabase, status: str = "running") -> int:
    """A game row (no seats), as a bot would have written it."""
    with connect(database) as db:
        row = db.execute(
            "INSERT INTO games (guild_id, channel_id, host_id, status, options_json, "
            "created_at, state_json, version) VALUES (?, (SELECT COUNT(*) FROM games), 1, ?, "
            "'{}', 0, '{}', 3) RETURNING id",
            (1 << 22, status),
        ).fetchone()
    return int(row[0])


def _events(database: TestDatabase, game_id: int, versions: list[int], at: float = 0) -> list[int]:
    ids = []
    with connect(database) as db:
        for v in versions:
            row = db.execute(
                "INSERT INTO events (game_id, version, kind, text, at) VALUES (?, ?, 'x', '', ?) "
                "RETURNING id",
                (game_id, v, at),
            ).fetchone()
            ids.append(int(row[0]))
    return ids


async def test_a_lease_is_one_holders_until_it_expires_or_ends(
    database: TestDatabase, stores: Callable[[str], Storage]
) -> None:
    a, b = stores("a"), stores("b")
    await a.open()
    await b.open()
    assert await a.claim(TIMER, 7, 10, now=100)
    assert not await b.claim(TIMER, 7, 10, now=105)  # a's, live
    assert await a.claim(TIMER, 7, 10, now=105)  # renewed by its holder
    assert await b.claim(AI, 7, 10, now=105)  # another kind is another lease
    assert not await b.claim(TIMER, 7, 10, now=114.9)
    assert await b.claim(TIMER, 7, 10, now=115)  # a's expired: b takes it over
    assert await b.holders(TIMER, 116) == {7: "b"}
    await b.release(TIMER, 7)
    await a.release(TIMER, 7)  # not a's: changes nothing
    assert await a.holders(TIMER, 116) == {}
    assert await a.claim(TIMER, 7, 10, now=116)
    # A holder held up past its lease finds it gone, and another's.
    assert await a.renew(TIMER, 7, 10, now=120)  # live: renewed to 130
    assert not await b.claim(TIMER, 7, 10, now=129)
    assert await b.claim(TIMER, 7, 10, now=131)
    assert not await a.renew(TIMER, 7, 10, now=132)


async def test_a_batch_of_claims_gets_each_game_once_whoever_claims_it(
    database: TestDatabase, stores: Callable[[str], Storage]
) -> None:
    a, b, c = stores("a"), stores("b"), stores("c")
    for s in (a, b, c):
        await s.open()
    assert await a.claim(TIMER, 3, 10, now=100)
    games = list(range(1, 41))
    # Three processes claim the same due games at the same moment.
    got = await asyncio.gather(*(s.claim_many(TIMER, games, 10, now=101) for s in (a, b, c)))
    claimed = [g for batch in got for g in batch]
    assert sorted(claimed) == games  # every game once, game 3 by its holder
    assert 3 in got[0]
    assert await b.claim_many(TIMER, games, 10, now=105) == [g for g in games if g in got[1]]


async def test_a_post_in_flight_is_found_again_by_the_next_poster(
    database: TestDatabase, stores: Callable[[str], Storage]
) -> None:
    a, b = stores("a"), stores("b")
    await a.open()
    await b.open()
    game = _game(database)
    first = _events(database, game, [1, 2, 2])
    claim = await a.begin_post(game, 2, "post", 10, now=100)
    assert claim is not None and not claim.again
    assert (claim.pointer.event_id, claim.upto_event, claim.upto_version) == (0, first[-1], 2)
    # Another process cannot post the game meanwhile.
    assert await b.begin_post(game, 2, "post", 10, now=101) is None
    # a dies after sending, before its pointer: once its lease expires, b finds the post
    # in flight, to send again (same nonce) before anything newer.
    later = _events(database, game, [3])
    again = await b.begin_post(game, 3, "post", 10, now=111)
    assert again is not None and again.again
    assert (again.upto_event, again.upto_version, again.posting) == (first[-1], 2, "post")
    assert await b.end_post(game, Pointer(first[-1], 2, 555, 1)) is None  # b held the lease
    # Then the newer events, as a post of its own.
    newer = await b.begin_post(game, 3, "post", 10, now=112)
    assert newer is not None and not newer.again
    assert newer.pointer == Pointer(first[-1], 2, 555, 1) and newer.upto_event == later[0]
    # a, back, cannot write its stale pointer: the lease is b's. It is told the stored
    # board (b's), so that it retires the board 444 it posted meanwhile.
    assert await a.end_post(game, Pointer(first[-1], 2, 444, 1)) == 555
    assert await b.end_post(game, Pointer(later[0], 3, 556, 1)) is None
    with connect(database) as db:
        row = db.execute(
            "SELECT published_event_id, published_version, board_message_id FROM games "
            "WHERE id = ?",
            (game,),
        ).fetchone()
    assert tuple(row) == (later[0], 3, 556)


async def test_games_to_post_are_those_behind_whose_posting_lease_is_free(
    database: TestDatabase, stores: Callable[[str], Storage]
) -> None:
    a, b = stores("a"), stores("b")
    await a.open()
    await b.open()
    behind = _game(database)
    _events(database, behind, [3], at=50)
    posted = _game(database)
    with connect(database) as db:
        db.execute("UPDATE games SET published_version = 3 WHERE id = ?", (posted,))
    assert await a.games_to_post(now=100, settled=60) == [(behind, 1 << 22, True)]
    assert await a.games_to_post(now=100, settled=40) == [(behind, 1 << 22, False)]
    assert await a.begin_post(behind, 3, "post", 10, now=100) is not None
    assert await b.games_to_post(now=105, settled=60) == []  # a posts it
    assert [g for g, _s, _o in await a.games_to_post(now=105, settled=60)] == [behind]
    assert [g for g, _s, _o in await b.games_to_post(now=111, settled=60)] == [behind]
    assert await b.holders(POST, 105) == {behind: "a"}
