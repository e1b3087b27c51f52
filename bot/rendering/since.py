"""'Since you last looked' (issue 26): the events a member missed in a game, in a few lines
above his private panel: how many, the battles and who won them, the newest lines and how
many more. The events are those he may read (public, or addressed to him), chosen by the
caller (:meth:`bot.storage.Storage.missed_events`); nothing here reads a game's state."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.rendering.events import event_line
from bot.rendering.messages import Message, counted, listing, say
from bot.rendering.text import Names, clip
from bot.storage import EventRow
from engine import CardDB

#: Event kinds that say nothing a returning member needs (a window that closed by itself).
QUIET_KINDS = frozenset({"window_closed"})
#: The lines at most (the heading and the "and N more" included).
MAX_LINES = 5
#: One event line at most (a card's text quoted in full would fill the message).
LINE_ROOM = 240


def since_text(events: Sequence[EventRow], names: Names, db: CardDB, looked_at: float) -> str:
    """The lines (at most :data:`MAX_LINES`) that tell a member what he missed since
    ``looked_at``: ``events`` oldest first, each one he may read; empty if none says
    anything."""
    lines: list[str] = []
    for e in events:
        if e.damaged or e.kind in QUIET_KINDS:
            continue
        line = event_line(e, names, db).strip()
        if line:
            lines.append(("🔒 " if e.recipients is not None else "") + clip(line, LINE_ROOM))
    if not lines:
        return ""
    text = [say(counted("since.heading", len(lines), when=f"<t:{int(looked_at)}:R>"))]
    battles = _battles(events, names)
    if battles:
        text.append(battles)
    room = MAX_LINES - len(text)
    if len(lines) > room:
        room -= 1  # the "and N more" line
        text.append(say(counted("since.more", len(lines) - room)))
    text += [f"> {line}" for line in lines[max(0, len(lines) - room) :]]
    return "\n".join(text)


def _battles(events: Sequence[EventRow], names: Names) -> str:
    """'⚔️ 3 battles: Alice won 2' (the seats that won, most wins first); empty with no
    battle."""
    results = [e for e in events if e.kind == "battle_result" and not e.damaged]
    if not results:
        return ""
    wins = Counter(str(e.data.get("winner")) for e in results)
    won = [
        say(counted("since.won", n, player=names.bold(seat)))
        for seat, n in wins.most_common()
        if names.is_seat(seat)
    ]
    battles = say(counted("since.battles", len(results)))
    winners = listing(won)
    said = say(winners) if isinstance(winners, Message) else winners
    return f"{battles}: {said}" if won else battles
