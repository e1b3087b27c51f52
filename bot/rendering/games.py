"""``/anima games`` (issue 26): a member's lobbies and running games on a server, a line each
(its channel or thread, whose decision it is and since when, a link to its newest message),
his own decisions first, within one embed's limits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.rendering.messages import counted, listing, msg, say
from bot.rendering.text import COLOR_PRIVATE, EMBED_DESCRIPTION_LIMIT, NAME_LIMIT, clip, escape

#: Games listed at most (the others counted: "and N more").
MAX_GAMES = 20


@dataclass(frozen=True)
class GameLine:
    """One of a member's games as ``/anima games`` lists it."""

    game_id: int
    channel_id: int
    #: The link to its newest message (the board, or the lobby).
    url: str
    lobby: bool
    #: Its deciders' display names (as typed), the member's own seat left out.
    waiting_for: tuple[str, ...] = ()
    #: The member must decide.
    his_turn: bool = False
    #: Since when (POSIX seconds; 0: unknown).
    since: float = 0.0
    paused: bool = False
    players: int = 0
    #: The channel's or thread's name (None: unknown, shown as Discord's channel mention).
    channel: str | None = None

    @property
    def order(self) -> tuple[int, float]:
        """His turn first, then the others' running games, then lobbies; the oldest first."""
        rank = 0 if self.his_turn else (2 if self.lobby else 1)
        return rank, self.since


def _when(ts: float) -> str:
    return f"<t:{int(ts)}:R>" if ts else "—"


def game_line(g: GameLine) -> str:
    """One game's line (in the current language)."""
    when = _when(g.since)
    if g.lobby:
        status = say(counted("games.lobby", g.players, when=when))
    elif g.paused:
        status = say(msg("games.paused", when=when))
    elif g.his_turn:
        status = say(msg("games.your_turn", when=when))
    elif g.waiting_for:
        names = [f"**{escape(clip(n, NAME_LIMIT))}**" for n in g.waiting_for]
        status = say(msg("games.waiting", players=listing(names), when=when))
    else:
        status = say(msg("games.running"))
    link = "games.line.lobby" if g.lobby else "games.line"
    channel = f"**#{escape(clip(g.channel, 100))}**" if g.channel else f"<#{g.channel_id}>"
    return say(msg(link, channel=channel, game=g.game_id, status=status, url=g.url))


def games_embed(games: Sequence[GameLine]) -> discord.Embed:
    """The member's games (sorted: his turn first), cut with "and N more" to fit."""
    ordered = sorted(games, key=lambda g: g.order)
    lines: list[str] = []
    room = EMBED_DESCRIPTION_LIMIT - 100  # the "and N more" line
    for g in ordered[:MAX_GAMES]:
        line = game_line(g)
        if sum(len(x) + 1 for x in lines) + len(line) > room:
            break
        lines.append(line)
    if len(lines) < len(ordered):
        lines.append(say(counted("games.more", len(ordered) - len(lines))))
    mine = sum(1 for g in ordered if g.his_turn)
    embed = discord.Embed(
        title=say(msg("games.title")),
        description="\n".join(lines) if lines else say(msg("games.none")),
        colour=COLOR_PRIVATE,
    )
    if mine:
        embed.set_footer(text=say(counted("games.footer", mine)))
    return embed
