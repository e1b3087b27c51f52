"""``/anima privacy``: what the bot keeps about the member who asks (every kind of
:data:`bot.storage.KINDS`, as :mod:`bot.storage.member_data` reads them), privately and in
his language, with a **Delete my data** button and its confirmation
(:mod:`bot.components.privacy`). What is kept and what deletion does: docs/privacy.md.

Only the asker's own data is read or shown; counts of his seats and stats are split between
this server and the others (never naming them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import autopass, rendering
from bot.components.privacy import delete_view
from bot.rendering.lobby import language_name
from bot.storage import Found
from bot.translator import command, reading
from words import LANGUAGES, counted, msg, say

if TYPE_CHECKING:
    from bot.app import AnimaBot


def _counts(found: Found) -> str:
    return say(msg("privacy.counts", here=found.here, elsewhere=found.elsewhere))


def _autopass(found: Found) -> str:
    if not found.values:  # none on this server: on others only
        return _counts(found)
    kinds = str(found.values[0]).split(",")
    return _counts(found) + "\n" + say(msg("privacy.autopass.here", kinds=autopass.describe(kinds)))


def _language(found: Found) -> str:
    chosen, locale = (*found.values, None, None)[:2]
    language = language_name(chosen) if chosen in LANGUAGES else say(msg("privacy.none"))
    return say(msg("privacy.language.value", language=language, locale=locale or "-"))


def _dms_closed(found: Found) -> str:
    return say(msg("privacy.dms_closed.value"))


def _pings(found: Found) -> str:
    quiet, zone, heads_up = (*found.values, None, None, None)[:3]
    return say(
        msg(
            "privacy.pings.value",
            quiet=quiet or say(msg("privacy.none")),
            zone=zone or "UTC",
            heads_up="✅" if heads_up else "❌",
        )
    )


#: How a kind's values are said (any other kind: its counts on this server and others).
VALUES: dict[str, Callable[[Found], str]] = {
    "autopass": _autopass,
    "language": _language,
    "dms_closed": _dms_closed,
    "pings": _pings,
}


def listing_embed(found: list[Found], waiting: int) -> discord.Embed:
    """What is stored about the member, in the current language."""
    embed = discord.Embed(
        title=say(msg("privacy.title")),
        description=say(msg("privacy.description" if found else "privacy.nothing")),
        colour=rendering.COLOR,
    )
    for f in found:
        value = VALUES.get(f.name, _counts)(f)
        embed.add_field(name=say(msg(f"privacy.kind.{f.name}")), value=value, inline=False)
    if waiting:
        embed.add_field(
            name=say(msg("privacy.kind.waiting")),
            value=say(counted("privacy.waiting.value", waiting)),
            inline=False,
        )
    return embed


@app_commands.command(**command("privacy"))
@reading
async def privacy(interaction: discord.Interaction) -> None:
    bot: AnimaBot = interaction.client  # type: ignore[assignment]
    user_id = interaction.user.id
    found, waiting = await bot.storage.member_data(user_id, interaction.guild_id or 0)
    embed = listing_embed(found, waiting)
    if found:
        await interaction.response.send_message(
            embed=embed, view=delete_view(user_id), ephemeral=True
        )
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)
