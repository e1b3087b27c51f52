"""What a lobby action answers (:class:`LobbyOutcome`) and the lobby's messages that more
than one part of the bot says."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.storage import GameRow, SeatRow
from bot.table import MAX_SEATS
from words import Message, counted, msg

EXPIRED = msg("lobby.expired")
NEVER_POSTED = msg("lobby.never_posted")
CLOSED = msg("lobby.closed")
FULL = counted("lobby.full", MAX_SEATS)
#: Who is refused a host's change of the lobby is told why.
HOST_ONLY = {
    "start": msg("lobby.host_only.start"),
    "cancel": msg("lobby.host_only.cancel"),
    "options": msg("lobby.host_only.options"),
}
#: A write of the lobby failed (a full disk, a lost database server...): nothing changed.
CANNOT_SAVE = msg("lobby.cannot_save")


@dataclass
class LobbyOutcome:
    """The outcome of a lobby action: a refusal for the clicker (``error``), or the lobby as
    it is now; ``closed``: why it closed (the lobby message says it, losing its buttons)."""

    error: Message | None = None
    row: GameRow | None = None
    seats: list[SeatRow] = field(default_factory=list)
    closed: Message | None = None
    #: The server's decision timer, which the lobby shows when the host keeps the default
    #: (its slow one when its default pace is slow: ``default_pace``, issue 26).
    default_timer: int = 0
    default_pace: str = "live"
