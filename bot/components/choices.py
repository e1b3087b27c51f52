"""The running game's buttons and selects: a choice of the open prompt (button or menu), the
board's control buttons (Decide, My hand, Respond, Take my seat back), the private panel's
auto-pass menu and the first turn's **Auto-pass windows** button. Each is a
:class:`discord.ui.DynamicItem` whose custom_id names the game, the prompt version and the
choice's index (never a card); a click hands over to ``bot.games`` through the interaction's
client.

Their callbacks call :func:`bot.components.answers.guarded` through its module:
``benchmarks/bot_instructions.py`` wraps it there to count the clicks. Labels and placeholders
are the catalog's, said in the language of whoever builds the view (the game's for the board,
the player's for his panel); a label read back from a click keeps the words it was sent with.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot import rendering
from bot.components import answers
from bot.components.answers import BoardClick, answer, client, in_panel, open_answer, reply_quickly
from words import msg, say

if TYPE_CHECKING:
    from bot.table import Reply


class ChoiceButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:(?P<gid>[0-9]+):(?P<since>[0-9]+):(?P<idx>[0-9]+)",
):
    """One choice of the open prompt, by its index (never its card)."""

    def __init__(
        self,
        gid: int,
        since: int,
        idx: int,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        said = label or say(msg("button.choose"))
        super().__init__(
            ui.Button(
                label=rendering.clip(said, rendering.LABEL_LIMIT),
                style=style,
                custom_id=f"anima:{gid}:{since}:{idx}",
                row=row,
            )
        )
        self.gid, self.since, self.idx = gid, since, idx

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ChoiceButton:
        label = getattr(item, "label", None)
        return cls(int(match["gid"]), int(match["since"]), int(match["idx"]), label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await answers.guarded(
            interaction, lambda: choice_made(interaction, self.gid, self.since, self.idx)
        )


class ChoiceSelect(
    ui.DynamicItem[ui.Select[Any]],
    template=r"anima:(?P<gid>[0-9]+):(?P<since>[0-9]+):s(?P<n>[0-9]+)",
):
    """Several choices of the open prompt in one menu; option values are choice indexes."""

    def __init__(
        self,
        gid: int,
        since: int,
        n: int,
        options: list[discord.SelectOption],
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        said = placeholder or say(msg("select.choose"))
        super().__init__(
            ui.Select(
                custom_id=f"anima:{gid}:{since}:s{n}",
                options=options,
                placeholder=rendering.clip(said, rendering.PLACEHOLDER_LIMIT),
                row=row,
            )
        )
        self.gid, self.since = gid, since

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ChoiceSelect:
        options = list(getattr(item, "options", []))
        return cls(int(match["gid"]), int(match["since"]), int(match["n"]), options)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values

        async def work() -> None:
            if not values or not values[0].isdigit():
                text = say(msg("answer.pick_one"))
                await interaction.response.send_message(text, ephemeral=True)
                return
            await choice_made(interaction, self.gid, self.since, int(values[0]))

        await answers.guarded(interaction, work)


async def choice_made(interaction: discord.Interaction, gid: int, since: int, idx: int) -> None:
    games = client(interaction).games
    if in_panel(interaction):  # the panel is edited in place
        panel = interaction.message.id if interaction.message is not None else None
        await reply_quickly(
            interaction, lambda: games.choose(gid, interaction.user.id, since, idx, panel=panel)
        )
        return
    # A click on the public board: answered by the board's edit, or acknowledged without a
    # message; the player hears privately only when there is something private to tell (an
    # error, a card drawn, his next panel).
    clicked = BoardClick(interaction)
    try:
        reply = await games.choose(gid, interaction.user.id, since, idx, clicked=clicked)
    finally:
        await clicked.done()
    if reply.quiet:
        return
    extra: dict[str, Any] = {"view": reply.view} if reply.view is not None else {}
    if reply.content:
        extra["content"] = reply.content
    message = await interaction.followup.send(
        embeds=[reply.embed] if reply.embed is not None else [],
        ephemeral=True,
        wait=True,
        **extra,
    )
    if reply.panel is not None:
        await client(interaction).panels.opened(
            reply.panel, message.id, message.edit, False, reply.embed, reply.view
        )


class ControlButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:(?P<gid>[0-9]+):(?P<what>decide|hand|respond|reclaim|board)",
):
    """Decide / My hand / Respond (open the private panel), Take my seat back, and Text
    board (the whole board in words, privately: the board message shows it drawn)."""

    #: Each button's style; its label is the catalog's ``button.<what>``.
    STYLES = {
        "decide": discord.ButtonStyle.primary,
        "hand": discord.ButtonStyle.secondary,
        "respond": discord.ButtonStyle.primary,
        "reclaim": discord.ButtonStyle.success,
        "board": discord.ButtonStyle.secondary,
    }

    def __init__(self, gid: int, what: str, label: str | None = None, row: int | None = None):
        said = rendering.clip(label or say(msg(f"button.{what}")), rendering.LABEL_LIMIT)
        super().__init__(
            ui.Button(label=said, style=self.STYLES[what], custom_id=f"anima:{gid}:{what}", row=row)
        )
        self.gid, self.what = gid, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ControlButton:
        return cls(int(match["gid"]), match["what"], getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def reply() -> Reply:
            games = client(interaction).games
            if self.what == "reclaim":
                return await games.reclaim(self.gid, interaction.user.id)
            if self.what == "board":  # what /anima board shows, to the clicker alone
                return await games.board(self.gid)
            # Ephemeral (a click in a server): the panel shows the hand drawn; a DM never.
            pictured = interaction.guild_id is not None
            return await games.panel(self.gid, interaction.user.id, self.what, pictured)

        await answers.guarded(interaction, lambda: reply_quickly(interaction, reply))


class AutoPassSelect(
    ui.DynamicItem[ui.Select[Any]],
    template=r"anima:(?P<gid>[0-9]+):autopass",
):
    """The private panel's auto-pass menu: the kinds of decision the bot passes at once for
    this member (bot.autopass); none selected switches it off."""

    def __init__(
        self, gid: int, options: list[discord.SelectOption], row: int | None = None
    ) -> None:
        chosen = [o.label for o in options if o.default]
        kinds = ", ".join(chosen) if chosen else say(msg("autopass.off"))
        super().__init__(
            ui.Select(
                custom_id=f"anima:{gid}:autopass",
                options=options,
                placeholder=rendering.clip(
                    say(msg("select.autopass", kinds=kinds)), rendering.PLACEHOLDER_LIMIT
                ),
                min_values=0,
                max_values=len(options),
                row=row,
            )
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> AutoPassSelect:
        return cls(int(match["gid"]), list(getattr(item, "options", [])))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)

        async def work() -> None:
            await open_answer(interaction)
            bot = client(interaction)
            reply = await bot.games.set_autopass(self.gid, interaction.user.id, values)
            await answer(interaction, reply)

        await answers.guarded(interaction, work)


class AutoPassButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:(?P<gid>[0-9]+):autopass:windows",
):
    """**Auto-pass windows**: the button of the tip a member reads in his first reaction
    windows (bot.autopass.window_tip). It adds every kind of reaction window to his
    auto-pass, applies it at once (the window open now included) and answers with his panel,
    in place when clicked in one."""

    def __init__(self, gid: int, row: int | None = None) -> None:
        label = rendering.clip(say(msg("button.autopass_windows")), rendering.LABEL_LIMIT)
        super().__init__(
            ui.Button(
                label=f"⏩ {label}",
                style=discord.ButtonStyle.primary,
                custom_id=f"anima:{gid}:autopass:windows",
                row=row,
            )
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> AutoPassButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def reply() -> Reply:
            return await client(interaction).games.autopass_windows(self.gid, interaction.user.id)

        await answers.guarded(interaction, lambda: reply_quickly(interaction, reply))
