"""How a running game's change reaches the database, as one transaction: the rows of a
commit (:class:`CommitRows`, prepared once), and the two ways to send them, each backend's
dialect naming its own (:attr:`bot.storage.dialect.Dialect.write_commit`):

- :func:`write_each`, a statement per table between ``BEGIN`` and ``COMMIT`` (SQLite: the
  whole hop is one trip to aiosqlite's thread anyway, whatever its statements);
- :func:`write_at_once`, one statement whose data-modifying ``WITH`` clauses write every
  table, a transaction of its own (PostgreSQL: a statement is a round trip to the server,
  and each costs the bot's process ~0.1 ms of CPU, as much as the rest of a decision's
  storage work: one round trip instead of six; SQLite has no data-modifying ``WITH``). The
  rows go as arrays, one per column (``unnest``), so that the statement's text is the same
  whatever their numbers: asyncpg prepares it once.

Both check the game's version first (its ``UPDATE ... WHERE version = ?``, which locks the row
on PostgreSQL) and write nothing else if it moved on (:class:`VersionConflict`); both return
the ids of the new events, in the order of the events. Their results are the same rows:
every storage test runs on both backends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.database import Session
from bot.storage.faults import VersionConflict
from bot.storage.rows import Pointer, SeatUpdate

#: Event rows per multi-row INSERT (7 parameters each: 3,500, far below the limit of either
#: backend, 32,766 on SQLite, 32,767 on PostgreSQL).
_EVENT_ROWS_PER_INSERT = 500

#: An event as stored: version, kind, text, recipients (a JSON list, or None), data (JSON).
EventValues = tuple[int, str, str, str | None, str]


@dataclass
class CommitRows:
    """Everything one commit writes, ready for the database."""

    game_id: int
    expected_version: int
    #: The ``SET`` clause of the game's row (``?`` placeholders) and its parameters.
    sets: str
    params: list[Any]
    #: (version, seat, action, source) of each action.
    actions: list[tuple[int, str, str, str]]
    events: list[EventValues]
    seats: list[SeatUpdate]
    #: Publish pointers of other games that ride along.
    riders: list[tuple[int, Pointer]]
    #: (seat, user, name, ai, won) of each seat when the game ends, else empty.
    results: list[tuple[str, int | None, str, bool, bool]]
    now: float
    #: What else a game's last commit does in its transaction (its ratings, the deletions
    #: that waited for its end: :meth:`bot.storage.core.StorageCore.at_finish`).
    after: Callable[[Session], Awaitable[None]] | None = None


def _conflict(c: CommitRows) -> VersionConflict:
    return VersionConflict(f"game {c.game_id} is not at version {c.expected_version}")


async def write_each(s: Session, c: CommitRows) -> list[int]:
    """The commit's rows in one transaction, a statement per table (none for a table with
    no rows)."""
    async with s.transaction():
        ids = await _each(s, c)
        if c.after is not None:
            await c.after(s)
        return ids


async def _each(s: Session, c: CommitRows) -> list[int]:
    done = await s.execute(
        f"UPDATE games SET {c.sets} WHERE id = ? AND version = ? AND status = 'running'",
        (*c.params, c.game_id, c.expected_version),
    )
    if done.rowcount != 1:
        raise _conflict(c)
    if c.actions:
        await s.executemany(
            "INSERT INTO actions (game_id, version, seat, action, source, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(c.game_id, v, seat, a, src, c.now) for v, seat, a, src in c.actions],
        )
    ids = await insert_events(s, c.game_id, c.events, c.now)
    await seat_updates(s, c.game_id, c.seats)
    if c.riders:
        await s.executemany(
            "UPDATE games SET published_event_id = ?, published_version = ?, "
            "board_message_id = ?, board_turn = ? WHERE id = ?",
            [(p.event_id, p.version, p.board_message_id, p.board_turn, g) for g, p in c.riders],
        )
    if c.results:
        await s.executemany(
            "INSERT INTO results (game_id, guild_id, seat, user_id, name, ai, won) "
            "SELECT ?, guild_id, ?, ?, ?, ?, ? FROM games WHERE id = ?",
            [
                (c.game_id, seat, user_id, name, int(ai), int(won), c.game_id)
                for seat, user_id, name, ai, won in c.results
            ],
        )
    return ids


#: The tables :func:`write_at_once` writes after the game's row ``g`` (which gates them all:
#: no row in ``g``, the version moved on, nothing is written), each with the columns of its
#: arrays (``?`` cast to their types).
_AT_ONCE = (
    "actions AS (INSERT INTO actions (game_id, version, seat, action, source, at) "
    "SELECT ?, x.version, x.seat, x.action, x.source, ? FROM g, unnest(CAST(? AS INTEGER[]), "
    "CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[])) AS x(version, seat, action, "
    "source)), "
    "new_events AS (INSERT INTO events (game_id, version, kind, text, recipients, data_json, "
    "at) SELECT ?, x.version, x.kind, x.text, x.recipients, x.data_json, ? FROM g, "
    "unnest(CAST(? AS INTEGER[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), "
    "CAST(? AS TEXT[])) WITH ORDINALITY AS x(version, kind, text, recipients, data_json, n) "
    "ORDER BY x.n RETURNING id), "
    "seat_updates AS (UPDATE seats SET ai = x.ai, timeouts = x.timeouts, "
    "prompt_since = x.prompt_since, deadline = x.deadline, half_at = x.half_at, "
    "pinged = x.pinged, slow_json = x.slow_json, wake_at = x.wake_at FROM g, "
    "unnest(CAST(? AS TEXT[]), CAST(? AS INTEGER[]), "
    "CAST(? AS INTEGER[]), CAST(? AS INTEGER[]), CAST(? AS DOUBLE PRECISION[]), "
    "CAST(? AS DOUBLE PRECISION[]), CAST(? AS INTEGER[]), CAST(? AS TEXT[]), "
    "CAST(? AS DOUBLE PRECISION[])) AS x(seat, ai, timeouts, prompt_since, deadline, half_at, "
    "pinged, slow_json, wake_at) WHERE seats.game_id = ? AND seats.seat = x.seat), "
    "riders AS (UPDATE games SET published_event_id = x.event_id, published_version = "
    "x.version, board_message_id = x.board_message_id, board_turn = x.board_turn FROM g, "
    "unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[]), CAST(? AS INTEGER[]), "
    "CAST(? AS BIGINT[]), CAST(? AS INTEGER[])) AS x(id, event_id, version, board_message_id, "
    "board_turn) WHERE games.id = x.id), "
    "results AS (INSERT INTO results (game_id, guild_id, seat, user_id, name, ai, won) "
    "SELECT ?, g.guild_id, x.seat, x.user_id, x.name, x.ai, x.won FROM g, "
    "unnest(CAST(? AS TEXT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS INTEGER[]), "
    "CAST(? AS INTEGER[])) AS x(seat, user_id, name, ai, won)) "
    "SELECT (SELECT count(*) FROM g), ARRAY(SELECT id FROM new_events)"
)


async def write_at_once(s: Session, c: CommitRows) -> list[int]:
    """The commit's rows in one statement, a transaction of its own: the game's row first,
    every other table's rows only if it was at the expected version (a table with no rows
    gets empty arrays)."""
    seats = c.seats
    params: list[Any] = [
        *c.params,
        c.game_id,
        c.expected_version,
        c.game_id,
        c.now,
        *_columns(c.actions, 4),
        c.game_id,
        c.now,
        *_columns(c.events, 5),
        [u.seat for u in seats],
        [int(u.ai) for u in seats],
        [u.timeouts for u in seats],
        [u.prompt_since for u in seats],
        [u.deadline for u in seats],
        [u.half_at for u in seats],
        [int(u.pinged) for u in seats],
        [u.slow_json for u in seats],
        [u.wake_at for u in seats],
        c.game_id,
        [g for g, _p in c.riders],
        [p.event_id for _g, p in c.riders],
        [p.version for _g, p in c.riders],
        [p.board_message_id for _g, p in c.riders],
        [p.board_turn for _g, p in c.riders],
        c.game_id,
        [r[0] for r in c.results],
        [r[1] for r in c.results],
        [r[2] for r in c.results],
        [int(r[3]) for r in c.results],
        [int(r[4]) for r in c.results],
    ]
    sql = (
        f"WITH g AS (UPDATE games SET {c.sets} WHERE id = ? AND version = ? "
        f"AND status = 'running' RETURNING guild_id), {_AT_ONCE}"
    )
    if c.after is None:
        [row] = await s.atomic(sql, params)
        if row[0] != 1:
            raise _conflict(c)
        return sorted(row[1])
    # A game's last commit: the statement and what follows it, one transaction.
    async with s.transaction():
        [row] = await s.all(sql, params)
        if row[0] != 1:
            raise _conflict(c)
        await c.after(s)
    return sorted(row[1])


def _columns(rows: Sequence[Sequence[Any]], width: int) -> list[list[Any]]:
    """``rows`` as ``width`` lists, one per column (empty lists for no rows)."""
    return [[r[i] for r in rows] for i in range(width)]


async def insert_events(
    s: Session, game_id: int, events: Sequence[EventValues], now: float
) -> list[int]:
    """Log ``events`` in order (one multi-row INSERT per batch); their ids, in that order.

    Within one statement the new ids increase in the order of its rows on both backends
    (SQLite's AUTOINCREMENT, a PostgreSQL identity's sequence), though not always
    consecutively (a sequence shared with other writers): they are sorted."""
    ids: list[int] = []
    for start in range(0, len(events), _EVENT_ROWS_PER_INSERT):
        part = events[start : start + _EVENT_ROWS_PER_INSERT]
        params: list[Any] = []
        for version, kind, text, recipients, data in part:
            params += [game_id, version, kind, text, recipients, data, now]
        values = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(part))
        rows = await s.all(
            "INSERT INTO events (game_id, version, kind, text, recipients, data_json, at) "
            f"VALUES {values} RETURNING id",
            params,
        )
        ids += sorted(r[0] for r in rows)
    return ids


async def seat_updates(s: Session, game_id: int, seats: Sequence[SeatUpdate]) -> None:
    """Every seat's bookkeeping of a change (one ``executemany``)."""
    if not seats:
        return
    await s.executemany(
        "UPDATE seats SET ai = ?, timeouts = ?, prompt_since = ?, deadline = ?, "
        "half_at = ?, pinged = ?, slow_json = ?, wake_at = ? WHERE game_id = ? AND seat = ?",
        [
            (
                int(u.ai),
                u.timeouts,
                u.prompt_since,
                u.deadline,
                u.half_at,
                int(u.pinged),
                u.slow_json,
                u.wake_at,
                game_id,
                u.seat,
            )
            for u in seats
        ],
    )
