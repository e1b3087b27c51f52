"""The private panel's **Undo** button (issue 25): shown to a member while the engine lets him
take his last decision back (``Game.undo_refusal``). Its custom_id ``anima:<game>:undo:<version>``
names the game's version it was drawn for: a click after the game moved on is answered with
the reason it no longer may (a stale button), never applied to a later decision.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot import rendering
from bot.components import answers
from bot.components.answers import client, new_view, reply_quickly
from words import msg, say

if TYPE_CHECKING:
    from bot.storage import SeatRow
    from bot.table import Reply, Table


class UndoButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:(?P<gid>[0-9]+):undo:(?P<version>[0-9]+)",
):
    """**Undo**: take back one's last decision, drawn at the game's ``version``."""

    def __init__(self, gid: int, version: int, row: int | None = None) -> None:
        label = rendering.clip(say(msg("button.undo")), rendering.LABEL_LIMIT)
        super().__init__(
            ui.Button(
                label=f"↩️ {label}",
                style=discord.ButtonStyle.secondary,
                custom_id=f"anima:{gid}:undo:{version}",
                row=row,
            )
        )
        self.gid, self.version = gid, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> UndoButton:
        return cls(int(match["gid"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def reply() -> Reply:
            return await client(interaction).games.undo(self.gid, interaction.user.id, self.version)

        await answers.guarded(interaction, lambda: reply_quickly(interaction, reply))


def undo_button(table: Table, seat: SeatRow, row: int | None = None) -> UndoButton | None:
    """The Undo button for ``seat``'s panel, if the engine lets him undo now."""
    if table.row.status != "running" or seat.ai or seat.user_id is None:
        return None
    if table.game.undo_refusal(seat.seat) is not None:
        return None
    return UndoButton(table.id, table.game.version, row=row)


def undo_view(table: Table, seat: SeatRow) -> ui.View | None:
    """A lone Undo button (under the answer to a decision that left him nothing to decide),
    or None when he may not undo."""
    button = undo_button(table, seat)
    if button is None:
        return None
    view = new_view()
    view.add_item(button)
    return view
