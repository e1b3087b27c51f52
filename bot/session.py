"""The game manager: per-game locks, load / apply / save with a version check, AI players,
timers, broken games, and publishing what happened to Discord.

The rule of the house: every change to a running game happens under that game's
:class:`asyncio.Lock`, and every accepted action is committed (state + log rows + seat
bookkeeping) in one transaction before anything is posted. Posting reads the not yet
published events back from the log, so a bot killed between the commit and the post catches
up on restart.

Each seat stores ``prompt_since``: the state version at which its open prompt appeared.
Buttons carry that number; a click whose number differs from the seat's current one is on
an outdated prompt ("that choice is no longer open"). Using the prompt's own version rather
than the game's lets several players answer one reaction window (or the start choice) with
buttons rendered once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import render, views
from bot.render import Names
from bot.storage import (
    Finish,
    GameRow,
    GuildSettings,
    NewEvent,
    SeatRow,
    SeatUpdate,
    Storage,
)
from engine.agents import RandomAgent
from engine.errors import GameDataError, IllegalAction
from engine.game import Game
from engine.options import Options
from engine.prompts import Prompt

if TYPE_CHECKING:
    from bot.app import AnimaBot

log = logging.getLogger("anima.session")

MAX_SEATS = 5
MIN_SEATS = 2
#: AI moves in one go before the bot suspects an endless loop (a whole game is ~200).
MAX_AI_STEPS = 20_000
#: Private events listed in a player's hand view.
PRIVATE_LOG = 6

NO_GAME = "There is no game here. Start one with `/anima start`."


class NoGame(Exception):
    """No such game (or not in a state the caller can use)."""


class GameBroken(Exception):
    """The stored game cannot be loaded; it has been marked broken and reported."""


@dataclass
class Reply:
    """An answer for one user (ephemeral, or the private panel it updates)."""

    content: str
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    ok: bool = False
    #: Nothing private to say: a click on the public board needs no reply, since the board
    #: and the channel already show what happened (it saves a message per decision).
    quiet: bool = False


@dataclass
class Table:
    """A running (or finished) game loaded from storage."""

    row: GameRow
    seats: dict[str, SeatRow]
    game: Game
    settings: GuildSettings

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def names(self) -> Names:
        return Names(self.seats)

    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats.values() if s.user_id == user_id), None)


@dataclass
class LobbyResult:
    """The outcome of a lobby action: an error for the clicker, or the new lobby."""

    error: str | None = None
    row: GameRow | None = None
    seats: list[SeatRow] = field(default_factory=list)
    closed: str | None = None


def now() -> float:
    """Virtual-clock-aware time (SimCord simulates ``discord.utils.utcnow``)."""
    return discord.utils.utcnow().timestamp()


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    base = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


class GameManager:
    """Everything that changes games. One per bot."""

    def __init__(self, bot: AnimaBot, storage: Storage) -> None:
        self.bot = bot
        self.storage = storage
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, Game] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that serialises every change to one game."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    # ------------------------------------------------------------------ loading

    async def load(self, game_id: int) -> Table:
        """The game with its seats; raises :class:`NoGame` or :class:`GameBroken`."""
        row = await self.storage.game(game_id)
        if row is None or row.status in ("lobby", "cancelled") or row.state_json is None:
            raise NoGame(game_id)
        if row.status == "broken":
            raise GameBroken(row.broken_reason or "its stored state cannot be loaded")
        game = self._cache.get(game_id)
        if game is None or game.s.actions != row.version:
            try:
                game = Game.from_json(row.state_json)
                if game.s.actions != row.version:
                    raise GameDataError("stored version does not match the state")
            except GameDataError as exc:
                await self.mark_broken(row, str(exc))
                raise GameBroken(str(exc)) from None
            except Exception as exc:  # any other failure to rebuild the game is the same
                log.exception("game %s cannot be loaded", game_id)
                await self.mark_broken(row, f"stored game cannot be rebuilt ({type(exc).__name__})")
                raise GameBroken(str(exc)) from None
            self._cache[game_id] = game
        seats = {s.seat: s for s in await self.storage.seats(game_id)}
        settings = await self.storage.guild_settings(row.guild_id)
        return Table(row, seats, game, settings)

    async def mark_broken(self, row: GameRow, reason: str) -> None:
        """Stop a game that cannot be loaded and say so in its channel (once)."""
        self._cache.pop(row.id, None)
        if not await self.storage.stop_game(row.id, "broken", now(), reason):
            return
        log.warning("game %s marked broken: %s", row.id, reason)
        channel = self.channel(row)
        text = (
            f"⚠️ Game #{row.id} cannot be loaded from storage ({render.clip(reason, 300)}). "
            "It has been stopped; other games are not affected. "
            "Start a new game with `/anima start`."
        )
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            if row.board_message_id:
                await channel.get_partial_message(row.board_message_id).edit(view=None)
        except discord.HTTPException:
            log.warning("could not report broken game %s", row.id)

    def channel(self, row: GameRow) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    # ------------------------------------------------------------------ applying actions

    async def _apply(self, table: Table, seat: str, action: str | None, source: str) -> None:
        """Apply one action (``None``: the seat's time-out default) and commit it.

        Raises IllegalAction (nothing changed). Any other failure drops the cached game so
        the next load starts again from the last committed state.
        """
        g = table.game
        prompt = g.prompt_for(seat)
        if prompt is None:
            raise IllegalAction("it is not your decision")
        before = {p.player: p.to_dict() for p in g.pending()}
        expected = g.s.actions
        # What was public before the time-out decides whether its note may name the choice.
        public_before = render.public_cards(g) if action is None else set()
        try:
            if action is None:
                raw = g.timeout(seat)
                action = prompt.default
            else:
                raw = g.apply(seat, action)
        except IllegalAction:
            raise
        except Exception:
            self._cache.pop(table.id, None)
            raise
        events: list[NewEvent] = []
        for e in raw:
            if e.kind == "timeout" and source == "timeout":
                # A window's time-outs get one line for all (see run_timers).
                if not prompt.window:
                    events.append(self._timeout_note(table, prompt, action, public_before))
            else:
                events.append(NewEvent(e.kind, e.text, e.to, dict(e.data)))
        # A card played in a reaction window re-opens it for everybody: all new prompts.
        reopened = prompt.window and not action.startswith("pass")
        updates = self._bookkeeping(table, before, reopened)
        finish = self._finish(table) if g.over else None
        try:
            await self.storage.commit_action(
                table.id,
                expected,
                g.to_json(),
                g.s.actions,
                seat,
                action,
                source,
                events,
                updates,
                now(),
                finish,
            )
        except Exception:
            self._cache.pop(table.id, None)
            raise
        table.row.version = g.s.actions
        if finish is not None:
            table.row.status = "over"
            table.row.winner_seat = finish.winner_seat
            table.row.ending = finish.ending

    def _timeout_note(
        self, table: Table, prompt: Prompt, action: str, public: set[str]
    ) -> NewEvent:
        """The engine's time-out note names the default action, which may be a hidden card:
        the table reads a neutral line; the player alone reads the choice."""
        label = render.choice_label(table.game, prompt, action, table.names)
        shown = (
            label
            if render.is_public_choice(table.game, prompt, action, public)
            else "the default choice"
        )
        return NewEvent("timeout", f"⏰ {prompt.player} ran out of time: {shown}.")

    def _bookkeeping(
        self, table: Table, before: dict[str, dict[str, Any]], reopened: bool
    ) -> list[SeatUpdate]:
        """Update every seat's prompt version and deadline after an action."""
        g = table.game
        version = g.s.actions
        t = now()
        updates = []
        for s in table.seats.values():
            prompt = g.prompt_for(s.seat)
            if prompt is None:
                s.prompt_since, s.deadline, s.half_at, s.pinged = None, None, None, False
            else:
                same = (
                    not reopened
                    and s.prompt_since is not None
                    and before.get(s.seat) == prompt.to_dict()
                )
                if not same:
                    s.prompt_since = version
                    self._set_deadline(table, s, prompt, t)
                elif s.ai:
                    s.deadline, s.half_at = None, None
            updates.append(self._update(s))
        return updates

    def _set_deadline(self, table: Table, s: SeatRow, prompt: Prompt, t: float) -> None:
        timer = table.row.window_timer if prompt.window else (table.row.decision_timer or 0)
        s.pinged = False
        if s.ai or timer <= 0:
            s.deadline, s.half_at = None, None
        else:
            s.deadline = t + timer
            # Half-time pings are for real decisions; windows are short and for everybody.
            s.half_at = None if prompt.window else t + timer / 2

    @staticmethod
    def _update(s: SeatRow) -> SeatUpdate:
        return SeatUpdate(s.seat, s.ai, s.timeouts, s.prompt_since, s.deadline, s.half_at, s.pinged)

    def _finish(self, table: Table) -> Finish:
        g = table.game
        results = [
            (s.seat, s.user_id, s.name, s.ai and not s.human, s.seat == g.s.winner)
            for s in table.seats.values()
        ]
        return Finish(g.s.winner, g.s.ending, results)

    async def _run_ai(self, table: Table) -> int:
        """Let AI seats answer their open prompts until a human must decide."""
        g = table.game
        steps = 0
        while not g.over and table.row.status == "running":
            prompts = [p for p in g.pending() if table.seats[p.player].ai]
            if not prompts:
                break
            prompt = prompts[0]
            # Seeded per game, seat and version: the same state always gets the same move.
            agent = RandomAgent(f"{table.id}:{prompt.player}:{g.s.actions}")
            await self._apply(table, prompt.player, agent.choose(g, prompt), "ai")
            steps += 1
            if steps >= MAX_AI_STEPS:
                log.error("game %s: AI players did not stop after %s moves", table.id, steps)
                break
        return steps

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

    async def choose(self, game_id: int, user_id: int, since: int, index: int) -> Reply:
        """A click on a choice button or select (public board or private panel)."""
        async with self.lock(game_id):
            table, error = await self._table_for(game_id)
            if table is None:
                return Reply(error or NO_GAME)
            seat = table.seat_of(user_id)
            if seat is None:
                return Reply(f"You are not playing in this game — {self.whose(table)}.")
            if table.row.status != "running":
                return Reply(self._over_text(table))
            if seat.taken_over:
                return self._taken_over_reply(table)
            prompt = table.game.prompt_for(seat.seat)
            current = {s.prompt_since for s in table.seats.values() if s.prompt_since is not None}
            if prompt is None and since in current:  # a button of somebody else's decision
                if any(p.window for p in table.game.pending()):
                    return Reply("You have answered this reaction window already.")
                return Reply(f"Not your turn to choose — {self.whose(table)}.")
            if prompt is None or seat.prompt_since != since or not 0 <= index < len(prompt.choices):
                return await self._fresh(table, seat, "That choice is no longer open.")
            return await self._human_action(table, seat, prompt, prompt.choices[index])

    async def play_card(self, channel_id: int, user_id: int, card: str) -> Reply:
        """``/anima play``: apply ``play <card>`` if it is legal now."""
        row = await self.storage.active_game(channel_id)
        if row is None or row.status != "running":
            return Reply(NO_GAME)
        async with self.lock(row.id):
            table, error = await self._table_for(row.id)
            if table is None:
                return Reply(error or NO_GAME)
            seat = table.seat_of(user_id)
            if seat is None:
                return Reply("You are not playing in this game.")
            if seat.taken_over:
                return self._taken_over_reply(table)
            g = table.game
            p = g.s.players[seat.seat]
            if card not in p.hand:
                return Reply("That card is not in your hand.")
            prompt = g.prompt_for(seat.seat)
            action = f"play {card}"
            if prompt is None or action not in prompt.choices:
                name = render.card_name(g, card)
                why = "not your decision" if prompt is None else "not playable at this moment"
                return Reply(f"You can't play **{name}** now ({why}).")
            return await self._human_action(table, seat, prompt, action)

    async def _table_for(self, game_id: int) -> tuple[Table | None, str | None]:
        try:
            return await self.load(game_id), None
        except NoGame:
            return None, "This game no longer exists."
        except GameBroken as exc:
            return None, f"⚠️ This game is broken and was stopped ({render.clip(str(exc), 200)})."

    @staticmethod
    def _over_text(table: Table) -> str:
        if table.row.status == "over":
            return "This game is over."
        return "This game was ended before its end."

    def _taken_over_reply(self, table: Table) -> Reply:
        return Reply(
            "🤖 An AI player has taken over your seat after too many time-outs. "
            "Take it back with the button.",
            view=views.reclaim_view(table.id),
        )

    async def _human_action(
        self, table: Table, seat: SeatRow, prompt: Prompt, action: str
    ) -> Reply:
        label = render.choice_label(table.game, prompt, action, table.names)
        seat.timeouts = 0
        try:
            await self._apply(table, seat.seat, action, "human")
        except IllegalAction as exc:
            return Reply(f"❌ {exc.reason}")
        await self._run_ai(table)
        private = await self.publish(table, actor=seat.seat)
        lines = [f"✅ You chose: **{label}**"]
        lines += [f"🔒 {table.names.sub(text)}" for text in private]
        reply = await self._with_panel(table, seat, "\n".join(lines), ok=True)
        reply.quiet = not private
        return reply

    async def _fresh(self, table: Table, seat: SeatRow, text: str) -> Reply:
        return await self._with_panel(table, seat, text)

    async def _with_panel(self, table: Table, seat: SeatRow, text: str, ok: bool = False) -> Reply:
        """``text`` and, when the player must decide now, his private panel."""
        g = table.game
        if g.prompt_for(seat.seat) is None or table.row.status != "running":
            if not g.over:
                whose = self.whose(table)
                text += f"\n{whose[0].upper()}{whose[1:]}."
            return Reply(render.clip(text, render.CONTENT_LIMIT), ok=ok)
        embed, view = await self.panel_parts(table, seat)
        return Reply(render.clip(text, render.CONTENT_LIMIT), embed, view, ok)

    async def panel_parts(
        self, table: Table, seat: SeatRow
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        private = await self.storage.private_events(table.id, seat.seat, PRIVATE_LOG)
        embed = render.hand_embed(table.game, table.row, seat, table.names, private)
        view = None
        if table.row.status == "running" and not seat.ai:
            view = views.private_view(table, seat)
        return embed, view

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
            if seat.taken_over:
                return self._taken_over_reply(table)
            prompt = table.game.prompt_for(seat.seat)
            if mode == "decide" and prompt is None:
                return Reply(f"Not your turn to choose — {self.whose(table)}.")
            if mode == "respond" and (prompt is None or not prompt.window):
                return Reply("No reaction window is waiting for you now.")
            embed, view = await self.panel_parts(table, seat)
            return Reply("", embed, view, ok=True)

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
            seat.ai, seat.timeouts = False, 0
            prompt = table.game.prompt_for(seat.seat)
            if prompt is not None:
                self._set_deadline(table, seat, prompt, now())
            await self.storage.save_seats(table.id, [self._update(seat)])
            await self.storage.add_events(
                table.id,
                table.game.s.actions,
                [NewEvent("notice", f"👋 {seat.seat} takes the seat back from the AI.")],
            )
            await self.publish(table, actor=seat.seat)
            return await self._with_panel(table, seat, "✅ Your seat is yours again.", ok=True)

    # ------------------------------------------------------------------ timers

    async def run_timers(self, game_id: int) -> None:
        """Half-time pings, then time-outs (X6) of every due decision, AI takeovers."""
        async with self.lock(game_id):
            try:
                table = await self.load(game_id)
            except (NoGame, GameBroken):
                return
            if table.row.status != "running":
                return
            g = table.game
            t = now()
            pings = [
                s
                for s in table.seats.values()
                if s.half_at is not None
                and s.half_at <= t
                and not s.pinged
                and not s.ai
                and s.deadline is not None
                and s.deadline > t
                and g.prompt_for(s.seat) is not None
            ]
            if pings:
                for s in pings:
                    s.pinged = True
                await self.storage.save_seats(table.id, [self._update(s) for s in pings])
                await self._post_pings(table, pings)
            changed = False
            for _ in range(MAX_SEATS * 50):
                due = [
                    s
                    for s in table.seats.values()
                    if s.deadline is not None
                    and s.deadline <= t
                    and not s.ai
                    and g.prompt_for(s.seat) is not None
                ]
                if not due or g.over:
                    break
                changed = True
                windows = [s for s in due if g.prompt_for(s.seat).window]  # type: ignore[union-attr]
                if windows:
                    # Everybody still in the window passes at once (X6), then the table is told.
                    for s in windows:
                        prompt = g.prompt_for(s.seat)
                        if prompt is not None and prompt.window:
                            await self._apply(table, s.seat, None, "timeout")
                    await self.storage.add_events(
                        table.id,
                        g.s.actions,
                        [NewEvent("notice", "⚡ Time is up: the reaction window is closed.")],
                    )
                else:
                    s = due[0]
                    s.timeouts += 1
                    await self._apply(table, s.seat, None, "timeout")
                    limit = table.settings.ai_takeover
                    if limit and s.timeouts >= limit and not g.over:
                        await self._takeover(table, s)
                await self._run_ai(table)
            if changed:
                await self.publish(table)

    async def _takeover(self, table: Table, s: SeatRow) -> None:
        s.ai = True
        s.deadline, s.half_at = None, None
        await self.storage.save_seats(table.id, [self._update(s)])
        text = (
            f"🤖 {s.seat} ran out of time {s.timeouts} times in a row: "
            "an AI player takes over the seat (the player can take it back from **My hand**)."
        )
        await self.storage.add_events(table.id, table.game.s.actions, [NewEvent("notice", text)])

    async def _post_pings(self, table: Table, seats: Sequence[SeatRow]) -> None:
        board = table.row.board_message_id
        link = f" ({jump_url(table.row.guild_id, table.row.channel_id, board)})" if board else ""
        lines = []
        users = []
        for s in seats:
            lines.append(
                f"⏰ {table.names.mention(s.seat)}, half of your time is gone: decide "
                f"<t:{int(s.deadline or 0)}:R> or the default choice is taken{link}."
            )
            if s.user_id:
                users.append(discord.Object(s.user_id))
        try:
            await self.channel(table.row).send(
                "\n".join(lines), allowed_mentions=discord.AllowedMentions(users=users)
            )
        except discord.HTTPException:
            log.warning("could not ping in game %s", table.id)

    # ------------------------------------------------------------------ publishing

    async def publish(self, table: Table, actor: str | None = None) -> list[str]:
        """Post what happened since the last publish (one batched message, split at a new
        turn around the new board), update or replace the board, send private events to
        the players they are for (DM), and return the private texts for ``actor``."""
        row = table.row
        g = table.game
        names = table.names
        events = await self.storage.events_after(row.id, row.published_event_id)
        actor_lines: list[str] = []
        dms: dict[str, list[str]] = {}
        for e in events:
            if e.recipients is None:
                continue
            for r in e.recipients:
                seat = table.seats.get(r)
                if r == actor:
                    actor_lines.append(e.text)
                elif seat is not None and seat.human and not seat.ai:
                    dms.setdefault(r, []).append(e.text)
        public = [e for e in events if e.recipients is None]
        new_board = row.board_message_id is None or row.board_turn != g.s.turn
        before: list[str] = []
        after: list[str] = []
        split = max((i for i, e in enumerate(public) if e.kind == "turn"), default=None)
        while split and public[split - 1].kind == "tie_roll":  # rolls for the new turn order
            split -= 1
        if new_board and split is not None:
            before = render.event_lines(public[:split], names)
            after = render.event_lines(public[split:], names)
        else:
            after = render.event_lines(public, names)
        pings, users = self._prompt_lines(table, actor)
        channel = self.channel(row)
        try:
            if new_board and before:
                await self._send_lines(channel, before, [])
            changed = bool(events) or row.published_version != g.s.actions
            if new_board or changed:
                await self._board(table, channel, new_board)
            await self._send_lines(channel, after + pings, users)
            if g.over and row.published_version != g.s.actions:
                await channel.send(
                    embed=render.summary_embed(g, row, table.seats),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        except discord.HTTPException:
            log.exception("could not post to the channel of game %s", row.id)
        row.published_event_id = events[-1].id if events else row.published_event_id
        row.published_version = g.s.actions
        await self.storage.update_game(
            row.id,
            published_event_id=row.published_event_id,
            published_version=row.published_version,
            board_message_id=row.board_message_id,
            board_turn=row.board_turn,
        )
        for seat_id, lines in dms.items():
            text = "\n".join(f"🔒 {names.sub(x)}" for x in lines)
            await self.dm(table, table.seats[seat_id], f"**Game #{row.id}**\n{text}")
        return actor_lines

    def _prompt_lines(self, table: Table, actor: str | None) -> tuple[list[str], list[Any]]:
        """Who must decide now, for decisions that appeared since the last publish."""
        g = table.game
        if g.over or table.row.status != "running":
            return [], []
        published = table.row.published_version
        names = table.names
        public = render.public_cards(g)
        prompts = g.pending()
        fresh = [
            p
            for p in prompts
            if (since := table.seats[p.player].prompt_since) is not None and since > published
        ]
        if not fresh:
            return [], []
        windows = [p for p in prompts if p.window]
        if windows:
            first = windows[0]
            text = render.public_prompt_text(g, first, names, public)
            deadline = table.seats[first.player].deadline
            ends = f" It closes <t:{int(deadline)}:R>." if deadline else ""
            return [f"⚡ **Reaction window:** {text} Use **Respond** on the board.{ends}"], []
        lines, users = [], []
        humans = [p for p in fresh if not table.seats[p.player].ai and p.player != actor]
        if not humans:
            return [], []
        if all(p.kind.startswith("start_") for p in humans) and len(prompts) > 1:
            who = " ".join(names.mention(p.player) for p in humans)
            lines.append(
                f"🎴 {who}: choose your leader and your Advantages — press **My hand** on the "
                "board (your secret start is also in your DMs)."
            )
        else:
            for p in humans:
                text = render.public_prompt_text(g, p, names, public)
                lines.append(f"➡️ {names.mention(p.player)}: {text}")
        users = [
            discord.Object(table.seats[p.player].user_id or 0)
            for p in humans
            if table.seats[p.player].user_id
        ]
        return lines, users

    async def _send_lines(
        self, channel: discord.PartialMessageable, lines: Sequence[str], users: list[Any]
    ) -> None:
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=users or False)
        for chunk in render.chunk_lines(lines):
            await channel.send(chunk, allowed_mentions=mentions)

    async def _board(
        self, table: Table, channel: discord.PartialMessageable, new_board: bool
    ) -> None:
        row = table.row
        embed = render.board_embed(table.game, row, table.seats)
        view = views.board_view(table)
        if not new_board and row.board_message_id is not None:
            try:
                await channel.get_partial_message(row.board_message_id).edit(embed=embed, view=view)
                return
            except discord.NotFound:
                pass  # deleted by somebody: post a new one
        if row.board_message_id is not None:
            await self._retire_board(channel, row.board_message_id)
        kwargs: dict[str, Any] = {
            "embed": embed,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if view is not None:
            kwargs["view"] = view
        message = await channel.send(**kwargs)
        row.board_message_id = message.id
        row.board_turn = table.game.s.turn

    async def _retire_board(self, channel: discord.PartialMessageable, message_id: int) -> None:
        """The last turn's board keeps its picture, loses its buttons and its "whose
        decision" line (that decision belongs to the new board now)."""
        with contextlib.suppress(discord.HTTPException):
            message = await channel.fetch_message(message_id)
            embeds = message.embeds
            if embeds:
                embed = embeds[0]
                kept = [
                    line
                    for line in (embed.description or "").split("\n")
                    if not line.startswith(("➡️", "⚡", "⏳"))
                ]
                embed.description = "\n".join(
                    [*kept, "_This turn is over: see the new board below._"]
                )
                await message.edit(embed=embed, view=None)
            else:
                await message.edit(view=None)

    # ------------------------------------------------------------------ DMs

    async def dm(
        self,
        table: Table,
        seat: SeatRow,
        content: str,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
    ) -> bool:
        """DM a player, unless DMs are off on the server or he refused one before (then he
        was told once in the channel to use **My hand**, and is never DM'd again)."""
        if seat.user_id is None or not table.settings.dms:
            return False
        if await self.storage.dm_refused(seat.user_id):
            return False
        try:
            channel = await self.bot.create_dm(discord.Object(seat.user_id))
            kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
            if embed is not None:
                kwargs["embed"] = embed
            if view is not None:
                kwargs["view"] = view
            await channel.send(render.clip(content, render.CONTENT_LIMIT), **kwargs)
            return True
        except discord.Forbidden as exc:
            # 50007 "Cannot send messages to this user": closed DMs. Remember it.
            log.info("DM to %s refused (%s)", seat.user_id, exc.code)
            await self.storage.set_dm_refused(seat.user_id, True, now())
            await self._tell_closed_dms(table, seat)
            return False
        except discord.HTTPException:
            log.warning("DM to %s failed", seat.user_id, exc_info=True)
            return False

    async def _tell_closed_dms(self, table: Table, seat: SeatRow) -> None:
        text = (
            f"📪 {table.names.mention(seat.seat)}, I can't send you direct messages. "
            "Your cards and secret decisions are always under the **My hand** button on the "
            "board (or `/anima hand`); I won't try DMs again."
        )
        try:
            await self.channel(table.row).send(
                text,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(seat.user_id or 0)]),
            )
        except discord.HTTPException:
            log.warning("could not post the closed-DM notice in game %s", table.id)

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self, guild_id: int, channel_id: int, user_id: int, name: str, turn_cap: int
    ) -> tuple[GameRow | None, list[SeatRow]]:
        """A new lobby, or (None, []) when the channel already has a game."""
        options = Options(turn_cap=turn_cap).model_dump()
        game_id = await self.storage.create_lobby(
            guild_id, channel_id, user_id, name, options, now()
        )
        if game_id is None:
            return None, []
        row = await self.storage.game(game_id)
        return row, await self.storage.seats(game_id)

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

    @staticmethod
    def _renumber(seats: list[SeatRow]) -> list[SeatRow]:
        # Seat ids follow the order of joining: p1..p5 (the engine's player names).
        for i, s in enumerate(seats):
            s.seat, s.position = f"p{i + 1}", i
        return seats

    async def lobby_join(self, game_id: int, user_id: int, name: str) -> LobbyResult:
        async with self.lock(game_id):
            row, seats, error = await self._lobby(game_id)
            if row is None:
                return LobbyResult(error)
            if any(s.user_id == user_id for s in seats):
                return LobbyResult("You have already joined.")
            if len(seats) >= MAX_SEATS:
                return LobbyResult("The table is full (5 seats).")
            seats.append(SeatRow(game_id, "", 0, user_id, name))
            await self.storage.set_seats(game_id, self._renumber(seats))
            return LobbyResult(row=row, seats=seats)

    async def lobby_leave(self, game_id: int, user_id: int) -> LobbyResult:
        async with self.lock(game_id):
            row, seats, error = await self._lobby(game_id)
            if row is None:
                return LobbyResult(error)
            if not any(s.user_id == user_id for s in seats):
                return LobbyResult("You are not in this lobby.")
            seats = [s for s in seats if s.user_id != user_id]
            humans = [s for s in seats if s.user_id is not None]
            if not humans:
                await self.storage.stop_game(game_id, "cancelled", now())
                return LobbyResult(row=row, seats=[], closed="Everybody left: the lobby is closed.")
            if row.host_id == user_id:
                row.host_id = humans[0].user_id or 0
                await self.storage.update_game(game_id, host_id=row.host_id)
            await self.storage.set_seats(game_id, self._renumber(seats))
            return LobbyResult(row=row, seats=seats)

    async def lobby_add_ai(self, game_id: int, user_id: int, admin: bool) -> LobbyResult:
        async with self.lock(game_id):
            lobby = await self._host_lobby(
                game_id, user_id, admin, "Only the host can add AI players."
            )
            if isinstance(lobby, LobbyResult):
                return lobby
            row, seats = lobby
            if len(seats) >= MAX_SEATS:
                return LobbyResult("The table is full (5 seats).")
            taken = {s.name for s in seats if s.user_id is None}
            number = next(n for n in range(1, 10) if f"AI {n}" not in taken)
            seats.append(SeatRow(game_id, "", 0, None, f"AI {number}", ai=True))
            await self.storage.set_seats(game_id, self._renumber(seats))
            return LobbyResult(row=row, seats=seats)

    async def lobby_option(
        self, game_id: int, user_id: int, admin: bool, what: str, values: Sequence[str]
    ) -> LobbyResult:
        """The host changes the sets, optional rules, edition options or the timer."""
        async with self.lock(game_id):
            lobby = await self._host_lobby(
                game_id, user_id, admin, "Only the host can change the options."
            )
            if isinstance(lobby, LobbyResult):
                return lobby
            row, seats = lobby
            options = dict(row.options)
            tree = options.get("tree_of_regions", "off")
            if what == "sets":
                options["sets"] = list(values) or ["shadow_of_omega"]
            elif what == "rules":
                options["tree_of_regions"] = (
                    (tree if tree != "off" else "soo") if "O1" in values else "off"
                )
                options["both_missions"] = "O2" in values
                options["open_rolls"] = "O3" in values
            elif what == "edition":
                options["final_reveal"] = "immediate" if "V1" in values else "choose"
                options["party_tie"] = "stands" if "V2" in values else "reroll"
                options["crisis"] = "V3" not in values
                # V4 is a reading of O1: choosing it switches the Tree of Regions on.
                if "V4" in values:
                    options["tree_of_regions"] = "bge"
                elif tree == "bge":
                    options["tree_of_regions"] = "soo"
            elif what == "timer":
                value = values[0] if values else "default"
                row.decision_timer = None if value == "default" else int(value)
                await self.storage.update_game(game_id, decision_timer=row.decision_timer)
            row.options = Options.model_validate(options).model_dump()
            await self.storage.update_game(game_id, options=row.options)
            return LobbyResult(row=row, seats=seats)

    async def lobby_cancel(self, game_id: int, user_id: int, admin: bool) -> LobbyResult:
        async with self.lock(game_id):
            lobby = await self._host_lobby(
                game_id,
                user_id,
                admin,
                "Only the host (or a member with Manage Server) can cancel.",
            )
            if isinstance(lobby, LobbyResult):
                return lobby
            row, seats = lobby
            await self.storage.stop_game(game_id, "cancelled", now())
            return LobbyResult(row=row, seats=seats, closed="The lobby was cancelled.")

    async def lobby_start(self, game_id: int, user_id: int, admin: bool) -> LobbyResult:
        """Deal the game, let AI seats choose their start, post the board, DM the secrets."""
        async with self.lock(game_id):
            lobby = await self._host_lobby(
                game_id, user_id, admin, "Only the host can start the game."
            )
            if isinstance(lobby, LobbyResult):
                return lobby
            row, seats = lobby
            if len(seats) < MIN_SEATS:
                return LobbyResult("A game needs at least 2 seats: invite a friend or add an AI.")
            options = Options.model_validate(row.options)
            fixed = self.bot.settings.fixed_seed
            seed = fixed if fixed is not None else secrets.randbits(62)
            try:
                game = Game.new([s.seat for s in seats], options, seed)
            except IllegalAction as exc:
                return LobbyResult(f"The game cannot start: {exc.reason}")
            settings = await self.storage.guild_settings(row.guild_id)
            decision_timer = (
                row.decision_timer if row.decision_timer is not None else settings.decision_timer
            )
            row.decision_timer, row.window_timer = decision_timer, settings.window_timer
            table = Table(row, {s.seat: s for s in seats}, game, settings)
            t = now()
            for s in seats:
                prompt = game.prompt_for(s.seat)
                if prompt is not None:
                    s.prompt_since = game.s.actions
                    self._set_deadline(table, s, prompt, t)
            who = ", ".join(s.seat for s in seats)
            opening = [NewEvent("setup", f"🎲 A game of Anima begins with {who}.")]
            ok = await self.storage.start_game(
                game_id,
                game.to_json(),
                game.s.actions,
                seed,
                decision_timer,
                settings.window_timer,
                options.model_dump(),
                [self._update(s) for s in seats],
                opening,
                t,
            )
            if not ok:
                return LobbyResult("This lobby is closed.")
            row.status, row.state_json, row.version, row.seed = "running", "", 0, seed
            self._cache[game_id] = game
            closed = f"The game has started — good luck! ({len(seats)} seats)"
            # The secret start goes out before the AI moves, while the offers are all there.
            await self._send_starts(table)
            await self._run_ai(table)
            await self.publish(table)
            return LobbyResult(row=row, seats=seats, closed=closed)

    async def _send_starts(self, table: Table) -> None:
        """DM every human his secret start; known closed DMs are told once in the channel."""
        for s in table.seats.values():
            if not s.human or s.ai:
                continue
            if s.user_id is not None and await self.storage.dm_refused(s.user_id):
                if table.settings.dms:
                    await self._tell_closed_dms(table, s)
                continue
            embed = render.start_embed(table.game, table.row, s.seat)
            view = views.private_view(table, s)
            link = jump_url(table.row.guild_id, table.row.channel_id)
            await self.dm(
                table, s, f"🎴 **Anima · game #{table.id}** in {link}", embed=embed, view=view
            )

    # ------------------------------------------------------------------ ending a game

    async def end_game(self, game_id: int, user_id: int, admin: bool) -> Reply:
        """``/anima end`` after its confirmation: stop the game without a result."""
        async with self.lock(game_id):
            row = await self.storage.game(game_id)
            if row is None or row.status not in ("lobby", "running"):
                return Reply("This game has already ended.")
            if user_id != row.host_id and not admin:
                return Reply("Only the host or a member with Manage Server can end the game.")
            if not await self.storage.stop_game(game_id, "ended", now()):
                return Reply("This game has already ended.")
            self._cache.pop(game_id, None)
            channel = self.channel(row)
            text = f"🛑 Game #{game_id} was ended by <@{user_id}> before its end; no result."
            try:
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
                for message_id in (row.board_message_id, row.lobby_message_id):
                    if message_id:
                        await channel.get_partial_message(message_id).edit(view=None)
            except discord.HTTPException:
                log.warning("could not announce the end of game %s", game_id)
            return Reply(f"Game #{game_id} has been ended.", ok=True)

    # ------------------------------------------------------------------ start-up

    async def recover(self) -> None:
        """After a (re)start: load every running game (reporting broken ones), let AI seats
        move if the bot stopped before they did, and post what was not yet posted."""
        for row in await self.storage.running_games():
            try:
                async with self.lock(row.id):
                    try:
                        table = await self.load(row.id)
                    except (NoGame, GameBroken):
                        continue
                    moved = await self._run_ai(table)
                    unpublished = await self.storage.events_after(
                        row.id, table.row.published_event_id
                    )
                    if moved or unpublished or table.row.published_version != table.game.s.actions:
                        await self.publish(table)
            except Exception:
                log.exception("could not resume game %s", row.id)
