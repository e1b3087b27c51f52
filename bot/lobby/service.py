"""The lobby service (:class:`Lobby`): open, join, leave, add AI players, options, cancel; start is
:mod:`bot.lobby.deal`'s."""

from __future__ import annotations

import contextlib
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Concatenate, ParamSpec

import discord

from bot import rendering
from bot.components.lobby import LobbyPickers
from bot.games.service import Games
from bot.languages import public_language, server_language
from bot.lobby.deal import deal
from bot.lobby.outcome import (
    CANNOT_SAVE,
    CLOSED,
    EXPIRED,
    FULL,
    HOST_ONLY,
    NEVER_POSTED,
    LobbyOutcome,
)
from bot.lobby_options import choose_codes
from bot.publishing import Publisher
from bot.rendering import NAME_LIMIT, SET_NAMES, SLOW_VALUE
from bot.storage import GameRow, SeatRow, Storage, StorageUnavailable
from bot.table import MAX_SEATS, jump_url, now
from engine import DEFAULT_LEVEL, LEVELS, Options
from words import LANGUAGES, Message, msg, say, speaking

log = logging.getLogger("anima.lobby")

#: A lobby whose message is still not posted this many seconds after it was opened never
#: will be (the answer failed, or the bot died in between): it expires.
UNPOSTED_GRACE = 60.0
#: The default of ``ANIMA_LOBBY_IDLE``: a lobby nobody changed for an hour expires.
LOBBY_IDLE = 3600.0
P = ParamSpec("P")


def saving(
    method: Callable[Concatenate[Lobby, P], Coroutine[Any, Any, LobbyOutcome]],
) -> Callable[Concatenate[Lobby, P], Coroutine[Any, Any, LobbyOutcome]]:
    """A lobby change answers in words when storage cannot save it (issue 24, fault 6:
    the real cause is logged by storage): each is one transaction, so nothing changed."""

    @functools.wraps(method)
    async def wrapper(self: Lobby, /, *args: P.args, **kwargs: P.kwargs) -> LobbyOutcome:
        try:
            return await method(self, *args, **kwargs)
        except StorageUnavailable:
            return LobbyOutcome(CANNOT_SAVE)

    return wrapper


class Lobby:
    """Lobbies until their start. One per bot."""

    def __init__(
        self,
        storage: Storage,
        games: Games,
        publisher: Publisher,
        fixed_seed: int | None,
        idle_after: float = LOBBY_IDLE,
    ) -> None:
        self.storage = storage
        self.games = games
        self.publisher = publisher
        #: A seed for every game (tests, benchmarks), else a random one per game.
        self.fixed_seed = fixed_seed
        #: Seconds without a change after which a lobby expires (``ANIMA_LOBBY_IDLE``).
        self.idle_after = idle_after
        #: The hosts' AI level pickers on screen: they close with their lobby.
        self.pickers = LobbyPickers()

    async def blocker(self, channel_id: int) -> Message | None:
        """Why ``/anima start`` cannot open a lobby in the channel (its game, with a link),
        or None (no game, or a lobby that expired: :meth:`open` closes it). Only reads: it
        runs before the command answers, so that a refusal stays private."""
        existing = await self.storage.active_game(channel_id)
        if existing is None or await self._stale(existing) is not None:
            return None
        return self._refusal(existing)

    async def _stale(self, row: GameRow) -> Message | None:
        """Why ``row`` expired (see :meth:`expire_stale`), or None if it has not."""
        if row.status != "lobby":
            return None
        t = now()
        if row.lobby_message_id is None and t - row.created_at >= UNPOSTED_GRACE:
            return NEVER_POSTED
        if t - await self.storage.lobby_active_at(row.id) >= self.idle_after:
            return EXPIRED
        return None

    async def expire_stale(self, row: GameRow) -> bool:
        """Close ``row`` if it is a lobby that expired: its message never posted within
        :data:`UNPOSTED_GRACE`, or nobody changed it for :attr:`idle_after` seconds. Its
        message (if any) says so and loses its buttons. True if it was closed."""
        why = await self._stale(row)
        if why is None:
            return False
        async with self.games.lock(row.id):
            if not await self.storage.stop_game(row.id, "cancelled", now(), reason="expired"):
                # Started or closed meanwhile: the new lobby's insert finds out which.
                return True
        log.info("lobby %s expired (%s)", row.id, why)
        await self.pickers.close(row.id)
        if row.lobby_message_id is not None:
            seats = await self.storage.seats(row.id)
            result = await self._result(row, seats, why)
            with speaking(public_language(row)):
                embed = rendering.lobby_embed(row, seats, result.default_timer, closed=why)
            message = self.publisher.channel(row).get_partial_message(row.lobby_message_id)
            with contextlib.suppress(discord.HTTPException):  # deleted: nothing to tell
                await message.edit(embed=embed, view=None)
        return True

    @staticmethod
    def _refusal(existing: GameRow) -> Message:
        message_id = existing.board_message_id or existing.lobby_message_id
        link = jump_url(existing.guild_id, existing.channel_id, message_id)
        running = existing.status == "running"
        return msg("lobby.busy.running" if running else "lobby.busy.lobby", link=link)

    @saving
    async def open(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        turn_cap: int,
        in_thread: bool = False,
        preferred_locale: object = None,
        seat_seed: str | None = None,
    ) -> LobbyOutcome:
        """``/anima start``: a new lobby with the user in seat 1, or why not (the channel's
        game, with a link to it). ``in_thread``: the game will be played in a thread started
        from the lobby message. The lobby speaks the server's language (its managers'
        choice, else ``preferred_locale``, the server's Discord locale). ``seat_seed``: the
        host's own seed of the dice (the command's interaction id)."""
        existing = await self.storage.active_game(channel_id)
        if existing is not None and await self.expire_stale(existing):
            existing = None
        if existing is None:
            options = Options(turn_cap=turn_cap).model_dump()
            game_id = await self.storage.create_lobby(
                guild_id,
                channel_id,
                user_id,
                rendering.clip(name, NAME_LIMIT),
                options,
                now(),
                dice_seed=self._server_seed(),
                host_dice_seed=seat_seed,
            )
            if game_id is not None:
                settings = await self.storage.guild_settings(guild_id)
                language = server_language(settings.language, preferred_locale)
                try:
                    await self.storage.update_game(game_id, in_thread=in_thread, language=language)
                except StorageUnavailable:
                    # Not left half open, holding the channel (if this write fails too,
                    # the lobby expires: its message was never posted).
                    with contextlib.suppress(StorageUnavailable):
                        await self.storage.stop_game(game_id, "cancelled", now())
                    raise
                row = await self.storage.game(game_id)
                if row is not None:
                    return await self._result(row, await self.storage.seats(game_id))
            existing = await self.storage.active_game(channel_id)  # somebody else was faster
        if existing is None:
            return LobbyOutcome(msg("lobby.busy"))
        return LobbyOutcome(self._refusal(existing))

    def _server_seed(self) -> str | None:
        """A new game's server seed (docs/fair_dice.md), drawn when its lobby opens so that
        the lobby can show its commitment before anybody joins; None with a fixed seed (the
        tests' and benchmarks' games keep the old generator: their deals are known)."""
        return None if self.fixed_seed is not None else secrets.token_hex(32)

    async def posted(self, game_id: int, message_id: int) -> None:
        """Remember the lobby's message (its board is posted below it when it starts)."""
        await self.storage.update_game(game_id, lobby_message_id=message_id)

    async def unposted(self, game_id: int) -> None:
        """The lobby's message could not be posted: close the lobby at once (nobody could
        join it), so that the channel is free for the next ``/anima start``."""
        async with self.games.lock(game_id):
            await self.storage.stop_game(game_id, "cancelled", now(), reason="never_posted")

    async def _touch(self, game_id: int) -> None:
        """A change of the lobby: it is not idle (see :meth:`expire_stale`)."""
        await self.storage.touch_lobby(game_id, now())

    async def _result(
        self, row: GameRow, seats: list[SeatRow], closed: Message | None = None
    ) -> LobbyOutcome:
        settings = await self.storage.guild_settings(row.guild_id)
        slow = settings.pace == "slow"
        return LobbyOutcome(
            row=row,
            seats=seats,
            closed=closed,
            default_timer=settings.slow_timer if slow else settings.decision_timer,
            default_pace=settings.pace,
        )

    async def _lobby(self, game_id: int) -> tuple[GameRow | None, list[SeatRow], Message | None]:
        row = await self.storage.game(game_id)
        if row is None or row.status != "lobby":
            return None, [], CLOSED
        return row, await self.storage.seats(game_id), None

    async def _host_lobby(
        self, game_id: int, user_id: int, admin: bool, refusal: Message
    ) -> tuple[GameRow, list[SeatRow]] | LobbyOutcome:
        """The open lobby, for its host (or a member with Manage Server); else the refusal."""
        row, seats, error = await self._lobby(game_id)
        if row is None:
            return LobbyOutcome(error)
        if user_id != row.host_id and not admin:
            return LobbyOutcome(refusal)
        return row, seats

    async def _as_host(
        self,
        game_id: int,
        user_id: int,
        admin: bool,
        refusal: Message,
        change: Callable[[GameRow, list[SeatRow]], Awaitable[LobbyOutcome]],
    ) -> LobbyOutcome:
        """Under the game's lock: the host's ``change`` to the open lobby (its row and seats),
        or the refusal (see :meth:`_host_lobby`)."""
        async with self.games.lock(game_id):
            lobby = await self._host_lobby(game_id, user_id, admin, refusal)
            if isinstance(lobby, LobbyOutcome):
                return lobby
            return await change(*lobby)

    @staticmethod
    def _renumber(seats: list[SeatRow]) -> list[SeatRow]:
        # Seat ids follow the order of joining: p1..p5 (the engine's player names).
        for i, s in enumerate(seats):
            s.seat, s.position = f"p{i + 1}", i
        return seats

    @saving
    async def join(
        self, game_id: int, user_id: int, name: str, seat_seed: str | None = None
    ) -> LobbyOutcome:
        """The user takes the next seat; ``seat_seed``: his own seed of the dice (his Join's
        interaction id, docs/fair_dice.md)."""
        async with self.games.lock(game_id):
            row, seats, error = await self._lobby(game_id)
            if row is None:
                return LobbyOutcome(error)
            if any(s.user_id == user_id for s in seats):
                return LobbyOutcome(msg("lobby.already_joined"))
            if len(seats) >= MAX_SEATS:
                return LobbyOutcome(FULL)
            # Stored as shown (the stats and the pictures read it too).
            name = rendering.clip(name, NAME_LIMIT)
            seats.append(SeatRow(game_id, "", 0, user_id, name, dice_seed=seat_seed))
            await self.storage.set_seats(game_id, self._renumber(seats))
            await self._touch(game_id)
            return await self._result(row, seats)

    @saving
    async def leave(self, game_id: int, user_id: int) -> LobbyOutcome:
        """The user leaves; the next human hosts, and a lobby without humans closes."""
        async with self.games.lock(game_id):
            row, seats, error = await self._lobby(game_id)
            if row is None:
                return LobbyOutcome(error)
            if not any(s.user_id == user_id for s in seats):
                return LobbyOutcome(msg("lobby.not_in"))
            seats = [s for s in seats if s.user_id != user_id]
            humans = [s for s in seats if s.user_id is not None]
            if not humans:
                await self.storage.stop_game(game_id, "cancelled", now())
                return await self._result(row, [], msg("lobby.everybody_left"))
            if row.host_id == user_id:
                row.host_id = humans[0].user_id or 0
                await self.storage.update_game(game_id, host_id=row.host_id)
            await self.storage.set_seats(game_id, self._renumber(seats))
            await self._touch(game_id)
            return await self._result(row, seats)

    async def host_refusal(
        self, game_id: int, user_id: int, admin: bool, what: str
    ) -> Message | None:
        """Why the user may not ``what`` (``start``, ``cancel``, or change an option) in the
        lobby: he is not its host (or it is closed); None if he may. Only reads: asked
        before the click is answered, so that a refusal is the click's own private answer
        (issue 24, fault 10); the change checks again under the lock."""
        refusal = HOST_ONLY.get(what, HOST_ONLY["options"])
        lobby = await self._host_lobby(game_id, user_id, admin, refusal)
        return lobby.error if isinstance(lobby, LobbyOutcome) else None

    async def ai_refusal(self, game_id: int, user_id: int, admin: bool) -> Message | None:
        """Why the user may not add an AI player now (None: he may): asked before the level
        picker is shown, and again by :meth:`add_ai`."""
        lobby = await self._host_lobby(game_id, user_id, admin, msg("lobby.host_only.ai"))
        if isinstance(lobby, LobbyOutcome):
            return lobby.error
        if len(lobby[1]) >= MAX_SEATS:
            return FULL
        return None

    @saving
    async def add_ai(
        self, game_id: int, user_id: int, admin: bool, level: str = DEFAULT_LEVEL
    ) -> LobbyOutcome:
        """The host seats an AI player of ``level`` (engine.agents.levels), named in the
        lobby's language ("AI 2")."""
        if level not in LEVELS:
            return LobbyOutcome(msg("lobby.unknown_level", level=level))
        async with self.games.lock(game_id):
            refusal = await self.ai_refusal(game_id, user_id, admin)
            if refusal is not None:
                return LobbyOutcome(refusal)
            row, seats, error = await self._lobby(game_id)
            if row is None:
                return LobbyOutcome(error)
            taken = {s.name for s in seats if s.user_id is None}
            names = (
                say(msg("lobby.ai_seat", number=n), public_language(row)) for n in range(1, 10)
            )
            name = next(n for n in names if n not in taken)
            seats.append(SeatRow(game_id, "", 0, None, name, ai=True, ai_level=level))
            await self.storage.set_seats(game_id, self._renumber(seats))
            await self._touch(game_id)
            return await self._result(row, seats)

    @saving
    async def set_option(
        self, game_id: int, user_id: int, admin: bool, what: str, values: Sequence[str]
    ) -> LobbyOutcome:
        """The host changes the sets, optional rules, edition options, the timer, the
        language or whether the game is rated."""
        return await self._as_host(
            game_id,
            user_id,
            admin,
            HOST_ONLY["options"],
            lambda row, seats: self._set_option(row, seats, what, values),
        )

    async def _set_option(
        self, row: GameRow, seats: list[SeatRow], what: str, values: Sequence[str]
    ) -> LobbyOutcome:
        options = dict(row.options)
        # One write: a failed one changes nothing (the row is changed once it is saved).
        changes: dict[str, Any] = {}
        if what == "sets":
            # In the menu's order whatever the clicks' order: the same table, the same
            # options (and the same deal for a seed).
            chosen = [s for s in SET_NAMES if s in values]
            options["sets"] = chosen or ["shadow_of_omega"]
        elif what in ("rules", "edition"):
            options = choose_codes(options, what, list(values))
        elif what == "timer":
            # The pace (issue 26) is chosen with the timer: ``slow:<seconds>`` a slow game's.
            value = values[0] if values else "default"
            slow = value.startswith(SLOW_VALUE)
            changes["pace"] = None if value == "default" else "slow" if slow else "live"
            seconds = value.removeprefix(SLOW_VALUE)
            changes["decision_timer"] = None if value == "default" else int(seconds)
        elif what == "language" and values and values[0] in LANGUAGES:
            changes["language"] = values[0]
        elif what == "rated" and values:
            changes["rated"] = int(values[0] == "on")
        changes["options"] = Options.model_validate(options).model_dump()
        await self.storage.update_game(row.id, **changes)
        row.options = changes["options"]
        row.decision_timer = changes.get("decision_timer", row.decision_timer)
        row.pace = changes.get("pace", row.pace)
        row.language = changes.get("language", row.language)
        row.rated = bool(changes.get("rated", row.rated))
        await self._touch(row.id)
        return await self._result(row, seats)

    @saving
    async def cancel(self, game_id: int, user_id: int, admin: bool) -> LobbyOutcome:
        """The host (or Manage Server) closes the lobby."""
        return await self._as_host(game_id, user_id, admin, HOST_ONLY["cancel"], self._cancel)

    async def _cancel(self, row: GameRow, seats: list[SeatRow]) -> LobbyOutcome:
        await self.storage.stop_game(row.id, "cancelled", now())
        await self.pickers.close(row.id)
        return await self._result(row, seats, msg("lobby.cancelled"))

    @saving
    async def start(self, game_id: int, user_id: int, admin: bool) -> LobbyOutcome:
        """Deal the game, let AI seats choose their start, post the board, DM the secrets."""
        return await self._as_host(game_id, user_id, admin, HOST_ONLY["start"], self._start)

    async def _start(self, row: GameRow, seats: list[SeatRow]) -> LobbyOutcome:
        return await deal(self, row, seats)
