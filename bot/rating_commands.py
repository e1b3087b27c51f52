"""``/anima leaderboard`` and ``/anima profile`` (issue 25): a server's ratings, read directly
from storage (:mod:`bot.storage.ratings`); :mod:`bot.commands` adds them to ``/anima``.

Ratings are openskill's (Plackett-Luce), per server and per set combination; the number shown
is the conservative rating, mu - 3 sigma, rounded (0 for a newcomer, rising as he plays and
wins). Members are named by mention (an embed pings nobody); AI levels by their names, marked
as AI. Both answers are private, in the reader's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import rendering
from bot.rendering.lobby import ai_level_name
from bot.storage.ratings import Rating
from bot.translator import command, options, reading
from words import card_name, counted, msg, say

if TYPE_CHECKING:
    from bot.app import AnimaBot

#: The leaderboard's rows (its embed's description stays far below 4,096 characters).
LEADERBOARD_SIZE = 20
#: Discord's most fields of an embed, and choices of an autocomplete.
FIELDS = 25


def _bot(interaction: discord.Interaction) -> AnimaBot:
    return interaction.client  # type: ignore[return-value]


def _sets_name(sets: str) -> str:
    """A set combination in words ("Shadow of Omega + Beyond Good and Evil")."""
    return rendering.sets_text(sets.split("+"))


def _points(value: float) -> str:
    """A rating as players read it: a whole number."""
    return str(round(value))


def _who(r: Rating) -> str:
    """A rating's owner: a member's mention, or an AI level marked as AI."""
    if r.user_id is not None:
        return f"<@{r.user_id}>"
    return say(msg("ratings.ai", level=ai_level_name(r.ai_level or "")))


@reading
async def sets_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The server's rated set combinations, by name."""
    combos = await _bot(interaction).storage.rating_sets(interaction.guild_id or 0)
    q = current.strip().lower()
    named = [(_sets_name(c), c) for c in combos]
    return [
        app_commands.Choice(name=rendering.clip(name, 100), value=c)
        for name, c in named
        if q in name.lower() or q in c
    ][:FIELDS]


@app_commands.command(**command("leaderboard"))
@options("leaderboard", "sets")
@app_commands.autocomplete(sets=sets_autocomplete)
@reading
async def leaderboard(interaction: discord.Interaction, sets: str | None = None) -> None:
    storage = _bot(interaction).storage
    guild = interaction.guild_id or 0
    combos = await storage.rating_sets(guild)
    chosen = sets if sets is not None else (combos[0] if combos else None)
    if chosen is None or chosen not in combos:
        none = msg("ratings.none") if not combos else msg("ratings.no_sets")
        await interaction.response.send_message(say(none), ephemeral=True)
        return
    board = await storage.leaderboard(guild, chosen, LEADERBOARD_SIZE)
    lines = [
        say(
            msg(
                "ratings.leaderboard.line",
                rank=i,
                name=_who(r),
                rating=_points(r.conservative),
                games=counted("ratings.games", r.games),
            )
        )
        for i, r in enumerate(board, start=1)
    ]
    embed = discord.Embed(
        title=say(msg("ratings.leaderboard.title", sets=_sets_name(chosen))),
        description="\n".join(lines),
        colour=rendering.COLOR,
    )
    embed.set_footer(text=say(msg("ratings.leaderboard.footer")))
    await interaction.response.send_message(embed=embed, ephemeral=True)


@app_commands.command(**command("profile"))
@options("profile", "member")
@reading
async def profile(interaction: discord.Interaction, member: discord.User | None = None) -> None:
    bot = _bot(interaction)
    who = member or interaction.user
    guild = interaction.guild_id or 0
    ratings = {r.sets: r for r in await bot.storage.member_ratings(guild, who.id)}
    leaders = await bot.storage.leaders_played(guild, who.id)
    name = rendering.escape(rendering.clip(who.display_name, rendering.NAME_LIMIT))
    if not ratings and not leaders:
        await interaction.response.send_message(
            say(msg("ratings.profile.none", name=name)), ephemeral=True
        )
        return
    embed = discord.Embed(
        title=say(msg("ratings.profile.title", name=name)), colour=rendering.COLOR
    )
    # The rated combinations (most played first), then those only played unrated.
    combos = [*ratings, *sorted(c for c in leaders if c not in ratings)]
    for combo in combos[:FIELDS]:
        lines = []
        r = ratings.get(combo)
        if r is None:
            lines.append(say(msg("ratings.profile.unrated")))
        else:
            lines.append(
                say(
                    msg(
                        "ratings.profile.rating",
                        rating=_points(r.conservative),
                        mu=f"{r.mu:.1f}",
                        spread=f"{3 * r.sigma:.1f}",
                    )
                )
            )
            lines.append(
                say(
                    msg(
                        "ratings.profile.record",
                        games=counted("ratings.games", r.games),
                        wins=counted("ratings.wins", r.wins),
                    )
                )
            )
        played = leaders.get(combo)
        if played:
            # His most played leader; the first chosen among equals (ids sort stably).
            leader = max(sorted(played), key=lambda c: played[c])
            card = bot.cards.by_id.get(leader)
            shown = card_name(leader, card.name) if card is not None else leader
            lines.append(
                say(
                    msg(
                        "ratings.profile.leader",
                        leader=shown,
                        games=counted("ratings.games.played", played[leader]),
                    )
                )
            )
        embed.add_field(name=_sets_name(combo), value="\n".join(lines), inline=False)
    embed.set_footer(text=say(msg("ratings.leaderboard.footer")))
    await interaction.response.send_message(embed=embed, ephemeral=True)
