"""Publishing to Discord: what happened since the last post (one batched message per turn
around the board), the board message itself, the half-time pings, DMs (and the one notice
in the channel when a player's DMs are closed), the secret starts, and the notices of a game
stopped (broken or ended).

What is posted is tracked by the game's *publish pointer* (the last event and version
posted, and the board's message). The events of a cached game come from the commit that
wrote them (:meth:`Publisher.queue`), not read back; a game loaded from storage whose pointer
is behind first looks in its channel for what a killed bot had already posted
(:meth:`Publisher.reconcile`: a board of this game newer than the recorded one means the last
post went out; it is adopted, older boards lose their buttons), then posts the rest from the
log. So a crash anywhere between a commit and the saving of the pointer posts every line once
(at least once and at most once, as far as the channel can tell).

Every message is said in the language of who reads it (:mod:`bot.languages`), set here around
its building: what the channel reads (the lines, the board and its buttons, pings, notices, the
summary) in the game's public language; a DM, a player's private lines and his secret start in
his own.

Nothing here changes a game's state: the services call it after they have committed, under
the game's lock. When the channel refuses the bot (403, deleted channel), the game's service
is told (``on_channel_lost``: it pauses the game and tells the host once).
"""

from bot.publishing.base import (
    LOST_CHANNEL_CODES,
    RECONCILE_HISTORY,
    ClickedBoard,
    lost_channel,
    pointer,
)
from bot.publishing.publisher import Publisher

__all__ = [
    "LOST_CHANNEL_CODES",
    "RECONCILE_HISTORY",
    "ClickedBoard",
    "Publisher",
    "lost_channel",
    "pointer",
]
