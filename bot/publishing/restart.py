"""After a restart and when a game stops: what a killed bot had posted is found in the channel
(:meth:`Restarts.reconcile`), a lobby left open is closed, and a broken or ended game's boards
lose their buttons."""

from __future__ import annotations

import contextlib
import logging

import discord

from bot import rendering
from bot.languages import public_language
from bot.publishing.base import RECONCILE_HISTORY, pointer
from bot.publishing.direct import DirectMessages
from bot.storage import GameRow
from bot.table import Table
from words import SOURCE, Message, counted, msg, say, speaking

log = logging.getLogger("anima.publishing")


class Restarts(DirectMessages):
    """Reconciles a game with its channel; tells a game's stop."""

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
        # A board of components V2: its container's text begins with the title as a heading.
        stack = list(message.components)
        while stack:
            component = stack.pop()
            stack += getattr(component, "children", [])
            text = getattr(component, "content", None) or ""
            if isinstance(component, discord.components.TextDisplay) and any(
                text.startswith(f"### {board}") for board in boards
            ):
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
                await self.disarm(channel, row.id, message_id)
        except discord.HTTPException:
            log.warning("could not report broken game %s", row.id)

    async def announce_end(self, row: GameRow, user_id: int) -> None:
        """Say that ``user_id`` ended the game early; its board and lobby lose their buttons."""
        channel = self.channel(row)
        with speaking(public_language(row)):
            text = f"🛑 {say(msg('notice.ended', game=row.id, user=f'<@{user_id}>'))}"
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            if row.board_message_id:
                await self.disarm(channel, row.id, row.board_message_id)
            if row.lobby_message_id:
                await channel.get_partial_message(row.lobby_message_id).edit(view=None)
        except discord.HTTPException:
            log.warning("could not announce the end of game %s", row.id)

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
