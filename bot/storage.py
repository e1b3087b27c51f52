"""SQLite storage (aiosqlite, WAL): games, seats, the action/event log, settings and stats.

One connection per bot. Every statement goes through one :class:`asyncio.Lock`, so a
multi-statement transaction of one coroutine never interleaves with another coroutine's
statements on the shared connection. Every write is one :meth:`Storage.transaction`
(``BEGIN IMMEDIATE`` ... ``COMMIT``, ``ROLLBACK`` on any error). The schema is created and
migrated at start (``schema_version`` table); a migration is a list of statements run in one
transaction.

Time is stored as POSIX seconds taken from ``discord.utils.utcnow()`` (virtual in SimCord).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot.integrity import check_file

#: Schema migrations, in order; ``MIGRATIONS[i]`` brings the schema from version i to i + 1.
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            decision_timer INTEGER,
            window_timer INTEGER,
            dms INTEGER,
            ai_takeover INTEGER
        )""",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            host_id INTEGER NOT NULL,
            status TEXT NOT NULL,
            options_json TEXT NOT NULL,
            decision_timer INTEGER,
            window_timer INTEGER NOT NULL DEFAULT 0,
            seed INTEGER NOT NULL DEFAULT 0,
            state_json TEXT,
            version INTEGER NOT NULL DEFAULT 0,
            published_event_id INTEGER NOT NULL DEFAULT 0,
            published_version INTEGER NOT NULL DEFAULT -1,
            lobby_message_id INTEGER,
            board_message_id INTEGER,
            board_turn INTEGER,
            winner_seat TEXT,
            ending TEXT,
            broken_reason TEXT,
            created_at REAL NOT NULL,
            started_at REAL,
            ended_at REAL
        )""",
        # One game per channel: a lobby or a running game.
        """CREATE UNIQUE INDEX games_one_active_per_channel
            ON games(channel_id) WHERE status IN ('lobby', 'running')""",
        "CREATE INDEX games_status ON games(status)",
        """CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat TEXT NOT NULL,
            position INTEGER NOT NULL,
            user_id INTEGER,
            name TEXT NOT NULL,
            ai INTEGER NOT NULL DEFAULT 0,
            timeouts INTEGER NOT NULL DEFAULT 0,
            prompt_since INTEGER,
            deadline REAL,
            half_at REAL,
            pinged INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX seats_deadline ON seats(deadline)",
        """CREATE TABLE actions (
            game_id INTEGER NOT NULL,
            version INTEGER NOT NULL,
            seat TEXT NOT NULL,
            action TEXT NOT NULL,
            source TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (game_id, version)
        )""",
        """CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL,
            version INTEGER NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            recipients TEXT,
            data_json TEXT NOT NULL DEFAULT '{}',
            at REAL NOT NULL
        )""",
        "CREATE INDEX events_game ON events(game_id, id)",
        """CREATE TABLE dm_refused (
            user_id INTEGER PRIMARY KEY,
            at REAL NOT NULL
        )""",
        """CREATE TABLE results (
            game_id INTEGER NOT NULL,
            guild_id INTEGER NOT NULL,
            seat TEXT NOT NULL,
            user_id INTEGER,
            name TEXT NOT NULL,
            ai INTEGER NOT NULL,
            won INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX results_guild ON results(guild_id)",
    ],
    [
        # The lobby's "play in a thread" option: the game moves to a thread started from the
        # lobby message (its channel_id becomes the thread's) and keeps the channel clean.
        "ALTER TABLE games ADD COLUMN in_thread INTEGER NOT NULL DEFAULT 0",
    ],
    # A player's auto-pass (bot.autopass): per member and server, remembered across games.
    [
        """CREATE TABLE autopass (
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            kinds TEXT NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        )""",
    ],
    [
        # A game whose humans are all away waits, its timers stopped, since this time
        # (bot.timers); NULL while it runs.
        "ALTER TABLE games ADD COLUMN paused_at REAL",
    ],
    [
        # A lobby's last change (join, leave, AI, options; NULL: its creation): a lobby idle
        # for ANIMA_LOBBY_IDLE expires (bot.lobby).
        "ALTER TABLE games ADD COLUMN lobby_active_at REAL",
        # A channel's games, newest first (/anima log and /anima history read the last one
        # without scanning every game).
        "CREATE INDEX games_channel ON games(channel_id, id)",
    ],
    [
        # /anima stats reads per-server aggregates instead of counting every finished game
        # on each call. Triggers keep them in the transaction that ends a game (the UPDATE
        # to 'over' and the results rows of Storage.commit_action), whatever statements
        # write them; the INSERTs below count the games finished before this migration.
        """CREATE TABLE guild_stats (
            guild_id INTEGER PRIMARY KEY,
            games INTEGER NOT NULL,
            omega_wins INTEGER NOT NULL
        )""",
        # One row per member and server; every AI seat together under user_key -1.
        """CREATE TABLE player_stats (
            guild_id INTEGER NOT NULL,
            user_key INTEGER NOT NULL,
            name TEXT NOT NULL,
            wins INTEGER NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (guild_id, user_key)
        )""",
        "CREATE INDEX player_stats_rank ON player_stats(guild_id, wins DESC, games DESC)",
        """CREATE TRIGGER guild_stats_game_over AFTER UPDATE OF status ON games
            WHEN NEW.status = 'over' AND OLD.status <> 'over'
            BEGIN
                INSERT INTO guild_stats (guild_id, games, omega_wins)
                VALUES (NEW.guild_id, 1, NEW.winner_seat IS NULL)
                ON CONFLICT (guild_id) DO UPDATE SET games = games + 1,
                    omega_wins = omega_wins + excluded.omega_wins;
            END""",
        """CREATE TRIGGER player_stats_result AFTER INSERT ON results
            BEGIN
                INSERT INTO player_stats (guild_id, user_key, name, wins, games)
                VALUES (NEW.guild_id, COALESCE(NEW.user_id, -1),
                    CASE WHEN NEW.user_id IS NULL THEN 'AI players' ELSE NEW.name END,
                    NEW.won, 1)
                ON CONFLICT (guild_id, user_key) DO UPDATE SET wins = wins + excluded.wins,
                    games = games + 1, name = excluded.name;
            END""",
        """INSERT INTO guild_stats (guild_id, games, omega_wins)
            SELECT guild_id, COUNT(*), SUM(winner_seat IS NULL) FROM games
            WHERE status = 'over' GROUP BY guild_id""",
        # A member's name is the one of his latest game.
        """INSERT INTO player_stats (guild_id, user_key, name, wins, games)
            SELECT r.guild_id, COALESCE(r.user_id, -1),
                CASE WHEN r.user_id IS NULL THEN 'AI players' ELSE
                    (SELECT l.name FROM results l WHERE l.guild_id = r.guild_id
                     AND l.user_id = r.user_id ORDER BY l.game_id DESC LIMIT 1) END,
                SUM(r.won), COUNT(*)
            FROM results r GROUP BY r.guild_id, COALESCE(r.user_id, -1)""",
    ],
]

SCHEMA_VERSION = len(MIGRATIONS)

ACTIVE = ("lobby", "running")


@dataclass
class _Done:
    rowcount: int
    lastrowid: int | None


class VersionConflict(Exception):
    """The stored game moved on since it was loaded: nothing was written."""


class _NotALobby(Exception):
    """``start_game`` found no lobby to start: its transaction is rolled back."""


@dataclass
class GuildSettings:
    """Per-server defaults (``/anima settings``)."""

    guild_id: int
    decision_timer: int
    window_timer: int
    dms: bool
    ai_takeover: int


@dataclass
class SeatRow:
    """One seat of a game: a Discord member or an AI player."""

    game_id: int
    seat: str
    position: int
    user_id: int | None
    name: str
    ai: bool = False
    timeouts: int = 0
    prompt_since: int | None = None
    deadline: float | None = None
    half_at: float | None = None
    pinged: bool = False

    @property
    def human(self) -> bool:
        """A Discord member sits here (even if an AI took the seat over)."""
        return self.user_id is not None

    @property
    def taken_over(self) -> bool:
        return self.user_id is not None and self.ai


@dataclass
class GameRow:
    """One game (lobby, running or finished) as stored."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    decision_timer: int | None
    window_timer: int
    seed: int
    state_json: str | None
    version: int
    published_event_id: int
    published_version: int
    lobby_message_id: int | None
    board_message_id: int | None
    board_turn: int | None
    winner_seat: str | None
    ending: str | None
    broken_reason: str | None
    created_at: float
    started_at: float | None
    ended_at: float | None
    #: The lobby's option: play in a thread started from the lobby message.
    in_thread: bool = False
    #: When the game was paused because every human was away (None: not paused).
    paused_at: float | None = None


@dataclass
class EventRow:
    """One logged event; ``recipients`` None means everybody."""

    id: int
    game_id: int
    version: int
    kind: str
    text: str
    recipients: list[str] | None
    data: dict[str, Any] = field(default_factory=dict)
    at: float = 0.0


@dataclass
class NewEvent:
    """An event to log with an action."""

    kind: str
    text: str
    recipients: list[str] | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class SeatUpdate:
    """The per-seat bookkeeping written with an action."""

    seat: str
    ai: bool
    timeouts: int
    prompt_since: int | None
    deadline: float | None
    half_at: float | None
    pinged: bool


@dataclass
class Finish:
    """The end of a game, written with its last action."""

    winner_seat: str | None
    ending: str | None
    results: list[tuple[str, int | None, str, bool, bool]]  # seat, user, name, ai, won


_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, options_json, decision_timer, window_timer, "
    "seed, state_json, version, published_event_id, published_version, lobby_message_id, "
    "board_message_id, board_turn, winner_seat, ending, broken_reason, created_at, started_at, "
    "ended_at, in_thread, paused_at"
)
_SEAT_COLUMNS = (
    "game_id, seat, position, user_id, name, ai, timeouts, prompt_since, deadline, half_at, pinged"
)


def _game(row: Sequence[Any]) -> GameRow:
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=row[4],
        options=json.loads(row[5]),
        decision_timer=row[6],
        window_timer=row[7],
        seed=row[8],
        state_json=row[9],
        version=row[10],
        published_event_id=row[11],
        published_version=row[12],
        lobby_message_id=row[13],
        board_message_id=row[14],
        board_turn=row[15],
        winner_seat=row[16],
        ending=row[17],
        broken_reason=row[18],
        created_at=row[19],
        started_at=row[20],
        ended_at=row[21],
        in_thread=bool(row[22]),
        paused_at=row[23],
    )


def _seat(row: Sequence[Any]) -> SeatRow:
    return SeatRow(
        game_id=row[0],
        seat=row[1],
        position=row[2],
        user_id=row[3],
        name=row[4],
        ai=bool(row[5]),
        timeouts=row[6],
        prompt_since=row[7],
        deadline=row[8],
        half_at=row[9],
        pinged=bool(row[10]),
    )


def _event(row: Sequence[Any]) -> EventRow:
    return EventRow(
        id=row[0],
        game_id=row[1],
        version=row[2],
        kind=row[3],
        text=row[4],
        recipients=json.loads(row[5]) if row[5] is not None else None,
        data=json.loads(row[6]),
        at=row[7],
    )


class Storage:
    """The bot's database. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, path: Path | str, defaults: GuildSettings) -> None:
        self.path = Path(path)
        self.defaults = defaults
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------------ connection, schema

    async def open(self) -> None:
        """Check the file (:func:`bot.integrity.check_file`: ``PRAGMA quick_check``; raises
        :class:`bot.integrity.DatabaseDamaged` on an empty or damaged file), connect, switch
        to WAL and bring the schema up to date."""
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(check_file, self.path)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per unit.
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        await self._exec("PRAGMA journal_mode=WAL")
        await self._exec("PRAGMA synchronous=NORMAL")
        await self._exec("PRAGMA foreign_keys=ON")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def migrate(self) -> int:
        """Create or upgrade the schema; returns the schema version."""
        async with self._lock:
            await self._exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = await self._one("SELECT version FROM schema_version")
            current = row[0] if row else 0
            if row is None:
                await self._exec("INSERT INTO schema_version (version) VALUES (0)")
            if current > SCHEMA_VERSION:
                raise RuntimeError(
                    f"the database schema is version {current}, newer than this bot "
                    f"({SCHEMA_VERSION}): update the bot"
                )
            for target in range(current, SCHEMA_VERSION):
                async with self._transaction():
                    for statement in MIGRATIONS[target]:
                        await self._exec(statement)
                    await self._exec("UPDATE schema_version SET version = ?", (target + 1,))
            return SCHEMA_VERSION

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One write transaction: committed when the block ends, rolled back (and the error
        raised again) when it raises. Statements inside use :meth:`_exec` / :meth:`_one`."""
        async with self._lock, self._transaction():
            yield

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        # For callers that hold the statement lock already (the migration).
        await self._exec("BEGIN IMMEDIATE")
        try:
            yield
            await self._exec("COMMIT")
        except BaseException:
            await self._exec("ROLLBACK")
            raise

    async def _exec(self, sql: str, params: Iterable[Any] = ()) -> _Done:
        """Execute one statement and close its cursor (an open cursor would keep the
        statement "in progress" and block COMMIT)."""
        async with self.db.execute(sql, tuple(params)) as cur:
            return _Done(cur.rowcount, cur.lastrowid)

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> Any:
        async with self.db.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self.db.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        async with self._lock:
            return await self._one(sql, params)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self._lock:
            return await self._all(sql, params)

    async def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run statements as one transaction."""
        async with self.transaction():
            for sql, params in statements:
                await self._exec(sql, tuple(params))

    # ------------------------------------------------------------------ guild settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings, the bot's defaults where unset."""
        row = await self.fetchone(
            "SELECT decision_timer, window_timer, dms, ai_takeover FROM guild_settings "
            "WHERE guild_id = ?",
            (guild_id,),
        )
        d = self.defaults
        if row is None:
            return GuildSettings(guild_id, d.decision_timer, d.window_timer, d.dms, d.ai_takeover)
        return GuildSettings(
            guild_id,
            d.decision_timer if row[0] is None else row[0],
            d.window_timer if row[1] is None else row[1],
            d.dms if row[2] is None else bool(row[2]),
            d.ai_takeover if row[3] is None else row[3],
        )

    async def save_guild_settings(self, s: GuildSettings) -> None:
        await self._write(
            [
                (
                    "INSERT INTO guild_settings (guild_id, decision_timer, window_timer, dms, "
                    "ai_takeover) VALUES (?, ?, ?, ?, ?) ON CONFLICT(guild_id) DO UPDATE SET "
                    "decision_timer = excluded.decision_timer, "
                    "window_timer = excluded.window_timer, dms = excluded.dms, "
                    "ai_takeover = excluded.ai_takeover",
                    (s.guild_id, s.decision_timer, s.window_timer, int(s.dms), s.ai_takeover),
                )
            ]
        )

    # ------------------------------------------------------------------ auto-pass

    async def autopass(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, frozenset[str]]:
        """The auto-pass kinds of each of ``user_ids`` on a server (members without any are
        left out)."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self.fetchall(
            f"SELECT user_id, kinds FROM autopass WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *ids),
        )
        return {r[0]: frozenset(k for k in r[1].split(",") if k) for r in rows}

    async def set_autopass(self, guild_id: int, user_id: int, kinds: Iterable[str]) -> None:
        """Remember a member's auto-pass kinds on a server (an empty set forgets them)."""
        codes = ",".join(sorted(set(kinds)))
        if codes:
            sql = (
                "INSERT INTO autopass (guild_id, user_id, kinds) VALUES (?, ?, ?) "
                "ON CONFLICT(guild_id, user_id) DO UPDATE SET kinds = excluded.kinds"
            )
            await self._write([(sql, (guild_id, user_id, codes))])
        else:
            await self._write(
                [("DELETE FROM autopass WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))]
            )

    # ------------------------------------------------------------------ games and lobbies

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        now: float,
    ) -> int | None:
        """A new lobby with the host in seat 1; None if the channel already has a game."""
        try:
            async with self.transaction():
                cur = await self._exec(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, options_json, "
                    "created_at) VALUES (?, ?, ?, 'lobby', ?, ?)",
                    (guild_id, channel_id, host_id, json.dumps(options), now),
                )
                game_id = cur.lastrowid
                assert game_id is not None
                await self._exec(
                    "INSERT INTO seats (game_id, seat, position, user_id, name) "
                    "VALUES (?, 'p1', 0, ?, ?)",
                    (game_id, host_id, host_name),
                )
        except sqlite3.IntegrityError:  # the channel's one active game exists already
            return None
        return int(game_id)

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The lobby or running game of a channel."""
        row = await self.fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? "
            "AND status IN ('lobby', 'running')",
            (channel_id,),
        )
        return _game(row) if row else None

    async def last_game(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel that was dealt (running, over, ended or broken)."""
        row = await self.fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? "
            "AND status NOT IN ('lobby', 'cancelled') ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return _game(row) if row else None

    async def running_games(self) -> list[GameRow]:
        rows = await self.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'running' ORDER BY id"
        )
        return [_game(r) for r in rows]

    async def update_game(self, game_id: int, **fields: Any) -> None:
        """Set some columns of a game (not its state: see :meth:`commit_action`)."""
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
                    "INSERT INTO seats (game_id, seat, position, user_id, name, ai) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, s.seat, s.position, s.user_id, s.name, int(s.ai)),
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
    ) -> bool:
        """Turn a lobby into a running game; False if it is no longer a lobby."""
        try:
            async with self.transaction():
                cur = await self._exec(
                    "UPDATE games SET status = 'running', state_json = ?, version = ?, seed = ?, "
                    "decision_timer = ?, window_timer = ?, options_json = ?, started_at = ? "
                    "WHERE id = ? AND status = 'lobby'",
                    (
                        state_json,
                        version,
                        seed,
                        decision_timer,
                        window_timer,
                        json.dumps(options),
                        now,
                        game_id,
                    ),
                )
                if cur.rowcount != 1:
                    raise _NotALobby
                await self._seat_updates(game_id, seats)
                await self._insert_events(game_id, version, events, now)
        except _NotALobby:
            return False
        return True

    async def _seat_updates(self, game_id: int, seats: Sequence[SeatUpdate]) -> None:
        for s in seats:
            await self._exec(
                "UPDATE seats SET ai = ?, timeouts = ?, prompt_since = ?, deadline = ?, "
                "half_at = ?, pinged = ? WHERE game_id = ? AND seat = ?",
                (
                    int(s.ai),
                    s.timeouts,
                    s.prompt_since,
                    s.deadline,
                    s.half_at,
                    int(s.pinged),
                    game_id,
                    s.seat,
                ),
            )

    async def _insert_events(
        self, game_id: int, version: int, events: Sequence[NewEvent], now: float
    ) -> None:
        for e in events:
            await self._exec(
                "INSERT INTO events (game_id, version, kind, text, recipients, data_json, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    version,
                    e.kind,
                    e.text,
                    json.dumps(e.recipients) if e.recipients is not None else None,
                    json.dumps(e.data, default=str),
                    now,
                ),
            )

    async def commit_action(
        self,
        game_id: int,
        expected_version: int,
        state_json: str,
        version: int,
        seat: str,
        action: str,
        source: str,
        events: Sequence[NewEvent],
        seats: Sequence[SeatUpdate],
        now: float,
        finish: Finish | None = None,
    ) -> None:
        """One accepted action, in one transaction: the new state, its log rows and the
        seats' bookkeeping (and, for the last action, the result and the stats).

        Raises :class:`VersionConflict` (nothing written) if the stored version is not
        ``expected_version``.
        """
        async with self.transaction():
            cur = await self._exec(
                "UPDATE games SET state_json = ?, version = ? "
                "WHERE id = ? AND version = ? AND status = 'running'",
                (state_json, version, game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not at version {expected_version}")
            await self._exec(
                "INSERT INTO actions (game_id, version, seat, action, source, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, version, seat, action, source, now),
            )
            await self._insert_events(game_id, version, events, now)
            await self._seat_updates(game_id, seats)
            if finish is not None:
                await self._exec(
                    "UPDATE games SET status = 'over', winner_seat = ?, ending = ?, "
                    "ended_at = ? WHERE id = ?",
                    (finish.winner_seat, finish.ending, now, game_id),
                )
                await self._exec(
                    "UPDATE seats SET deadline = NULL, half_at = NULL WHERE game_id = ?",
                    (game_id,),
                )
                row = await self._one("SELECT guild_id FROM games WHERE id = ?", (game_id,))
                for seat_id, user_id, name, ai, won in finish.results:
                    await self._exec(
                        "INSERT INTO results (game_id, guild_id, seat, user_id, name, ai, "
                        "won) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (game_id, row[0], seat_id, user_id, name, int(ai), int(won)),
                    )

    async def save_seats(self, game_id: int, seats: Sequence[SeatUpdate]) -> None:
        """Seat bookkeeping alone (a ping sent, an AI takeover)."""
        async with self.transaction():
            await self._seat_updates(game_id, seats)

    async def set_paused(
        self,
        game_id: int,
        paused_at: float | None,
        seats: Sequence[SeatUpdate],
        events: Sequence[NewEvent],
        version: int,
        now: float,
    ) -> None:
        """Pause (``paused_at`` set) or resume (None) a running game, with its seats'
        deadlines and the notice that says so, in one transaction."""
        async with self.transaction():
            await self._exec(
                "UPDATE games SET paused_at = ? WHERE id = ? AND status = 'running'",
                (paused_at, game_id),
            )
            await self._seat_updates(game_id, seats)
            await self._insert_events(game_id, version, events, now)

    async def add_events(
        self, game_id: int, version: int, events: Sequence[NewEvent], now: float
    ) -> None:
        """Log events that are not an action (notices: takeovers, closed DMs)."""
        async with self.transaction():
            await self._insert_events(game_id, version, events, now)

    async def stop_game(
        self, game_id: int, status: str, now: float, reason: str | None = None
    ) -> bool:
        """End a lobby or running game without a result (cancelled, ended, broken)."""
        async with self.transaction():
            cur = await self._exec(
                "UPDATE games SET status = ?, ended_at = ?, broken_reason = ? "
                "WHERE id = ? AND status IN ('lobby', 'running')",
                (status, now, reason, game_id),
            )
            await self._exec(
                "UPDATE seats SET deadline = NULL, half_at = NULL WHERE game_id = ?",
                (game_id,),
            )
        return cur.rowcount == 1

    # ------------------------------------------------------------------ log queries

    async def events_after(self, game_id: int, after_id: int) -> list[EventRow]:
        rows = await self.fetchall(
            "SELECT id, game_id, version, kind, text, recipients, data_json, at FROM events "
            "WHERE game_id = ? AND id > ? ORDER BY id",
            (game_id, after_id),
        )
        return [_event(r) for r in rows]

    async def last_events(self, game_id: int, limit: int) -> list[EventRow]:
        """The latest events (oldest first), public and private."""
        rows = await self.fetchall(
            "SELECT id, game_id, version, kind, text, recipients, data_json, at FROM events "
            "WHERE game_id = ? ORDER BY id DESC LIMIT ?",
            (game_id, limit),
        )
        return [_event(r) for r in reversed(rows)]

    async def private_events(self, game_id: int, seat: str, limit: int) -> list[EventRow]:
        """The latest events addressed to ``seat`` alone or with others (oldest first)."""
        rows = await self.fetchall(
            "SELECT id, game_id, version, kind, text, recipients, data_json, at FROM events "
            "WHERE game_id = ? AND recipients IS NOT NULL AND EXISTS "
            "(SELECT 1 FROM json_each(events.recipients) WHERE value = ?) "
            "ORDER BY id DESC LIMIT ?",
            (game_id, seat, limit),
        )
        return [_event(r) for r in reversed(rows)]

    async def actions(self, game_id: int) -> list[tuple[int, str, str, str]]:
        """Every applied action: (version, seat, action, source), in order."""
        rows = await self.fetchall(
            "SELECT version, seat, action, source FROM actions WHERE game_id = ? ORDER BY version",
            (game_id,),
        )
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    # ------------------------------------------------------------------ timers

    async def games_with_due_timers(self, now: float) -> list[int]:
        """Running games, not paused, where a deadline or a half-time ping is due."""
        rows = await self.fetchall(
            "SELECT DISTINCT s.game_id FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.status = 'running' AND g.paused_at IS NULL "
            "AND ((s.deadline IS NOT NULL AND s.deadline <= ?) "
            "OR (s.half_at IS NOT NULL AND s.half_at <= ? AND s.pinged = 0)) ORDER BY s.game_id",
            (now, now),
        )
        return [r[0] for r in rows]

    # ------------------------------------------------------------------ DMs

    async def dm_refused(self, user_id: int) -> bool:
        return (
            await self.fetchone("SELECT 1 FROM dm_refused WHERE user_id = ?", (user_id,))
            is not None
        )

    async def set_dm_refused(self, user_id: int, refused: bool, now: float) -> None:
        if refused:
            await self._write(
                [("INSERT OR IGNORE INTO dm_refused (user_id, at) VALUES (?, ?)", (user_id, now))]
            )
        else:
            await self._write([("DELETE FROM dm_refused WHERE user_id = ?", (user_id,))])

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

    # ------------------------------------------------------------------ stats

    async def guild_stats(
        self, guild_id: int
    ) -> tuple[int, list[tuple[str, int | None, int, int]]]:
        """(games finished, [(name, user_id, wins, games)]) for a server, best first (the
        20 best; every AI seat together as "AI players"), from the per-server aggregates
        (``guild_stats``, ``player_stats``) that the game's last commit keeps up to date."""
        row = await self.fetchone("SELECT games FROM guild_stats WHERE guild_id = ?", (guild_id,))
        rows = await self.fetchall(
            "SELECT name, NULLIF(user_key, -1), wins, games FROM player_stats "
            "WHERE guild_id = ? ORDER BY wins DESC, games DESC LIMIT 20",
            (guild_id,),
        )
        return (row[0] if row else 0), [(r[0], r[1], r[2], r[3]) for r in rows]

    async def omega_wins(self, guild_id: int) -> int:
        """Finished games of a server that nobody won (Omega broke free)."""
        row = await self.fetchone(
            "SELECT omega_wins FROM guild_stats WHERE guild_id = ?", (guild_id,)
        )
        return int(row[0]) if row else 0
