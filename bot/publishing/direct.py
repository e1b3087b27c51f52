"""Direct messages: the secret starts, a player's private lines, the host's notices, and the one
notice in the channel when a player's DMs are closed (50007: told once, never retried)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot import rendering
from bot.components.game_views import private_view
from bot.languages import public_language
from bot.publishing.board import BoardMessages
from bot.storage import GameRow, SeatRow
from bot.table import Table, now
from words import LANGUAGES, msg, say, speaking

log = logging.getLogger("anima.publishing")

#: A member's latest DMs read for a start already sent (a redelivery after a restart).
START_HISTORY = 50


class DirectMessages(BoardMessages):
    """DMs a game's players and its host."""

    async def send_starts(
        self, table: Table, seats: Sequence[str] | None = None, again: bool = False
    ) -> None:
        """DM every human (of ``seats``, default all) his secret start; known closed DMs are
        told once in the channel. Each seat is marked delivered as soon as it is done, so a
        restart redelivers only what was not (fault 7). ``again``: a redelivery after a
        restart, which first looks for the DM in the member's DM channel (a bot killed
        between the DM and its mark sent it already: issue 24, fault 9)."""
        for s in table.seats.values():
            if not s.human or s.ai or (seats is not None and s.seat not in seats):
                continue
            await self._send_start(table, s, again)
            await self.storage.set_start_delivered(table.id, s.seat)
            s.start_dm = 1

    async def _send_start(self, table: Table, s: SeatRow, again: bool = False) -> None:
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
            message = await self._start_sent(table, s) if again else None
            if message is None:
                # The same nonce for the same start: Discord sends a message once for a
                # nonce it saw from the bot in that channel a few minutes before.
                nonce = f"start:{table.id}:{s.seat}"
                message = await self.dm(table, s, f"🎴 {title}", embed, view, nonce)
            if message is not None:
                # The DM is the seat's first panel: edited when the start has been chosen.
                key = await self.panels.key(table, s)
                await self.panels.opened(key, message.id, message.edit, True, embed, view)

    async def _start_sent(self, table: Table, s: SeatRow) -> discord.Message | None:
        """The start of this game the bot already DM'd the seat's member (his DM channel's
        recent messages: the start's title, in any language), or None."""
        if s.user_id is None or not table.settings.dms or self.client.user is None:
            return None
        titles = {say(msg("start.title", game=table.id), language) for language in LANGUAGES}
        try:
            channel = await self.client.create_dm(discord.Object(s.user_id))
            async for m in channel.history(limit=START_HISTORY):
                if m.author.id == self.client.user.id and any(e.title in titles for e in m.embeds):
                    return m
        except discord.HTTPException:
            log.warning("could not read the DMs of %s", s.user_id, exc_info=True)
        return None

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
        nonce: str | None = None,
    ) -> discord.Message | None:
        """DM a player, unless DMs are off on the server or he refused one before (then he
        was told once in the channel to use **My hand**, and is never DM'd again); the
        message sent, or None. ``nonce``: sent with Discord's ``enforce_nonce``, so that the
        same message sent again within minutes is not posted twice."""
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
            if nonce is not None:
                kwargs["nonce"] = nonce  # discord.py sets enforce_nonce with it
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
