"""Publishing to Discord: what happened since the last post (one batched message per turn
around the board), the board message itself, the half-time pings, DMs (and the one notice
in the channel when a player's DMs are closed), the secret starts, and the notices of a game
stopped (broken or ended).

What is posted is tracked by the game's *publish pointer* (the last event and version
posted, and the board's message). The events of a cached game come from the commit that
wrote them (:meth:`Publisher.queue`), not read back; a game loaded from storage whose pointer
is behind first looks in its channel for what a killed bot had already posted
(:meth:`Publisher.reconcile`: a board of this game newer than the recorded one means the last
post went out; it is adopted, older boards lose their buttons), then posts the rest from the
log. So a crash anywhere between a commit and the saving of the pointer posts every line once
(at least once and at most once, as far as the channel can tell).

Every message is said in the language of who reads it (:mod:`bot.languages`), set here around
its building: what the channel reads (the lines, the board and its buttons, pings, notices, the
summary) in the game's public language; a DM, a player's private lines and his secret start in
his own.

Nothing here changes a game's state: the services call it after they have committed, under
the game's lock. When the channel refuses the bot (403, deleted channel), the game's service
is told (``on_channel_lost``: it pauses the game and tells the host once).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord

from bot import history, rendering
from bot.board_pictures import BoardPictures
from bot.components.game_views import board_view, private_view
from bot.languages import public_language, reader_language
from bot.panels import Panels
from bot.pictures import PictureCache
from bot.storage import EventRow, GameRow, Pointer, SeatRow, Storage, kill_point
from bot.table import GameBroken, Table, now
from words import SOURCE, Message, counted, msg, say, speaking

log = logging.getLogger("anima.publishing")

#: Discord's codes for a channel the bot can no longer post in: missing access, missing
#: permissions, unknown channel, unknown guild (the bot was removed).
LOST_CHANNEL_CODES = frozenset({50001, 50013, 10003, 10004})
#: Messages read after the recorded board when reconciling a game after a restart.
RECONCILE_HISTORY = 100


def pointer(row: GameRow) -> Pointer:
    """The publish pointer of ``row`` as storage writes it."""
    return Pointer(
        row.published_event_id, row.published_version, row.board_message_id, row.board_turn
    )


def lost_channel(exc: discord.HTTPException) -> bool:
    """The channel refuses the bot for good (not a passing failure)."""
    return exc.code in LOST_CHANNEL_CODES or isinstance(exc, discord.Forbidden)


class ClickedBoard(Protocol):
    """A click on a board message whose interaction is not answered yet: publishing may
    answer it by editing that very message (Discord's "update message" answer: one call
    where acknowledging and then editing the board take two)."""

    #: The message clicked.
    message_id: int

    async def edit(self, **fields: Any) -> bool:
        """Edit the clicked message as the interaction's answer (``embed``/``embeds``,
        ``view``). False if the interaction is answered already or Discord refused: the
        caller then edits the message itself."""
        ...


class Publisher:
    """Posts games to their channels and DMs their players. One per bot."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        panels: Panels,
        pictures: PictureCache | None = None,
    ) -> None:
        self.client = client
        self.storage = storage
        self.panels = panels
        #: The board's picture on the board message (:mod:`bot.board_pictures`).
        self.pictures = BoardPictures(pictures)
        #: Events committed but not yet posted, per game whose events are tracked in memory
        #: (:meth:`track`); a game not tracked reads them back from the log.
        self._pending: dict[int, list[EventRow]] = {}
        #: Saves a game's publish pointer after a post (the game service defers it into the
        #: game's next commit; by default it is written at once).
        self.save_pointer: Callable[[Table], Awaitable[None]] = self._save_pointer
        #: Called when a game's channel refuses the bot (the game service pauses the game).
        self.on_channel_lost: Callable[[Table, str], Awaitable[None]] | None = None

    async def _save_pointer(self, table: Table) -> None:
        await self.storage.save_pointer(table.id, pointer(table.row))

    # ------------------------------------------------------------------ events in memory

    def track(self, game_id: int) -> None:
        """From now on the game's committed events are handed over with :meth:`queue` (its
        pointer is up to date)."""
        self._pending.setdefault(game_id, [])

    def forget(self, game_id: int) -> None:
        """Stop tracking a game: its next post reads the events since its pointer from the log."""
        self._pending.pop(game_id, None)

    def tracked(self, game_id: int) -> bool:
        return game_id in self._pending

    def queue(self, game_id: int, events: Sequence[EventRow]) -> None:
        """Events just committed, to post with the game's next publish."""
        pending = self._pending.get(game_id)
        if pending is not None:
            pending.extend(events)

    async def behind(self, table: Table) -> bool:
        """Whether something of the game is committed but not posted."""
        row = table.row
        if row.published_version != table.game.version:
            return True
        if row.id in self._pending:
            return bool(self._pending[row.id])
        return await self.storage.behind(row)

    def channel(self, row: GameRow) -> discord.PartialMessageable:
        """The channel a game is played in."""
        return self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    async def reader(self, row: GameRow, seat: SeatRow | None) -> str:
        """The language of a player's private messages (a seat without a member: the
        game's)."""
        if seat is None or seat.user_id is None:
            return public_language(row)
        return await reader_language(self.storage, seat.user_id)

    # ------------------------------------------------------------------ after an action

    async def publish(
        self,
        table: Table,
        actor: str | None = None,
        panel: int | None = None,
        clicked: ClickedBoard | None = None,
    ) -> list[str]:
        """Post what happened since the last publish with the board and its buttons under
        it (one message: see :meth:`_post`), send private events to the players they are
        for (DM), refresh the players' live panels (``panel``: the one being answered by
        its own interaction), and return the private texts for ``actor``. ``clicked``: the
        board click being handled, whose answer may be the board's own edit."""
        row = table.row
        g = table.game
        names = table.names
        if row.id in self._pending:
            events = self._pending[row.id]
            self._pending[row.id] = []
        else:
            events = await self.storage.events_after(row.id, row.published_event_id)
        damaged = [e for e in events if e.damaged]
        if damaged:
            # A row that cannot be read: its game alone stops, told once in its channel.
            self.forget(row.id)
            why = msg("notice.reason.event", event=damaged[0].id)
            # The table reads why in its language; storage, the log and the error English.
            reason = say(why, SOURCE)
            if await self.storage.stop_game(row.id, "broken", now(), reason):
                log.warning("game %s marked broken: %s", row.id, reason)
                await self.report_broken(row, why)
            raise GameBroken(reason)
        actor_lines: list[str] = []
        dms: dict[str, list[str]] = {}
        for e in events:
            if e.recipients is None:
                continue
            for r in e.recipients:
                seat = table.seats.get(r)
                if r != actor and (seat is None or not seat.human or seat.ai):
                    continue
                # Each reader's line in his own language.
                with speaking(await self.reader(row, seat)):
                    line = rendering.event_line(e, names, table.game.db)
                if r == actor:
                    actor_lines.append(line)
                else:
                    dms.setdefault(r, []).append(line)
        public = [e for e in events if e.recipients is None]
        channel = self.channel(row)
        with speaking(public_language(row)):
            lines = rendering.event_lines(public, names, table.game.db)
            pings, users = self._prompt_lines(table, actor)
            if any(e.kind == "paused" for e in public):
                # The one ping of a pause: every seated member, the AI's seats included.
                humans = [s for s in table.seats.values() if s.user_id is not None]
                who = " ".join(f"<@{s.user_id}>" for s in humans)
                pings.append(f"⏸️ {say(msg('notice.paused', players=who))}")
                users += [discord.Object(s.user_id or 0) for s in humans]
            try:
                changed = bool(events) or row.published_version != g.version
                await self._post(table, channel, lines + pings, users, changed, clicked)
                kill_point("after post")
                if g.over and row.published_version != g.version:
                    await channel.send(
                        embed=await self.summary(table, events),
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
            except discord.HTTPException as exc:
                if lost_channel(exc):
                    # Nothing is marked posted: it all goes out when the channel is back.
                    log.warning("game %s: its channel refuses the bot (%s)", row.id, exc.code)
                    self.forget(row.id)
                    if self.on_channel_lost is not None:
                        await self.on_channel_lost(table, self._why_lost(exc))
                    return actor_lines
                log.exception("could not post to the channel of game %s", row.id)
        row.published_event_id = events[-1].id if events else row.published_event_id
        row.published_version = g.version
        kill_point("before pointer")
        await self.save_pointer(table)
        for seat_id, private in dms.items():
            seat = table.seats[seat_id]
            with speaking(await self.reader(row, seat)):
                head = say(msg("notice.game", game=row.id))
            text = "\n".join(f"🔒 {line}" for line in private)
            await self.dm(table, seat, f"**{head}**\n{text}")
        told = {r for e in events if e.recipients is not None for r in e.recipients}
        await self.panels.refresh(table, skip=panel, told=told)
        return actor_lines

    @staticmethod
    def _why_lost(exc: discord.HTTPException) -> str:
        """Why the channel refuses the bot, as a reason code (``rendering.channel_reason``)."""
        return "deleted" if exc.code in (10003, 10004) else "forbidden"

    # ------------------------------------------------------------------ after a restart

    def _of_game(self, message: discord.Message, row: GameRow) -> str | None:
        """What a message of the bot is for the game of ``row``: "board", "summary" or None
        (its titles in the game's language, or in English: posted by an older bot)."""
        if self.client.user is not None and message.author.id != self.client.user.id:
            return None
        summaries, boards = set(), set()
        for language in {public_language(row), SOURCE}:
            with speaking(language):
                summaries.add(rendering.summary_title(row.id))
                boards.add(rendering.board_title(row.id) + " · ")
        for embed in message.embeds:
            title = embed.title or ""
            if title in summaries:
                return "summary"
            if any(title.startswith(board) for board in boards):
                return "board"
        return None

    async def _posted_after(self, row: GameRow) -> list[discord.Message] | None:
        """The channel's messages after the game's recorded board (or its lobby), oldest
        first; None if the channel cannot be read."""
        after = row.board_message_id or row.lobby_message_id
        try:
            return [
                m
                async for m in self.channel(row).history(
                    limit=RECONCILE_HISTORY,
                    after=discord.Object(after) if after else None,
                    oldest_first=True,
                )
            ]
        except discord.HTTPException:
            log.warning("game %s: could not read its channel", row.id)
            return None

    async def reconcile(self, table: Table) -> bool:
        """A game loaded from storage with its pointer behind (the bot was stopped between a
        post and the saving of its pointer): look in the channel for what was posted after
        the recorded board. If a newer board of this game is there, the last post went out:
        adopt it as the board, remove the buttons of every older one, post the end summary
        if it is missing, and record the pointer. True if the game is up to date now; False
        if nothing was found (the caller posts from the log)."""
        row = table.row
        channel = self.channel(row)
        found = await self._posted_after(row)
        if found is None:
            return False
        boards = [m for m in found if self._of_game(m, row) == "board"]
        if not boards:
            return False
        summary = any(self._of_game(m, row) == "summary" for m in found)
        newest = boards[-1]
        older = [m.id for m in boards[:-1]]
        if row.board_message_id is not None:
            older.insert(0, row.board_message_id)
        for message_id in older:
            await self._retire_board(channel, message_id)
        row.board_message_id = newest.id
        row.board_turn = table.table_view().turn
        if table.game.over and not summary:
            with contextlib.suppress(discord.HTTPException), speaking(public_language(row)):
                await channel.send(
                    embed=await self.summary(table, []),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        last = await self.storage.last_events(row.id, 1)
        row.published_event_id = last[-1].id if last else row.published_event_id
        row.published_version = table.game.version
        await self.storage.save_pointer(row.id, pointer(row))
        log.info("game %s: its last post was found in the channel (message %s)", row.id, newest.id)
        return True

    async def summary(self, table: Table, events: Sequence[EventRow]) -> discord.Embed:
        """The end message: how the game ended (the tie-break's scores at a turn limit) and
        every player's leader and missions, revealed now that the game is over (in the
        current language: the caller's)."""
        g = table.game
        over = next((e.data for e in reversed(events) if e.kind == "game_over"), None)
        if over is None:  # posted after a restart: the event was published already
            over = next(
                (
                    e.data
                    for e in await self.storage.last_events(table.id, 20)
                    if e.kind == "game_over"
                ),
                None,
            )
        secrets = history.secrets(g, await self.storage.actions(table.id)) if g.over else []
        return rendering.summary_embed(
            table.table_view(), g.db, table.row, table.seats, secrets, over
        )

    def _prompt_lines(self, table: Table, actor: str | None) -> tuple[list[str], list[Any]]:
        """Who must decide now, for decisions that appeared since the last publish (in the
        current language: the game's). These lines stay in the channel, so a time in them is
        absolute (``<t:…:T>``): a relative one would read "closes 6 seconds ago" for ever."""
        g = table.game
        if g.over or table.row.status != "running" or table.paused:
            return [], []
        published = table.row.published_version
        names = table.names
        waiting = {w.player: w for w in table.table_view().waiting}
        prompts = g.pending()
        fresh = [
            p
            for p in prompts
            if (since := table.seats[p.player].prompt_since) is not None and since > published
        ]
        if not fresh:
            return [], []
        windows = [p for p in prompts if p.window]
        if windows:
            first = windows[0]
            text = rendering.waiting_text(waiting[first.player], names, g.db)
            deadline = table.seats[first.player].deadline
            button = say(msg("button.respond"))
            if deadline:
                when = rendering.at_time(deadline)
                line = msg("notice.window.closes", decision=text, button=button, time=when)
            else:
                line = msg("notice.window", decision=text, button=button)
            return [f"⚡ {say(line)}"], []
        lines, users = [], []
        humans = [p for p in fresh if not table.seats[p.player].ai and p.player != actor]
        if not humans:
            return [], []
        if all(p.kind.startswith("start_") for p in humans) and len(prompts) > 1:
            who = " ".join(names.mention(p.player) for p in humans)
            start = msg(
                "notice.start.dms" if table.settings.dms else "notice.start",
                players=who,
                button=say(msg("button.start")),
            )
            lines.append(f"🎴 {say(start)}")
        else:
            for p in humans:
                text = rendering.waiting_text(waiting[p.player], names, g.db)
                lines.append(f"➡️ {names.mention(p.player)}: {text}")
        users = [
            discord.Object(table.seats[p.player].user_id or 0)
            for p in humans
            if table.seats[p.player].user_id
        ]
        return lines, users

    # ------------------------------------------------------------------ the board

    async def _post(
        self,
        table: Table,
        channel: discord.PartialMessageable,
        lines: Sequence[str],
        users: list[Any],
        changed: bool = True,
        clicked: ClickedBoard | None = None,
    ) -> None:
        """Keep the board and the decision's buttons on the game's newest message.

        With ``lines`` to post, the board is posted again *under* them, in the same message
        (its content), and the previous board message keeps its lines but loses its board
        and its buttons: one new message and one edit, as many as posting the lines and
        editing the board in place would cost. Without lines, the board is edited in place
        (``changed``: only if the game moved). Either edit is the answer of the ``clicked``
        interaction when it was a click on that message."""
        row = table.row
        chunks = rendering.chunk_lines(lines)
        if not chunks and row.board_message_id is not None:
            if not changed:
                return
            embed, view = self._board_embed(table), board_view(table)
            # The board's picture if it is drawn already; else it follows (bot.board_pictures).
            state = self.pictures.state(table)
            fields: dict[str, Any] = {"embed": embed, "view": view}
            ready = self.pictures.dress(state, embed, fields, edit=True)
            board = channel.get_partial_message(row.board_message_id)
            if (
                clicked is not None
                and clicked.message_id == row.board_message_id
                and await clicked.edit(**fields)
            ):
                if not ready and state is not None:
                    self.pictures.follow(state, table, board, embed)
                return
            try:
                await board.edit(**fields)
                if not ready and state is not None:
                    self.pictures.follow(state, table, board, embed)
                return
            except discord.NotFound:
                pass  # deleted by somebody: post a new one
        if not chunks:  # a board message always has lines
            chunks = [f"🗺️ **{say(msg('notice.game', game=row.id))}**"]
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=users or False)
        for chunk in chunks[:-1]:
            await channel.send(chunk, allowed_mentions=mentions)
        embed = self._board_embed(table)
        kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": mentions}
        view = board_view(table)
        if view is not None:
            kwargs["view"] = view
        state = self.pictures.state(table)
        ready = self.pictures.dress(state, embed, kwargs, edit=False)
        if "attachments" in kwargs:
            kwargs["files"] = kwargs.pop("attachments")  # a new message's files
        message = await channel.send(chunks[-1], **kwargs)
        old, row.board_message_id = row.board_message_id, message.id
        row.board_turn = table.table_view().turn
        if not ready and state is not None:
            self.pictures.follow(state, table, channel.get_partial_message(message.id), embed)
        if old is None:
            return
        retired = (
            clicked is not None
            and clicked.message_id == old
            and await clicked.edit(embeds=[], view=None, attachments=[])
        )
        if not retired:
            await self._retire_board(channel, old)

    def _board_embed(self, table: Table) -> discord.Embed:
        return rendering.board_embed(table.table_view(), table.game.db, table.row, table.seats)

    async def _retire_board(self, channel: discord.PartialMessageable, message_id: int) -> None:
        """An older board message keeps its lines (the game's log) and loses the board, its
        picture and the buttons, which are on the newest message now."""
        message = channel.get_partial_message(message_id)
        try:
            await message.edit(embeds=[], view=None, attachments=[])
        except discord.HTTPException:
            # A board without lines (posted by an older version of the bot): keep its
            # picture, drop its buttons.
            with contextlib.suppress(discord.HTTPException):
                await message.edit(view=None)

    async def open_thread(self, row: GameRow) -> int | None:
        """Start a public thread from the lobby message for the game; None if Discord
        refuses (no permission, the message is gone)."""
        if row.lobby_message_id is None:
            return None
        message = self.channel(row).get_partial_message(row.lobby_message_id)
        with speaking(public_language(row)):
            name = rendering.clip(rendering.board_title(row.id), 100)
        try:
            thread = await message.create_thread(name=name, auto_archive_duration=10080)
        except discord.HTTPException:
            log.warning("could not start a thread for game %s", row.id, exc_info=True)
            return None
        return thread.id

    async def post_lines(self, table: Table, lines: Sequence[str], users: list[Any]) -> None:
        """Post ``lines`` out of an action (a ping, a notice; said by the caller in the game's
        language) with the board under them."""
        try:
            with speaking(public_language(table.row)):
                await self._post(table, self.channel(table.row), lines, users)
        except discord.HTTPException:
            log.warning("could not post to the channel of game %s", table.id)
            return
        await self.save_pointer(table)

    # ------------------------------------------------------------------ pings and notices

    async def post_pings(self, table: Table, seats: Sequence[SeatRow]) -> None:
        """Tell the players of ``seats`` that half of their time is gone; the ping carries
        the board and its buttons (no link to follow)."""
        lines = []
        users = []
        with speaking(public_language(table.row)):
            for s in seats:
                who, when = table.names.mention(s.seat), rendering.at_time(s.deadline)
                lines.append(f"⏰ {say(msg('notice.half_time', player=who, time=when))}")
                if s.user_id:
                    users.append(discord.Object(s.user_id))
        await self.post_lines(table, lines, users)

    async def report_broken(self, row: GameRow, reason: str | Message) -> None:
        """Say in its channel that a game cannot be loaded and was stopped (``reason``: a
        message of the catalogs, or the technical reason of a failed load as it reads)."""
        channel = self.channel(row)
        with speaking(public_language(row)):
            why = rendering.clip(say(reason) if isinstance(reason, Message) else reason, 300)
            text = f"⚠️ {say(msg('notice.broken', game=row.id, reason=why))}"
        # Its boards lose their buttons: the recorded one, and any posted after it by a bot
        # stopped before it could record it.
        found = await self._posted_after(row) or []
        boards = [m.id for m in found if self._of_game(m, row) == "board"]
        if row.board_message_id:
            boards.insert(0, row.board_message_id)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            for message_id in boards:
                await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.warning("could not report broken game %s", row.id)

    async def announce_end(self, row: GameRow, user_id: int) -> None:
        """Say that ``user_id`` ended the game early; its board and lobby lose their buttons."""
        channel = self.channel(row)
        with speaking(public_language(row)):
            text = f"🛑 {say(msg('notice.ended', game=row.id, user=f'<@{user_id}>'))}"
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            for message_id in (row.board_message_id, row.lobby_message_id):
                if message_id:
                    await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.warning("could not announce the end of game %s", row.id)

    # ------------------------------------------------------------------ DMs

    async def send_starts(self, table: Table, seats: Sequence[str] | None = None) -> None:
        """DM every human (of ``seats``, default all) his secret start; known closed DMs are
        told once in the channel. Each seat is marked delivered as soon as it is done, so a
        restart redelivers only what was not (fault 7)."""
        for s in table.seats.values():
            if not s.human or s.ai or (seats is not None and s.seat not in seats):
                continue
            await self._send_start(table, s)
            await self.storage.set_start_delivered(table.id, s.seat)
            s.start_dm = 1

    async def _send_start(self, table: Table, s: SeatRow) -> None:
        if s.user_id is not None and await self.storage.dm_refused(s.user_id):
            if table.settings.dms:
                await self._tell_closed_dms(table, s)
            return
        with speaking(await self.reader(table.row, s)):
            embed = rendering.start_embed(table.seat_view(s.seat), table.game.db, table.row)
            view = private_view(table, s)
            where = f"<#{table.row.channel_id}>"
            game = f"**{rendering.board_title(table.id)}**"
            title = say(msg("notice.start_dm", game=game, channel=where))
            message = await self.dm(table, s, f"🎴 {title}", embed=embed, view=view)
            if message is not None:
                # The DM is the seat's first panel: edited when the start has been chosen.
                key = await self.panels.key(table, s)
                await self.panels.opened(key, message.id, message.edit, True, embed, view)

    async def close_lobby(self, table: Table) -> None:
        """The lobby message of a game started by a bot that was stopped before it could
        say so: it reads "started" and loses its buttons."""
        row = table.row
        if row.lobby_message_id is None:
            return
        with speaking(public_language(row)):
            embed = rendering.lobby_embed(
                row,
                list(table.seats.values()),
                table.settings.decision_timer,
                closed=say(counted("lobby.started", len(table.seats))),
            )
        # The lobby message is in the channel the game started from (a thread's parent).
        channel = self.client.get_partial_messageable(
            row.channel_id if not row.in_thread else self._lobby_channel(row),
            guild_id=row.guild_id,
        )
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(row.lobby_message_id).edit(embed=embed, view=None)

    def _lobby_channel(self, row: GameRow) -> int:
        thread = self.client.get_channel(row.channel_id)
        parent = getattr(thread, "parent_id", None)
        return int(parent) if parent else row.channel_id

    async def tell_host(self, row: GameRow, text: str) -> None:
        """A private message to the game's host (a DM: the channel may be gone)."""
        try:
            channel = await self.client.create_dm(discord.Object(row.host_id))
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell the host of game %s", row.id, exc_info=True)

    async def dm(
        self,
        table: Table,
        seat: SeatRow,
        content: str,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
    ) -> discord.Message | None:
        """DM a player, unless DMs are off on the server or he refused one before (then he
        was told once in the channel to use **My hand**, and is never DM'd again); the
        message sent, or None."""
        if seat.user_id is None or not table.settings.dms:
            return None
        if await self.storage.dm_refused(seat.user_id):
            return None
        try:
            channel = await self.client.create_dm(discord.Object(seat.user_id))
            kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
            if embed is not None:
                kwargs["embed"] = embed
            if view is not None:
                kwargs["view"] = view
            # Cut at a line's end: a long translation never splits a line's markdown.
            text = rendering.clip_lines(content, rendering.CONTENT_LIMIT)
            return await channel.send(text, **kwargs)
        except discord.Forbidden as exc:
            # 50007 "Cannot send messages to this user": closed DMs. Remember it.
            log.info("DM to %s refused (%s)", seat.user_id, exc.code)
            await self.storage.set_dm_refused(seat.user_id, True, now())
            await self._tell_closed_dms(table, seat)
            return None
        except discord.HTTPException:
            log.warning("DM to %s failed", seat.user_id, exc_info=True)
            return None

    async def _tell_closed_dms(self, table: Table, seat: SeatRow) -> None:
        """Tell a player in the channel (in the game's language) that his DMs are closed."""
        with speaking(public_language(table.row)):
            who, button = table.names.mention(seat.seat), say(msg("button.hand"))
            text = f"📪 {say(msg('notice.closed_dms', player=who, button=button))}"
        await self.post_lines(table, [text], [discord.Object(seat.user_id or 0)])
