"""The game service: per-game locks, load / apply / commit with a version check, AI seats,
the players' clicks and commands (choose, play a card, panels, take a seat back, end a game),
broken games, and the catch-up after a restart.

The rule of the house: every change to a running game happens under that game's lock
(:meth:`Games.lock`), and is committed before anything is posted (:mod:`bot.publishing`).
Buttons (:mod:`bot.components`) and slash commands (:mod:`bot.commands`) both come through here.

One transaction per change (issue 10): :meth:`Games.apply` changes the game in memory and
queues the action and its events; :meth:`Games.commit` (called by :meth:`Games.run_ai` once
the AI seats and the auto-passes have answered) writes the new state, every queued action and
event, the seats' bookkeeping and the publish pointer of the previous post in one transaction;
the events are then posted from memory. A loaded game (its row, seats and game) stays cached
while it runs; the cache is an LRU with a size bound (:data:`CACHE_SIZE`) and a finished game
leaves it when its lock is released. Any error inside a game's lock drops
its cached copy: nothing half-applied stays in memory, the next load starts again from the
last commit (and looks in the channel for what was already posted: see
:meth:`bot.publishing.Publisher.reconcile`).

Every stored row is read inside the game's own isolation: a row that cannot be read marks its
game broken (told in its channel once), never the others; ``/anima end`` clears any game.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, ParamSpec

import discord

from bot import history, rendering
from bot.autopass import auto_action, describe, parse_kinds
from bot.components.end import end_view
from bot.components.game_views import board_view, reclaim_view
from bot.panels import fingerprint
from bot.publishing import ClickedBoard, Publisher, pointer
from bot.settings import GAME_CACHE
from bot.storage import (
    EventRow,
    Finish,
    GameRow,
    GameWrite,
    NewEvent,
    SeatRow,
    Storage,
    StorageUnavailable,
    kill_point,
)
from bot.table import (
    NO_GAME,
    GameBroken,
    NoGame,
    PanelKey,
    Reply,
    Table,
    jump_url,
    now,
    seat_update,
)
from engine.agents.levels import DEFAULT_LEVEL, LEVELS, make_agent
from engine.cards import CardDB
from engine.errors import GameDataError, IllegalAction
from engine.game import Game
from engine.prompts import Prompt
from engine.views import PromptView, lazy_seat_view

log = logging.getLogger("anima.games")

#: AI levels that search (engine.agents.hard: about 100 ms of simulated games per decision):
#: they think in a worker thread, so that the event loop serves the other games' clicks
#: meanwhile. The per-game lock, held by every caller of ``run_ai``, keeps this game still
#: while the thread reads it. The other levels answer in a few milliseconds, inline.
SEARCHING_LEVELS = frozenset({"hard"})


async def ai_choice(table: Table, prompt: Prompt) -> str:
    """The move of the AI seat of ``prompt``, at the seat's level (the host's choice in the
    lobby; the default level for a member's seat taken over after time-outs)."""
    level = table.seats[prompt.player].ai_level or DEFAULT_LEVEL
    if level not in LEVELS:  # a level this version of the bot no longer has
        level = DEFAULT_LEVEL
    # Seeded per game, seat and version: the same state always gets the same move.
    agent = make_agent(level, f"{table.id}:{prompt.player}:{table.game.version}")
    view = lazy_seat_view(table.game, prompt.player)
    if level in SEARCHING_LEVELS:
        return await asyncio.to_thread(agent.choose, view, prompt)
    return agent.choose(view, prompt)


#: AI moves in one go before the bot suspects an endless loop (a whole game is ~200).
MAX_AI_STEPS = 20_000
#: Events ``/anima log`` reads (the latest 30 lines the user may see are shown).
LOG_EVENTS = 60
#: Running games kept in memory at most (the least recently used idle ones leave first);
#: ``ANIMA_GAME_CACHE`` sets it for the bot (``bot.settings.GAME_CACHE``).
CACHE_SIZE = GAME_CACHE

CANNOT_SAVE = (
    "⚠️ I cannot save the game right now (the bot's storage failed); nothing of your "
    "click was recorded. Please try again in a moment."
)

P = ParamSpec("P")


def answering(
    method: Callable[P, Coroutine[Any, Any, Reply]],
) -> Callable[P, Coroutine[Any, Any, Reply]]:
    """A player's request answers in words when storage cannot save (fault 8: the real
    cause is logged by storage) or when a stored row of the game turns out unreadable."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> Reply:
        try:
            return await method(*args, **kwargs)
        except StorageUnavailable:
            return Reply(CANNOT_SAVE)
        except GameBroken as exc:
            return Reply(
                f"⚠️ This game is broken and was stopped ({rendering.clip(str(exc), 200)})."
            )

    return wrapper


@dataclass
class _Batch:
    """What changed in a game since its last commit."""

    #: The stored version the commit expects.
    expected: int
    actions: list[tuple[int, str, str, str]] = field(default_factory=list)
    events: list[tuple[int, NewEvent]] = field(default_factory=list)


class GameLock:
    """The lock of one game. It counts its users (the holder and the waiters), so that an
    idle game may leave the cache and its lock be forgotten; an error inside drops the game's
    cached copy (nothing half-applied stays in memory)."""

    def __init__(self, games: Games, game_id: int) -> None:
        self._games = games
        self._game_id = game_id
        self._lock = asyncio.Lock()
        self.users = 0

    def locked(self) -> bool:
        return self._lock.locked()

    async def __aenter__(self) -> None:
        self.users += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self.users -= 1
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if exc_type is not None:
                self._games.drop(self._game_id)
            else:
                await self._games.settled(self._game_id)
        finally:
            self._lock.release()
            self.users -= 1
            if self.users == 0 and self._games._locks.get(self._game_id) is self:
                del self._games._locks[self._game_id]


#: What tells two prompts of a seat apart (see :func:`_prompt_key`).
PromptKey = tuple[str, str, tuple[str, ...], str, bool]


def _prompt_key(prompt: Prompt) -> PromptKey:
    """A prompt's fields as a snapshot that compares by value: a seat whose prompt is the
    same after an action keeps its prompt version and deadline. (Cheaper than
    ``prompt.to_dict()``, which deep-copies, and this runs for every seat at every action.)"""
    return (prompt.kind, prompt.text, tuple(prompt.choices), prompt.default, prompt.window)


def card_in_hand(game: Game, hand: Sequence[str], typed: str) -> str | None:
    """The card of ``hand`` that ``typed`` names: its id (a picked suggestion), its name
    (any case, as ``/anima card`` reads it), or the one card whose name contains it."""
    if typed in hand:
        return typed
    wanted = typed.strip().lower()
    named = [c for c in hand if rendering.card_name(game.db, c).lower() == wanted]
    if not named and wanted:
        named = [c for c in hand if wanted in rendering.card_name(game.db, c).lower()]
    return named[0] if len(set(named)) == 1 else None


class Games:
    """Everything that changes a running game. One per bot."""

    def __init__(
        self, storage: Storage, publisher: Publisher, cards: CardDB, cache_size: int = CACHE_SIZE
    ) -> None:
        self.storage = storage
        self.publisher = publisher
        #: The card database the games are dealt from and loaded with.
        self.cards = cards
        #: Running games kept in memory at most.
        self.cache_size = cache_size
        self._locks: dict[int, GameLock] = {}
        #: Loaded running games, least recently used first.
        self._cache: OrderedDict[int, Table] = OrderedDict()
        #: Games just dealt by the lobby (their first load skips parsing the state).
        self._kept: dict[int, Game] = {}
        self._batches: dict[int, _Batch] = {}
        publisher.save_pointer = self._published
        publisher.on_channel_lost = self._channel_lost
        publisher.panels.lock = self.lock
        publisher.panels.current = self.playing

    def lock(self, game_id: int) -> GameLock:
        """The lock that serialises every change to one game (lobby or running)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = GameLock(self, game_id)
        return lock

    # ------------------------------------------------------------------ the cache

    def cached(self, game_id: int) -> bool:
        """Whether a game is in memory (tests: the cache is bounded)."""
        return game_id in self._cache

    @property
    def live(self) -> tuple[int, int]:
        """(games cached, locks held or awaited): both stay bounded."""
        return len(self._cache), len(self._locks)

    def playing(self, game_id: int, marked: Table) -> Table | None:
        """The game the players' live panels are rendered from (under its lock), given the
        one its last change left (``marked``): the game in memory; ``marked`` itself if it
        is over (it left the cache, it changes no more); None if it is not in memory (an
        error dropped it: its last change may not be committed)."""
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        return marked if marked.row.status != "running" else None

    def drop(self, game_id: int) -> None:
        """Forget a game's cached copy and anything not yet committed (after an error, an
        end, a broken row): the next load reads the last commit."""
        self._cache.pop(game_id, None)
        self._kept.pop(game_id, None)
        self._batches.pop(game_id, None)
        self.publisher.forget(game_id)
        self.storage.ride_along(game_id)

    async def _published(self, table: Table) -> None:
        """A post went out: its pointer is written with the game's next commit, or with any
        game's if this one is not played in memory (storage keeps it meanwhile:
        ``Storage.defer_pointer``)."""
        own = self._cache.get(table.id) is table and table.row.status == "running"
        self.storage.defer_pointer(table.id, pointer(table.row), own)

    async def settled(self, game_id: int) -> None:
        """A game's lock is released without an error: a game just dealt joins the cache, a
        finished one leaves it, and the least recently used idle games leave when the cache
        is full (their pointers wait in storage for the next commit)."""
        try:
            if game_id in self._kept and game_id not in self._cache:
                await self.load(game_id)
            table = self._cache.get(game_id)
            if table is not None and table.row.status != "running":
                self.drop(game_id)
            await self._trim(game_id)
        except Exception:
            # The work itself is done; what could not be saved is found again at the next load.
            log.exception("game %s: keeping the cache failed", game_id)
            self.drop(game_id)

    async def _trim(self, current: int) -> None:
        for game_id in list(self._cache):
            if len(self._cache) <= self.cache_size:
                return
            lock = self._locks.get(game_id)
            if game_id == current or (lock is not None and lock.users):
                continue  # in use: it stays
            self.drop(game_id)

    # ------------------------------------------------------------------ loading

    async def load(self, game_id: int) -> Table:
        """The game with its seats; raises :class:`NoGame` or :class:`GameBroken`.

        A running game is served from the cache; one read from storage whose pointer is
        behind is first reconciled with its channel (:meth:`Publisher.reconcile`)."""
        table = self._cache.get(game_id)
        if table is not None:
            self._cache.move_to_end(game_id)
            table.settings = await self.storage.guild_settings(table.row.guild_id)
            return table
        # One hop: the row, its seats and whether it is behind its channel.
        found = await self.storage.game_to_play(game_id)
        if found is None:
            raise NoGame(game_id)
        row, seat_rows, unpublished = found
        if row.status in ("lobby", "cancelled") or row.state_json is None:
            raise NoGame(game_id)
        if row.status == "broken":
            raise GameBroken(row.broken_reason or "its stored state cannot be loaded")
        if row.damage is not None:
            await self.mark_broken(row, row.damage)
            raise GameBroken(row.damage)
        game = self._kept.pop(game_id, None)
        if game is None or game.version != row.version:
            try:
                game = Game.from_json(row.state_json, self.cards)
                if game.version != row.version:
                    raise GameDataError("stored version does not match the state")
            except GameDataError as exc:
                await self.mark_broken(row, str(exc))
                raise GameBroken(str(exc)) from None
            except Exception as exc:  # any other failure to rebuild the game is the same
                log.exception("game %s cannot be loaded", game_id)
                await self.mark_broken(row, f"stored game cannot be rebuilt ({type(exc).__name__})")
                raise GameBroken(str(exc)) from None
        seats = {s.seat: s for s in seat_rows}
        settings = await self.storage.guild_settings(row.guild_id)
        table = Table(row, seats, game, settings)
        self.publisher.forget(game_id)
        current = not (row.status in ("running", "over") and unpublished)
        if not current:
            current = await self.publisher.reconcile(table)
        if current and row.status == "running":
            self.publisher.track(game_id)
        if row.status == "running":
            self._cache[game_id] = table
            self._cache.move_to_end(game_id)
        return table

    def keep(self, game_id: int, game: Game) -> None:
        """A game just dealt and committed (the lobby's start): its first load uses it."""
        self._kept[game_id] = game

    async def mark_broken(self, row: GameRow, reason: str) -> None:
        """Stop a game that cannot be loaded and say so in its channel (once)."""
        cached = self._cache.get(row.id)
        if cached is not None:
            row = cached.row  # its board is the one in memory
        self.drop(row.id)
        if not await self.storage.stop_game(row.id, "broken", now(), reason):
            return
        log.warning("game %s marked broken: %s", row.id, reason)
        await self.publisher.report_broken(row, reason)

    async def running_game_id(self, channel_id: int) -> int | None:
        """The id of the running game of a channel, if any."""
        row = await self.storage.active_game(channel_id)
        if row is None or row.status != "running":
            return None
        return row.id

    # ------------------------------------------------------------------ applying actions

    async def apply(self, table: Table, seat: str, action: str | None, source: str) -> None:
        """Apply one action (``None``: the seat's time-out default) in memory and queue it
        for the next :meth:`commit` (``run_ai`` commits when the AI seats are done).

        Raises IllegalAction (nothing changed). Any other failure drops the cached game so
        the next load starts again from the last committed state.
        """
        g = table.game
        prompt = g.prompt_for(seat)
        if prompt is None:
            raise IllegalAction("it is not your decision")
        before = {p.player: _prompt_key(p) for p in g.pending()}
        # The choice as it was offered: whether the time-out's note may name it.
        offered = table.prompt_view(seat) if action is None else None
        try:
            if action is None:
                raw = g.timeout(seat)
                action = prompt.default
            else:
                raw = g.apply(seat, action)
        except IllegalAction:
            raise
        except Exception:
            self.drop(table.id)
            raise
        batch = self._batch(table)
        for e in raw:
            if e.kind == "timeout" and source == "timeout":
                # A window's time-outs get one line for all (see bot.timers).
                if not prompt.window and offered is not None:
                    batch.events.append((g.version, self._timeout_note(table, offered, action)))
            else:
                batch.events.append((g.version, NewEvent(e.kind, e.text, e.to, dict(e.data))))
        batch.actions.append((g.version, seat, action, source))
        # A card played in a reaction window re-opens it for everybody: all new prompts.
        reopened = prompt.window and not action.startswith("pass")
        self._bookkeeping(table, before, reopened)

    def _batch(self, table: Table) -> _Batch:
        batch = self._batches.get(table.id)
        if batch is None:
            batch = self._batches[table.id] = _Batch(table.row.version)
        return batch

    def note(self, table: Table, *events: NewEvent) -> None:
        """Events that are not an action (notices: takeovers, pauses, a closed window), logged
        with the next :meth:`commit`."""
        batch = self._batch(table)
        batch.events += [(table.game.version, e) for e in events]

    async def commit(self, table: Table, touched: bool = False) -> None:
        """Write what changed since the last commit in one transaction: the state, the queued
        actions and events, every seat's bookkeeping, the pause and the publish pointer (and
        the result if the game is over). The events are handed to the publisher.

        Nothing is written if nothing was queued, unless ``touched`` (a seat's bookkeeping
        or the pause changed alone). Any failure drops the cached game (the caller's lock
        does too)."""
        batch = self._batches.pop(table.id, None)
        if batch is None:
            if not touched:
                return
            batch = _Batch(table.row.version)
        g = table.game
        row = table.row
        finish = self._finish(table) if g.over and row.status == "running" else None
        write = GameWrite(
            version=g.version,
            state_json=g.to_json() if batch.actions else None,
            actions=batch.actions,
            events=batch.events,
            seats=[seat_update(s) for s in table.seats.values()],
            paused_at=row.paused_at,
            pointer=pointer(row),
            finish=finish,
        )
        try:
            stored: list[EventRow] = await self.storage.commit(
                table.id, batch.expected, write, now()
            )
        except Exception:
            self.drop(table.id)
            raise
        row.version = g.version
        if finish is not None:
            row.status = "over"
            row.winner_seat = finish.winner_seat
            row.ending = finish.ending
        self.publisher.queue(table.id, stored)
        kill_point("after final commit" if finish is not None else "after commit")

    def _timeout_note(self, table: Table, prompt: PromptView, action: str) -> NewEvent:
        """The engine's time-out note names the default action, which may be a hidden card:
        the table reads a neutral line; the player alone reads the choice."""
        choice = next(c for c in prompt.choices if c.action == action)
        shown = (
            # Seat ids stay: the renderer puts in the escaped names when it posts the line.
            rendering.without_rule_ids(choice.label) if choice.public else "the default choice"
        )
        return NewEvent("timeout", f"⏰ {prompt.player} ran out of time: {shown}.")

    def _bookkeeping(self, table: Table, before: dict[str, PromptKey], reopened: bool) -> None:
        """Update every seat's prompt version and deadline after an action."""
        g = table.game
        version = g.version
        t = now()
        for s in table.seats.values():
            prompt = g.prompt_for(s.seat)
            if prompt is None:
                s.prompt_since, s.deadline, s.half_at, s.pinged = None, None, None, False
            else:
                same = (
                    not reopened
                    and s.prompt_since is not None
                    and before.get(s.seat) == _prompt_key(prompt)
                )
                if not same:
                    s.prompt_since = version
                    table.set_deadline(s, prompt, t)
                elif s.ai:
                    s.deadline, s.half_at = None, None

    def _finish(self, table: Table) -> Finish:
        view = table.table_view()
        results = [
            (s.seat, s.user_id, s.name, s.ai and not s.human, s.seat == view.winner)
            for s in table.seats.values()
        ]
        return Finish(view.winner, view.ending, results)

    async def run_ai(self, table: Table) -> int:
        """Answer what needs no human click, until a human must decide: first the decisions
        of members on auto-pass (bot.autopass), then those of AI seats; then commit
        everything applied since the last commit (one transaction).

        The auto-passes of every seat are applied as soon as a window opens, in the same
        step and before anything is posted, so that nobody can tell from the timing who is
        on auto-pass; they read only the decision's public parts, never the hand."""
        g = table.game
        steps = 0
        humans = [s.user_id for s in table.seats.values() if s.user_id is not None]
        autopass = await self.storage.autopass(table.row.guild_id, humans)
        while not g.over and table.row.status == "running":
            auto = self._auto_answer(table, autopass)
            if auto is not None:
                await self.apply(table, auto[0], auto[1], "auto")
            else:
                prompts = [p for p in g.pending() if table.seats[p.player].ai]
                if not prompts:
                    break
                prompt = prompts[0]
                await self.apply(table, prompt.player, await ai_choice(table, prompt), "ai")
            steps += 1
            if steps >= MAX_AI_STEPS:
                log.error("game %s: AI players did not stop after %s moves", table.id, steps)
                break
        await self.commit(table)
        return steps

    def _auto_answer(
        self, table: Table, autopass: dict[int, frozenset[str]]
    ) -> tuple[str, str] | None:
        """(seat, action) of the first open decision a member's auto-pass answers."""
        g = table.game
        for prompt in g.pending():
            seat = table.seats[prompt.player]
            kinds = autopass.get(seat.user_id or 0) if not seat.ai else None
            if not kinds:
                continue
            view = table.prompt_view(prompt.player)
            action = auto_action(view, kinds) if view is not None else None
            if action is not None:
                return prompt.player, action
        return None

    @answering
    async def set_autopass(self, game_id: int, user_id: int, codes: list[str]) -> Reply:
        """A member changes his auto-pass from his panel: remembered on the server, and
        applied at once to what is open now (as if he had clicked it)."""
        kinds = parse_kinds(codes)
        async with self.lock(game_id):
            table, error = await self._table_for(game_id)
            if table is None:
                return Reply(error or NO_GAME)
            await self.storage.set_autopass(table.row.guild_id, user_id, kinds)
            seat = table.seat_of(user_id)
            text = f"✅ Auto-pass: **{describe(kinds)}**."
            if seat is None or table.row.status != "running":
                return Reply(text, ok=True)
            if await self.run_ai(table):
                await self.publisher.publish(table, actor=seat.seat)
            return await self._with_panel(table, seat, text, ok=True)

    async def autopass_now(self, guild_id: int, channel_id: int, user_id: int) -> None:
        """After ``/anima settings`` changed a member's auto-pass: answer what it covers in
        the channel's running game now."""
        game_id = await self.running_game_id(channel_id)
        if game_id is None:
            return
        async with self.lock(game_id):
            table, _ = await self._table_for(game_id)
            if table is None or table.row.guild_id != guild_id:
                return
            seat = table.seat_of(user_id)
            if seat is not None and await self.run_ai(table):
                await self.publisher.publish(table, actor=seat.seat)

    # ------------------------------------------------------------------ player actions

    def whose(self, table: Table) -> str:
        """'it is X's decision' for anybody who clicks out of turn."""
        prompts = table.game.pending()
        if table.game.over:
            return "the game is over"
        if not prompts:
            return "nobody is deciding now"
        names = table.names
        if len(prompts) == 1:
            return f"it is {names.bold(prompts[0].player)}'s decision"
        return "waiting for " + ", ".join(names.bold(p.player) for p in prompts)

    @answering
    async def choose(
        self,
        game_id: int,
        user_id: int,
        since: int,
        index: int,
        panel: int | None = None,
        clicked: ClickedBoard | None = None,
    ) -> Reply:
        """A click on a choice button or select (public board, or the private panel whose
        message id is ``panel``: the answer edits it in place). A board click that applies
        with nothing private to tell answers ``quiet`` (the board shows what happened);
        ``clicked``: the board click's interaction, which the board's edit may answer."""
        async with self.lock(game_id):
            table, error = await self._table_for(game_id)
            if table is None:
                return Reply(error or NO_GAME)
            seat = table.seat_of(user_id)
            if seat is None:
                return Reply(f"You are not playing in this game — {self.whose(table)}.")
            if table.row.status != "running":
                return Reply(self._over_text(table))
            return await self._resuming(
                table,
                seat,
                lambda: self._choose(table, seat, since, index, panel, clicked),
                panel,
                clicked,
            )

    async def _choose(
        self,
        table: Table,
        seat: SeatRow,
        since: int,
        index: int,
        panel: int | None,
        clicked: ClickedBoard | None = None,
    ) -> Reply:
        if seat.taken_over:
            return self._taken_over_reply(table)
        prompt = table.game.prompt_for(seat.seat)
        current = {s.prompt_since for s in table.seats.values() if s.prompt_since is not None}
        if prompt is None and since in current:  # a button of somebody else's decision
            if any(p.window for p in table.game.pending()):
                return Reply("You have answered this reaction window already.")
            return Reply(f"Not your turn to choose — {self.whose(table)}.")
        if prompt is None or seat.prompt_since != since or not 0 <= index < len(prompt.choices):
            return await self._with_panel(table, seat, "That choice is no longer open.")
        return await self._human_action(
            table, seat, prompt, prompt.choices[index], panel, board=panel is None, clicked=clicked
        )

    async def resume(self, table: Table, seat: SeatRow) -> bool:
        """A seated member's click on a paused game resumes it (see :mod:`bot.timers`):
        every open decision gets a fresh deadline, and the clicker, back, plays his seat
        again (the AI gives it back). True if the game was paused; the caller publishes."""
        if not table.paused or table.row.status != "running":
            return False
        t = now()
        table.row.paused_at = None
        seat.ai, seat.timeouts = False, 0
        for s in table.seats.values():
            prompt = table.game.prompt_for(s.seat)
            if prompt is not None:
                table.set_deadline(s, prompt, t)
        self.note(table, NewEvent("resumed", f"▶️ {seat.seat} is back: the game resumes."))
        # The clicker's seat may have been the AI's: it may have to decide now (run_ai
        # commits the resumption with whatever the AI does).
        await self.run_ai(table)
        return True

    async def _channel_lost(self, table: Table, why: str) -> None:
        """The game's channel refuses the bot mid-game (fault 4): pause the game (no timer
        runs out while nobody can see it) and tell the host privately, once per pause; any
        seated member's click resumes it and posts everything not yet posted."""
        if table.row.status != "running" or table.paused:
            return
        t = now()
        table.row.paused_at = t
        for s in table.seats.values():
            s.deadline, s.half_at, s.pinged = None, None, False
        self.note(table, NewEvent("notice", f"⏸️ The game was paused: {why}."))
        await self.commit(table)
        await self.publisher.tell_host(
            table.row,
            f"⏸️ **Anima · game #{table.id}** in <#{table.row.channel_id}> is paused: {why}. "
            "Give me back View Channel, Send Messages, Embed Links and Read Message History "
            "there, then any player's click (or `/anima hand`) resumes it; or end it with "
            "`/anima end`.",
        )

    @answering
    async def play_card(self, channel_id: int, user_id: int, card: str) -> Reply:
        """``/anima play``: apply ``play <card>`` if it is legal now."""
        game_id = await self.running_game_id(channel_id)
        if game_id is None:
            return Reply(NO_GAME)
        async with self.lock(game_id):
            table, error = await self._table_for(game_id)
            if table is None:
                return Reply(error or NO_GAME)
            seat = table.seat_of(user_id)
            if seat is None:
                return Reply("You are not playing in this game.")
            return await self._resuming(table, seat, lambda: self._play_card(table, seat, card))

    async def _resuming(
        self,
        table: Table,
        seat: SeatRow,
        act: Callable[[], Awaitable[Reply]],
        panel: int | None = None,
        clicked: ClickedBoard | None = None,
    ) -> Reply:
        """A seated player's click: it resumes a paused game (bot.timers), then ``act`` runs;
        when the click itself changed nothing, the resumption is published all the same."""
        resumed = await self.resume(table, seat)
        reply = await act()
        if resumed and not reply.ok:
            await self.publisher.publish(table, actor=seat.seat, panel=panel, clicked=clicked)
        return reply

    async def _play_card(self, table: Table, seat: SeatRow, card: str) -> Reply:
        if seat.taken_over:
            return self._taken_over_reply(table)
        g = table.game
        found = card_in_hand(g, table.seat_view(seat.seat).hand, card)
        if found is None:
            return Reply(
                f"No card called “{rendering.escape(rendering.clip(card, 80))}” is in "
                "your hand. Try the suggestions."
            )
        card = found
        prompt = g.prompt_for(seat.seat)
        action = f"play {card}"
        if prompt is None or action not in prompt.choices:
            name = rendering.card_name(g.db, card)
            why = "not your decision" if prompt is None else "not playable at this moment"
            return Reply(f"You can't play **{name}** now ({why}).")
        return await self._human_action(table, seat, prompt, action)

    async def _table_for(self, game_id: int) -> tuple[Table | None, str | None]:
        try:
            return await self.load(game_id), None
        except NoGame:
            return None, "This game no longer exists."
        except GameBroken as exc:
            return None, f"⚠️ This game is broken and was stopped ({rendering.clip(str(exc), 200)})."

    @staticmethod
    def _over_text(table: Table) -> str:
        if table.row.status == "over":
            return "This game is over."
        return "This game was ended before its end."

    def _taken_over_reply(self, table: Table) -> Reply:
        return Reply(
            "🤖 An AI player has taken over your seat after too many time-outs. "
            "Take it back with the button.",
            view=reclaim_view(table.id),
        )

    async def _human_action(
        self,
        table: Table,
        seat: SeatRow,
        prompt: Prompt,
        action: str,
        panel: int | None = None,
        board: bool = False,
        clicked: ClickedBoard | None = None,
    ) -> Reply:
        """Apply a member's choice, let the AI seats play, publish; the answer for him
        (``board``: clicked on the public board, where a quiet answer shows nothing;
        ``clicked``: that click's interaction, see :class:`ClickedBoard`)."""
        offered = table.prompt_view(seat.seat)
        choice = next((c for c in offered.choices if c.action == action), None) if offered else None
        label = rendering.choice_text(choice, table.names) if choice else rendering.escape(action)
        seat.timeouts = 0
        try:
            await self.apply(table, seat.seat, action, "human")
        except IllegalAction as exc:
            return Reply(f"❌ {exc.reason}")
        await self.run_ai(table)
        private = await self.publisher.publish(table, actor=seat.seat, panel=panel, clicked=clicked)
        lines = [f"✅ You chose: **{label}**"]
        if board and not private:
            # Nothing is sent: rendering his panel for the answer would be wasted work.
            return Reply(lines[0], ok=True, quiet=True)
        lines += [f"🔒 {table.names.sub(text)}" for text in private]
        return await self._with_panel(table, seat, "\n".join(lines), ok=True)

    async def _with_panel(self, table: Table, seat: SeatRow, text: str, ok: bool = False) -> Reply:
        """``text`` and, when the player must decide now, his private panel. The answer
        stands in the place of his panel either way: it is refreshed into a full panel when
        his situation changes (:mod:`bot.panels`)."""
        g = table.game
        embed, view = await self.publisher.panels.parts(table, seat)
        key = PanelKey(table.id, seat.seat, fingerprint(embed, view))
        if g.prompt_for(seat.seat) is None or table.row.status != "running":
            if not g.over:
                whose = self.whose(table)
                text += f"\n{whose[0].upper()}{whose[1:]}."
            return Reply(rendering.clip(text, rendering.CONTENT_LIMIT), ok=ok, panel=key)
        return Reply(rendering.clip(text, rendering.CONTENT_LIMIT), embed, view, ok, panel=key)

    async def panel_parts(
        self, table: Table, seat: SeatRow
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """A player's private panel: his hand embed and the buttons of his open prompt."""
        return await self.publisher.panels.parts(table, seat)

    @answering
    async def panel(self, game_id: int, user_id: int, mode: str) -> Reply:
        """The ``My hand`` / ``Decide`` / ``Respond`` buttons and ``/anima hand``."""
        async with self.lock(game_id):
            table, error = await self._table_for(game_id)
            if table is None:
                return Reply(error or NO_GAME)
            seat = table.seat_of(user_id)
            if seat is None:
                if mode == "hand":
                    return Reply("You are not playing in this game.")
                return Reply(f"You are not playing in this game — {self.whose(table)}.")
            if await self.resume(table, seat):
                await self.publisher.publish(table, actor=seat.seat)
            if seat.taken_over:
                return self._taken_over_reply(table)
            prompt = table.game.prompt_for(seat.seat)
            if mode == "decide" and prompt is None:
                return Reply(f"Not your turn to choose — {self.whose(table)}.")
            if mode == "respond" and (prompt is None or not prompt.window):
                return Reply("No reaction window is waiting for you now.")
            embed, view = await self.panel_parts(table, seat)
            key = PanelKey(table.id, seat.seat, fingerprint(embed, view))
            return Reply("", embed, view, ok=True, panel=key)

    @answering
    async def reclaim(self, game_id: int, user_id: int) -> Reply:
        """A player takes his seat back from the AI."""
        async with self.lock(game_id):
            table, error = await self._table_for(game_id)
            if table is None:
                return Reply(error or NO_GAME)
            seat = table.seat_of(user_id)
            if seat is None or not seat.taken_over:
                return Reply("Your seat is not played by an AI.")
            if table.row.status != "running":
                return Reply("This game is over.")
            if await self.resume(table, seat):  # gives the seat back, too
                await self.publisher.publish(table, actor=seat.seat)
                return await self._with_panel(table, seat, "✅ Your seat is yours again.", ok=True)
            seat.ai, seat.timeouts = False, 0
            prompt = table.game.prompt_for(seat.seat)
            t = now()
            if prompt is not None:
                table.set_deadline(seat, prompt, t)
            self.note(table, NewEvent("notice", f"👋 {seat.seat} takes the seat back from the AI."))
            await self.commit(table)
            await self.publisher.publish(table, actor=seat.seat)
            return await self._with_panel(table, seat, "✅ Your seat is yours again.", ok=True)

    # ------------------------------------------------------------------ what commands show

    @answering
    async def board(self, game_id: int) -> Reply:
        """``/anima board``: the current board, with a link to it in the channel."""
        async with self.lock(game_id):
            try:
                table = await self.load(game_id)
            except (NoGame, GameBroken) as exc:
                return Reply(f"This game cannot be shown ({exc}).")
            row = table.row
            link = jump_url(row.guild_id, row.channel_id, row.board_message_id)
            embed = rendering.board_embed(table.table_view(), table.game.db, row, table.seats)
            return Reply(f"The board in the channel: {link}", embed, board_view(table))

    async def hand_choices(self, game_id: int, user_id: int, typed: str) -> list[tuple[str, str]]:
        """``/anima play``'s suggestions: (label, card id) of the cards in the user's hand
        whose name contains ``typed``, those playable now marked."""
        async with self.lock(game_id):
            try:
                table = await self.load(game_id)
            except (NoGame, GameBroken):
                return []
            seat = table.seat_of(user_id)
            if seat is None:
                return []
            g = table.game
            prompt = g.prompt_for(seat.seat)
            playable = set(prompt.choices) if prompt else set()
            return [
                (rendering.hand_choice_label(g.db, card_id, f"play {card_id}" in playable), card_id)
                for card_id in table.seat_view(seat.seat).hand
                if typed.lower() in rendering.card_name(g.db, card_id).lower()
            ]

    @answering
    async def log(self, channel_id: int, user_id: int) -> Reply:
        """``/anima log``: the latest public events, and the user's own private ones, of the
        channel's running game or, after it, of its last game."""
        row = await self.storage.last_game(channel_id)
        if row is None:
            return Reply(NO_GAME)
        game_id = row.id
        async with self.lock(game_id):
            seats = await self.storage.seats(game_id)
            mine = next((s.seat for s in seats if s.user_id == user_id), None)
            events = await self.storage.last_events(game_id, LOG_EVENTS)
            return Reply(
                "", rendering.log_embed(game_id, events, rendering.seat_names(seats), mine)
            )

    @answering
    async def history(self, channel_id: int, game_id: int | None) -> Reply:
        """``/anima history``: a finished game's log (Markdown) and replay record (JSON) as
        files, with what its end revealed; refused while the game runs (secrets)."""
        row = (
            await self.storage.game(game_id)
            if game_id is not None
            else await self.storage.last_game(channel_id)
        )
        if row is None or row.status in ("lobby", "cancelled") or row.state_json is None:
            return Reply("There is no finished game here. Name one: `/anima history game:12`.")
        if row.status not in history.FINISHED:
            return Reply(
                f"Game #{row.id} is still being played: its history (and every secret card) "
                "is shown after the end."
            )
        async with self.lock(row.id):
            game = Game.from_json(row.state_json, self.cards)
            seats = await self.storage.seats(row.id)
            events = await self.storage.events_after(row.id, 0)
            actions = await self.storage.actions(row.id)
            files = history.files(row, seats, events, game, actions)
        return Reply(
            f"📜 Game #{row.id}: the whole log, and its replay record "
            "(`anima replay FILE` plays it again, turn by turn).",
            files=files,
            ok=True,
        )

    async def end_request(self, channel_id: int, user_id: int, admin: bool) -> Reply:
        """``/anima end``: its confirmation for the host (or Manage Server), or a refusal."""
        row = await self.storage.active_game(channel_id)
        if row is None:
            return Reply(NO_GAME)
        if user_id != row.host_id and not admin:
            return Reply("Only the host or a member with Manage Server can end the game.")
        return Reply(
            f"End game #{row.id} now? Nobody wins and nothing is recorded.",
            view=end_view(row.id),
        )

    @answering
    async def end_game(self, game_id: int, user_id: int, admin: bool) -> Reply:
        """``/anima end`` after its confirmation: stop the game without a result."""
        async with self.lock(game_id):
            row = await self.storage.game(game_id)
            if row is None or row.status not in ("lobby", "running"):
                return Reply("This game has already ended.")
            if user_id != row.host_id and not admin:
                return Reply("Only the host or a member with Manage Server can end the game.")
            cached = self._cache.get(game_id)
            if cached is not None:
                row = cached.row  # its board is the one in memory
                self.drop(game_id)
            if not await self.storage.stop_game(game_id, "ended", now()):
                return Reply("This game has already ended.")
            await self.publisher.announce_end(row, user_id)
            return Reply(f"Game #{game_id} has been ended.", ok=True)

    # ------------------------------------------------------------------ start-up

    async def recover(self) -> None:
        """After a (re)start: every running game, and every finished one whose end was not
        all posted (fault 1), each in its own isolation (a bad row marks that game broken and
        stops nothing else): load it (its channel reconciled with its pointer), redeliver the
        secret starts not delivered (fault 7), let AI seats move if the bot stopped before
        they did, and post what was not yet posted."""
        try:
            rows = await self.storage.games_to_recover()
        except Exception:
            log.exception("could not list the games to resume")
            return
        for row in rows:
            try:
                async with self.lock(row.id):
                    await self._recover(row.id)
            except Exception:
                log.exception("could not resume game %s", row.id)

    async def _recover(self, game_id: int) -> None:
        try:
            table = await self.load(game_id)
        except (NoGame, GameBroken):
            return
        try:
            if table.row.board_message_id is None and table.row.published_version < 0:
                await self.publisher.close_lobby(table)  # killed right after the start commit
            pending = [s.seat for s in table.seats.values() if s.start_dm == 0]
            if pending:
                # Only while the start is still to choose: a start chosen needs no DM.
                open_start = [
                    seat
                    for seat in pending
                    if (p := table.game.prompt_for(seat)) is not None
                    and p.kind.startswith("start_")
                ]
                await self.publisher.send_starts(table, open_start)
                for seat in pending:
                    if seat not in open_start:
                        await self.storage.set_start_delivered(game_id, seat)
            if table.row.status == "running":
                await self.run_ai(table)
            if await self.publisher.behind(table):
                await self.publisher.publish(table)
        except GameBroken as exc:
            await self.mark_broken(table.row, str(exc))
