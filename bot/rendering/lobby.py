"""The lobby and the introduction: seats, options, timers, AI levels, languages, ``/anima
about``; in the current language (:func:`words.speaking`: the lobby's own for its message,
the reader's for a private answer)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.lobby_options import EDITION_OPTIONS, OPTIONAL_RULES, selected_codes
from bot.rendering.cards import SET_NAMES, sets_text
from bot.rendering.text import COLOR, seat_names
from bot.storage import GameRow, SeatRow
from engine import (
    DEFAULT_LEVEL,
    LEVELS,
    Options,
    dice_commitment,
)
from words import LANGUAGES, SOURCE, Message, counted, known, listing, msg, say

#: The most seats of a lobby (``bot.table.MAX_SEATS``, which this layer may not import).
SEATS = 5


def about_text(dms: bool) -> str:
    """``/anima about``: what the game is, its goal and a turn, in a few lines."""
    secret = msg("about.secret.dms" if dms else "about.secret")
    lines = [
        msg("about.intro"),
        msg("about.goal"),
        msg("about.turn"),
        msg("about.start", secret=secret),
        msg("about.help"),
    ]
    return "\n".join(say(line) for line in lines)


def language_name(language: str) -> str:
    """A language by its own name (Español, Русский), whatever the current language."""
    return say(msg(f"language.{language}"), language)


#: The lobby's choices of a decision timer (None: the server's default).
TIMER_CHOICES: list[tuple[Message, int | None]] = [
    (msg("timer.choice.default"), None),
    (msg("timer.choice.none"), 0),
    (counted("timer.choice.minutes", 1), 60),
    (counted("timer.choice.minutes", 2), 120),
    (counted("timer.choice.minutes", 5), 300),
    (counted("timer.choice.minutes", 10), 600),
    (counted("timer.choice.minutes", 30), 1800),
    (counted("timer.choice.hours", 1), 3600),
    (counted("timer.choice.days", 1), 86400),
]


#: A slow game's choices of a decision timer (issue 26), offered in the timer's select with
#: values ``slow:<seconds>``.
SLOW_CHOICES = (12 * 3600, 24 * 3600, 48 * 3600)
SLOW_VALUE = "slow:"


def pace_text(pace: str | None, seconds: int) -> str:
    """A lobby's timer: ``12 h`` at the slow pace (``Slow: 12 h per decision``), else the
    timer's length."""
    if pace == "slow":
        return say(msg("lobby.timer.slow", timer=duration(seconds)))
    return duration(seconds)


def duration(seconds: int | None) -> str:
    """A timer's length, short (``2 min``, ``1 day``; ``none`` for no timer)."""
    if seconds is None:
        return say(msg("timer.server_default"))
    if seconds == 0:
        return say(msg("timer.none"))
    if seconds % 86400 == 0:
        return say(counted("timer.days", seconds // 86400))
    if seconds % 3600 == 0:
        return say(counted("timer.hours", seconds // 3600))
    if seconds % 60 == 0:
        return say(counted("timer.minutes", seconds // 60))
    return say(counted("timer.seconds", seconds))


def ai_level_name(level: str) -> str:
    """An AI level's name, in lower case (``engine.agents.levels``; an unknown one by its
    code)."""
    id = f"ai.{level}.name"
    return say(msg(id)) if known(id) else level


def ai_level_text() -> str:
    """The host's private "Add AI player" picker: the levels, the default marked."""
    lines = [say(msg("ai.picker"))]
    for level in LEVELS:
        id = "ai.picker.level.default" if level == DEFAULT_LEVEL else "ai.picker.level"
        about = msg(f"ai.{level}.description") if known(f"ai.{level}.description") else ""
        lines.append(say(msg(id, name=ai_level_name(level).capitalize(), description=about)))
    return "\n".join(lines)


def rated_text(row: GameRow, seats: Sequence[SeatRow]) -> Message:
    """Whether the game will be rated (issue 25): the host's option, and two members at the
    table at least (``bot.storage.ratings.MIN_HUMANS``)."""
    if not row.rated:
        return msg("lobby.rated.off")
    if sum(1 for s in seats if s.human) < 2:
        return msg("lobby.rated.few")
    return msg("lobby.rated.on")


def _said(message: Message | str) -> str:
    return say(message) if isinstance(message, Message) else message


def lobby_embed(
    row: GameRow,
    seats: Sequence[SeatRow],
    default_timer: int,
    *,
    closed: Message | str | None = None,
    default_pace: str = "live",
) -> discord.Embed:
    """The lobby message: its seats and options, or why it closed (``closed``)."""
    options = Options.model_validate(row.options)
    names = seat_names(seats)
    lines = []
    for i, s in enumerate(seats, start=1):
        seat = msg("lobby.seat", number=i, name=names.of(s.seat))
        if s.user_id == row.host_id:
            seat = msg("lobby.seat.host", number=i, name=names.of(s.seat))
        elif s.ai and not s.human:
            level = ai_level_name(s.ai_level or DEFAULT_LEVEL)
            seat = msg("lobby.seat.ai", number=i, name=names.of(s.seat), level=level)
        lines.append(say(seat))
    o, v = selected_codes(options)
    sets = ", ".join(SET_NAMES.get(x, x) for x in options.sets)
    # The option codes (O1, V2) are the rules digest's: the lobby names the options only.
    rules = listing([OPTIONAL_RULES[c].name for c in o]) if o else msg("lobby.rules.none")
    edition = listing([EDITION_OPTIONS[c].name for c in v]) if v else msg("lobby.edition.none")
    timer = (
        pace_text(row.pace, row.decision_timer)
        if row.decision_timer is not None
        else say(msg("lobby.timer.default", timer=pace_text(default_pace, default_timer)))
    )
    description = _said(closed) if closed else say(msg("lobby.description", seats=SEATS))
    embed = discord.Embed(
        # The sets chosen, not always the base game's name (issue 23).
        title=say(msg("lobby.title", game=row.id, sets=sets_text(options.sets))),
        description=description,
        colour=COLOR,
    )
    embed.add_field(
        name=say(msg("lobby.seats", n=len(seats), seats=SEATS)),
        value="\n".join(lines) or "—",
        inline=False,
    )
    embed.add_field(name=say(msg("lobby.sets")), value=sets)
    embed.add_field(name=say(msg("lobby.rules")), value=_said(rules))
    embed.add_field(name=say(msg("lobby.edition")), value=_said(edition))
    embed.add_field(name=say(msg("lobby.timer")), value=timer)
    language = row.language if row.language in LANGUAGES else SOURCE
    embed.add_field(name=say(msg("lobby.language")), value=language_name(language))
    if options.turn_cap:
        embed.add_field(
            name=say(msg("lobby.turn_limit")), value=say(counted("lobby.turns", options.turn_cap))
        )
    if row.in_thread:
        embed.add_field(name=say(msg("lobby.where")), value=say(msg("lobby.where.thread")))
    embed.add_field(name=say(msg("lobby.rated")), value=say(rated_text(row, seats)))
    if row.dice_seed:
        # Only the seed's SHA-256: the seed itself is secret until the game is over.
        commitment = dice_commitment(row.dice_seed)
        embed.add_field(name=say(msg("lobby.dice")), value=f"`{commitment[:16]}…`")
        embed.set_footer(text=say(msg("lobby.dice.footer", commitment=commitment)))
    return embed
