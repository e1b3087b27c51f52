"""SQLite storage (WAL): games, seats, the action/event log, settings and stats.

One connection per bot (:mod:`bot.database`, over the standard ``sqlite3`` module; it runs
SQLite on the event loop's thread, or on a worker thread with ``inline=False``). Every method
is one *hop*: a plain function run against the connection in one go, so a write is one
transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``, ``ROLLBACK`` on any error) handed over once,
and a read of several statements too. Hops run one at a time, so a transaction never
interleaves with another coroutine's statements. The
schema is created and migrated at start (``schema_version`` table); a migration is a list of
statements run in one transaction.

Time is stored as POSIX seconds taken from ``discord.utils.utcnow()`` (virtual in SimCord).

A running game is written by one statement batch per change (:meth:`Storage.commit`): its state,
the actions and their events, its seats and its publish pointer in one transaction. The
settings of a server, the auto-pass kinds and the closed DMs are read once and kept in memory
(this process is the database's only writer).

Every row is parsed without raising: a malformed ``options_json`` sets the
:attr:`GameRow.damage` of its game, a malformed event row is :attr:`EventRow.damaged` (and
private to nobody), so one bad row stops only its own game (``bot.games`` marks it broken).

Crash points (tests): :func:`kill_point` raises :class:`Killed` at a named step armed in
:data:`crash_points`, to simulate the process dying right there.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sqlite3
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from bot.database import Database, Session
from bot.integrity import check_file

log = logging.getLogger("anima.storage")

T = TypeVar("T")

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
        # Issue 10, fault 7: a human seat's secret start DM: 0 to deliver (set by the start
        # commit), 1 delivered (or told in the channel); NULL: nothing to deliver (older games).
        "ALTER TABLE seats ADD COLUMN start_dm INTEGER",
    ],
    [
        # Issue 10: the action log (the replay: kept whole) stored compactly. Clustered on
        # its key (WITHOUT ROWID), it needs no separate index; the rows are copied as they
        # are, so every reader keeps working.
        """CREATE TABLE actions_compact (
            game_id INTEGER NOT NULL,
            version INTEGER NOT NULL,
            seat TEXT NOT NULL,
            action TEXT NOT NULL,
            source TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (game_id, version)
        ) WITHOUT ROWID""",
        "INSERT INTO actions_compact SELECT game_id, version, seat, action, source, at "
        "FROM actions",
        "DROP TABLE actions",
        "ALTER TABLE actions_compact RENAME TO actions",
    ],
    [
        # The AI level the host chose for an AI seat (engine.agents.levels); NULL for a
        # member's seat and for an AI seat added before levels: it plays at the default level.
        "ALTER TABLE seats ADD COLUMN ai_level TEXT",
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
        # to 'over' and the results rows of Storage.commit), whatever statements
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
    [
        # Issue 22: the languages (words.LANGUAGES). A game's public language (a lobby
        # option; NULL: English, as before); a server's default for new lobbies (NULL: the
        # server's preferred locale); a member's own choice for his private messages (NULL:
        # his Discord locale, the last one an interaction of his carried: a DM has none).
        "ALTER TABLE games ADD COLUMN language TEXT",
        "ALTER TABLE guild_settings ADD COLUMN language TEXT",
        """CREATE TABLE member_settings (
            user_id INTEGER PRIMARY KEY,
            language TEXT,
            locale TEXT
        )""",
    ],
]

SCHEMA_VERSION = len(MIGRATIONS)

ACTIVE = ("lobby", "running")

#: The named steps of an action where a test may kill the bot (:func:`kill_point`).
KILL_STEPS = (
    "after start commit",
    "after commit",
    "after final commit",
    "after post",
    "before pointer",
)
#: Armed crash points (tests only): step -> how many more times the step passes before the
#: bot is killed there (0: the next time).
crash_points: dict[str, int] = {}


class Killed(BaseException):
    """A simulated crash: the bot "dies" at a named step (a BaseException, so that no
    ``except Exception`` of the bot catches it and carries on)."""


def kill_point(step: str) -> None:
    """Raise :class:`Killed` if the test armed ``step`` (one shot)."""
    left = crash_points.get(step)
    if left is None:
        return
    if left > 0:
        crash_points[step] = left - 1
        return
    del crash_points[step]
    raise Killed(step)


class StorageUnavailable(Exception):
    """A write failed in SQLite (disk full, I/O error, read-only file...): nothing of it was
    saved. The message names the real cause; players are told the bot cannot save now."""


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
    #: The public language of new lobbies (a words.LANGUAGES code); None: the server's
    #: preferred locale.
    language: str | None = None


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
    #: Its secret start DM: 0 still to deliver, 1 delivered, None nothing to deliver.
    start_dm: int | None = None
    #: The AI level of an AI seat (a key of engine.agents.levels.LEVELS); None: the default
    #: level (a member's seat an AI takes over after time-outs, an AI seat of an older lobby).
    ai_level: str | None = None

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
    #: Why a stored column could not be read (the game is then marked broken), else None.
    damage: str | None = None
    #: The language of the game's public messages (a words.LANGUAGES code: a lobby option).
    language: str = "en"


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
    #: The row's recipients or data could not be read: private to nobody, data empty.
    damaged: bool = False


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


@dataclass
class Pointer:
    """What has been posted of a game: the last event and state version published, and the
    message that carries the board (and its turn)."""

    event_id: int
    version: int
    board_message_id: int | None
    board_turn: int | None


@dataclass
class GameWrite:
    """One change of a running game, written in one transaction by :meth:`Storage.commit`.

    ``state_json`` None: the state did not change (a notice, a pause, a ping's bookkeeping).
    """

    version: int
    state_json: str | None
    #: (version, seat, action, source) of each action applied since the last write.
    actions: list[tuple[int, str, str, str]]
    #: (version, event) of each event to log, in order.
    events: list[tuple[int, NewEvent]]
    seats: list[SeatUpdate]
    paused_at: float | None
    pointer: Pointer
    finish: Finish | None = None


_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, options_json, decision_timer, window_timer, "
    "seed, state_json, version, published_event_id, published_version, lobby_message_id, "
    "board_message_id, board_turn, winner_seat, ending, broken_reason, created_at, started_at, "
    "ended_at, in_thread, paused_at, language"
)
_SEAT_COLUMNS = (
    "game_id, seat, position, user_id, name, ai, timeouts, prompt_since, deadline, half_at, "
    "pinged, start_dm, ai_level"
)
_EVENT_COLUMNS = "id, game_id, version, kind, text, recipients, data_json, at"
#: Private logs (game, seat) kept in memory at most (bot.panels draws them).
PRIVATE_CACHE = 4096
#: Event rows per multi-row INSERT (7 parameters each, far below SQLite's limit).
_EVENT_ROWS_PER_INSERT = 500


def _compact(value: Any) -> str:
    """JSON without the optional spaces (the log's rows: every reader parses JSON)."""
    return json.dumps(value, separators=(",", ":"), default=str)


def _json_object(text: Any) -> dict[str, Any] | None:
    """A stored JSON object, or None if the column does not hold one."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _game(row: Sequence[Any]) -> GameRow:
    # Never raises on a bad column: the game alone is marked broken (bot.games.Games.load).
    options = _json_object(row[5])
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=row[4],
        options=options if options is not None else {},
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
        damage=None if options is not None else "its options are not valid JSON",
        language=row[24] or "en",
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
        start_dm=row[11],
        ai_level=row[12],
    )


def _event(row: Sequence[Any]) -> EventRow:
    # A damaged row is private to nobody (a bad recipients list must never make a private
    # line public) and has no data; its game is marked broken where it is published.
    recipients: list[str] | None = None
    damaged = False
    if row[5] is not None:
        try:
            parsed = json.loads(row[5])
        except (TypeError, ValueError):
            parsed = None
        if isinstance(parsed, list) and all(isinstance(r, str) for r in parsed):
            recipients = parsed
        else:
            recipients, damaged = [], True
    data = _json_object(row[6])
    return EventRow(
        id=row[0],
        game_id=row[1],
        version=row[2],
        kind=str(row[3]),
        text=str(row[4]),
        recipients=recipients,
        data=data if data is not None else {},
        at=row[7],
        damaged=damaged or data is None,
    )


class Storage:
    """The bot's database. Open with :meth:`open`, close with :meth:`close`.

    Every public method is one hop to the database (:mod:`bot.database`): a write is one
    transaction run whole, a read of several statements one function. The functions that
    run there (``_…`` methods taking a :class:`~bot.database.Session`) touch nothing but the
    connection (they may run on the database's worker thread); the caches below are read and
    updated here, on the event loop, before or after the hop."""

    def __init__(self, path: Path | str, defaults: GuildSettings, inline: bool = True) -> None:
        self.path = Path(path)
        self.defaults = defaults
        #: ``inline``: SQLite runs on the event loop's thread (see :mod:`bot.database`).
        self._db = Database(self.path, inline)
        # Read once, then kept up to date by the writes below (the only writer).
        self._settings: dict[int, GuildSettings] = {}
        self._autopass: dict[tuple[int, int], frozenset[str]] = {}
        self._languages: dict[int, tuple[str | None, str | None]] = {}
        self._dm_refused: dict[int, bool] = {}
        #: The latest private events of (game, seat, limit), least recently read first.
        self._private: OrderedDict[tuple[int, str, int], list[EventRow]] = OrderedDict()
        self._private_keys: dict[int, set[tuple[int, str, int]]] = {}
        #: Publish pointers posted but not yet written (see :meth:`defer_pointer`), and the
        #: games whose pointer rides along with any game's commit.
        self._pointers: dict[int, Pointer] = {}
        self._riders: set[int] = set()

    # ------------------------------------------------------------------ connection, schema

    async def open(self) -> None:
        """Check the file (:func:`bot.integrity.check_file`: ``PRAGMA quick_check``; raises
        :class:`bot.integrity.DatabaseDamaged` on an empty or damaged file), connect, switch
        to WAL and bring the schema up to date."""
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(check_file, self.path)
        await self._db.open()
        await self._db.run(_configure)
        await self.migrate()

    async def close(self) -> None:
        """Write the publish pointers still pending (a clean stop needs no reconciliation at
        the next start), then close."""
        if self._db.is_open and self._pointers:
            try:
                await self._write(_save_pointers(list(self._pointers.items())))
                self._pointers.clear()
                self._riders.clear()
            except Exception:
                log.exception("could not save the publish pointers at close")
        await self._db.close()

    @property
    def db(self) -> Database:
        """The database (its connection); raises if not open."""
        if not self._db.is_open:
            raise RuntimeError("storage is not open")
        return self._db

    async def migrate(self) -> int:
        """Create or upgrade the schema; returns the schema version. One hop; each
        migration step is one transaction."""
        return await self._guarded(self.db.run(_migrate))

    async def _guarded(self, hop: Awaitable[T]) -> T:
        """Await a hop, turning an SQLite failure into :class:`StorageUnavailable` (its
        real cause logged); an ``IntegrityError`` is raised as it is (a constraint the
        caller expects: one game per channel)."""
        try:
            return await hop
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            log.error("SQLite write failed: %s: %s", type(exc).__name__, exc)
            raise StorageUnavailable(f"{type(exc).__name__}: {exc}") from exc

    async def transaction(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn`` (a plain function of the connection, see :mod:`bot.database`) as one
        write transaction in one hop: committed if it returns, rolled back (and its error
        raised here) if it raises; SQLite failures raise :class:`StorageUnavailable`."""
        return await self._guarded(self.db.transaction(fn))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """One statement's first row, or None (one hop)."""
        return await self.db.run(lambda s: s.one(sql, tuple(params)))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement's rows (one hop)."""
        return await self.db.run(lambda s: s.all(sql, tuple(params)))

    async def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run statements as one transaction (one hop)."""

        def write(s: Session) -> None:
            for sql, params in statements:
                s.execute(sql, tuple(params))

        await self.transaction(write)

    # ------------------------------------------------------------------ guild settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings, the bot's defaults where unset."""
        cached = self._settings.get(guild_id)
        if cached is not None:
            return GuildSettings(**vars(cached))
        settings = await self._read_guild_settings(guild_id)
        self._settings[guild_id] = settings
        return GuildSettings(**vars(settings))

    async def _read_guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self.fetchone(
            "SELECT decision_timer, window_timer, dms, ai_takeover, language FROM guild_settings "
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
            row[4],
        )

    async def save_guild_settings(self, s: GuildSettings) -> None:
        self._settings.pop(s.guild_id, None)
        await self._write(
            [
                (
                    "INSERT INTO guild_settings (guild_id, decision_timer, window_timer, dms, "
                    "ai_takeover, language) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(guild_id) DO UPDATE SET "
                    "decision_timer = excluded.decision_timer, "
                    "window_timer = excluded.window_timer, dms = excluded.dms, "
                    "ai_takeover = excluded.ai_takeover, language = excluded.language",
                    (
                        s.guild_id,
                        s.decision_timer,
                        s.window_timer,
                        int(s.dms),
                        s.ai_takeover,
                        s.language,
                    ),
                )
            ]
        )

    # ------------------------------------------------------------------ auto-pass

    async def autopass(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, frozenset[str]]:
        """The auto-pass kinds of each of ``user_ids`` on a server (members without any are
        left out)."""
        ids = list(user_ids)
        missing = [u for u in ids if (guild_id, u) not in self._autopass]
        if missing:
            marks = ", ".join("?" for _ in missing)
            rows = await self.fetchall(
                f"SELECT user_id, kinds FROM autopass WHERE guild_id = ? AND user_id IN ({marks})",
                (guild_id, *missing),
            )
            found = {r[0]: frozenset(k for k in r[1].split(",") if k) for r in rows}
            for u in missing:
                self._autopass[(guild_id, u)] = found.get(u, frozenset())
        out = {u: self._autopass[(guild_id, u)] for u in ids}
        return {u: kinds for u, kinds in out.items() if kinds}

    async def set_autopass(self, guild_id: int, user_id: int, kinds: Iterable[str]) -> None:
        """Remember a member's auto-pass kinds on a server (an empty set forgets them)."""
        codes = ",".join(sorted(set(kinds)))
        self._autopass.pop((guild_id, user_id), None)
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

    # ------------------------------------------------------------------ members' languages

    async def member_languages(self, user_id: int) -> tuple[str | None, str | None]:
        """A member's chosen language (``/anima settings language``; None: none chosen) and
        the Discord locale his last interaction carried (None: never seen)."""
        if user_id not in self._languages:
            row = await self.fetchone(
                "SELECT language, locale FROM member_settings WHERE user_id = ?", (user_id,)
            )
            self._languages[user_id] = (row[0], row[1]) if row is not None else (None, None)
        return self._languages[user_id]

    async def set_member_language(self, user_id: int, language: str | None) -> None:
        """Remember a member's chosen language (None forgets it: his locale decides)."""
        _, locale = await self.member_languages(user_id)
        await self._save_member(user_id, language, locale)

    async def saw_locale(self, user_id: int, locale: str) -> None:
        """Remember the Discord locale of a member's interaction (written only when it
        changed: a DM, which carries none, is then said in it)."""
        language, seen = await self.member_languages(user_id)
        if seen != locale:
            await self._save_member(user_id, language, locale)

    async def _save_member(self, user_id: int, language: str | None, locale: str | None) -> None:
        self._languages.pop(user_id, None)
        sql = (
            "INSERT INTO member_settings (user_id, language, locale) VALUES (?, ?, ?) "
            "ON CONFLICT(user_id) DO UPDATE SET language = excluded.language, "
            "locale = excluded.locale"
        )
        await self._write([(sql, (user_id, language, locale))])
        self._languages[user_id] = (language, locale)

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

        def create(s: Session) -> int:
            done = s.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, status, options_json, "
                "created_at) VALUES (?, ?, ?, 'lobby', ?, ?)",
                (guild_id, channel_id, host_id, json.dumps(options), now),
            )
            assert done.lastrowid is not None
            s.execute(
                "INSERT INTO seats (game_id, seat, position, user_id, name) "
                "VALUES (?, 'p1', 0, ?, ?)",
                (done.lastrowid, host_id, host_name),
            )
            return done.lastrowid

        try:
            return await self.transaction(create)
        except sqlite3.IntegrityError:  # the channel's one active game exists already
            return None

    async def game(self, game_id: int) -> GameRow | None:
        return await self._game_where("id = ?", (game_id,))

    async def game_to_play(self, game_id: int) -> tuple[GameRow, list[SeatRow], bool] | None:
        """A game read back to be played (``bot.games.Games.load``), in one hop of two
        statements: its row, its seats (none for a lobby, a cancelled or a broken game) and
        whether some of its events were not published (those after its publish pointer, the
        pointer not yet written included: :meth:`behind` without its own hop). None: no
        such game."""
        pending = self._pointers.get(game_id)
        after = pending.event_id if pending is not None else None

        def read(s: Session) -> tuple[Any, list[Any]] | None:
            row = s.one(
                f"SELECT {_GAME_COLUMNS}, EXISTS (SELECT 1 FROM events e "
                "WHERE e.game_id = g.id AND e.id > COALESCE(?, g.published_event_id)) "
                "FROM games g WHERE id = ?",
                (after, game_id),
            )
            if row is None or row[4] in ("lobby", "cancelled", "broken"):
                return row, []
            seats = s.all(
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY position",
                (game_id,),
            )
            return row, seats

        found = await self.db.run(read)
        if found is None or found[0] is None:
            return None
        raw, seats = found
        row = self._row(raw)
        unpublished = row.published_version != row.version or bool(raw[-1])
        return row, [_seat(r) for r in seats], unpublished

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The lobby or running game of a channel."""
        return await self._game_where(
            "channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        )

    async def last_game(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel that was dealt (running, over, ended or broken)."""
        return await self._game_where(
            "channel_id = ? AND status NOT IN ('lobby', 'cancelled') ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )

    async def _game_where(self, where: str, params: tuple[int, ...]) -> GameRow | None:
        """The first game row matching the SQL condition ``where`` (and its order), if any."""
        row = await self.fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", params)
        return self._row(row) if row else None

    async def running_games(self) -> list[GameRow]:
        rows = await self.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'running' ORDER BY id"
        )
        return [self._row(r) for r in rows]

    async def games_to_recover(self) -> list[GameRow]:
        """After a restart: every running game, and every finished one whose last action or
        events were not all published (fault 1: its ending and summary are still to post)."""
        rows = await self.fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE status = 'running' "
            "OR (status = 'over' AND (published_version < version OR EXISTS "
            "(SELECT 1 FROM events e WHERE e.game_id = g.id AND e.id > g.published_event_id))) "
            "ORDER BY id"
        )
        return [self._row(r) for r in rows]

    async def behind(self, row: GameRow) -> bool:
        """Whether some of the game's events or its last version were not published."""
        if row.published_version != row.version:
            return True
        found = await self.fetchone(
            "SELECT 1 FROM events WHERE game_id = ? AND id > ? LIMIT 1",
            (row.id, row.published_event_id),
        )
        return found is not None

    async def update_game(self, game_id: int, **fields: Any) -> None:
        """Set some columns of a game (not its state: see :meth:`commit`)."""
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
                    "INSERT INTO seats (game_id, seat, position, user_id, name, ai, ai_level) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, s.seat, s.position, s.user_id, s.name, int(s.ai), s.ai_level),
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

        def start(s: Session) -> list[EventRow]:
            done = s.execute(
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
            if done.rowcount != 1:
                raise _NotALobby
            _seat_updates(s, game_id, seats)
            # Every member's secret start is to be DM'd (fault 7: redelivered on
            # recovery until marked delivered).
            s.execute(
                "UPDATE seats SET start_dm = 0 WHERE game_id = ? AND user_id IS NOT NULL "
                "AND ai = 0",
                (game_id,),
            )
            return self._insert_events(s, game_id, [(version, e) for e in events], now)

        try:
            stored = await self.transaction(start)
        except _NotALobby:
            return False
        self._remember_private(game_id, stored)
        kill_point("after start commit")
        return True

    def _insert_events(
        self, s: Session, game_id: int, events: Sequence[tuple[int, NewEvent]], now: float
    ) -> list[EventRow]:
        """Log ``events`` (version, event) in order; the rows as stored, with their ids.
        Runs in the hop of the caller's transaction.

        One multi-row INSERT per batch of rows: a single statement whose rows get
        consecutive ids (AUTOINCREMENT, one writer), ending at ``lastrowid``."""
        out: list[EventRow] = []
        for start in range(0, len(events), _EVENT_ROWS_PER_INSERT):
            part = events[start : start + _EVENT_ROWS_PER_INSERT]
            params: list[Any] = []
            data_json = [_compact(e.data) for _version, e in part]
            for (version, e), data in zip(part, data_json, strict=True):
                params += [
                    game_id,
                    version,
                    e.kind,
                    e.text,
                    _compact(e.recipients) if e.recipients is not None else None,
                    data,
                    now,
                ]
            values = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(part))
            done = s.execute(
                "INSERT INTO events (game_id, version, kind, text, recipients, data_json, at) "
                f"VALUES {values}",
                params,
            )
            assert done.lastrowid is not None
            first = done.lastrowid - len(part) + 1
            for i, (version, e) in enumerate(part):
                # The data as a reader of the row gets it (JSON: tuples become lists).
                data = json.loads(data_json[i])
                out.append(
                    EventRow(first + i, game_id, version, e.kind, e.text, e.recipients, data, now)
                )
        return out

    async def commit(
        self, game_id: int, expected_version: int, write: GameWrite, now: float
    ) -> list[EventRow]:
        """One change of a running game in one transaction, one hop: its state, the actions
        and events since the last write (``executemany`` / one multi-row INSERT), every
        seat's bookkeeping, the pause and the publish pointer (and, for the last action, the
        result). Returns the events as stored (with their ids), for publishing.

        Raises :class:`VersionConflict` (nothing written) if the stored game is not at
        ``expected_version`` or no longer running; :class:`StorageUnavailable` if SQLite fails.
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
            functools.partial(
                self._commit, game_id, expected_version, write, sets, params, others, now
            )
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

    def _commit(
        self,
        game_id: int,
        expected_version: int,
        write: GameWrite,
        sets: str,
        params: list[Any],
        others: list[tuple[int, Pointer]],
        now: float,
        s: Session,
    ) -> list[EventRow]:
        # Runs in the hop of commit(), inside its transaction.
        finish = write.finish
        done = s.execute(
            f"UPDATE games SET {sets} WHERE id = ? AND version = ? AND status = 'running'",
            (*params, game_id, expected_version),
        )
        if done.rowcount != 1:
            raise VersionConflict(f"game {game_id} is not at version {expected_version}")
        if write.actions:
            s.executemany(
                "INSERT INTO actions (game_id, version, seat, action, source, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, v, seat, a, src, now) for v, seat, a, src in write.actions],
            )
        stored = self._insert_events(s, game_id, write.events, now)
        seats = write.seats
        if finish is not None:
            seats = [replace(u, deadline=None, half_at=None) for u in seats]
        _seat_updates(s, game_id, seats)
        if others:
            s.executemany(
                "UPDATE games SET published_event_id = ?, published_version = ?, "
                "board_message_id = ?, board_turn = ? WHERE id = ?",
                [
                    (p.event_id, p.version, p.board_message_id, p.board_turn, other)
                    for other, p in others
                ],
            )
        if finish is not None:
            s.executemany(
                "INSERT INTO results (game_id, guild_id, seat, user_id, name, ai, won) "
                "SELECT ?, guild_id, ?, ?, ?, ?, ? FROM games WHERE id = ?",
                [
                    (game_id, seat_id, user_id, name, int(ai), int(won), game_id)
                    for seat_id, user_id, name, ai, won in finish.results
                ],
            )
        return stored

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

    async def set_start_delivered(self, game_id: int, seat: str) -> None:
        """A seat's secret start has been DM'd (or its member told in the channel)."""
        await self._write(
            [("UPDATE seats SET start_dm = 1 WHERE game_id = ? AND seat = ?", (game_id, seat))]
        )

    async def stop_game(
        self, game_id: int, status: str, now: float, reason: str | None = None
    ) -> bool:
        """End a lobby or running game without a result (cancelled, ended, broken)."""

        def stop(s: Session) -> bool:
            done = s.execute(
                "UPDATE games SET status = ?, ended_at = ?, broken_reason = ? "
                "WHERE id = ? AND status IN ('lobby', 'running')",
                (status, now, reason, game_id),
            )
            s.execute(
                "UPDATE seats SET deadline = NULL, half_at = NULL WHERE game_id = ?",
                (game_id,),
            )
            return done.rowcount == 1

        return await self.transaction(stop)

    # ------------------------------------------------------------------ log queries

    async def events_after(self, game_id: int, after_id: int) -> list[EventRow]:
        rows = await self.fetchall(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND id > ? ORDER BY id",
            (game_id, after_id),
        )
        return [_event(r) for r in rows]

    async def last_events(self, game_id: int, limit: int) -> list[EventRow]:
        """The latest events (oldest first), public and private."""
        rows = await self.fetchall(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? ORDER BY id DESC LIMIT ?",
            (game_id, limit),
        )
        return [_event(r) for r in reversed(rows)]

    async def private_events(self, game_id: int, seat: str, limit: int) -> list[EventRow]:
        """The latest events addressed to ``seat`` alone or with others (oldest first).

        Kept in memory once read (a private panel is drawn again after most clicks) and
        brought up to date by every insert of the game's events."""
        key = (game_id, seat, limit)
        cached = self._private.get(key)
        if cached is not None:
            self._private.move_to_end(key)
            return list(cached)
        rows = await self.fetchall(
            f"SELECT {_EVENT_COLUMNS} FROM events "
            "WHERE game_id = ? AND recipients IS NOT NULL AND EXISTS "
            "(SELECT 1 FROM json_each(events.recipients) WHERE value = ?) "
            "ORDER BY id DESC LIMIT ?",
            (game_id, seat, limit),
        )
        events = [_event(r) for r in reversed(rows)]
        self._private[key] = events
        self._private_keys.setdefault(game_id, set()).add(key)
        while len(self._private) > PRIVATE_CACHE:
            (old_game, old_seat, old_limit), _ = self._private.popitem(last=False)
            self._private_keys.get(old_game, set()).discard((old_game, old_seat, old_limit))
        return list(events)

    def _remember_private(self, game_id: int, events: Sequence[EventRow]) -> None:
        # New events of a game reach the private logs kept in memory for its seats.
        keys = self._private_keys.get(game_id)
        if not keys:
            return
        for key in list(keys):
            cached = self._private.get(key)
            if cached is None:
                keys.discard(key)
                continue
            _, seat, limit = key
            cached += [e for e in events if e.recipients is not None and seat in e.recipients]
            del cached[: max(0, len(cached) - limit)]

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
        refused = self._dm_refused.get(user_id)
        if refused is None:
            row = await self.fetchone("SELECT 1 FROM dm_refused WHERE user_id = ?", (user_id,))
            refused = self._dm_refused[user_id] = row is not None
        return refused

    async def set_dm_refused(self, user_id: int, refused: bool, now: float) -> None:
        self._dm_refused.pop(user_id, None)
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

        def read(s: Session) -> tuple[Any, list[Any]]:
            row = s.one("SELECT games FROM guild_stats WHERE guild_id = ?", (guild_id,))
            rows = s.all(
                "SELECT name, NULLIF(user_key, -1), wins, games FROM player_stats "
                "WHERE guild_id = ? ORDER BY wins DESC, games DESC LIMIT 20",
                (guild_id,),
            )
            return row, rows

        row, rows = await self.db.run(read)
        return (row[0] if row else 0), [(r[0], r[1], r[2], r[3]) for r in rows]

    async def omega_wins(self, guild_id: int) -> int:
        """Finished games of a server that nobody won (Omega broke free)."""
        row = await self.fetchone(
            "SELECT omega_wins FROM guild_stats WHERE guild_id = ?", (guild_id,)
        )
        return int(row[0]) if row else 0


# ---------------------------------------------------------------------- run in a hop


def _configure(s: Session) -> None:
    """The connection's settings: WAL (readers never wait for the writer), ``synchronous``
    NORMAL (a commit survives a crash of the bot; only a power cut may lose the last ones)."""
    s.execute("PRAGMA journal_mode=WAL")
    s.execute("PRAGMA synchronous=NORMAL")
    s.execute("PRAGMA foreign_keys=ON")


def _migrate(s: Session) -> int:
    """Bring the schema up to date, each migration in its own transaction."""
    s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = s.one("SELECT version FROM schema_version")
    current = row[0] if row else 0
    if row is None:
        s.execute("INSERT INTO schema_version (version) VALUES (0)")
    if current > SCHEMA_VERSION:
        raise RuntimeError(
            f"the database schema is version {current}, newer than this bot "
            f"({SCHEMA_VERSION}): update the bot"
        )
    for target in range(current, SCHEMA_VERSION):
        with s.transaction():
            for statement in MIGRATIONS[target]:
                s.execute(statement)
            s.execute("UPDATE schema_version SET version = ?", (target + 1,))
    return SCHEMA_VERSION


def _save_pointers(pointers: Sequence[tuple[int, Pointer]]) -> list[tuple[str, Sequence[Any]]]:
    """The statements that write publish pointers."""
    return [
        (
            "UPDATE games SET published_event_id = ?, published_version = ?, "
            "board_message_id = ?, board_turn = ? WHERE id = ?",
            (p.event_id, p.version, p.board_message_id, p.board_turn, game_id),
        )
        for game_id, p in pointers
    ]


def _seat_updates(s: Session, game_id: int, seats: Sequence[SeatUpdate]) -> None:
    """Every seat's bookkeeping of a change (one ``executemany``)."""
    if not seats:
        return
    s.executemany(
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
