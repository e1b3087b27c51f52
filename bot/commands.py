"""The ``/anima`` slash commands. Whatever concerns a game goes through the same services
(:mod:`bot.games`, :mod:`bot.lobby`) and the same per-game lock as the buttons; only the
server's settings, stats (:mod:`bot.server_commands`) and the user's DM preference are read
and written directly.

Every command runs in its reader's language (:func:`bot.translator.reading`): its answers
are private. The lobby ``/anima start`` posts is public, in the lobby's language. The
commands' own names and descriptions are the catalogs' (:mod:`bot.translator`).
"""

from __future__ import annotations

import contextlib
import logging
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import rendering, rules
from bot.attachments import attachment_url, picture_file
from bot.collector import work_done
from bot.components.answers import ERROR_TEXT, answer, is_admin
from bot.components.lobby import lobby_message
from bot.lobby import CANNOT_SAVE
from bot.my_games_commands import games_command
from bot.pictures import draw_card
from bot.privacy_commands import privacy
from bot.rating_commands import leaderboard, profile
from bot.server_commands import settings_command, stats
from bot.storage import StorageUnavailable
from bot.table import NO_GAME, Reply
from bot.translator import command, name, options, reader, reading, text
from words import Message, card_name, counted, current, listing, msg, say, speaking

if TYPE_CHECKING:
    from bot.app import AnimaBot

log = logging.getLogger("anima.commands")

#: The ``/anima card`` answer's picture (its embed's image).
CARD_FILE = "card.png"

anima_group = app_commands.Group(
    name=name("anima", "command.anima.name"),
    description=text("command.anima.description"),
    guild_only=True,
)


def _bot(interaction: discord.Interaction) -> AnimaBot:
    return interaction.client  # type: ignore[return-value]


async def _reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Complete a deferred ephemeral answer (a panel in it is kept up to date)."""
    await answer(interaction, reply)


async def _send(interaction: discord.Interaction, reply: Reply) -> None:
    """A new ephemeral answer (the interaction was not acknowledged yet)."""
    extra: dict[str, Any] = {}
    if reply.embed is not None:
        extra["embed"] = reply.embed
    if reply.view is not None:
        extra["view"] = reply.view
    await interaction.response.send_message(reply.content or None, ephemeral=True, **extra)


async def _say(interaction: discord.Interaction, said: Message | str) -> None:
    """An ephemeral answer (a message said in the current language), whether or not the
    interaction was acknowledged already."""
    content = say(said) if isinstance(said, Message) else said
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True)
    else:
        await interaction.response.send_message(content, ephemeral=True)


# ---------------------------------------------------------------------- start


@anima_group.command(**command("start"))
@options("start", "turns", "thread")
@reading
async def start(
    interaction: discord.Interaction,
    turns: app_commands.Range[int, 0, 100] = 0,
    thread: bool = False,
) -> None:
    bot = _bot(interaction)
    channel_id = interaction.channel_id
    if interaction.guild_id is None or channel_id is None:
        await _say(interaction, msg("opening.not_in_a_server"))
        return
    in_a_thread = isinstance(interaction.channel, discord.Thread)
    missing = missing_permissions(
        interaction.app_permissions, in_a_thread=in_a_thread, new_thread=thread and not in_a_thread
    )
    if missing:
        await _say(interaction, missing_text(missing))
        return
    refusal = await bot.lobby.blocker(channel_id)
    if refusal is not None:
        await _say(interaction, refusal)
        return
    # Answer first, then write: a lobby is only written for an interaction that Discord
    # took (a lobby whose message fails anyway is closed at once, or expires).
    await interaction.response.defer(thinking=True)
    guild = interaction.guild
    result = await bot.lobby.open(
        interaction.guild_id,
        channel_id,
        interaction.user.id,
        interaction.user.display_name,
        turns,
        thread,
        interaction.guild_locale or (guild.preferred_locale if guild is not None else None),
        # The host's own seed of the dice: an id the bot did not choose (docs/fair_dice.md).
        seat_seed=str(interaction.id),
    )
    if result.error or result.row is None:  # somebody opened one between the check and now
        refusal = result.error or msg("lobby.closed")
        await interaction.edit_original_response(content=say(refusal))
        return
    row = result.row
    try:
        message = await interaction.edit_original_response(**lobby_message(result, bot.cards))
    except discord.HTTPException:
        await bot.lobby.unposted(row.id)
        raise
    try:
        await bot.lobby.posted(row.id, message.id)
    except StorageUnavailable:
        # A lobby whose message is not recorded expires (never posted): it says so now.
        with contextlib.suppress(StorageUnavailable):
            await bot.lobby.unposted(row.id)
        await interaction.edit_original_response(content=say(CANNOT_SAVE), embed=None, view=None)


#: What the bot needs in a game's channel, as Discord's flags (the catalog's
#: ``permission.<flag>`` is the name Discord's settings show). It posts the lines and the
#: board (components V2, the lobby and the end an embed) with ``channel.send``, with the
#: board's and the battles' pictures as files, and edits its own messages; after a restart
#: it reads the channel's latest messages to find what it posted just before it stopped and
#: to take the buttons off an older board.
NEEDED = ("view_channel", "embed_links", "attach_files", "read_message_history")
#: In a channel, or in a thread (the channel is one, or the game moves to a new one).
SEND_IN_CHANNEL = "send_messages"
SEND_IN_THREAD = "send_messages_in_threads"
NEW_THREAD = "create_public_threads"


def missing_permissions(
    permissions: discord.Permissions, *, in_a_thread: bool = False, new_thread: bool = False
) -> list[str]:
    """The permissions the bot lacks to play a game here (Discord's flags), in the order
    of :data:`NEEDED`; empty when it has them all."""
    needed = list(NEEDED)
    needed.append(SEND_IN_THREAD if in_a_thread else SEND_IN_CHANNEL)
    if new_thread:
        needed += [NEW_THREAD, SEND_IN_THREAD]
    if permissions.administrator:
        return []
    return [flag for flag in needed if not getattr(permissions, flag)]


def missing_text(missing: list[str]) -> Message:
    """The refusal of ``/anima start`` where the bot lacks permissions (their names as
    Discord's settings show them, in the reader's language)."""
    names = [f"**{say(msg(f'permission.{flag}'))}**" for flag in missing]
    return counted("opening.missing_permissions", len(missing), permissions=listing(names))


# ---------------------------------------------------------------------- the player's views


async def _game_id(interaction: discord.Interaction) -> int | None:
    """The running game of the interaction's channel."""
    return await _bot(interaction).games.running_game_id(interaction.channel_id or 0)


@anima_group.command(**command("hand"))
@reading
async def hand(interaction: discord.Interaction) -> None:
    game_id = await _game_id(interaction)
    if game_id is None:
        await _say(interaction, NO_GAME)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _reply(
        interaction, await _bot(interaction).games.panel(game_id, interaction.user.id, "hand", True)
    )


@anima_group.command(**command("board"))
@reading
async def board(interaction: discord.Interaction) -> None:
    bot = _bot(interaction)
    game_id = await _game_id(interaction)
    if game_id is None:
        await _say(interaction, NO_GAME)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _reply(interaction, await bot.games.board(game_id))


@reading
async def hand_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot = _bot(interaction)
    game_id = await _game_id(interaction)
    if game_id is None:
        return []
    choices = await bot.games.hand_choices(game_id, interaction.user.id, current)
    return [app_commands.Choice(name=label, value=card_id) for label, card_id in choices][:25]


@anima_group.command(**command("play"))
@options("play", "card")
@app_commands.autocomplete(card=hand_autocomplete)
@reading
async def play(interaction: discord.Interaction, card: str) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    reply = await _bot(interaction).games.play_card(
        interaction.channel_id or 0, interaction.user.id, card
    )
    await _reply(interaction, reply)


# ---------------------------------------------------------------------- reference


def _names(card: Any) -> tuple[str, str]:
    """A card's name in the reader's language and in English (lower case: either finds it)."""
    return card_name(card.id, card.name).lower(), card.name.lower()


@reading
async def card_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    q = current.strip().lower()
    cards = [c for c in _bot(interaction).cards if any(q in n for n in _names(c))]
    cards.sort(key=lambda c: (not _names(c)[0].startswith(q), card_name(c.id, c.name)))
    return [
        app_commands.Choice(
            name=rendering.clip(f"{card_name(c.id, c.name)} · {rendering.card_kind(c)}", 100),
            value=c.id,
        )
        for c in cards[:25]
    ]


@anima_group.command(**command("card"))
@options("card", "name")
@app_commands.autocomplete(name=card_autocomplete)
@reading
async def card(interaction: discord.Interaction, name: str) -> None:
    db = _bot(interaction).cards
    typed = name.strip().lower()
    found = db.by_id.get(name) or next((c for c in db if typed in _names(c)), None)
    if found is None:
        matches = [c for c in db if any(typed in n for n in _names(c))]
        found = matches[0] if len(matches) == 1 else None
    if found is None:
        await _say(
            interaction, msg("lookup.unknown_card", name=rendering.escape(rendering.clip(name, 80)))
        )
        return
    # The card drawn beside its text: the picture is drawn in the pictures' worker process (kept
    # for the next reader of the card in this language), the embed shows it as its image.
    language = current()
    picture = await _bot(interaction).pictures.get(
        ("card", found.id, language), "card", partial(draw_card, found.id, db, language)
    )
    embed = rendering.card_embed(db, found.id)
    embed.set_image(url=attachment_url(CARD_FILE))
    await interaction.response.send_message(
        embed=embed, file=picture_file(picture, CARD_FILE), ephemeral=True
    )


@reading
async def rules_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    digest = rules.load(_bot(interaction).settings.rules_path)
    return [app_commands.Choice(name=label, value=value) for label, value in digest.topics(current)]


@anima_group.command(**command("rules"))
@options("rules", "topic")
@app_commands.autocomplete(topic=rules_autocomplete)
@reading
async def rules_command(interaction: discord.Interaction, topic: str) -> None:
    digest = rules.load(_bot(interaction).settings.rules_path)
    if digest.error:
        await _say(interaction, msg("rules.unavailable", reason=digest.error))
        return
    found = digest.lookup(topic)
    if found is None:
        typed = rendering.escape(rendering.clip(topic, 80))
        await _say(interaction, msg("rules.no_match", topic=typed))
        return
    title, body = found
    embed = discord.Embed(
        title=rendering.clip(title, 256),
        description=rendering.clip(body, rendering.EMBED_DESCRIPTION_LIMIT),
        colour=rendering.COLOR,
    )
    # The digest is English in every language: the reader is told so in his.
    embed.set_footer(text=say(msg("rules.english_digest")))
    await interaction.response.send_message(embed=embed, ephemeral=True)


# ---------------------------------------------------------------------- log, end


@anima_group.command(**command("log"))
@reading
async def log_command(interaction: discord.Interaction) -> None:
    reply = await _bot(interaction).games.log(interaction.channel_id or 0, interaction.user.id)
    await _send(interaction, reply)


@anima_group.command(**command("history"))
@options("history", "game")
@reading
async def history_command(
    interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    reply = await _bot(interaction).games.history(interaction.channel_id or 0, game)
    await _reply(interaction, reply)


@anima_group.command(**command("end"))
@reading
async def end(interaction: discord.Interaction) -> None:
    reply = await _bot(interaction).games.end_request(
        interaction.channel_id or 0, interaction.user.id, is_admin(interaction)
    )
    await _send(interaction, reply)


# ---------------------------------------------------------------------- settings, about

anima_group.add_command(settings_command)
anima_group.add_command(stats)
anima_group.add_command(privacy)
anima_group.add_command(leaderboard)
anima_group.add_command(profile)
anima_group.add_command(games_command)


@anima_group.command(**command("dms"))
@reading
async def dms(interaction: discord.Interaction) -> None:
    bot = _bot(interaction)
    await bot.storage.set_dm_refused(interaction.user.id, False, 0)
    await _say(interaction, msg("dms.again"))


@anima_group.command(**command("about"))
@reading
async def about(interaction: discord.Interaction) -> None:
    dms = (await _bot(interaction).storage.guild_settings(interaction.guild_id or 0)).dms
    await _say(interaction, rendering.about_text(dms))


async def on_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """No traceback ever reaches a user: log it and answer with a short apology (in his
    language)."""
    original = getattr(error, "original", error)
    if isinstance(error, app_commands.CheckFailure):
        apology: Message | str = msg("command.check_failed")
    else:
        log.error("command failed", exc_info=original)
        apology = ERROR_TEXT
    try:
        with speaking(await reader(interaction)):
            content = say(apology) if isinstance(apology, Message) else apology
        try:
            await _say(interaction, content)
        except discord.HTTPException:
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(content=content, embeds=[], view=None)
    finally:
        work_done()
