"""The confirmation of ``/anima end``: End the game / Keep playing."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import ui

from bot.components import answers
from bot.components.answers import client, is_admin, new_view


class EndButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:end:(?P<gid>[0-9]+):(?P<what>yes|no)",
):
    """The confirmation of ``/anima end``."""

    def __init__(self, gid: int, what: str) -> None:
        label, style = (
            ("End the game", discord.ButtonStyle.danger)
            if what == "yes"
            else ("Keep playing", discord.ButtonStyle.secondary)
        )
        super().__init__(ui.Button(label=label, style=style, custom_id=f"anima:end:{gid}:{what}"))
        self.gid, self.what = gid, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> EndButton:
        return cls(int(match["gid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            if self.what == "no":
                await interaction.response.edit_message(content="The game goes on.", view=None)
                return
            await interaction.response.defer()
            reply = await client(interaction).games.end_game(
                self.gid, interaction.user.id, is_admin(interaction)
            )
            await interaction.edit_original_response(content=reply.content, view=None)

        await answers.guarded(interaction, work)


def end_view(gid: int) -> ui.View:
    view = new_view()
    view.add_item(EndButton(gid, "yes"))
    view.add_item(EndButton(gid, "no"))
    return view
