"""The running games in memory: a lock per game, the bounded cache of loaded games (an LRU:
a finished game or an error leaves it), loading a game from storage (reconciled with its
channel when its pointer is behind), and marking a game broken when a stored row cannot be
read (that game alone: told in its channel once).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from types import TracebackType

from bot import rendering
from bot.publishing import Publisher, pointer
from bot.quiet import quiet_hours
from bot.settings import GAME_CACHE, ShardSet
from bot.storage import GameRow, Storage, missing_seat
from bot.table import GameBroken, NoGame, Reply, Table, now
from engine import CardDB, Game, GameDataError
from words import msg, say

log = logging.getLogger("anima.games")

#: Running games kept in memory at most (the least recently used idle ones leave first);
#: ``ANIMA_GAME_CACHE`` sets it for the bot (``bot.settings.GAME_CACHE``).
CACHE_SIZE = GAME_CACHE


def broken_reply(exc: GameBroken) -> Reply:
    """The answer to a request on a game found broken (it was stopped: see
    :meth:`GameCache.mark_broken`)."""
    return Reply(say(msg("play.broken", reason=rendering.clip(str(exc), 200))))


class GameLock:
    """The lock of one game. It counts its users (the holder and the waiters), so that an
    idle game may leave the cache and its lock be forgotten; an error inside drops the game's
    cached copy (nothing half-applied stays in memory)."""

    def __init__(self, games: GameCache, game_id: int) -> None:
        self._games = games
        self._game_id = game_id
        self._lock = asyncio.Lock()
        self.users = 0

    def locked(self) -> bool:
        return self._lock.locked()

    async def __aenter__(self) -> None:
        self.users += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self.users -= 1
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if exc_type is not None:
                self._games.drop(self._game_id)
            else:
                await self._games.settled(self._game_id)
        finally:
            self._lock.release()
            self.users -= 1
            if self.users == 0 and self._games._locks.get(self._game_id) is self:
                del self._games._locks[self._game_id]


class GameCache:
    """The games in memory and their locks: the base of :class:`bot.games.service.Games`."""

    def __init__(
        self,
        storage: Storage,
        publisher: Publisher,
        cards: CardDB,
        cache_size: int = CACHE_SIZE,
        shards: ShardSet | None = None,
    ) -> None:
        self.storage = storage
        #: The shards of this process: the games of their servers are its own (issue 24).
        self.shards = shards if shards is not None else ShardSet()
        self.publisher = publisher
        #: The card database the games are dealt from and loaded with.
        self.cards = cards
        #: Running games kept in memory at most.
        self.cache_size = cache_size
        self._locks: dict[int, GameLock] = {}
        #: Loaded running games, least recently used first.
        self._cache: OrderedDict[int, Table] = OrderedDict()
        #: Games just dealt by the lobby (their first load skips parsing the state).
        self._kept: dict[int, Game] = {}
        publisher.save_pointer = self._published
        publisher.panels.lock = self.lock
        publisher.panels.current = self.playing
        self._compose()

    def _compose(self) -> None:
        """What each layer above adds to the service once it is built (its own state, its
        hooks into the publisher)."""

    def lock(self, game_id: int) -> GameLock:
        """The lock that serialises every change to one game (lobby or running)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock(self, game_id)
        return lock

    def cached(self, game_id: int) -> bool:
        """Whether a game is in memory (tests: the cache is bounded)."""
        return game_id in self._cache

    @property
    def live(self) -> tuple[int, int]:
        """(games cached, locks held or awaited): both stay bounded."""
        return len(self._cache), len(self._locks)

    def playing(self, game_id: int, marked: Table) -> Table | None:
        """The game the players' live panels are rendered from (under its lock), given the
        one its last change left (``marked``): the game in memory; ``marked`` itself if it
        is over (it left the cache, it changes no more); None if it is not in memory (an
        error dropped it: its last change may not be committed)."""
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        return marked if marked.row.status != "running" else None

    def drop(self, game_id: int) -> None:
        """Forget a game's cached copy and anything not yet committed (after an error, an
        end, a broken row): the next load reads the last commit."""
        self._cache.pop(game_id, None)
        self._kept.pop(game_id, None)
        self.publisher.forget(game_id)
        self.storage.ride_along(game_id)

    async def _published(self, table: Table) -> None:
        """A post went out: its pointer is written with the game's next commit, or with any
        game's if this one is not played in memory (storage keeps it meanwhile:
        ``Storage.defer_pointer``)."""
        if self.storage.shared:
            # Other processes post too: the pointer is written at once (a post of the
            # outbox writes its own with its lease's end: Publisher.publish).
            await self.storage.save_pointer(table.id, pointer(table.row))
            return
        own = self._cache.get(table.id) is table and table.row.status == "running"
        self.storage.defer_pointer(table.id, pointer(table.row), own)

    async def settled(self, game_id: int) -> None:
        """A game's lock is released without an error: a game just dealt joins the cache, a
        finished one leaves it, and the least recently used idle games leave when the cache
        is full (their pointers wait in storage for the next commit)."""
        try:
            if game_id in self._kept and game_id not in self._cache:
                await self.load(game_id)
            table = self._cache.get(game_id)
            if table is not None and table.row.status != "running":
                self.drop(game_id)
            await self._trim(game_id)
        except Exception:
            # The work itself is done; what could not be saved is found again at the next load.
            log.exception("game %s: keeping the cache failed", game_id)
            self.drop(game_id)

    async def _trim(self, current: int) -> None:
        for game_id in list(self._cache):
            if len(self._cache) <= self.cache_size:
                return
            lock = self._locks.get(game_id)
            if game_id == current or (lock is not None and lock.users):
                continue  # in use: it stays
            self.drop(game_id)

    async def _quiet(self, table: Table) -> None:
        """A slow game's members' quiet hours, read again with every load (a member may have
        changed them; storage keeps them in memory)."""
        if table.row.slow:
            table.quiet = await quiet_hours(self.storage, (s.user_id for s in table.seats.values()))

    async def load(self, game_id: int, resuming: bool = False) -> Table:
        """The game with its seats; raises :class:`NoGame` or :class:`GameBroken`.

        A running game is served from the cache (on a shared database, only while it is at
        the stored version); one read from storage whose pointer is behind, or being resumed
        after a restart (``resuming``: a backup restored may have left the channel ahead of
        it, a kill a board not recorded), is first reconciled with its channel
        (:meth:`Publisher.reconcile`)."""
        table = self._cache.get(game_id)
        # Other processes write a shared database: the copy in memory is trusted only at
        # the stored version (one cheap read), else read again (issue 24).
        if (
            table is not None
            and self.storage.shared
            and await self.storage.stored_version(game_id) != table.row.version
        ):
            log.info("game %s: changed by another process, reading it again", game_id)
            self.drop(game_id)
            table = None
        if table is not None:
            self._cache.move_to_end(game_id)
            table.settings = await self.storage.guild_settings(table.row.guild_id)
            await self._quiet(table)
            return table
        # One hop: the row, its seats and whether it is behind its channel.
        found = await self.storage.game_to_play(game_id)
        if found is None:
            raise NoGame(game_id)
        row, seat_rows, unpublished = found
        if row.status in ("lobby", "cancelled") or row.state_json is None:
            raise NoGame(game_id)
        if row.status == "broken":
            raise GameBroken(row.broken_reason or "its stored state cannot be loaded")
        if row.damage is not None:
            await self.mark_broken(row, row.damage)
            raise GameBroken(row.damage)
        game = self._kept.pop(game_id, None)
        if game is None or game.version != row.version:
            try:
                game = self._rebuild(row)
            except GameDataError as exc:
                await self.mark_broken(row, str(exc))
                raise GameBroken(str(exc)) from None
        seats = {s.seat: s for s in seat_rows}
        settings = await self.storage.guild_settings(row.guild_id)
        table = Table(row, seats, game, settings)
        await self._quiet(table)
        # A seat of the game without its row (issue 24, fault 3) would never be asked nor
        # timed: the game would hang, holding its channel. Damage like the others.
        damage = missing_seat(table.table_view().seats, seats)
        if damage is not None:
            await self.mark_broken(row, damage)
            raise GameBroken(damage)
        self.publisher.forget(game_id)
        behind = row.status in ("running", "over") and unpublished
        current = not behind
        # On a shared database, what a stopped process had posted is its post in flight,
        # written down with its posting lease and sent again with the same nonces (the
        # outbox: Publisher.publish), not looked for in the channel.
        if not self.storage.shared and (behind or (resuming and row.status == "running")):
            current = await self.publisher.reconcile(table, behind)
        if current and row.status == "running":
            self.publisher.track(game_id)
        if row.status == "running":
            self._cache[game_id] = table
            self._cache.move_to_end(game_id)
        return table

    def _rebuild(self, row: GameRow) -> Game:
        """The stored game of ``row``; :class:`GameDataError` (its technical reason, for the
        log and the broken game's notice) when it cannot be rebuilt."""
        assert row.state_json is not None
        try:
            game = Game.from_json(row.state_json, self.cards)
        except GameDataError:
            raise
        except Exception as exc:  # any other failure to rebuild the game is the same
            log.exception("game %s cannot be loaded", row.id)
            raise GameDataError(f"stored game cannot be rebuilt ({type(exc).__name__})") from exc
        if game.version != row.version:
            raise GameDataError("stored version does not match the state")
        return game

    def keep(self, game_id: int, game: Game) -> None:
        """A game just dealt and committed (the lobby's start): its first load uses it."""
        self._kept[game_id] = game

    async def mark_broken(self, row: GameRow, reason: str) -> None:
        """Stop a game that cannot be loaded and say so in its channel (once)."""
        cached = self._cache.get(row.id)
        if cached is not None:
            row = cached.row  # its board is the one in memory
        self.drop(row.id)
        if not await self.storage.stop_game(row.id, "broken", now(), reason):
            return
        log.warning("game %s marked broken: %s", row.id, reason)
        await self.publisher.report_broken(row, reason)

    async def running_game_id(self, channel_id: int) -> int | None:
        """The id of the running game of a channel, if any."""
        row = await self.storage.active_game(channel_id)
        if row is None or row.status != "running":
            return None
        return row.id

    async def _table_for(self, game_id: int) -> Table | Reply:
        """The game to act on, or the refusal in words when it is gone or broken."""
        try:
            return await self.load(game_id)
        except NoGame:
            return Reply(say(msg("play.gone")))
        except GameBroken as exc:
            return broken_reply(exc)
