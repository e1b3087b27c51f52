"""The bot client: intents, command sync and start-up."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.settings import Settings

log = logging.getLogger("anima.bot")


class AnimaBot(commands.Bot):
    """The Anima game master. Slash commands only; no message content intent needed."""

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents)
        self.settings = settings
        self.tree.add_command(anima_group)

    async def setup_hook(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


anima_group = app_commands.Group(name="anima", description="Play Anima: Shadow of Omega")


@anima_group.command(name="about", description="What this bot is")
async def about(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(
        "I am a game master for **Anima: Shadow of Omega**.", ephemeral=True
    )


def run_bot(settings: Settings) -> None:
    """Connect to Discord with the configured token and run until stopped."""
    logging.basicConfig(level=settings.log_level_number)
    bot = AnimaBot(settings)
    bot.run(settings.discord_token, log_handler=None)
