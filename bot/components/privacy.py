"""The buttons of ``/anima privacy`` (:mod:`bot.privacy_commands`): **Delete my data**, then
its confirmation (**Delete for good** / **Keep my data**). The custom_id carries the member's
id: only he may click them (a stranger is refused, nothing changes), and they work after a
restart like the bot's other buttons. Said in the clicker's language (``answers.guarded``).
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import ui

from bot.components import answers
from bot.components.answers import client, new_view
from bot.storage import StorageUnavailable
from bot.table import now
from words import counted, msg, say

#: Asking (the listing's button), confirming, or changing one's mind.
ASK, YES, NO = "ask", "yes", "no"
_STYLES = {
    ASK: discord.ButtonStyle.danger,
    YES: discord.ButtonStyle.danger,
    NO: discord.ButtonStyle.secondary,
}


class PrivacyButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:privacy:(?P<uid>[0-9]+):(?P<what>ask|yes|no)",
):
    """A step of a member's deletion of his data."""

    def __init__(self, uid: int, what: str) -> None:
        button = ui.Button[Any](
            label=say(msg(f"button.privacy.{what}")),
            style=_STYLES[what],
            custom_id=f"anima:privacy:{uid}:{what}",
        )
        super().__init__(button)
        self.uid, self.what = uid, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> PrivacyButton:
        return cls(int(match["uid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            if interaction.user.id != self.uid:
                # Somebody else's data: neither shown nor deleted.
                await interaction.response.send_message(
                    say(msg("privacy.not_yours")), ephemeral=True
                )
                return
            if self.what == ASK:
                await interaction.response.edit_message(
                    content=say(msg("privacy.confirm")), embed=None, view=confirm_view(self.uid)
                )
                return
            if self.what == NO:
                await interaction.response.edit_message(
                    content=say(msg("privacy.kept")), embed=None, view=None
                )
                return
            await interaction.response.defer()
            await interaction.edit_original_response(
                content=await delete(interaction, self.uid), embed=None, view=None
            )

        await answers.guarded(interaction, work)


async def delete(interaction: discord.Interaction, uid: int) -> str:
    """Delete the member's data; what was done, in words."""
    try:
        done = await client(interaction).storage.delete_member_data(uid, now())
    except StorageUnavailable:
        return say(msg("privacy.cannot_save"))
    text = say(msg("privacy.deleted"))
    if done.waiting:
        text += "\n" + say(counted("privacy.deleted.waiting", done.waiting))
    return text


def delete_view(uid: int) -> ui.View:
    """The listing's button: **Delete my data**."""
    view = new_view()
    view.add_item(PrivacyButton(uid, ASK))
    return view


def confirm_view(uid: int) -> ui.View:
    """The confirmation: **Delete for good** / **Keep my data**."""
    view = new_view()
    view.add_item(PrivacyButton(uid, YES))
    view.add_item(PrivacyButton(uid, NO))
    return view
