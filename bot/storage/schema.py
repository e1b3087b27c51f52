"""The schema: its migrations on SQLite, in order, and the hop that brings a database's
schema up to date (with its dialect's migrations: PostgreSQL's are
:mod:`bot.storage.schema_postgres`, the same steps in its words).

The schema is created and migrated at start (``schema_version`` table); a migration is a list
of statements run in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.database import Session

#: Schema migrations on SQLite, in order; ``MIGRATIONS[i]`` brings the schema from version i
#: to i + 1 (``POSTGRES_MIGRATIONS[i]`` does the same on PostgreSQL).
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
    [
        # Issue 24: shard clusters on one database. What one process at a time does for a
        # game (its timers, its AI turns, its posting) is claimed here for a while
        # (bot.storage.leases); a post in flight is written down first (its last event, its
        # version and what it is), so that whoever posts next sends it again with the same
        # nonce (Discord keeps one message) before anything newer.
        """CREATE TABLE leases (
            kind TEXT NOT NULL,
            game_id INTEGER NOT NULL,
            holder TEXT NOT NULL,
            expires_at REAL NOT NULL,
            upto_event INTEGER,
            upto_version INTEGER,
            posting TEXT,
            PRIMARY KEY (kind, game_id)
        )""",
    ],
    [
        # Issue 25: dice anyone can verify (docs/fair_dice.md). A game's server seed (64 hex
        # digits), drawn when its lobby opens: SECRET until the game is over (the lobby shows
        # its SHA-256 only; the state's ``dice`` keeps it too). A human seat's own seed (its
        # Join's interaction id), mixed into the stream. NULL: a game of the old generator.
        # Self-contained: it may run after any other step.
        "ALTER TABLE games ADD COLUMN dice_seed TEXT",
        "ALTER TABLE seats ADD COLUMN dice_seed TEXT",
    ],
    [
        # Issue 25, /anima privacy (bot.storage.member_data): a member's deletion waiting for
        # a game he sits in (a lobby or a running game) to end; applied then, and the row
        # deleted. Self-contained: it may run after any other step.
        """CREATE TABLE member_deletions (
            user_id INTEGER NOT NULL,
            game_id INTEGER NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (user_id, game_id)
        )""",
    ],
    [
        # Issue 25: the ratings (bot.storage.ratings). A game's lobby option "Rated" (1: rated
        # at its end when two members or more sit at it, the default; 0: not; the games of
        # before are not), and when its ratings were updated (NULL: not yet; the mark that
        # rates a game once). One rating per server, set combination and member (user_id;
        # ai_level '') or AI level (user_id 0): openskill's mu and sigma, rated games, wins.
        # Self-contained: it may run after any other step.
        "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1",
        "UPDATE games SET rated = 0",
        "ALTER TABLE games ADD COLUMN rated_at REAL",
        """CREATE TABLE ratings (
            guild_id INTEGER NOT NULL,
            sets TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            ai_level TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (guild_id, sets, user_id, ai_level)
        )""",
        "CREATE INDEX ratings_member ON ratings(user_id)",
    ],
    [
        # Issue 25: a rated game's seats' conservative ratings before and after it (JSON: seat
        # -> [before, after]), for its end message. NULL: not rated.
        "ALTER TABLE games ADD COLUMN rating_changes TEXT",
    ],
    [
        # Issue 26, "/anima games" and "Since you last looked" (bot/storage/seen.py): a
        # member's last look at a game (a member's data: the newest event posted then, and
        # when), written apart from the game's commits; the seats of a member (his games).
        # Self-contained: it may run after any other step.
        """CREATE TABLE member_seen (
            game_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            event_id INTEGER NOT NULL,
            seen_at REAL NOT NULL,
            PRIMARY KEY (game_id, user_id)
        )""",
        "CREATE INDEX seats_user ON seats(user_id)",
    ],
    [
        # Issue 26: games at a slow pace (bot.slow). A game's pace ('live', 'slow'; NULL: the
        # server's default, in a lobby); a server's default pace and its slow timers (NULL:
        # the bot's defaults). A seat's slow-game bookkeeping (its pending pings and the
        # table's vote on its seat, JSON) and the earliest moment any of it is due.
        # A member's ping settings (his data): quiet hours, time zone, "you are next".
        "ALTER TABLE games ADD COLUMN pace TEXT",
        "ALTER TABLE guild_settings ADD COLUMN pace TEXT",
        "ALTER TABLE guild_settings ADD COLUMN slow_timer INTEGER",
        "ALTER TABLE guild_settings ADD COLUMN slow_window INTEGER",
        "ALTER TABLE seats ADD COLUMN slow_json TEXT",
        "ALTER TABLE seats ADD COLUMN wake_at REAL",
        """CREATE TABLE member_pings (
            user_id INTEGER PRIMARY KEY,
            quiet_hours TEXT,
            timezone TEXT,
            heads_up INTEGER NOT NULL DEFAULT 0
        )""",
    ],
]

SCHEMA_VERSION = len(MIGRATIONS)

#: The statuses of a channel's one active game (``games_one_active_per_channel``).
ACTIVE = ("lobby", "running")


async def migrate(s: Session, migrations: Sequence[Sequence[str]], lock: Sequence[str] = ()) -> int:
    """Bring the schema up to date with ``migrations`` (the dialect's list), each in its own
    transaction, holding ``lock`` (the dialect's: take it, release it) meanwhile; the schema
    version."""
    if lock:
        await s.all(lock[0])
    try:
        return await _migrate(s, migrations)
    finally:
        if lock:
            await s.all(lock[1])


async def _migrate(s: Session, migrations: Sequence[Sequence[str]]) -> int:
    async with s.transaction():
        await s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = await s.one("SELECT version FROM schema_version")
        if row is None:
            await s.execute("INSERT INTO schema_version (version) VALUES (0)")
    current = row[0] if row else 0
    if current > SCHEMA_VERSION:
        raise RuntimeError(
            f"the database schema is version {current}, newer than this bot "
            f"({SCHEMA_VERSION}): update the bot"
        )
    for target in range(current, SCHEMA_VERSION):
        async with s.transaction():
            # Another process may have taken this step meanwhile (its transaction came
            # first: SQLite's BEGIN IMMEDIATE, PostgreSQL's lock, waited for it).
            row = await s.one("SELECT version FROM schema_version")
            if row[0] > target:
                continue
            for statement in migrations[target]:
                await s.execute(statement)
            await s.execute("UPDATE schema_version SET version = ?", (target + 1,))
    return SCHEMA_VERSION
