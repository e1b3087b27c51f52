"""The confirmation of ``/anima end``: End the game / Keep playing (in the language of whoever
builds it: the member who asked)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import ui

from bot.components import answers
from bot.components.answers import client, is_admin, new_view
from words import msg, say


class EndButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:end:(?P<gid>[0-9]+):(?P<what>yes|no)",
):
    """The confirmation of ``/anima end``."""

    def __init__(self, gid: int, what: str) -> None:
        style = discord.ButtonStyle.danger if what == "yes" else discord.ButtonStyle.secondary
        label = say(msg(f"button.end.{what}"))
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
                text = say(msg("answer.game_goes_on"))
                await interaction.response.edit_message(content=text, view=None)
                return
            await interaction.response.defer()
            bot = client(interaction)
            reply = await bot.games.end_game(self.gid, interaction.user.id, is_admin(interaction))
            await interaction.edit_original_response(content=reply.content, view=None)
            if reply.ok:  # a lobby ended so: the host's AI level pickers close with it
                await bot.lobby.pickers.close(self.gid)

        await answers.guarded(interaction, work)


def end_view(gid: int) -> ui.View:
    view = new_view()
    view.add_item(EndButton(gid, "yes"))
    view.add_item(EndButton(gid, "no"))
    return view
