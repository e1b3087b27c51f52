"""What every part of publishing shares: the publish pointer, the channel and the reader's
language of a game, and the events committed but not yet posted."""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, Protocol, cast

import discord

from bot.board_pictures import BoardPictures
from bot.languages import public_language, reader_language
from bot.panels import Panels
from bot.pictures import PictureCache
from bot.settings import LEASE
from bot.storage import EventRow, GameRow, Pointer, SeatRow, Storage
from bot.table import Table

log = logging.getLogger("anima.publishing")

#: Discord's codes for a channel the bot can no longer post in: missing access, missing
#: permissions, unknown channel, unknown guild (the bot was removed).
LOST_CHANNEL_CODES = frozenset({50001, 50013, 10003, 10004})
#: Messages read after the recorded board when reconciling a game after a restart.
RECONCILE_HISTORY = 100


def pointer(row: GameRow) -> Pointer:
    """The publish pointer of ``row`` as storage writes it."""
    return Pointer(
        row.published_event_id, row.published_version, row.board_message_id, row.board_turn
    )


#: The default of ``ANIMA_LEASE`` (``bot.settings.LEASE_SECONDS``).
LEASE_SECONDS = LEASE
#: Discord's longest nonce.
NONCE_LENGTH = 25


def nonce(*key: int | str) -> str:
    """A message's nonce from what it is (its game, its post, its rank): the same key, the
    same nonce, in any process; 24 hexadecimal digits (Discord takes 25 characters)."""
    text = ":".join(str(k) for k in key)
    return hashlib.blake2s(text.encode(), digest_size=NONCE_LENGTH // 2).hexdigest()


class NoncedChannel:
    """A game's channel while one post goes out: each message sent carries the post's next
    nonce (its rank in the post appended to the post's key); everything else is the
    channel's."""

    def __init__(self, key: tuple[int | str, ...]) -> None:
        self._channel: discord.PartialMessageable | None = None
        self._key = key
        self._sent = 0
        self._plain = 0

    def on(self, channel: discord.PartialMessageable) -> NoncedChannel:
        """This post's sends, to ``channel`` (the ranks go on across the post's calls)."""
        self._channel = channel
        return self

    async def send(self, *args: Any, **kwargs: Any) -> discord.Message:
        # The framed messages (the board: components V2; the end summary: an embed) and the
        # plain ones (the lines before the board, when they are too long for one message)
        # are counted apart: the board's nonce is the same whatever the lines before it.
        framed = "embed" in kwargs or "embeds" in kwargs or "view" in kwargs
        self._sent += 1
        rank = f"e{self._sent - self._plain}" if framed else f"p{self._plain + 1}"
        if not framed:
            self._plain += 1
        kwargs.setdefault("nonce", nonce(*self._key, rank))
        assert self._channel is not None
        return await self._channel.send(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._channel, name)


def lost_channel(exc: discord.HTTPException) -> bool:
    """The channel refuses the bot for good (not a passing failure)."""
    return exc.code in LOST_CHANNEL_CODES or isinstance(exc, discord.Forbidden)


class ClickedBoard(Protocol):
    """A click on a board message whose interaction is not answered yet: publishing may
    answer it by editing that very message (Discord's "update message" answer: one call
    where acknowledging and then editing the board take two)."""

    #: The message clicked.
    message_id: int

    async def edit(self, **fields: Any) -> bool:
        """Edit the clicked message as the interaction's answer (``embed``/``embeds``,
        ``view``). False if the interaction is answered already or Discord refused: the
        caller then edits the message itself."""
        ...


class PublisherBase:
    """The publisher's state and what its parts share (:class:`bot.publishing.Publisher`
    composes them)."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        panels: Panels,
        pictures: PictureCache | None = None,
    ) -> None:
        self.client = client
        self.storage = storage
        self.panels = panels
        #: The board's picture on the board message (:mod:`bot.board_pictures`).
        self.pictures = BoardPictures(pictures)
        #: Events committed but not yet posted, per game whose events are tracked in memory
        #: (:meth:`track`); a game not tracked reads them back from the log.
        self._pending: dict[int, list[EventRow]] = {}
        #: Saves a game's publish pointer after a post (the game service defers it into the
        #: game's next commit; by default it is written at once).
        self.save_pointer: Callable[[Table], Awaitable[None]] = self._save_pointer
        #: Called when a game's channel refuses the bot (the game service pauses the game).
        self.on_channel_lost: Callable[[Table, str], Awaitable[None]] | None = None
        #: Seconds a posting lease is held at most (``ANIMA_LEASE``; the app sets it).
        self.lease_seconds = LEASE_SECONDS
        #: The nonce base of each game's post going out now (:meth:`nonces`).
        self._nonces: dict[int, NoncedChannel] = {}

    async def _save_pointer(self, table: Table) -> None:
        await self.storage.save_pointer(table.id, pointer(table.row))

    # ------------------------------------------------------------------ events in memory

    def track(self, game_id: int) -> None:
        """From now on the game's committed events are handed over with :meth:`queue` (its
        pointer is up to date). Not on a shared database: another process may post the game
        too, so each post reads what to post from the log, after the stored pointer."""
        if not self.storage.shared:
            self._pending.setdefault(game_id, [])

    def forget(self, game_id: int) -> None:
        """Stop tracking a game: its next post reads the events since its pointer from the log."""
        self._pending.pop(game_id, None)

    def tracked(self, game_id: int) -> bool:
        return game_id in self._pending

    def queue(self, game_id: int, events: Sequence[EventRow]) -> None:
        """Events just committed, to post with the game's next publish."""
        pending = self._pending.get(game_id)
        if pending is not None:
            pending.extend(events)

    async def behind(self, table: Table) -> bool:
        """Whether something of the game is committed but not posted."""
        row = table.row
        if row.published_version != table.game.version:
            return True
        if row.id in self._pending:
            return bool(self._pending[row.id])
        return await self.storage.behind(row)

    def channel(self, row: GameRow) -> discord.PartialMessageable:
        """The channel a game is played in; while one of its posts goes out under its posting
        lease (:meth:`nonces`), every message sent there carries that post's nonce."""
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        nonced = self._nonces.get(row.id)
        if nonced is None:
            return channel
        return cast(discord.PartialMessageable, nonced.on(channel))

    @contextlib.contextmanager
    def nonces(self, game_id: int, *key: int | str) -> Iterator[None]:
        """Inside the block, the messages sent to the game's channel carry nonces made of the
        game, ``key`` (what the post is: its last event and version) and their rank in the
        post (:func:`nonce`): the same post sent again sends the same nonces, and Discord
        keeps the one message (``enforce_nonce``, which discord.py sets with a nonce)."""
        self._nonces[game_id] = NoncedChannel((game_id, *key))
        try:
            yield
        finally:
            self._nonces.pop(game_id, None)

    async def reader(self, row: GameRow, seat: SeatRow | None) -> str:
        """The language of a player's private messages (a seat without a member: the
        game's)."""
        if seat is None or seat.user_id is None:
            return public_language(row)
        return await reader_language(self.storage, seat.user_id)

    # ------------------------------------------------------------------ after an action
