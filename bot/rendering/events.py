"""Events on Discord: each event's line (worded by :mod:`wording.events`, seats by display
name), the public lines of a batch, the log, and lines joined into messages."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rendering.messages import msg, say
from bot.rendering.text import (
    COLOR,
    CONTENT_LIMIT,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    Names,
    clip,
)
from bot.storage import EventRow
from engine import CardDB
from wording.events import EVENT_MESSAGES as EVENT_MESSAGES
from wording.events import event_words


def event_lines(events: Sequence[EventRow], names: Names, db: CardDB) -> list[str]:
    """Public lines for a batch of logged events (private ones are left out)."""
    return [event_line(e, names, db) for e in events if e.recipients is None]


def event_line(e: EventRow, names: Names, db: CardDB) -> str:
    """One event as a line, from its kind's message and its payload (never the engine's
    text). A private event (told to some players alone) is worded for them."""
    line = event_words(e.kind, e.data, names, db, e.recipients is not None)
    return line if line is not None else legacy_line(e, names)


def channel_reason(code: str) -> str:
    """Why a game's channel refuses the bot (``deleted``, ``forbidden``), in words."""
    return say(msg(f"reason.channel_{code}"))


def legacy_line(e: EventRow, names: Names) -> str:
    """An event stored before its kind's payload held what its message needs (or a kind no
    longer logged, such as the bot's old ``notice``): its stored line, seat ids as names.
    The events logged now all have their message (a test plays whole games with the
    engine's texts replaced by a marker and finds the marker in no message)."""
    return names.sub(e.text)


def log_embed(
    game_id: int, events: Sequence[EventRow], names: Names, db: CardDB, mine: str | None
) -> discord.Embed:
    """``/anima log``: the latest public events and those for seat ``mine`` (🔒), newest last."""
    lines = []
    for e in events:
        if e.recipients is None:
            lines.append(event_line(e, names, db))
        elif mine is not None and mine in e.recipients:
            lines.append(f"🔒 {event_line(e, names, db)}")
    text = "\n".join(lines[-30:]) or say(msg("log.empty"))
    while len(text) > EMBED_DESCRIPTION_LIMIT:
        text = text.split("\n", 1)[1] if "\n" in text else clip(text, 4000)
    title = clip(say(msg("log.title", game=game_id)), EMBED_TITLE_LIMIT)
    return discord.Embed(title=title, description=text, colour=COLOR)


def chunk_lines(lines: Sequence[str], limit: int = CONTENT_LIMIT - 50) -> list[str]:
    """Join lines into messages of at most ``limit`` characters."""
    return [text for text, _ in chunk_spans(lines, limit)]


def chunk_spans(lines: Sequence[str], limit: int = CONTENT_LIMIT - 50) -> list[tuple[str, range]]:
    """Join lines into messages of at most ``limit`` characters, each with the indexes of
    the lines it holds (what goes with a line, such as a battle's picture, goes with its
    message)."""
    chunks: list[tuple[str, range]] = []
    current = ""
    first = 0
    for i, line in enumerate(lines):
        line = clip(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            chunks.append((current, range(first, i)))
            current, first = line, i
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append((current, range(first, len(lines))))
    return chunks
