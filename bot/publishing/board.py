"""The board message: posted under the latest lines with the decision's buttons, edited in
place when nothing is to be said, and retired (lines kept, board and buttons gone) when a newer
one is posted; the end summary."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot import history, rendering
from bot.attachments import picture_file
from bot.board_pictures import Battle, battle_file, battles
from bot.components.game_views import board_view
from bot.languages import public_language
from bot.pictures import Picture
from bot.publishing.base import ClickedBoard, PublisherBase
from bot.storage import EventRow, GameRow
from bot.table import Table
from words import msg, say, speaking

log = logging.getLogger("anima.publishing")


class BoardMessages(PublisherBase):
    """Posts and retires a game's board message."""

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

    async def _post(
        self,
        table: Table,
        channel: discord.PartialMessageable,
        lines: Sequence[str],
        users: list[Any],
        changed: bool = True,
        clicked: ClickedBoard | None = None,
        events: Sequence[EventRow] = (),
    ) -> None:
        """Keep the board and the decision's buttons on the game's newest message.

        With ``lines`` to post, the board is posted again *under* them, in the same message
        (its content), and the previous board message keeps its lines but loses its board
        and its buttons: one new message and one edit, as many as posting the lines and
        editing the board in place would cost. Without lines, the board is edited in place
        (``changed``: only if the game moved). Either edit is the answer of the ``clicked``
        interaction when it was a click on that message. ``events``: the public events whose
        lines begin ``lines`` (one line each, in order): a battle among them is drawn on the
        message that carries its lines (:mod:`bot.board_pictures`)."""
        row = table.row
        spans = rendering.chunk_spans(lines)
        if not spans and row.board_message_id is not None:
            if not changed:
                return
            embed, view = self._board_embed(table), board_view(table)
            # The board's picture if it is drawn already; else it follows (bot.board_pictures).
            state = self.pictures.state(table)
            fields: dict[str, Any] = {"embed": embed, "view": view}
            kept = self.pictures.kept(table.id, row.board_message_id)
            ready = self.pictures.dress(state, embed, fields, edit=True, kept=kept)
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
        if not spans:  # a board message always has lines
            spans = [(f"🗺️ **{say(msg('notice.game', game=row.id))}**", range(0))]
        drawn = await self.pictures.draw_battles(table, battles(events))
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=users or False)
        for chunk, held in spans[:-1]:
            if files := _battle_files(drawn, held):
                await channel.send(chunk, allowed_mentions=mentions, files=files)
            else:
                await channel.send(chunk, allowed_mentions=mentions)
        chunk, held = spans[-1]
        embed = self._board_embed(table)
        kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": mentions}
        view = board_view(table)
        if view is not None:
            kwargs["view"] = view
        state = self.pictures.state(table)
        battle_files = _battle_files(drawn, held)
        ready = self.pictures.dress(state, embed, kwargs, edit=False, kept=battle_files)
        if "attachments" in kwargs:
            kwargs["files"] = kwargs.pop("attachments")  # a new message's files
        message = await channel.send(chunk, **kwargs)
        old, row.board_message_id = row.board_message_id, message.id
        kept_old = self.pictures.kept(table.id, old)
        self.pictures.keep(table.id, message)
        row.board_turn = table.table_view().turn
        if not ready and state is not None:
            self.pictures.follow(state, table, channel.get_partial_message(message.id), embed)
        if old is None:
            return
        retired = (
            clicked is not None
            and clicked.message_id == old
            and await clicked.edit(embeds=[], view=None, attachments=kept_old)
        )
        if not retired:
            await self._retire_board(channel, old, kept_old)

    def _board_embed(self, table: Table) -> discord.Embed:
        return rendering.board_embed(table.table_view(), table.game.db, table.row, table.seats)

    async def _retire_board(
        self,
        channel: discord.PartialMessageable,
        message_id: int,
        kept: Sequence[discord.Attachment] = (),
    ) -> None:
        """An older board message keeps its lines (the game's log) and its battles'
        pictures (``kept``) and loses the board, its picture and the buttons, which are on
        the newest message now."""
        message = channel.get_partial_message(message_id)
        try:
            await message.edit(embeds=[], view=None, attachments=list(kept))
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


def _battle_files(drawn: Sequence[tuple[Battle, Picture]], held: range) -> list[discord.File]:
    """The pictures of the battles whose lines are ``held`` by one message."""
    return [picture_file(p, battle_file(b.event_id)) for b, p in drawn if b.line in held]
