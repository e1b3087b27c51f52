"""The lobby and the introduction: seats, options, timers, AI levels, ``/anima about``."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.lobby_options import EDITION_OPTIONS, OPTIONAL_RULES, selected_codes
from bot.rendering.cards import SET_NAMES
from bot.rendering.text import COLOR, plural, seat_names
from bot.storage import GameRow, SeatRow
from engine import (
    DEFAULT_LEVEL,
    LEVELS,
    Options,
)


def about_text(dms: bool) -> str:
    """``/anima about``: what the game is, its goal and a turn, in a few lines."""
    secret = "under **My hand** on the board" + (" (and in your DMs)" if dms else "")
    return "\n".join(
        [
            "I am a game master for **Anima: Shadow of Omega**, a card game for 2-5 players.",
            "🎯 **Goal:** lead a party of heroes, complete your secret missions, then reveal "
            "and complete the Final mission before the Crisis! lets Omega break free.",
            "🔁 **A turn:** *Movement* (go to a Region, explore a new one, or rest) → "
            "*Interaction* (trade, fight or hire where you stand) → *Exploration* (roll the "
            "die: Encounters and rewards). Play Advantages from your hand along the way; "
            "others may react in short windows.",
            f"🎴 `/anima start` opens a lobby. The board shows whose decision it is; your "
            f"secret cards are {secret}.",
            "📖 `/anima rules`, `/anima card`, `/anima log` and, after a game, "
            "`/anima history` help along.",
        ]
    )


TIMER_CHOICES: list[tuple[str, int | None]] = [
    ("Server default", None),
    ("No timer (play by post)", 0),
    ("1 minute", 60),
    ("2 minutes", 120),
    ("5 minutes", 300),
    ("10 minutes", 600),
    ("30 minutes", 1800),
    ("1 hour", 3600),
    ("1 day", 86400),
]


def duration(seconds: int | None) -> str:
    if seconds is None:
        return "server default"
    if seconds == 0:
        return "none"
    if seconds % 86400 == 0:
        return plural(seconds // 86400, "day")
    if seconds % 3600 == 0:
        return plural(seconds // 3600, "hour")
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


#: What each AI level plays like, for the host's picker (engine.agents.levels).
AI_LEVEL_TEXTS = {
    "random": "picks any legal move: to learn the buttons",
    "normal": "a reasonable player who answers at once",
    "hard": "plays many games ahead before each move (about a tenth of a second)",
}


def ai_level_text() -> str:
    """The host's private "Add AI player" picker: the levels, the default marked."""
    lines = ["**Add an AI player** — pick its level:"]
    for level in LEVELS:
        default = " (default)" if level == DEFAULT_LEVEL else ""
        lines.append(f"• **{level.capitalize()}**{default}: {AI_LEVEL_TEXTS.get(level, '')}")
    return "\n".join(lines)


def lobby_embed(
    row: GameRow, seats: Sequence[SeatRow], default_timer: int, *, closed: str | None = None
) -> discord.Embed:
    options = Options.model_validate(row.options)
    names = seat_names(seats)
    lines = []
    for i, s in enumerate(seats, start=1):
        host = " (host)" if s.user_id == row.host_id else ""
        level = f" · {s.ai_level or DEFAULT_LEVEL}" if s.ai and not s.human else ""
        lines.append(f"{i}. {names.of(s.seat)}{host}{level}")
    o, v = selected_codes(options)
    sets = ", ".join(SET_NAMES.get(x, x) for x in options.sets)
    # The option codes (O1, V2) are the rules digest's: the lobby names the options only.
    rules = ", ".join(OPTIONAL_RULES[c].name for c in o) or "none"
    edition = ", ".join(EDITION_OPTIONS[c].name for c in v) or "default (revised rules)"
    timer = (
        duration(row.decision_timer)
        if row.decision_timer is not None
        else f"server default ({duration(default_timer)})"
    )
    description = (
        closed
        if closed
        else "Join with the button; the host adds AI players, sets the options and starts. "
        "2-5 seats."
    )
    embed = discord.Embed(
        title=f"Anima: Shadow of Omega · game #{row.id}", description=description, colour=COLOR
    )
    embed.add_field(name=f"Seats ({len(seats)}/5)", value="\n".join(lines) or "—", inline=False)
    embed.add_field(name="Card sets", value=sets)
    embed.add_field(name="Optional rules", value=rules)
    embed.add_field(name="Edition options", value=edition)
    embed.add_field(name="Decision timer", value=timer)
    if options.turn_cap:
        embed.add_field(name="Turn limit", value=plural(options.turn_cap, "turn"))
    if row.in_thread:
        embed.add_field(name="Where", value="🧵 in a thread from this message")
    return embed
