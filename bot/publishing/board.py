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
from bot.attachments import attachment_url, picture_file
from bot.board_pictures import (
    BATTLE_PREFIX,
    BOARD_FILE,
    Battle,
    BoardState,
    Posted,
    battle_file,
    battles,
)
from bot.components.game_views import board_layout, retired_layout
from bot.languages import public_language
from bot.pictures import Picture
from bot.publishing.base import ClickedBoard, PublisherBase
from bot.storage import EventRow, GameRow
from bot.table import Table
from words import msg, say, speaking

log = logging.getLogger("anima.publishing")

#: The fewest characters of lines a board message holds beside its board (a text board
#: larger than the rest of the message's 4,000 characters is cut: board_layout).
MIN_LINES = 500
#: The battles' pictures one message carries at most (Discord: 10 files a message, and
#: 10 pictures a gallery; one is the board's).
MAX_BATTLES = 9


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
        ratings = await self.storage.rating_changes(table.id) if g.over else {}
        return rendering.summary_embed(
            table.table_view(), g.db, table.row, table.seats, secrets, over, ratings
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
        (components V2: :func:`bot.components.game_views.board_layout`), and the previous
        board message keeps its lines but loses its board and its buttons: one new message
        and one edit, as many as posting the lines and editing the board in place would
        cost. Without lines, the board is edited in place (``changed``: only if the game
        moved). Either edit is the answer of the ``clicked`` interaction when it was a
        click on that message. ``events``: the public events whose lines begin ``lines``
        (one line each, in order): a battle among them is drawn on the message that carries
        its lines (:mod:`bot.board_pictures`)."""
        row = table.row
        state = self.pictures.state(table)
        posted = self.pictures.posted(table.id, row.board_message_id)
        if not lines and row.board_message_id is not None and posted is not None:
            if not changed:
                return
            # The board's picture if it is drawn already; else it follows (bot.board_pictures).
            picture = self.pictures.ready(state)
            fields = self._board_fields(table, posted, picture, state is not None)
            board = channel.get_partial_message(row.board_message_id)
            if (
                clicked is None
                or clicked.message_id != row.board_message_id
                or not await clicked.edit(**fields)
            ):
                try:
                    await board.edit(**fields)
                except discord.NotFound:
                    posted = None  # deleted by somebody: post a new one
            if posted is not None:
                if picture is None and state is not None:
                    self._follow(table, state, board, posted)
                return
        # The board's text is worded once: it sets the room left for the lines and is shown.
        text = self._board_text(table, full=state is None)
        spans = rendering.chunk_spans(lines, lines_room(text))
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
        battle_files = _battle_files(drawn, held)
        picture = self.pictures.ready(state)
        alts = [(f.filename, f.description or "") for f in battle_files]
        view = self._layout(table, chunk, alts, picture, text)
        files = [*battle_files, *([picture_file(picture, BOARD_FILE)] if picture else [])]
        message = await channel.send(view=view, files=files, allowed_mentions=mentions)
        old, row.board_message_id = row.board_message_id, message.id
        # What the message carries, read from it: a post sent again after a kill has the
        # nonce of the first sending, and Discord gives that message back (with its lines,
        # not this sending's).
        sent = _posted(message) or Posted(
            message.id,
            chunk,
            [a for a in message.attachments if a.filename.startswith(BATTLE_PREFIX)],
        )
        self.pictures.remember(table.id, sent)
        row.board_turn = table.table_view().turn
        if picture is None and state is not None:
            self._follow(table, state, channel.get_partial_message(message.id), sent)
        if old is None:
            return
        retired = (
            clicked is not None
            and clicked.message_id == old
            and posted is not None
            and await clicked.edit(**_retired_fields(posted))
        )
        if not retired:
            await self._retire_board(channel, old, posted)

    def _board_embed(self, table: Table) -> discord.Embed:
        return rendering.board_embed(table.table_view(), table.game.db, table.row, table.seats)

    def _board_text(self, table: Table, full: bool) -> str:
        """The board's text on its message: the whole text board (``full``: no picture),
        else its heading and whose decision it is (the picture shows the rest)."""
        return rendering.board_text(self._board_embed(table), full)

    def _layout(
        self,
        table: Table,
        lines: str,
        battles: Sequence[tuple[str, str]],
        picture: Picture | None,
        text: str,
    ) -> discord.ui.LayoutView:
        """The board message: ``lines``, their ``battles``' pictures, the board (its
        ``text``: the whole text board, or with the pictures its heading, and ``picture``
        once drawn) and the buttons."""
        shown = (BOARD_FILE, picture.alt) if picture is not None else None
        return board_layout(
            table, lines, text, shown, battles, rendering.board_colour(table.game.over)
        )

    def _board_fields(
        self, table: Table, posted: Posted, picture: Picture | None, pictured: bool
    ) -> dict[str, Any]:
        """An edit of the board message ``posted``: its lines and battles kept, the board
        and the buttons as they are now."""
        text = self._board_text(table, full=not pictured)
        view = self._layout(table, posted.lines, posted.pictures(), picture, text)
        board = [picture_file(picture, BOARD_FILE)] if picture is not None else []
        return {"view": view, "attachments": [*posted.battles, *board]}

    def _follow(
        self, table: Table, state: BoardState, message: discord.PartialMessage, posted: Posted
    ) -> None:
        """The board's picture, once drawn, edited into the board message ``posted``."""
        self.pictures.follow(
            state, table, message, lambda picture: self._board_fields(table, posted, picture, True)
        )

    async def _retire_board(
        self,
        channel: discord.PartialMessageable,
        message_id: int,
        posted: Posted | None = None,
    ) -> None:
        """An older board message keeps its lines (the game's log) and its battles'
        pictures and loses the board, its picture and the buttons, which are on the newest
        message now. ``posted``: what it carries (else it is read from the channel: a board
        posted before a restart)."""
        message = channel.get_partial_message(message_id)
        if posted is None:
            posted = await _read_posted(channel, message_id)
        try:
            if posted is None:  # a board of an older bot: an embed under its lines
                await message.edit(embeds=[], view=None, attachments=[])
            else:
                await message.edit(**_retired_fields(posted))
        except discord.HTTPException:
            # A board without lines (posted by an older version of the bot): keep its
            # picture, drop its buttons.
            with contextlib.suppress(discord.HTTPException):
                await message.edit(view=None)

    async def disarm(
        self, channel: discord.PartialMessageable, game_id: int, message_id: int
    ) -> None:
        """A board message loses its buttons and keeps the rest (its lines, its board, its
        pictures): the game was ended or broken. A message of components V2 is edited
        without its action rows (``view=None`` would empty it, which Discord refuses); one
        that cannot be read loses its board too, if its lines are remembered."""
        message = channel.get_partial_message(message_id)
        try:
            shown: discord.Message | None = await channel.fetch_message(message_id)
        except discord.HTTPException:
            shown = None
        if shown is not None and shown.flags.components_v2:
            view = discord.ui.LayoutView.from_message(shown, timeout=None)
            for row in [i for i in view.children if isinstance(i, discord.ui.ActionRow)]:
                view.remove_item(row)
            # The pictures stay the message's own attachments (a CDN link read back expires).
            names = {a.url: a.filename for a in shown.attachments}
            for item in view.walk_children():
                if isinstance(item, discord.ui.MediaGallery):
                    for picture in item.items:
                        if picture.media.url in names:
                            picture.media = attachment_url(names[picture.media.url])
            await message.edit(view=view)
            return
        posted = self.pictures.posted(game_id, message_id)
        if shown is None and posted is not None:
            await message.edit(**_retired_fields(posted))
            return
        await message.edit(view=None)  # an older bot's board: an embed and its buttons

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


def lines_room(board: str) -> int:
    """The most characters of lines the board message holds above the text ``board``: the
    two share the message's 4,000 characters of text (a message of lines alone holds 2,000:
    the lines before the last batch are sent as content)."""
    room = max(rendering.V2_TEXT_LIMIT - len(board) - 10, MIN_LINES)
    return min(rendering.CONTENT_LIMIT - 50, room)


def _battle_files(drawn: Sequence[tuple[Battle, Picture]], held: range) -> list[discord.File]:
    """The pictures of the battles whose lines are ``held`` by one message (the first
    :data:`MAX_BATTLES`: a message carries 10 files, its board's picture among them)."""
    files = [picture_file(p, battle_file(b.event_id)) for b, p in drawn if b.line in held]
    return files[:MAX_BATTLES]


def _retired_fields(posted: Posted) -> dict[str, Any]:
    """The edit that retires the board message ``posted``: its lines and battles alone."""
    return {"view": retired_layout(posted.lines, posted.pictures()), "attachments": posted.battles}


async def _read_posted(channel: discord.PartialMessageable, message_id: int) -> Posted | None:
    """What a board message of components V2 carries besides the board, read from the
    channel (its first text display: its lines); None for an older bot's board (an embed
    under its content) or a message that cannot be read."""
    try:
        message = await channel.fetch_message(message_id)
    except discord.HTTPException:
        return None
    return _posted(message)


def _posted(message: discord.Message) -> Posted | None:
    """What a board message of components V2 carries besides the board (its first text
    display: its lines; its battles' pictures); None for an older bot's board."""
    if not message.flags.components_v2 or not message.components:
        return None
    first = message.components[0]
    if not isinstance(first, discord.components.TextDisplay):
        return None
    kept = [a for a in message.attachments if a.filename.startswith(BATTLE_PREFIX)]
    return Posted(message.id, first.content, kept)
