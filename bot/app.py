"""The bot client: it composes the services (storage, publishing, games, lobby, timers),
registers the persistent components, runs the timer loop and syncs the commands.

``create_bot(settings, db_path=..., cards=...)`` (``db_path``: a SQLite file or a database
address, else the settings' ``DATABASE_URL`` or ``ANIMA_DB_PATH``) returns an unstarted
:class:`AnimaBot` (SimCord's tests and preview start it themselves); ``run_bot(settings)``
connects to Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands, tasks

from bot.collector import COLLECTOR, work_done
from bot.commands import anima_group, on_app_command_error
from bot.components import DYNAMIC_ITEMS
from bot.games.service import Games
from bot.lobby import Lobby
from bot.panels import Panels
from bot.pictures import PictureCache
from bot.publishing import Publisher
from bot.settings import Settings, ShardSet
from bot.storage import GuildSettings, Storage, VersionConflict
from bot.storage.leases import TIMER
from bot.timers import Timers
from bot.translator import CatalogTranslator
from engine import CardDB, default_cards

log = logging.getLogger("anima.bot")

#: The gateway events the bot asks Discord for: its servers and their channels, nothing
#: more. It plays through slash commands and components (interactions come whatever the
#: intents), so it needs no message, reaction, typing or member event: without them Discord
#: does not send the bot an echo of every message it posts or edits.
INTENTS = discord.Intents(guilds=True)
#: Seconds a stopping bot waits for the refreshed panels still to be sent.
CLOSE_SEND_TIMEOUT = 5.0


def tune_gc() -> None:
    """Tune Python's garbage collector for a long-running bot, once it is built (the card
    database loaded): what the process holds by then lives as long as the process, so it is
    frozen out of every future collection (a full collection would otherwise walk the whole
    card database and every module each time); and collections run between the bot's units
    of work, not in the middle of somebody's click (:mod:`bot.collector`)."""
    COLLECTOR.install()


class AnimaBot(commands.Bot):
    """The Anima game master. Slash commands and buttons only; no privileged intents.

    One process by default; with ``SHARD_COUNT`` set, one cluster of shards
    (:class:`ShardedAnimaBot`), handling the games of the servers on its shards."""

    def __init__(
        self, settings: Settings, db_path: Path | str | None = None, cards: CardDB | None = None
    ) -> None:
        options: dict[str, Any] = {}
        if settings.sharded:
            options = {"shard_count": settings.shard_count, "shard_ids": list(settings.shards)}
        super().__init__(command_prefix=commands.when_mentioned, intents=INTENTS, **options)
        self.settings = settings
        #: The shards whose servers' games this process handles (all of them unsharded).
        self.shard_set = ShardSet(settings.shard_count or 1, settings.shards)
        #: The card database every game of this bot is dealt from and loaded with, and that
        #: ``/anima card`` and the lobby's card sets read (tests pass another one).
        self.cards = cards if cards is not None else default_cards()
        defaults = GuildSettings(
            0, settings.decision_timer, settings.window_timer, settings.dms, settings.ai_takeover
        )
        #: The pictures (issue 23), drawn in one worker process (started by the first
        #: picture, stopped by :meth:`close`) and kept by what they show.
        self.pictures = PictureCache()
        self.storage = Storage(db_path if db_path is not None else settings.database, defaults)
        # Its name as a holder of the games' leases (shard clusters: bot.storage.leases).
        self.storage.holder = settings.holder
        # Shard clusters share the database with each other (SQLite: one process only).
        self.storage.shared = settings.sharded
        #: The private panels on the players' screens, kept up to date.
        table_pictures = self.pictures if settings.table_pictures else None
        self.panels = Panels(self.storage, table_pictures)
        self.publisher = Publisher(self, self.storage, self.panels, table_pictures)
        self.publisher.lease_seconds = settings.lease
        self.games = Games(
            self.storage, self.publisher, self.cards, settings.game_cache, self.shard_set
        )
        self.lobby = Lobby(
            self.storage, self.games, self.publisher, settings.fixed_seed, settings.lobby_idle
        )
        #: The deadlines' service (``timers`` is the loop that calls it).
        self.deadlines = Timers(self.storage, self.games, self.publisher)
        #: Slow games' pings and votes (a vote's button reaches it).
        self.slow = self.deadlines.slow
        #: Unexpected errors caught in component callbacks (logged; tests assert it stays empty).
        self.errors: list[BaseException] = []
        self._recovered = False
        self.tree.add_command(anima_group)
        self.tree.on_error = on_app_command_error  # type: ignore[method-assign]

    def record_error(self, exc: BaseException) -> None:
        self.errors.append(exc)

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: object
    ) -> None:
        """A slash command ended (a failed one ends in ``on_app_command_error``)."""
        work_done()

    async def setup_hook(self) -> None:
        await self.storage.open()
        # Buttons of any earlier run keep working: they are matched by custom_id pattern.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        # The commands' names and descriptions in every language the bot speaks, sent to
        # Discord with them (each member's client shows his own).
        await self.tree.set_translator(CatalogTranslator())
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.timers.change_interval(seconds=self.settings.timer_tick)
        self.timers.start()

    async def on_ready(self) -> None:
        if self._recovered:
            return
        self._recovered = True
        try:
            await self.games.recover()
        except Exception as exc:
            log.exception("recovery failed")
            self.record_error(exc)

    @tasks.loop(seconds=5)
    async def timers(self) -> None:
        """One loop for every game's deadlines (stored in the database: they survive
        restarts), and, on a shared database, the games whose posts are late (the outbox's
        catch-up: :meth:`Games.catch_up`).

        The due games of this process's shards are claimed (a ``timer`` lease each: each
        deadline fires once, whichever processes are alive), and those of other shards once
        they are a lease's length late (their process is gone)."""
        now = discord.utils.utcnow().timestamp()
        lease = self.settings.lease
        try:
            due = await self.storage.due_timers(now)
            mine = [g for g, guild, at in due if self.shard_set.owns(guild) or at <= now - lease]
            claimed = await self.storage.claim_many(TIMER, mine, lease, now)
        except Exception:
            log.exception("timer loop: storage failed")
            return
        for game_id in claimed:
            try:
                try:
                    await self.deadlines.run(game_id)
                except VersionConflict:
                    # Another process changed the game meanwhile: once more, read again.
                    await self.deadlines.run(game_id)
                await self.storage.release(TIMER, game_id)
            except Exception as exc:
                log.exception("timer loop: game %s failed", game_id)
                self.record_error(exc)
        if self.storage.shared:
            await self._catch_up(now)
        try:
            await self.panels.sweep(now)
        except Exception as exc:
            log.exception("timer loop: panels failed")
            self.record_error(exc)
        work_done()

    async def _catch_up(self, now: float) -> None:
        """Post what is committed and not posted: this process's shards' games at once,
        other ones once they have waited a lease's length (their process is gone)."""
        try:
            late = await self.storage.games_to_post(now, now - self.settings.lease)
        except Exception:
            log.exception("timer loop: storage failed")
            return
        for game_id, guild_id, waited in late:
            if not (self.shard_set.owns(guild_id) or waited):
                continue
            try:
                await self.games.catch_up(game_id)
            except Exception as exc:
                log.exception("timer loop: posting game %s failed", game_id)
                self.record_error(exc)

    @timers.before_loop
    async def _before_timers(self) -> None:
        await self.wait_until_ready()

    async def close(self) -> None:
        self.timers.cancel()
        # The panels refreshed by the last clicks go out before the connection closes.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.panels.sent(), CLOSE_SEND_TIMEOUT)
        with contextlib.suppress(TimeoutError):  # and the board pictures being drawn
            await asyncio.wait_for(self.publisher.pictures.drawn(), CLOSE_SEND_TIMEOUT)
        await super().close()
        await self.storage.close()
        self.pictures.close()  # its worker process ends with the bot


class ShardedAnimaBot(AnimaBot, commands.AutoShardedBot):
    """The bot as one cluster of shards (``SHARD_COUNT``, ``SHARD_IDS``): an
    ``AutoShardedBot`` running those shards, sharing the one database with the other
    clusters (issue 24)."""


def create_bot(
    settings: Settings, db_path: Path | str | None = None, cards: CardDB | None = None
) -> AnimaBot:
    """An unstarted bot (for SimCord's tests and preview, or :func:`run_bot`); ``cards``: the
    card database (default: the published cards, ``engine.cards.default_cards()``). A
    :class:`ShardedAnimaBot` when ``SHARD_COUNT`` is set."""
    kind = ShardedAnimaBot if settings.sharded else AnimaBot
    return kind(settings, db_path=db_path, cards=cards)


def run_bot(settings: Settings) -> None:
    """Connect to Discord with the configured token and run until stopped. The database is
    checked first: a damaged or read-only one raises :class:`bot.integrity.DatabaseUnusable`
    (:class:`~bot.integrity.DatabaseDamaged`, :class:`~bot.integrity.DatabaseReadOnly`) before the
    bot connects."""
    logging.basicConfig(level=settings.log_level_number)
    bot = create_bot(settings)
    asyncio.run(bot.storage.check())
    tune_gc()
    bot.run(settings.discord_token, log_handler=None)
