"""The lobby service: open a lobby, join, leave, add AI players, set the options (codes in
:mod:`bot.lobby_options`), cancel, and start: deal the game, send the secret starts, let AI
seats choose theirs, post the first board.

Lobby changes run under the same per-game lock as the game they become
(:class:`bot.games.service.Games`).

A lobby never blocks its channel for ever: ``/anima start`` answers (defers) before it writes
the lobby, and a lobby whose message was never posted (a failed answer, a crash) or that
nobody changed for ``ANIMA_LOBBY_IDLE`` seconds expires when somebody opens a new one there.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot import rendering
from bot.games.service import Games
from bot.lobby_options import choose_codes
from bot.publishing import Publisher
from bot.refusals import refusal_text
from bot.rendering import SET_NAMES
from bot.storage import GameRow, NewEvent, SeatRow, Storage
from bot.table import MAX_SEATS, MIN_SEATS, LobbyResult, Table, jump_url, now, seat_update
from engine import DEFAULT_LEVEL, LEVELS, Game, IllegalAction, Options

log = logging.getLogger("anima.lobby")

#: A lobby whose message is still not posted this many seconds after it was opened never
#: will be (the answer failed, or the bot died in between): it expires.
UNPOSTED_GRACE = 60.0
#: The default of ``ANIMA_LOBBY_IDLE``: a lobby nobody changed for an hour expires.
LOBBY_IDLE = 3600.0
EXPIRED = "This lobby expired (nobody changed it for a while): a new one was opened."
NEVER_POSTED = "This lobby expired: its message was never posted."


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

    async def blocker(self, channel_id: int) -> str | None:
        """Why ``/anima start`` cannot open a lobby in the channel (its game, with a link),
        or None (no game, or a lobby that expired: :meth:`open` closes it). Only reads: it
        runs before the command answers, so that a refusal stays private."""
        existing = await self.storage.active_game(channel_id)
        if existing is None or await self._stale(existing) is not None:
            return None
        return self._refusal(existing)

    async def _stale(self, row: GameRow) -> str | None:
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
        if row.lobby_message_id is not None:
            seats = await self.storage.seats(row.id)
            result = await self._result(row, seats, why)
            embed = rendering.lobby_embed(row, seats, result.default_timer, closed=why)
            message = self.publisher.channel(row).get_partial_message(row.lobby_message_id)
            with contextlib.suppress(discord.HTTPException):  # deleted: nothing to tell
                await message.edit(embed=embed, view=None)
        return True

    @staticmethod
    def _refusal(existing: GameRow) -> str:
        message_id = existing.board_message_id or existing.lobby_message_id
        what = "a game is running" if existing.status == "running" else "a lobby is open"
        where = f" ({what}: {jump_url(existing.guild_id, existing.channel_id, message_id)})"
        return f"There is already a game in this channel{where}. One at a time!"

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        turn_cap: int,
        in_thread: bool = False,
    ) -> LobbyResult:
        """``/anima start``: a new lobby with the user in seat 1, or why not (the channel's
        game, with a link to it). ``in_thread``: the game will be played in a thread started
        from the lobby message."""
        existing = await self.storage.active_game(channel_id)
        if existing is not None and await self.expire_stale(existing):
            existing = None
        if existing is None:
            options = Options(turn_cap=turn_cap).model_dump()
            game_id = await self.storage.create_lobby(
                guild_id, channel_id, user_id, name, options, now()
            )
            if game_id is not None and in_thread:
                await self.storage.update_game(game_id, in_thread=True)
            if game_id is not None:
                row = await self.storage.game(game_id)
                if row is not None:
                    return await self._result(row, await self.storage.seats(game_id))
            existing = await self.storage.active_game(channel_id)  # somebody else was faster
        if existing is None:
            return LobbyResult("There is already a game in this channel. One at a time!")
        return LobbyResult(self._refusal(existing))

    async def posted(self, game_id: int, message_id: int) -> None:
        """Remember the lobby's message (its board is posted below it when it starts)."""
        await self.storage.update_game(game_id, lobby_message_id=message_id)

    async def unposted(self, game_id: int) -> None:
        """The lobby's message could not be posted: close the lobby at once (nobody could
        join it), so that the channel is free for the next ``/anima start``."""
        async with self.games.lock(game_id):
            await self.storage.stop_game(game_id, "cancelled", now(), reason="never posted")

    async def _touch(self, game_id: int) -> None:
        """A change of the lobby: it is not idle (see :meth:`expire_stale`)."""
        await self.storage.touch_lobby(game_id, now())

    async def _result(
        self, row: GameRow, seats: list[SeatRow], closed: str | None = None
    ) -> LobbyResult:
        settings = await self.storage.guild_settings(row.guild_id)
        return LobbyResult(
            row=row, seats=seats, closed=closed, default_timer=settings.decision_timer
        )

    async def _lobby(self, game_id: int) -> tuple[GameRow | None, list[SeatRow], str | None]:
        row = await self.storage.game(game_id)
        if row is None or row.status != "lobby":
            return None, [], "This lobby is closed."
        return row, await self.storage.seats(game_id), None

    async def _host_lobby(
        self, game_id: int, user_id: int, admin: bool, refusal: str
    ) -> tuple[GameRow, list[SeatRow]] | LobbyResult:
        """The open lobby, for its host (or a member with Manage Server); else the refusal."""
        row, seats, error = await self._lobby(game_id)
        if row is None:
            return LobbyResult(error)
        if user_id != row.host_id and not admin:
            return LobbyResult(refusal)
        return row, seats

    async def _as_host(
        self,
        game_id: int,
        user_id: int,
        admin: bool,
        refusal: str,
        change: Callable[[GameRow, list[SeatRow]], Awaitable[LobbyResult]],
    ) -> LobbyResult:
        """Under the game's lock: the host's ``change`` to the open lobby (its row and seats),
        or the refusal (see :meth:`_host_lobby`)."""
        async with self.games.lock(game_id):
            lobby = await self._host_lobby(game_id, user_id, admin, refusal)
            if isinstance(lobby, LobbyResult):
                return lobby
            return await change(*lobby)

    @staticmethod
    def _renumber(seats: list[SeatRow]) -> list[SeatRow]:
        # Seat ids follow the order of joining: p1..p5 (the engine's player names).
        for i, s in enumerate(seats):
            s.seat, s.position = f"p{i + 1}", i
        return seats

    async def join(self, game_id: int, user_id: int, name: str) -> LobbyResult:
        """The user takes the next seat."""
        async with self.games.lock(game_id):
            row, seats, error = await self._lobby(game_id)
            if row is None:
                return LobbyResult(error)
            if any(s.user_id == user_id for s in seats):
                return LobbyResult("You have already joined.")
            if len(seats) >= MAX_SEATS:
                return LobbyResult("The table is full (5 seats).")
            seats.append(SeatRow(game_id, "", 0, user_id, name))
            await self.storage.set_seats(game_id, self._renumber(seats))
            await self._touch(game_id)
            return await self._result(row, seats)

    async def leave(self, game_id: int, user_id: int) -> LobbyResult:
        """The user leaves; the next human hosts, and a lobby without humans closes."""
        async with self.games.lock(game_id):
            row, seats, error = await self._lobby(game_id)
            if row is None:
                return LobbyResult(error)
            if not any(s.user_id == user_id for s in seats):
                return LobbyResult("You are not in this lobby.")
            seats = [s for s in seats if s.user_id != user_id]
            humans = [s for s in seats if s.user_id is not None]
            if not humans:
                await self.storage.stop_game(game_id, "cancelled", now())
                return await self._result(row, [], "Everybody left: the lobby is closed.")
            if row.host_id == user_id:
                row.host_id = humans[0].user_id or 0
                await self.storage.update_game(game_id, host_id=row.host_id)
            await self.storage.set_seats(game_id, self._renumber(seats))
            await self._touch(game_id)
            return await self._result(row, seats)

    async def ai_refusal(self, game_id: int, user_id: int, admin: bool) -> str | None:
        """Why the user may not add an AI player now (None: he may): asked before the level
        picker is shown, and again by :meth:`add_ai`."""
        lobby = await self._host_lobby(game_id, user_id, admin, "Only the host can add AI players.")
        if isinstance(lobby, LobbyResult):
            return lobby.error
        if len(lobby[1]) >= MAX_SEATS:
            return "The table is full (5 seats)."
        return None

    async def add_ai(
        self, game_id: int, user_id: int, admin: bool, level: str = DEFAULT_LEVEL
    ) -> LobbyResult:
        """The host seats an AI player of ``level`` (engine.agents.levels)."""
        if level not in LEVELS:
            return LobbyResult(f"Unknown AI level {level!r}: choose one of {', '.join(LEVELS)}.")
        async with self.games.lock(game_id):
            refusal = await self.ai_refusal(game_id, user_id, admin)
            if refusal is not None:
                return LobbyResult(refusal)
            row, seats, error = await self._lobby(game_id)
            if row is None:
                return LobbyResult(error)
            taken = {s.name for s in seats if s.user_id is None}
            number = next(n for n in range(1, 10) if f"AI {n}" not in taken)
            seats.append(SeatRow(game_id, "", 0, None, f"AI {number}", ai=True, ai_level=level))
            await self.storage.set_seats(game_id, self._renumber(seats))
            await self._touch(game_id)
            return await self._result(row, seats)

    async def set_option(
        self, game_id: int, user_id: int, admin: bool, what: str, values: Sequence[str]
    ) -> LobbyResult:
        """The host changes the sets, optional rules, edition options or the timer."""
        return await self._as_host(
            game_id,
            user_id,
            admin,
            "Only the host can change the options.",
            lambda row, seats: self._set_option(row, seats, what, values),
        )

    async def _set_option(
        self, row: GameRow, seats: list[SeatRow], what: str, values: Sequence[str]
    ) -> LobbyResult:
        options = dict(row.options)
        if what == "sets":
            # In the menu's order whatever the clicks' order: the same table, the same
            # options (and the same deal for a seed).
            chosen = [s for s in SET_NAMES if s in values]
            options["sets"] = chosen or ["shadow_of_omega"]
        elif what in ("rules", "edition"):
            options = choose_codes(options, what, list(values))
        elif what == "timer":
            value = values[0] if values else "default"
            row.decision_timer = None if value == "default" else int(value)
            await self.storage.update_game(row.id, decision_timer=row.decision_timer)
        row.options = Options.model_validate(options).model_dump()
        await self.storage.update_game(row.id, options=row.options)
        await self._touch(row.id)
        return await self._result(row, seats)

    async def cancel(self, game_id: int, user_id: int, admin: bool) -> LobbyResult:
        """The host (or Manage Server) closes the lobby."""
        return await self._as_host(
            game_id,
            user_id,
            admin,
            "Only the host (or a member with Manage Server) can cancel.",
            self._cancel,
        )

    async def _cancel(self, row: GameRow, seats: list[SeatRow]) -> LobbyResult:
        await self.storage.stop_game(row.id, "cancelled", now())
        return await self._result(row, seats, "The lobby was cancelled.")

    async def start(self, game_id: int, user_id: int, admin: bool) -> LobbyResult:
        """Deal the game, let AI seats choose their start, post the board, DM the secrets."""
        return await self._as_host(
            game_id, user_id, admin, "Only the host can start the game.", self._start
        )

    async def _start(self, row: GameRow, seats: list[SeatRow]) -> LobbyResult:
        if len(seats) < MIN_SEATS:
            return LobbyResult("A game needs at least 2 seats: invite a friend or add an AI.")
        options = Options.model_validate(row.options)
        seed = self.fixed_seed if self.fixed_seed is not None else secrets.randbits(62)
        try:
            game = Game.new([s.seat for s in seats], options, seed, self.games.cards)
        except IllegalAction as exc:
            # The engine's reason and its rule (G1: sets and player counts); the lobby
            # stays as it was, for the host to change the sets or the seats.
            return LobbyResult(f"The game cannot start. {refusal_text(exc)}")
        settings = await self.storage.guild_settings(row.guild_id)
        where = ""
        if row.in_thread:
            thread_id = await self.publisher.open_thread(row)
            if thread_id is None:
                where = " I could not start a thread: the game is played here."
            else:
                # The game belongs to its thread from now on: commands, buttons and
                # posts follow the game's channel id; the channel is free again.
                row.channel_id = thread_id
                await self.storage.update_game(row.id, channel_id=thread_id)
                where = f" It is played in the thread <#{thread_id}>."
        decision_timer = (
            row.decision_timer if row.decision_timer is not None else settings.decision_timer
        )
        row.decision_timer, row.window_timer = decision_timer, settings.window_timer
        table = Table(row, {s.seat: s for s in seats}, game, settings)
        t = now()
        for s in seats:
            prompt = game.prompt_for(s.seat)
            if prompt is not None:
                s.prompt_since = game.version
                table.set_deadline(s, prompt, t)
        opening = [NewEvent("setup", "", data={"players": [s.seat for s in seats]})]
        ok = await self.storage.start_game(
            row.id,
            game.to_json(),
            game.version,
            seed,
            decision_timer,
            settings.window_timer,
            options.model_dump(),
            [seat_update(s) for s in seats],
            opening,
            t,
        )
        if not ok:
            return LobbyResult("This lobby is closed.")
        row.status, row.state_json, row.version, row.seed = "running", "", 0, seed
        self.games.keep(row.id, game)
        closed = f"The game has started — good luck! ({len(seats)} seats){where}"
        # The secret start goes out before the AI moves, while the offers are all there.
        await self.publisher.send_starts(table)
        await self.games.run_ai(table)
        await self.publisher.publish(table)
        return LobbyResult(
            row=row, seats=seats, closed=closed, default_timer=settings.decision_timer
        )
