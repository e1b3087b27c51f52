"""The renderer's shared ground: Discord's limits, colours and marks, escaping user text,
plurals, clipping, times, and seat ids as display names (:class:`Names`).

Its few words (a clipped field's last line, "nobody") are the catalog's, said in the current
language (:func:`words.speaking`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import discord

from bot.storage import SeatRow, former

# The marks of the expansions' elements are wording's (the terminal shows them too): here for
# the board, the panels and the cards' embeds.
from wording.cards import ARCANE_MARK as ARCANE_MARK
from wording.cards import BEATEN_MARK as BEATEN_MARK
from wording.cards import GUARD_MARK as GUARD_MARK
from wording.cards import IN_PLAY_MARK as IN_PLAY_MARK
from wording.cards import IN_PLAY_MARKS as IN_PLAY_MARKS
from wording.cards import TRAP_MARK as TRAP_MARK
from words import counted, msg, say

# Discord limits
CONTENT_LIMIT = 2000
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_LIMIT = 1024
FOOTER_LIMIT = 2048
LABEL_LIMIT = 80
#: A member's display name as the bot shows it, at most: twice Discord's own limit for a
#: display name or a nickname (32), so that any name Discord gives stays whole, and five
#: of them, escaped, fit an embed field. A longer one (issue 24, fault 7: 2,000 characters
#: broke a start's embed) is shortened wherever it is shown.
NAME_LIMIT = 64
OPTION_LABEL_LIMIT = 100
PLACEHOLDER_LIMIT = 150

COLOR = discord.Colour(0x6B3FA0)
COLOR_PRIVATE = discord.Colour(0x2F7D6D)
COLOR_OVER = discord.Colour(0xC9A227)


EMBED_TOTAL_LIMIT = 6000


@functools.lru_cache(maxsize=4096)
def escape(text: str) -> str:
    """User text (a display name, anything a user typed) made safe to echo in a message or
    an embed: markdown (bold, masked links, headings, quotes, code...) shows as typed,
    ``@everyone`` / ``@here`` cannot ping, and Discord's ``<...>`` syntax (``<@id>`` user
    and ``<@&id>`` role mentions, ``<#id>`` channels, ``<t:...>`` times, custom emojis)
    shows as typed instead of becoming a mention or a link. The one escape of the
    renderer: every user-provided string goes through it before it is put in markdown.
    (Cached: the same few names are escaped many times per message.)"""
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return text.replace("<", "\\<")


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 Encounter``, ``2 Encounters`` (``many`` when adding an s is wrong). English only:
    the renderer counts with the catalog's plural forms (:func:`words.counted`); this stays
    for the callers that still word in English."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


#: A rule ID in parentheses in an engine text ("(B2)", "(V2, BGE reading)"): the rules are
#: for help texts (``/anima rules``); the table reads the game without them.
_RULE_IDS = re.compile(r"\s*\((?:[A-Z][0-9]{1,2}[a-z]?)(?:,\s*[^()]*)?\)")


def without_rule_ids(text: str) -> str:
    """``text`` without the rule IDs the engine cites."""
    return _RULE_IDS.sub("", text)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def clip_lines(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut at the end of a line, with a last line that
    says how many were left out: a cut inside a line could split its markdown (a bold name
    would show its asterisks). A first line that alone is too long is cut as :func:`clip`."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    for keep in range(len(lines) - 1, 0, -1):
        more = say(counted("text.more_lines", len(lines) - keep))
        shown = "\n".join([*lines[:keep], more])
        if len(shown) <= limit:
            return shown
    return clip(text, limit)


def fit(embed: discord.Embed, limit: int = EMBED_TOTAL_LIMIT - 200) -> discord.Embed:
    """Shorten the longest field values until the embed is within Discord's total limit."""
    while len(embed) > limit and embed.fields:
        i, longest = max(enumerate(embed.fields), key=lambda f: len(f[1].value or ""))
        value = longest.value or ""
        excess = len(embed) - limit
        if len(value) <= 20:
            break
        embed.set_field_at(
            i,
            name=longest.name,
            value=clip_lines(value, max(20, len(value) - excess)),
            inline=longest.inline,
        )
    return embed


# ---------------------------------------------------------------------- names


@dataclass
class Names:
    """Seat id -> display name, for every text that leaves the bot: the bot's
    :class:`wording.SeatNames` (a seat in bold, its display name escaped for Markdown)."""

    seats: dict[str, SeatRow]

    def of(self, seat: str | None) -> str:
        """The seat's display name, escaped for a message or an embed (markdown)."""
        return escape(self.label(seat))

    def label(self, seat: str | None) -> str:
        """The seat's display name as typed, for button labels and select options (Discord
        shows them as plain text)."""
        if seat is None:
            return say(msg("name.nobody"))
        row = self.seats.get(seat)
        if row is None:
            return seat
        if former(row.user_id):
            return self._former(row)
        return ("🤖 " if row.ai and not row.human else "") + clip(row.name, NAME_LIMIT)

    def _former(self, row: SeatRow) -> str:
        """A seat whose member deleted his data (``/anima privacy``): "a former member",
        with its seat's number when the game had several."""
        if sum(former(s.user_id) for s in self.seats.values()) > 1:
            return say(msg("privacy.former_member.seat", seat=row.position + 1))
        return say(msg("privacy.former_member"))

    def bold(self, seat: str | None) -> str:
        return f"**{self.of(seat)}**"

    def who(self, seat: str | None) -> str:
        """A seat as a sentence names it: its display name in bold."""
        return self.bold(seat)

    def is_seat(self, name: str) -> bool:
        """Whether ``name`` is a seat of the game."""
        return name in self.seats

    def strong(self, words: str) -> str:
        """Words set apart as a seat's name is (a monster's name): in bold, escaped."""
        return f"**{escape(words)}**"

    def mention(self, seat: str) -> str:
        row = self.seats.get(seat)
        if row is not None and row.user_id is not None and not row.ai and not former(row.user_id):
            return f"<@{row.user_id}>"
        return self.bold(seat)

    def sub(self, text: str) -> str:
        """An engine text for a message: seat ids (p1..p5) as bold escaped display names,
        without rule IDs."""
        return self._sub(text, self.bold)

    def text(self, text: str) -> str:
        """An engine text inside a line that is already bold (a choice in ``**…**``): seat
        ids as escaped display names, without rule IDs."""
        return self._sub(text, self.of)

    def plain(self, text: str) -> str:
        """An engine text for a button label: seat ids as display names, without rule IDs."""
        return self._sub(text, self.label)

    def _sub(self, text: str, how: Callable[[str], str]) -> str:
        text = without_rule_ids(text)
        if not self.seats:
            return text
        return _seat_pattern(tuple(self.seats)).sub(lambda m: how(m.group(1)), text)


@functools.lru_cache(maxsize=256)
def _seat_pattern(seats: tuple[str, ...]) -> re.Pattern[str]:
    """The seat ids of a game as whole words (compiled once per set of seats)."""
    return re.compile(r"\b(" + "|".join(re.escape(s) for s in seats) + r")\b")


def seat_names(seats: Iterable[SeatRow]) -> Names:
    return Names({s.seat: s for s in seats})


def at_time(ts: float | None) -> str:
    """An absolute time (each reader's own clock), for lines nobody will edit once the
    moment has passed: seconds shown for a deadline less than 10 minutes ahead."""
    if not ts:
        return ""
    ahead = ts - discord.utils.utcnow().timestamp()
    style = "T" if ahead < 600 else ("t" if ahead < 12 * 3600 else "f")
    return f"<t:{int(ts)}:{style}>"
