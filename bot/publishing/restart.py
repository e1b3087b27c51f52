"""After a restart and when a game stops: what a killed bot had posted is found in the channel
(:meth:`Restarts.reconcile`: only a board that shows the stored game keeps its buttons; one of
a state the database does not hold, after a backup was restored, gives way to a fresh board),
a lobby left open is closed, and a broken or ended game's boards lose their buttons."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot import rendering
from bot.components.game_views import board_layout
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

    async def reconcile(self, table: Table, behind: bool = True) -> bool:
        """A game loaded from storage with its pointer behind (the bot was stopped between a
        post and the saving of its pointer), or resumed after a restart (``behind`` False:
        its pointer is current): look in the channel for what was posted after the recorded
        board. If a newer board of this game shows the stored state, the last post went out:
        adopt it as the board. If the newest board shows anything else (a backup was
        restored: the channel is ahead of the database, and its buttons are dead), it is
        retired and a fresh board posted under a line. Either way every other board loses
        its buttons (issue 24, faults 1 and 2), the end summary is posted if it is missing,
        and the pointer recorded. True if the game is up to date now; False if nothing was
        found and the pointer is behind (the caller posts from the log)."""
        row = table.row
        channel = self.channel(row)
        found = await self._posted_after(row)
        if found is None:
            return not behind
        boards = [m for m in found if self._of_game(m, row) == "board"]
        if not boards:
            return not behind
        summary = any(self._of_game(m, row) == "summary" for m in found)
        newest = boards[-1]
        adopted = self._shows(newest, table)
        older = [m.id for m in (boards[:-1] if adopted else boards)]
        if row.board_message_id is not None:
            older.insert(0, row.board_message_id)
        for message_id in older:
            await self._retire_board(channel, message_id)
        last = await self.storage.last_events(row.id, 1)
        row.published_event_id = last[-1].id if last else row.published_event_id
        row.published_version = table.game.version
        with contextlib.suppress(discord.HTTPException), speaking(public_language(row)):
            if adopted:
                row.board_message_id = newest.id
                row.board_turn = table.table_view().turn
            else:
                # The lines of what the database holds went out before the backup was
                # taken; the board of the state it holds goes under them, fresh.
                row.board_message_id = None
                await self._post(table, channel, [], [])
            if table.game.over and not summary:
                await channel.send(
                    embed=await self.summary(table, []),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        await self.storage.save_pointer(row.id, pointer(row))
        if adopted:
            log.info(
                "game %s: its last post was found in the channel (message %s)", row.id, newest.id
            )
        else:
            log.warning(
                "game %s: the channel's board (message %s) is not the stored state's (a "
                "backup restored?): retired, a fresh board posted",
                row.id,
                newest.id,
            )
        return True

    def _shows(self, message: discord.Message, table: Table) -> bool:
        """Whether a board message shows the game as stored: the buttons the bot would draw
        now and the board's text (a board of a state the database does not hold has other
        ones, and its buttons answer nothing)."""
        with speaking(public_language(table.row)):
            drawn = board_layout(table, "", "")
            embed = self._board_embed(table)
            texts = [rendering.board_text(embed, full) for full in (True, False)]
        buttons = [c for c in _walk(message.components) if c]
        if sorted(buttons) != sorted(_custom_ids(drawn)):
            return False
        if message.flags.components_v2:
            # The board is its container's first text; a full board under long lines may
            # be cut at a line's end (its last line then says how many were left out).
            shown = [
                t
                for box in message.components
                if isinstance(box, discord.components.Container)
                for t in _texts(box)
            ]
            return bool(shown) and any(
                text == shown[0] or text.startswith(shown[0].rsplit("\n", 1)[0] + "\n")
                for text in texts
            )

        def fields(e: discord.Embed) -> list[tuple[str | None, str | None]]:
            return [(f.name, f.value) for f in e.fields]

        # A board posted by an older bot: an embed.
        return any(
            e.title == embed.title
            and e.description == embed.description
            and fields(e) == fields(embed)
            for e in message.embeds
        )

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


def _walk(components: Sequence[Any]) -> list[str]:
    """The custom ids of a message's components, however deep (rows, containers)."""
    found: list[str] = []
    for c in components:
        custom_id = getattr(c, "custom_id", None)
        if custom_id:
            found.append(str(custom_id))
        found += _walk(getattr(c, "children", None) or [])
    return found


def _custom_ids(view: discord.ui.LayoutView) -> list[str]:
    """The custom ids of a layout as it would be sent."""
    return [
        str(custom_id)
        for item in view.walk_children()
        if (custom_id := getattr(item, "custom_id", None))
    ]


def _texts(box: discord.components.Container) -> list[str]:
    """The text displays of a container, in order."""
    return [c.content for c in box.children if isinstance(c, discord.components.TextDisplay)]
