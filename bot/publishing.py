"""Publishing to Discord: what happened since the last post (one batched message per turn
around the board), the board message itself, the half-time pings, DMs (and the one notice
in the channel when a player's DMs are closed), the secret starts, and the notices of a game
stopped (broken or ended).

Posting reads the not yet published events back from the log, so a bot killed between a
commit and its post catches up on restart. Nothing here changes a game: the services call it
after they have committed, under the game's lock.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot import components, history, rendering
from bot.storage import EventRow, GameRow, SeatRow, Storage
from bot.table import Table, jump_url, now

log = logging.getLogger("anima.publishing")


class Publisher:
    """Posts games to their channels and DMs their players. One per bot."""

    def __init__(self, client: discord.Client, storage: Storage) -> None:
        self.client = client
        self.storage = storage

    def channel(self, row: GameRow) -> discord.PartialMessageable:
        """The channel a game is played in."""
        return self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    # ------------------------------------------------------------------ after an action

    async def publish(self, table: Table, actor: str | None = None) -> list[str]:
        """Post what happened since the last publish (one batched message, split at a new
        turn around the new board), update or replace the board, send private events to
        the players they are for (DM), and return the private texts for ``actor``."""
        row = table.row
        g = table.game
        names = table.names
        events = await self.storage.events_after(row.id, row.published_event_id)
        actor_lines: list[str] = []
        dms: dict[str, list[str]] = {}
        for e in events:
            if e.recipients is None:
                continue
            for r in e.recipients:
                seat = table.seats.get(r)
                if r == actor:
                    actor_lines.append(e.text)
                elif seat is not None and seat.human and not seat.ai:
                    dms.setdefault(r, []).append(e.text)
        public = [e for e in events if e.recipients is None]
        view = g.table_view()
        new_board = row.board_message_id is None or row.board_turn != view.turn
        before: list[str] = []
        after: list[str] = []
        split = max((i for i, e in enumerate(public) if e.kind == "turn"), default=None)
        while split and public[split - 1].kind == "tie_roll":  # rolls for the new turn order
            split -= 1
        if new_board and split is not None:
            before = rendering.event_lines(public[:split], names)
            after = rendering.event_lines(public[split:], names)
        else:
            after = rendering.event_lines(public, names)
        pings, users = self._prompt_lines(table, actor)
        channel = self.channel(row)
        try:
            if new_board and before:
                await self._send_lines(channel, before, [])
            changed = bool(events) or row.published_version != g.version
            if new_board or changed:
                await self._board(table, channel, new_board)
            await self._send_lines(channel, after + pings, users)
            if g.over and row.published_version != g.version:
                await channel.send(
                    embed=await self.summary(table, events),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        except discord.HTTPException:
            log.exception("could not post to the channel of game %s", row.id)
        row.published_event_id = events[-1].id if events else row.published_event_id
        row.published_version = g.version
        await self.storage.update_game(
            row.id,
            published_event_id=row.published_event_id,
            published_version=row.published_version,
            board_message_id=row.board_message_id,
            board_turn=row.board_turn,
        )
        for seat_id, lines in dms.items():
            text = "\n".join(f"🔒 {names.sub(x)}" for x in lines)
            await self.dm(table, table.seats[seat_id], f"**Game #{row.id}**\n{text}")
        return actor_lines

    async def summary(self, table: Table, events: Sequence[EventRow]) -> discord.Embed:
        """The end message: how the game ended (the tie-break's scores at a turn limit) and
        every player's leader and missions, revealed now that the game is over."""
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
        return rendering.summary_embed(g.table_view(), g.db, table.row, table.seats, secrets, over)

    def _prompt_lines(self, table: Table, actor: str | None) -> tuple[list[str], list[Any]]:
        """Who must decide now, for decisions that appeared since the last publish."""
        g = table.game
        if g.over or table.row.status != "running":
            return [], []
        published = table.row.published_version
        names = table.names
        waiting = {w.player: w for w in g.table_view().waiting}
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
            text = names.sub(waiting[first.player].text)
            deadline = table.seats[first.player].deadline
            ends = f" It closes <t:{int(deadline)}:R>." if deadline else ""
            return [f"⚡ **Reaction window:** {text} Use **Respond** on the board.{ends}"], []
        lines, users = [], []
        humans = [p for p in fresh if not table.seats[p.player].ai and p.player != actor]
        if not humans:
            return [], []
        if all(p.kind.startswith("start_") for p in humans) and len(prompts) > 1:
            who = " ".join(names.mention(p.player) for p in humans)
            dms = " (your secret start is also in your DMs)" if table.settings.dms else ""
            lines.append(
                f"🎴 {who}: choose your leader and your Advantages — press **My hand** on the "
                f"board{dms}."
            )
        else:
            for p in humans:
                text = names.sub(waiting[p.player].text)
                lines.append(f"➡️ {names.mention(p.player)}: {text}")
        users = [
            discord.Object(table.seats[p.player].user_id or 0)
            for p in humans
            if table.seats[p.player].user_id
        ]
        return lines, users

    async def _send_lines(
        self, channel: discord.PartialMessageable, lines: Sequence[str], users: list[Any]
    ) -> None:
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=users or False)
        for chunk in rendering.chunk_lines(lines):
            await channel.send(chunk, allowed_mentions=mentions)

    # ------------------------------------------------------------------ the board

    async def _board(
        self, table: Table, channel: discord.PartialMessageable, new_board: bool
    ) -> None:
        row = table.row
        embed = rendering.board_embed(table.game.table_view(), table.game.db, row, table.seats)
        view = components.board_view(table)
        if not new_board and row.board_message_id is not None:
            try:
                await channel.get_partial_message(row.board_message_id).edit(embed=embed, view=view)
                return
            except discord.NotFound:
                pass  # deleted by somebody: post a new one
        if row.board_message_id is not None:
            await self._retire_board(channel, row.board_message_id)
        kwargs: dict[str, Any] = {
            "embed": embed,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if view is not None:
            kwargs["view"] = view
        message = await channel.send(**kwargs)
        row.board_message_id = message.id
        row.board_turn = table.game.table_view().turn

    async def _retire_board(self, channel: discord.PartialMessageable, message_id: int) -> None:
        """The last turn's board keeps its picture, loses its buttons and its "whose
        decision" line (that decision belongs to the new board now)."""
        with contextlib.suppress(discord.HTTPException):
            message = await channel.fetch_message(message_id)
            embeds = message.embeds
            if embeds:
                embed = embeds[0]
                kept = [
                    line
                    for line in (embed.description or "").split("\n")
                    if not line.startswith(("➡️", "⚡", "⏳"))
                ]
                embed.description = "\n".join(
                    [*kept, "_This turn is over: see the new board below._"]
                )
                await message.edit(embed=embed, view=None)
            else:
                await message.edit(view=None)

    async def open_thread(self, row: GameRow) -> int | None:
        """Start a public thread from the lobby message for the game; None if Discord
        refuses (no permission, the message is gone)."""
        if row.lobby_message_id is None:
            return None
        message = self.channel(row).get_partial_message(row.lobby_message_id)
        try:
            thread = await message.create_thread(
                name=f"Anima · game #{row.id}", auto_archive_duration=10080
            )
        except discord.HTTPException:
            log.warning("could not start a thread for game %s", row.id, exc_info=True)
            return None
        return thread.id

    # ------------------------------------------------------------------ pings and notices

    async def post_pings(self, table: Table, seats: Sequence[SeatRow]) -> None:
        """Tell the players of ``seats`` that half of their time is gone."""
        board = table.row.board_message_id
        link = f" ({jump_url(table.row.guild_id, table.row.channel_id, board)})" if board else ""
        lines = []
        users = []
        for s in seats:
            lines.append(
                f"⏰ {table.names.mention(s.seat)}, half of your time is gone: decide "
                f"<t:{int(s.deadline or 0)}:R> or the default choice is taken{link}."
            )
            if s.user_id:
                users.append(discord.Object(s.user_id))
        try:
            await self.channel(table.row).send(
                "\n".join(lines), allowed_mentions=discord.AllowedMentions(users=users)
            )
        except discord.HTTPException:
            log.warning("could not ping in game %s", table.id)

    async def report_broken(self, row: GameRow, reason: str) -> None:
        """Say in its channel that a game cannot be loaded and was stopped."""
        channel = self.channel(row)
        text = (
            f"⚠️ Game #{row.id} cannot be loaded from storage ({rendering.clip(reason, 300)}). "
            "It has been stopped; other games are not affected. "
            "Start a new game with `/anima start`."
        )
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            if row.board_message_id:
                await channel.get_partial_message(row.board_message_id).edit(view=None)
        except discord.HTTPException:
            log.warning("could not report broken game %s", row.id)

    async def announce_end(self, row: GameRow, user_id: int) -> None:
        """Say that ``user_id`` ended the game early; its board and lobby lose their buttons."""
        channel = self.channel(row)
        text = f"🛑 Game #{row.id} was ended by <@{user_id}> before its end; no result."
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            for message_id in (row.board_message_id, row.lobby_message_id):
                if message_id:
                    await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.warning("could not announce the end of game %s", row.id)

    # ------------------------------------------------------------------ DMs

    async def send_starts(self, table: Table) -> None:
        """DM every human his secret start; known closed DMs are told once in the channel."""
        for s in table.seats.values():
            if not s.human or s.ai:
                continue
            if s.user_id is not None and await self.storage.dm_refused(s.user_id):
                if table.settings.dms:
                    await self._tell_closed_dms(table, s)
                continue
            embed = rendering.start_embed(table.game.seat_view(s.seat), table.game.db, table.row)
            view = components.private_view(table, s)
            link = jump_url(table.row.guild_id, table.row.channel_id)
            await self.dm(
                table, s, f"🎴 **Anima · game #{table.id}** in {link}", embed=embed, view=view
            )

    async def dm(
        self,
        table: Table,
        seat: SeatRow,
        content: str,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
    ) -> bool:
        """DM a player, unless DMs are off on the server or he refused one before (then he
        was told once in the channel to use **My hand**, and is never DM'd again)."""
        if seat.user_id is None or not table.settings.dms:
            return False
        if await self.storage.dm_refused(seat.user_id):
            return False
        try:
            channel = await self.client.create_dm(discord.Object(seat.user_id))
            kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
            if embed is not None:
                kwargs["embed"] = embed
            if view is not None:
                kwargs["view"] = view
            await channel.send(rendering.clip(content, rendering.CONTENT_LIMIT), **kwargs)
            return True
        except discord.Forbidden as exc:
            # 50007 "Cannot send messages to this user": closed DMs. Remember it.
            log.info("DM to %s refused (%s)", seat.user_id, exc.code)
            await self.storage.set_dm_refused(seat.user_id, True, now())
            await self._tell_closed_dms(table, seat)
            return False
        except discord.HTTPException:
            log.warning("DM to %s failed", seat.user_id, exc_info=True)
            return False

    async def _tell_closed_dms(self, table: Table, seat: SeatRow) -> None:
        text = (
            f"📪 {table.names.mention(seat.seat)}, I can't send you direct messages. "
            "Your cards and secret decisions are always under the **My hand** button on the "
            "board (or `/anima hand`); I won't try DMs again."
        )
        try:
            await self.channel(table.row).send(
                text,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(seat.user_id or 0)]),
            )
        except discord.HTTPException:
            log.warning("could not post the closed-DM notice in game %s", table.id)
