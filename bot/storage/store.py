"""The store: :class:`Storage`, the bot's database, composed of one class per topic."""

from __future__ import annotations

from bot.storage.games import GamesStore
from bot.storage.leases import LeaseStore
from bot.storage.seen import SeenStore
from bot.storage.settings import SettingsStore
from bot.storage.stats import StatsStore


class Storage(GamesStore, SettingsStore, StatsStore, LeaseStore, SeenStore):
    """The bot's database. Open with :meth:`open`, close with :meth:`close`.

    Every public method is one hop to the database (:mod:`bot.database`): a write is one
    transaction run whole, a read of several statements one function. The functions that
    run there (``_…`` methods and closures taking a :class:`~bot.database.Session`) touch
    nothing but the connection and await nothing but its statements (on SQLite they run on
    aiosqlite's thread, in one trip); the caches
    (:class:`~bot.storage.core.StorageCore`) are read and updated here, on the event loop,
    before or after the hop.

    Its topics, a class each, all on :class:`~bot.storage.core.StorageCore` (the connection,
    the hops, the caches): :class:`~bot.storage.games.GamesStore` (games and lobbies, on
    :class:`~bot.storage.commit.CommitStore`, a running game's commits and publish pointers,
    on :class:`~bot.storage.log.LogStore`, the log), :class:`~bot.storage.settings.SettingsStore`
    (servers' and members' settings), :class:`~bot.storage.stats.StatsStore` and
    :class:`~bot.storage.leases.LeaseStore` (what one process at a time does for a game) and
    :class:`~bot.storage.seen.SeenStore` (the members' last looks at their games, their games)."""
