"""The bot's storage: games, seats, the action/event log, settings and stats, on SQLite
(WAL; the default) or PostgreSQL, behind one interface.

One connection per bot (:mod:`bot.database`: SQLite through aiosqlite, PostgreSQL through
asyncpg, chosen by the address: ``DATABASE_URL`` or the file ``ANIMA_DB_PATH``). Every method
is one *hop*: an async function run against the connection whole while no other hop runs, so
a write is one transaction (``BEGIN`` ... ``COMMIT``, ``ROLLBACK`` on any error) that never
interleaves with another coroutine's statements, and a read of several statements sees one
state. The schema is created and migrated at start (``schema_version`` table, the same
version on both backends); a migration is a list of statements run in one transaction. The
SQL that differs between the backends is in one place, :mod:`bot.storage.dialect`.

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

The modules, one job each; what runs SQL (the store) is apart from the rows and the schema:

- :mod:`~bot.storage.schema`: the migrations (SQLite's; PostgreSQL's, the same steps, in
  :mod:`~bot.storage.schema_postgres`) and the migration hop;
- :mod:`~bot.storage.dialect`: each backend's SQL where it differs (the migrations, the
  connection's settings, the check before opening, a JSON test);
- :mod:`~bot.storage.rows`: the row types, their columns, and the readers that never raise
  (a damaged row is marked, not raised);
- :mod:`~bot.storage.faults`: the exceptions the bot sees, and the tests' crash points;
- :mod:`~bot.storage.transfer`: the copy of a SQLite database into PostgreSQL, in one
  transaction (``anima-bot migrate``, :mod:`bot.migrate`);
- the store, :class:`~bot.storage.store.Storage`, a class per topic on
  :class:`~bot.storage.core.StorageCore` (the connection, its hops, the caches):
  :mod:`~bot.storage.games` (games and lobbies), :mod:`~bot.storage.commit` (a running game's
  commits, the publish pointers), :mod:`~bot.storage.log` (the game log, private logs),
  :mod:`~bot.storage.settings` (servers' and members' settings), :mod:`~bot.storage.stats`,
  :mod:`~bot.storage.member_data` (what is kept about a member: shown, deleted),
  :mod:`~bot.storage.ratings` (the ratings, issue 25).

This package lists what the rest of the bot uses. ``crash_points`` is the one dict
:func:`kill_point` reads: a test arms it through this package.
"""

from bot.storage.faults import (
    KILL_STEPS,
    Killed,
    StorageUnavailable,
    VersionConflict,
    crash_points,
    kill_point,
)
from bot.storage.log import PRIVATE_CACHE
from bot.storage.member_data import ANONYMOUS, KINDS, Deleted, Found, former
from bot.storage.rows import (
    EventRow,
    Finish,
    GameRow,
    GameWrite,
    GuildSettings,
    MemberPings,
    NewEvent,
    Pointer,
    SeatRow,
    SeatUpdate,
    missing_seat,
)
from bot.storage.schema import ACTIVE, MIGRATIONS, SCHEMA_VERSION
from bot.storage.store import Storage

__all__ = [
    "ACTIVE",
    "ANONYMOUS",
    "KILL_STEPS",
    "KINDS",
    "MIGRATIONS",
    "PRIVATE_CACHE",
    "SCHEMA_VERSION",
    "Deleted",
    "EventRow",
    "Finish",
    "Found",
    "GameRow",
    "GameWrite",
    "GuildSettings",
    "Killed",
    "MemberPings",
    "NewEvent",
    "Pointer",
    "SeatRow",
    "SeatUpdate",
    "Storage",
    "StorageUnavailable",
    "VersionConflict",
    "crash_points",
    "former",
    "kill_point",
    "missing_seat",
]
