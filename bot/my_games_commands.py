"""``/anima games`` (issue 26): every lobby and running game of this server the member sits
in, his own decisions first: its channel or thread, whose decision it is and since when
(the time of the action that opened it: :meth:`bot.storage.Storage.member_games`), and a link
to its newest message (the board that carries the buttons, or the lobby). One statement, an
ephemeral answer in his language; :mod:`bot.commands` adds it to ``/anima``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.rendering.games import GameLine, games_embed
from bot.storage.seen import MemberGame
from bot.table import jump_url
from bot.translator import command, reading

if TYPE_CHECKING:
    from bot.app import AnimaBot


def game_line(
    guild_id: int, user_id: int, game: MemberGame, channel: str | None = None
) -> GameLine:
    """How ``/anima games`` shows ``game`` to the member ``user_id`` (``channel``: its
    channel's or thread's name, if the bot knows it)."""
    lobby = game.status == "lobby"
    message = game.lobby_message_id if lobby else game.board_message_id
    url = jump_url(guild_id, game.channel_id, message)
    if lobby:
        return GameLine(
            game.id,
            game.channel_id,
            url,
            True,
            since=game.created_at,
            players=len(game.seats),
            channel=channel,
        )
    deciding = [s for s in game.seats if s.deciding_since is not None]
    his = any(s.user_id == user_id and not s.ai for s in deciding)
    others = tuple(s.name for s in deciding if s.user_id != user_id)
    opened = [s.deciding_since or 0.0 for s in deciding if s.deciding_since]
    since = min(opened) if opened else (game.started_at or game.created_at)
    if game.paused_at is not None:
        since = game.paused_at
    return GameLine(
        game.id,
        game.channel_id,
        url,
        False,
        waiting_for=others,
        his_turn=his and game.paused_at is None,
        since=since,
        paused=game.paused_at is not None,
        players=len(game.seats),
        channel=channel,
    )


def channel_name(guild: discord.Guild | None, channel_id: int) -> str | None:
    """The name of a channel or thread of ``guild`` the bot has in its cache (it has every
    channel of its servers: the ``guilds`` intent), else None."""
    found = guild.get_channel_or_thread(channel_id) if guild is not None else None
    return found.name if found is not None else None


@app_commands.command(**command("games"))
@reading
async def games_command(interaction: discord.Interaction) -> None:
    """The member's games on this server, privately."""
    bot: AnimaBot = interaction.client  # type: ignore[assignment]
    guild_id = interaction.guild_id or 0
    user_id = interaction.user.id
    games = await bot.storage.member_games(guild_id, user_id)
    guild = interaction.guild
    lines = [game_line(guild_id, user_id, g, channel_name(guild, g.channel_id)) for g in games]
    await interaction.response.send_message(embed=games_embed(lines), ephemeral=True)
