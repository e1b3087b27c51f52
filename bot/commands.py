"""The ``/anima`` slash commands. Whatever concerns a game goes through the same services
(:mod:`bot.games`, :mod:`bot.lobby`) and the same per-game lock as the buttons; only the
server's settings, stats and the user's DM preference are read and written here directly."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import autopass, rendering, rules
from bot.collector import work_done
from bot.components.answers import ERROR_TEXT, answer, is_admin
from bot.components.lobby import lobby_view
from bot.table import NO_GAME, Reply

if TYPE_CHECKING:
    from bot.app import AnimaBot

log = logging.getLogger("anima.commands")

anima_group = app_commands.Group(
    name="anima", description="Play Anima: Shadow of Omega", guild_only=True
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


async def _say(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was acknowledged already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


# ---------------------------------------------------------------------- start


@anima_group.command(name="start", description="Open a lobby for a new game in this channel")
@app_commands.describe(
    turns="End the game after this many turns (0 = play to the end)",
    thread="Play in a thread started from the lobby message (keeps the channel clean)",
)
async def start(
    interaction: discord.Interaction,
    turns: app_commands.Range[int, 0, 100] = 0,
    thread: bool = False,
) -> None:
    bot = _bot(interaction)
    channel_id = interaction.channel_id
    if interaction.guild_id is None or channel_id is None:
        await _say(interaction, "Games are played in a server channel.")
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
    result = await bot.lobby.open(
        interaction.guild_id,
        channel_id,
        interaction.user.id,
        interaction.user.display_name,
        turns,
        thread,
    )
    if result.error or result.row is None:  # somebody opened one between the check and now
        await interaction.edit_original_response(content=result.error or "This lobby is closed.")
        return
    row = result.row
    try:
        message = await interaction.edit_original_response(
            embed=rendering.lobby_embed(row, result.seats, result.default_timer),
            view=lobby_view(row, bot.cards),
        )
    except discord.HTTPException:
        await bot.lobby.unposted(row.id)
        raise
    await bot.lobby.posted(row.id, message.id)


#: What the bot needs in a game's channel, with the names Discord's settings show. It posts
#: the lines and the board (an embed) with ``channel.send`` and edits its own messages; it
#: never reads the channel's history (the log is in its database) and sends files only in
#: answers to interactions (which need no permission).
NEEDED = (("view_channel", "View Channel"), ("embed_links", "Embed Links"))
#: In a channel, or in a thread (the channel is one, or the game moves to a new one).
SEND_IN_CHANNEL = ("send_messages", "Send Messages")
SEND_IN_THREAD = ("send_messages_in_threads", "Send Messages in Threads")
NEW_THREAD = ("create_public_threads", "Create Public Threads")


def missing_permissions(
    permissions: discord.Permissions, *, in_a_thread: bool = False, new_thread: bool = False
) -> list[str]:
    """The permissions the bot lacks to play a game here (Discord's names), in the order
    of :data:`NEEDED`; empty when it has them all."""
    needed = list(NEEDED)
    needed.append(SEND_IN_THREAD if in_a_thread else SEND_IN_CHANNEL)
    if new_thread:
        needed += [NEW_THREAD, SEND_IN_THREAD]
    if permissions.administrator:
        return []
    return [label for flag, label in needed if not getattr(permissions, flag)]


def missing_text(missing: list[str]) -> str:
    """The refusal of ``/anima start`` where the bot lacks permissions."""
    listed = ", ".join(f"**{m}**" for m in missing)
    return (
        f"I can't run a game here: I am missing the permission{'s' if len(missing) > 1 else ''} "
        f"{listed} in this channel. A server admin can grant "
        f"{'them' if len(missing) > 1 else 'it'} to my role (or in the channel's settings); "
        "nothing was started."
    )


# ---------------------------------------------------------------------- the player's views


async def _game_id(interaction: discord.Interaction) -> int | None:
    """The running game of the interaction's channel."""
    return await _bot(interaction).games.running_game_id(interaction.channel_id or 0)


@anima_group.command(name="hand", description="Your party, hand, missions and what you can do")
async def hand(interaction: discord.Interaction) -> None:
    game_id = await _game_id(interaction)
    if game_id is None:
        await _say(interaction, NO_GAME)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _reply(
        interaction, await _bot(interaction).games.panel(game_id, interaction.user.id, "hand")
    )


@anima_group.command(name="board", description="The current board of this channel's game")
async def board(interaction: discord.Interaction) -> None:
    bot = _bot(interaction)
    game_id = await _game_id(interaction)
    if game_id is None:
        await _say(interaction, NO_GAME)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _reply(interaction, await bot.games.board(game_id))


async def hand_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot = _bot(interaction)
    game_id = await _game_id(interaction)
    if game_id is None:
        return []
    choices = await bot.games.hand_choices(game_id, interaction.user.id, current)
    return [app_commands.Choice(name=label, value=card_id) for label, card_id in choices][:25]


@anima_group.command(name="play", description="Play an Advantage from your hand")
@app_commands.describe(card="A card from your hand")
@app_commands.autocomplete(card=hand_autocomplete)
async def play(interaction: discord.Interaction, card: str) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    reply = await _bot(interaction).games.play_card(
        interaction.channel_id or 0, interaction.user.id, card
    )
    await _reply(interaction, reply)


# ---------------------------------------------------------------------- reference


async def card_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    q = current.strip().lower()
    cards = [c for c in _bot(interaction).cards if q in c.name.lower()]
    cards.sort(key=lambda c: (not c.name.lower().startswith(q), c.name))
    return [
        app_commands.Choice(
            name=rendering.clip(f"{c.name} · {rendering.card_kind(c)}", 100), value=c.id
        )
        for c in cards[:25]
    ]


@anima_group.command(name="card", description="Look up a card")
@app_commands.describe(name="The card's name")
@app_commands.autocomplete(name=card_autocomplete)
async def card(interaction: discord.Interaction, name: str) -> None:
    db = _bot(interaction).cards
    found = db.by_id.get(name) or next(
        (c for c in db if c.name.lower() == name.strip().lower()), None
    )
    if found is None:
        matches = [c for c in db if name.strip().lower() in c.name.lower()]
        found = matches[0] if len(matches) == 1 else None
    if found is None:
        await _say(
            interaction,
            f"No card is called “{rendering.escape(rendering.clip(name, 80))}”. "
            "Try the suggestions.",
        )
        return
    await interaction.response.send_message(
        embed=rendering.card_embed(db, found.id), ephemeral=True
    )


async def rules_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    digest = rules.load(_bot(interaction).settings.rules_path)
    return [app_commands.Choice(name=label, value=value) for label, value in digest.topics(current)]


@anima_group.command(name="rules", description="Read the rules (by rule ID, section or words)")
@app_commands.describe(topic="A rule ID like B3, a section, or words")
@app_commands.autocomplete(topic=rules_autocomplete)
async def rules_command(interaction: discord.Interaction, topic: str) -> None:
    digest = rules.load(_bot(interaction).settings.rules_path)
    if digest.error:
        await _say(
            interaction,
            f"Sorry, {digest.error}. A server admin can point ANIMA_RULES_PATH at the digest.",
        )
        return
    found = digest.lookup(topic)
    if found is None:
        await _say(
            interaction,
            f"No rule matches “{rendering.escape(rendering.clip(topic, 80))}”. "
            "Try a rule ID like B3.",
        )
        return
    title, text = found
    embed = discord.Embed(
        title=rendering.clip(title, 256),
        description=rendering.clip(text, rendering.EMBED_DESCRIPTION_LIMIT),
        colour=rendering.COLOR,
    )
    embed.set_footer(text="From the rules digest")
    await interaction.response.send_message(embed=embed, ephemeral=True)


# ---------------------------------------------------------------------- log, end


@anima_group.command(
    name="log", description="The latest events of this channel's game (or last game)"
)
async def log_command(interaction: discord.Interaction) -> None:
    reply = await _bot(interaction).games.log(interaction.channel_id or 0, interaction.user.id)
    await _send(interaction, reply)


@anima_group.command(name="history", description="A finished game's whole log and replay file")
@app_commands.describe(game="The game's number (default: this channel's last game)")
async def history_command(
    interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    reply = await _bot(interaction).games.history(interaction.channel_id or 0, game)
    await _reply(interaction, reply)


@anima_group.command(name="end", description="End this channel's game (host or Manage Server)")
async def end(interaction: discord.Interaction) -> None:
    reply = await _bot(interaction).games.end_request(
        interaction.channel_id or 0, interaction.user.id, is_admin(interaction)
    )
    await _send(interaction, reply)


# ---------------------------------------------------------------------- settings, stats


@anima_group.command(
    name="settings",
    description="Your auto-pass; this server's defaults (Manage Server)",
)
@app_commands.describe(
    decision_timer="Seconds for each decision (0 = no timer, for play-by-post)",
    window_timer="Seconds a reaction window stays open (0 = until everybody answered)",
    dms="Send secret cards and private events by DM",
    ai_takeover="An AI takes a seat after this many time-outs in a row (0 = never)",
    auto_moves="Yours: pass the reaction window of every declared move at once",
    auto_encounters="Yours: pass the reaction window of every revealed Encounter at once",
    auto_exploration="Yours: pass the reaction window of every exploration roll at once",
    auto_battles="Yours: pass the reaction window of every battle at once",
    auto_reset="Yours: end your Reset phase at once (no discard, dismissal or Reset card)",
    auto_interaction="Yours: end your Interaction phase at once when you can't attack or trade",
)
async def settings_command(
    interaction: discord.Interaction,
    decision_timer: app_commands.Range[int, 0, 604800] | None = None,
    window_timer: app_commands.Range[int, 0, 3600] | None = None,
    dms: bool | None = None,
    ai_takeover: app_commands.Range[int, 0, 50] | None = None,
    auto_moves: bool | None = None,
    auto_encounters: bool | None = None,
    auto_exploration: bool | None = None,
    auto_battles: bool | None = None,
    auto_reset: bool | None = None,
    auto_interaction: bool | None = None,
) -> None:
    bot = _bot(interaction)
    if interaction.guild_id is None:
        await _say(interaction, "Settings belong to a server.")
        return
    guild_id = interaction.guild_id
    changing = any(v is not None for v in (decision_timer, window_timer, dms, ai_takeover))
    admin = is_admin(interaction)
    if changing and not admin:
        await _say(
            interaction,
            "Only members with the Manage Server permission can change the server's "
            "settings. Your own auto-pass is yours to set (the `auto_…` options).",
        )
        return
    # A member's own auto-pass (bot.autopass), remembered on this server.
    auto = {
        "move_declared": auto_moves,
        "encounter_revealed": auto_encounters,
        "exploration_roll": auto_exploration,
        "battle_start": auto_battles,
        "reset": auto_reset,
        "interaction": auto_interaction,
    }
    mine = (await bot.storage.autopass(guild_id, [interaction.user.id])).get(
        interaction.user.id, frozenset()
    )
    if any(v is not None for v in auto.values()):
        kinds = {k for k in mine if auto.get(k) is not False}
        kinds |= {k for k, on in auto.items() if on}
        mine = frozenset(kinds)
        await bot.storage.set_autopass(guild_id, interaction.user.id, mine)
        await bot.games.autopass_now(guild_id, interaction.channel_id or 0, interaction.user.id)
    s = await bot.storage.guild_settings(guild_id)
    if decision_timer is not None:
        s.decision_timer = decision_timer
    if window_timer is not None:
        s.window_timer = window_timer
    if dms is not None:
        s.dms = dms
    if ai_takeover is not None:
        s.ai_takeover = ai_takeover
    if changing:
        await bot.storage.save_guild_settings(s)
    embed = discord.Embed(
        title="Anima settings for this server" + (" (saved)" if changing else ""),
        colour=rendering.COLOR,
        description="New games use these; a running game keeps its timers."
        + ("" if admin else " Members with Manage Server can change them."),
    )
    embed.add_field(name="Decision timer", value=rendering.duration(s.decision_timer))
    embed.add_field(name="Reaction window", value=rendering.duration(s.window_timer))
    embed.add_field(name="DMs", value="on" if s.dms else "off")
    embed.add_field(
        name="AI takeover",
        value=f"after {s.ai_takeover} time-outs" if s.ai_takeover else "never",
    )
    embed.add_field(
        name="Your auto-pass (only you see it)",
        value=f"**{autopass.describe(mine)}** — {AUTOPASS_HELP}",
        inline=False,
    )
    await interaction.response.send_message(embed=embed, ephemeral=True)


#: What the auto-pass does, for the member himself.
AUTOPASS_HELP = (
    "the decisions you put on auto-pass are passed for you at once, whatever you hold, in "
    "every game on this server; change it here (`auto_…` options) or in the **Auto-pass** "
    "menu of your panel (**My hand**)."
)


@anima_group.command(name="stats", description="Wins and games played on this server")
async def stats(interaction: discord.Interaction) -> None:
    bot = _bot(interaction)
    games, players = await bot.storage.guild_stats(interaction.guild_id or 0)
    omega = await bot.storage.omega_wins(interaction.guild_id or 0)
    lines = [
        f"{i}. {rendering.escape(name)} — **{rendering.plural(wins, 'win')}** "
        f"in {rendering.plural(played, 'game')}"
        for i, (name, _user, wins, played) in enumerate(players, start=1)
    ]
    embed = discord.Embed(
        title="Anima on this server",
        description=f"Games played: **{games}** · nobody won (Omega broke free): **{omega}**",
        colour=rendering.COLOR,
    )
    embed.add_field(name="Players", value="\n".join(lines) or "No finished game yet.", inline=False)
    await interaction.response.send_message(embed=embed, ephemeral=True)


@anima_group.command(name="dms", description="Ask me to try direct messages again")
async def dms(interaction: discord.Interaction) -> None:
    bot = _bot(interaction)
    await bot.storage.set_dm_refused(interaction.user.id, False, 0)
    await _say(interaction, "OK: I will try to DM you again next time I have something secret.")


@anima_group.command(name="about", description="What this bot is and how to play")
async def about(interaction: discord.Interaction) -> None:
    dms = (await _bot(interaction).storage.guild_settings(interaction.guild_id or 0)).dms
    await _say(interaction, rendering.about_text(dms))


async def on_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """No traceback ever reaches a user: log it and answer with a short apology."""
    original = getattr(error, "original", error)
    if isinstance(error, app_commands.CheckFailure):
        text = "You can't use this command here."
    else:
        log.error("command failed", exc_info=original)
        text = ERROR_TEXT
    try:
        await _say(interaction, text)
    except discord.HTTPException:
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(content=text, embeds=[], view=None)
    finally:
        work_done()
