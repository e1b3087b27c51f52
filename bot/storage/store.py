"""The store: :class:`Storage`, the bot's database, composed of one class per topic."""

from __future__ import annotations

from bot.storage.leases import LeaseStore
from bot.storage.member_data import Deleted, MemberDataStore
from bot.storage.ratings import RatingStore
from bot.storage.seen import SeenStore
from bot.storage.settings import SettingsStore
from bot.storage.stats import StatsStore


class Storage(MemberDataStore, SettingsStore, StatsStore, LeaseStore, RatingStore, SeenStore):
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
    :class:`~bot.storage.leases.LeaseStore` (what one process at a time does for a game);
    :class:`~bot.storage.member_data.MemberDataStore` (on the games: what is kept about a
    member, ``/anima privacy``),
    :class:`~bot.storage.ratings.RatingStore` (the ratings, issue 25),
    :class:`~bot.storage.seen.SeenStore` (the members' last looks at their games, their games)."""

    async def delete_member_data(self, user_id: int, now: float) -> Deleted:
        """:meth:`~bot.storage.member_data.MemberDataStore.delete_member_data`, and his looks
        kept in memory forgotten."""
        done = await super().delete_member_data(user_id, now)
        self.forget_seen(user_id)
        return done
