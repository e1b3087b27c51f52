"""``/anima settings`` and ``/anima stats``: a server's defaults, a member's own settings
(his auto-pass on the server, his language everywhere) and the server's wins. Read and
written here directly (no game is involved); :mod:`bot.commands` adds them to ``/anima``.

Pace (issue 26): a server's default pace of new lobbies (``pace``: live or slow) and a slow
game's timers (``slow_timer`` in hours, ``slow_window`` in minutes), for Manage Server; a
member's pings (his own, on every server): ``quiet_hours`` (``23-08``; ``off``), his
``timezone`` (an IANA name, autocompleted, or a UTC offset) and ``heads_up``.

Languages: a member's own (``language``) is the one his private messages speak, the Discord
client's when he chose none; a server's (``server_language``, Manage Server) is the default
of its new lobbies, its Discord's preferred locale when its managers chose none. Each is
offered by its own name (English, Español, Русский, Italiano), whatever the reader's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import autopass, quiet, rendering
from bot.components.answers import is_admin
from bot.languages import server_language
from bot.rendering.lobby import language_name
from bot.storage import GuildSettings, MemberPings
from bot.translator import command, options, reader, reading, text
from words import LANGUAGES, Message, counted, msg, say, speaking

if TYPE_CHECKING:
    from bot.app import AnimaBot

#: The choice that forgets a language chosen: Discord's (the member's client, the server's
#: preferred locale) decides again.
DISCORD = "discord"


def language_choices(discord_id: str) -> list[app_commands.Choice[str]]:
    """The four languages by their own names (never translated), then Discord's
    (``discord_id``: its words)."""
    named = [app_commands.Choice(name=language_name(code), value=code) for code in LANGUAGES]
    return [*named, app_commands.Choice(name=text(discord_id), value=DISCORD)]


def _bot(interaction: discord.Interaction) -> AnimaBot:
    return interaction.client  # type: ignore[return-value]


@app_commands.command(**command("settings"))
@options(
    "settings",
    "language",
    "decision_timer",
    "window_timer",
    "dms",
    "ai_takeover",
    "server_language",
    "auto_moves",
    "auto_encounters",
    "auto_exploration",
    "auto_battles",
    "auto_reset",
    "auto_interaction",
    "pace",
    "slow_timer",
    "slow_window",
    "quiet_hours",
    "timezone",
    "heads_up",
)
@app_commands.choices(
    language=language_choices("command.settings.language.discord"),
    server_language=language_choices("command.settings.server_language.discord"),
    pace=[
        app_commands.Choice(name=text(f"command.settings.pace.{p}"), value=p)
        for p in ("live", "slow")
    ],
)
@reading
async def settings_command(
    interaction: discord.Interaction,
    language: str | None = None,
    decision_timer: app_commands.Range[int, 0, 604800] | None = None,
    window_timer: app_commands.Range[int, 0, 3600] | None = None,
    dms: bool | None = None,
    ai_takeover: app_commands.Range[int, 0, 50] | None = None,
    server_language: str | None = None,
    auto_moves: bool | None = None,
    auto_encounters: bool | None = None,
    auto_exploration: bool | None = None,
    auto_battles: bool | None = None,
    auto_reset: bool | None = None,
    auto_interaction: bool | None = None,
    pace: str | None = None,
    slow_timer: app_commands.Range[int, 1, 168] | None = None,
    slow_window: app_commands.Range[int, 1, 1440] | None = None,
    quiet_hours: str | None = None,
    timezone: str | None = None,
    heads_up: bool | None = None,
) -> None:
    bot = _bot(interaction)
    if interaction.guild_id is None:
        await interaction.response.send_message(
            say(msg("settings.not_in_a_server")), ephemeral=True
        )
        return
    # A member's pings, checked before anything is saved: bad input changes nothing.
    pings = await bot.storage.member_pings(interaction.user.id)
    refusal = _set_pings(pings, quiet_hours, timezone, heads_up)
    if refusal is not None:
        await interaction.response.send_message(say(refusal), ephemeral=True)
        return
    guild_id = interaction.guild_id
    server = (
        decision_timer,
        window_timer,
        dms,
        ai_takeover,
        server_language,
        pace,
        slow_timer,
        slow_window,
    )
    changing = any(v is not None for v in server)
    admin = is_admin(interaction)
    if changing and not admin:
        await interaction.response.send_message(
            say(msg("settings.manage_server_only")), ephemeral=True
        )
        return
    if any(v is not None for v in (quiet_hours, timezone, heads_up)):
        await bot.storage.save_member_pings(pings)
    # A member's own language: his, on every server.
    if language is not None:
        chosen = language if language in LANGUAGES else None
        await bot.storage.set_member_language(interaction.user.id, chosen)
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
    if server_language is not None:
        s.language = server_language if server_language in LANGUAGES else None
    if pace is not None:
        s.pace = pace
    if slow_timer is not None:
        s.slow_timer = slow_timer * 3600
    if slow_window is not None:
        s.slow_window = slow_window * 60
    if changing:
        await bot.storage.save_guild_settings(s)
    # Said in the member's language: the one he may just have chosen.
    with speaking(await reader(interaction)) as reading_in:
        chosen, _ = await bot.storage.member_languages(interaction.user.id)
        embed = settings_embed(s, interaction.guild_locale, chosen, reading_in, mine)
        _pings_fields(embed, s, pings)
        embed.title = say(msg("settings.title.saved" if changing else "settings.title"))
        notice = "settings.description" if admin else "settings.description.members"
        embed.description = say(msg(notice))
    await interaction.response.send_message(embed=embed, ephemeral=True)


def settings_embed(
    s: GuildSettings,
    guild_locale: object,
    chosen: str | None,
    reading_in: str,
    mine: Iterable[str],
) -> discord.Embed:
    """The server's settings and the member's own (``chosen``: his language, None when
    Discord's decides: ``reading_in``; ``mine``: his auto-pass), in the current language."""
    embed = discord.Embed(colour=rendering.COLOR)
    embed.add_field(
        name=say(msg("settings.decision_timer")), value=rendering.duration(s.decision_timer)
    )
    embed.add_field(
        name=say(msg("settings.window_timer")), value=rendering.duration(s.window_timer)
    )
    embed.add_field(
        name=say(msg("settings.dms")), value=say(msg("settings.on" if s.dms else "settings.off"))
    )
    takeover = (
        counted("settings.ai_takeover.after", s.ai_takeover)
        if s.ai_takeover
        else msg("settings.ai_takeover.never")
    )
    embed.add_field(name=say(msg("settings.ai_takeover")), value=say(takeover))
    lobbies = language_name(server_language(s.language, guild_locale))
    if s.language not in LANGUAGES:
        lobbies = say(msg("settings.server_language.discord", language=lobbies))
    embed.add_field(name=say(msg("settings.server_language")), value=lobbies)
    own = language_name(chosen if chosen in LANGUAGES else reading_in)
    if chosen not in LANGUAGES:
        own = say(msg("settings.language.discord", language=own))
    embed.add_field(name=say(msg("settings.language")), value=own)
    how = msg("settings.autopass.help")
    embed.add_field(
        name=say(msg("settings.autopass")),
        value=say(msg("settings.autopass.value", kinds=autopass.describe(mine), help=how)),
        inline=False,
    )
    return embed


@settings_command.autocomplete("timezone")
@reading
async def timezone_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The time zones whose IANA name holds what the member typed (25 at most)."""
    typed = current.strip().lower().replace(" ", "_")
    found = [z for z in quiet.zone_names() if typed in z.lower()][:25]
    return [app_commands.Choice(name=z, value=z) for z in found]


#: What a member types to forget his quiet hours.
NO_QUIET = ("off", "none", "no", "-", "0")


def _set_pings(
    p: MemberPings, quiet_hours: str | None, timezone: str | None, heads_up: bool | None
) -> Message | None:
    """Change a member's ping settings in ``p`` (not saved); the refusal of a bad value."""
    if quiet_hours is not None:
        if quiet_hours.strip().lower() in NO_QUIET:
            p.quiet_hours = None
        elif (span := quiet.parse_span(quiet_hours)) is None:
            return msg("settings.quiet_hours.bad", value=rendering.escape(quiet_hours[:40]))
        else:
            p.quiet_hours = (
                f"{span[0] // 60:02}:{span[0] % 60:02}-{span[1] // 60:02}:{span[1] % 60:02}"
            )
    if timezone is not None:
        if quiet.parse_zone(timezone) is None:
            return msg("settings.timezone.bad", value=rendering.escape(timezone[:40]))
        p.timezone = timezone.strip()
    if heads_up is not None:
        p.heads_up = heads_up
    return None


def _pings_fields(embed: discord.Embed, s: GuildSettings, p: MemberPings) -> None:
    """The server's pace and the member's pings, in the current language, before the
    auto-pass (the embed's last field, the long one)."""
    at = len(embed.fields) - 1
    pace = msg("settings.pace.live")
    if s.pace == "slow":
        pace = msg(
            "settings.pace.slow",
            timer=rendering.duration(s.slow_timer),
            window=rendering.duration(s.slow_window),
        )
    embed.insert_field_at(at, name=say(msg("settings.pace")), value=say(pace))
    zone = p.timezone or "UTC"
    hours = (
        msg("settings.quiet_hours.value", hours=p.quiet_hours, zone=zone)
        if p.quiet_hours
        else msg("settings.quiet_hours.none", zone=zone)
    )
    embed.insert_field_at(at + 1, name=say(msg("settings.quiet_hours")), value=say(hours))
    on = msg("settings.on" if p.heads_up else "settings.off")
    embed.insert_field_at(at + 2, name=say(msg("settings.heads_up")), value=say(on))


@app_commands.command(**command("stats"))
@reading
async def stats(interaction: discord.Interaction) -> None:
    bot = _bot(interaction)
    games, players = await bot.storage.guild_stats(interaction.guild_id or 0)
    omega = await bot.storage.omega_wins(interaction.guild_id or 0)
    lines = [
        say(
            msg(
                "stats.player",
                rank=i,
                # Every AI seat together (stored as one row without a member).
                name=say(msg("stats.ai_players"))
                if user is None
                else rendering.escape(rendering.clip(name, rendering.NAME_LIMIT)),
                wins=counted("stats.wins", wins),
                games=counted("stats.games", played),
            )
        )
        for i, (name, user, wins, played) in enumerate(players, start=1)
    ]
    embed = discord.Embed(
        title=say(msg("stats.title")),
        description=say(msg("stats.description", games=games, omega=omega)),
        colour=rendering.COLOR,
    )
    embed.add_field(
        name=say(msg("stats.players")),
        value="\n".join(lines) or say(msg("stats.none")),
        inline=False,
    )
    await interaction.response.send_message(embed=embed, ephemeral=True)
