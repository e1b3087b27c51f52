"""The buttons of a slow game's vote on an absent member's seat (issue 26, :mod:`bot.slow`):
give it to an AI player, or wait for him."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import ui

from bot.components import answers
from bot.components.answers import client, new_view
from words import msg, say


class VoteButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:(?P<gid>[0-9]+):vote:(?P<seat>[a-z0-9]+):(?P<choice>ai|wait)",
):
    """A ballot: ``anima:<game>:vote:<seat>:<ai|wait>``."""

    def __init__(self, gid: int, seat: str, choice: str) -> None:
        style = discord.ButtonStyle.danger if choice == "ai" else discord.ButtonStyle.primary
        label = say(msg(f"button.vote.{choice}"))
        custom_id = f"anima:{gid}:vote:{seat}:{choice}"
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id))
        self.gid, self.seat, self.choice = gid, seat, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> VoteButton:
        return cls(int(match["gid"]), match["seat"], match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            reply = await client(interaction).slow.vote(
                self.gid, interaction.user.id, self.seat, self.choice
            )
            await interaction.followup.send(reply.content, ephemeral=True)

        await answers.guarded(interaction, work)


def vote_view(gid: int, seat: str) -> ui.View:
    """The vote's buttons (in the current language)."""
    view = new_view()
    for choice in ("ai", "wait"):
        view.add_item(VoteButton(gid, seat, choice))
    return view
