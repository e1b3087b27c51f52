"""Changing a running game: apply an action in memory and queue it with its events, commit
what changed in one transaction (state, actions, events, seats, pause, publish pointer) with
a version check, the seats' bookkeeping (prompt versions, deadlines), the loop that answers
the AI seats and the members' auto-passes, and pausing (the channel lost) and resuming.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from bot import rendering
from bot.autopass import auto_action
from bot.games.cache import GameCache
from bot.languages import reader_language
from bot.publishing import pointer
from bot.storage import EventRow, Finish, GameWrite, NewEvent, SeatRow, kill_point
from bot.table import Table, now, seat_update
from engine import (
    DEFAULT_LEVEL,
    LEVELS,
    ChoiceData,
    IllegalAction,
    Prompt,
    PromptView,
    Refusal,
    lazy_seat_view,
    make_agent,
)
from words import listing, msg, say, speaking

log = logging.getLogger("anima.games")

#: What a paused game's host must give the bot back in its channel (Discord's flags; their
#: names are the catalog's ``permission.<flag>``, as Discord's settings show them).
CHANNEL_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "read_message_history")

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


@dataclass
class _Batch:
    """What changed in a game since its last commit."""

    #: The stored version the commit expects.
    expected: int
    actions: list[tuple[int, str, str, str]] = field(default_factory=list)
    events: list[tuple[int, NewEvent]] = field(default_factory=list)


#: What tells two prompts of a seat apart (see :func:`_prompt_key`).
PromptKey = tuple[str, str, tuple[str, ...], str, bool]


def _prompt_key(prompt: Prompt) -> PromptKey:
    """A prompt's fields as a snapshot that compares by value: a seat whose prompt is the
    same after an action keeps its prompt version and deadline. (Cheaper than
    ``prompt.to_dict()``, which deep-copies, and this runs for every seat at every action.)"""
    return (prompt.kind, prompt.text, tuple(prompt.choices), prompt.default, prompt.window)


class GameTurns(GameCache):
    """What changes a running game, and its commit."""

    def _compose(self) -> None:
        super()._compose()
        self._batches: dict[int, _Batch] = {}
        self.publisher.on_channel_lost = self._channel_lost

    def drop(self, game_id: int) -> None:
        """Forget a game's cached copy and anything not yet committed (see
        :meth:`GameCache.drop`), its queued actions and events too."""
        super().drop(game_id)
        self._batches.pop(game_id, None)

    async def apply(self, table: Table, seat: str, action: str | None, source: str) -> None:
        """Apply one action (``None``: the seat's time-out default) in memory and queue it
        for the next :meth:`commit` (``run_ai`` commits when the AI seats are done).

        Raises IllegalAction (nothing changed). Any other failure drops the cached game so
        the next load starts again from the last committed state.
        """
        g = table.game
        prompt = g.prompt_for(seat)
        if prompt is None and action != "undo":  # an undo answers no prompt (issue 25)
            waiting = tuple(sorted({p.player for p in g.pending()}))
            raise IllegalAction(
                Refusal.NOT_YOUR_DECISION, "it is not your decision", waiting=waiting
            )
        before = {p.player: _prompt_key(p) for p in g.pending()}
        # The choice as it was offered: whether the time-out's note may name it.
        offered = table.prompt_view(seat) if action is None else None
        try:
            if action is None:
                assert prompt is not None  # a time-out is of an open decision
                raw = g.timeout(seat)
                action = prompt.default
            else:
                # A member's own decision may be taken back while nothing is revealed.
                raw = g.apply(seat, action, undoable=source == "human")
        except IllegalAction:
            raise
        except Exception:
            self.drop(table.id)
            raise
        batch = self._batch(table)
        window = prompt is not None and prompt.window
        for e in raw:
            if e.kind == "timeout" and source == "timeout":
                # A window's time-outs get one line for all (see bot.timers).
                if not window and offered is not None:
                    batch.events.append((g.version, self._timeout_note(table, offered, action)))
            elif e.kind == "timeout_private" and window:
                # A window closes by itself when nobody answers it (issue 23): that is how
                # it is passed, not a missed decision, so no DM says "time ran out: Pass".
                continue
            else:
                data = dict(e.data)
                if e.kind == "timeout_private" and offered is not None:
                    # The default, for the player alone (it may name his card): its action
                    # and data, worded in his language when he reads it; the English label
                    # for older readers of the log.
                    chosen = next((c for c in offered.choices if c.action == action), None)
                    data["action"] = action
                    if chosen is not None:
                        data["label"] = rendering.action_label(chosen, g.db)
                        data["choice_data"] = ChoiceData.model_validate(
                            chosen.model_dump(include=set(ChoiceData.model_fields))
                        ).model_dump()
                batch.events.append((g.version, NewEvent(e.kind, e.text, e.to, data)))
        batch.actions.append((g.version, seat, action, source))
        # A card played in a reaction window re-opens it for everybody: all new prompts.
        reopened = window and not action.startswith("pass")
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

    async def rate(self, game_id: int) -> None:
        """Rate a game that is over and was not (issue 25: once, if its lobby's option was on
        and two members or more sat at it; a game's last commit rates it, in its
        transaction). A failure is logged and leaves the game to the next start's."""
        try:
            await self.storage.rate_game(game_id, now(), DEFAULT_LEVEL)
        except Exception:
            log.exception("game %s: could not update the ratings", game_id)

    def _timeout_note(self, table: Table, prompt: PromptView, action: str) -> NewEvent:
        """The engine's time-out note names the default action, which may be a hidden card:
        the table reads a neutral line; the player alone reads the choice."""
        choice = next(c for c in prompt.choices if c.action == action)
        # Seat ids stay in the label: the renderer puts in the escaped names.
        label = rendering.action_label(choice, table.game.db)
        if not choice.public:
            return NewEvent("timeout", "", data={"player": prompt.player, "choice": None})
        # The action and its data let every reader's language word the default; the English
        # label stays for older readers of the log.
        data = ChoiceData.model_validate(choice.model_dump(include=set(ChoiceData.model_fields)))
        return NewEvent(
            "timeout",
            "",
            data={
                "player": prompt.player,
                "choice": rendering.without_rule_ids(label),
                "action": action,
                "choice_data": data.model_dump(),
            },
        )

    def _bookkeeping(self, table: Table, before: dict[str, PromptKey], reopened: bool) -> None:
        """Update every seat's prompt version and deadline after an action."""
        g = table.game
        version = g.version
        t = now()
        for s in table.seats.values():
            prompt = g.prompt_for(s.seat)
            if prompt is None:
                s.prompt_since, s.deadline, s.half_at, s.pinged = None, None, None, False
                s.ping_at = None
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
        return Finish(view.winner, view.ending, results, DEFAULT_LEVEL)

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
        self.note(table, NewEvent("resumed", "", data={"player": seat.seat}))
        # The clicker's seat may have been the AI's: it may have to decide now (run_ai
        # commits the resumption with whatever the AI does).
        await self.run_ai(table)
        return True

    async def _channel_lost(self, table: Table, code: str) -> None:
        """The game's channel refuses the bot mid-game (fault 4): pause the game (no timer
        runs out while nobody can see it) and tell the host privately, once per pause; any
        seated member's click resumes it and posts everything not yet posted."""
        if table.row.status != "running" or table.paused:
            return
        t = now()
        table.row.paused_at = t
        for s in table.seats.values():
            s.deadline, s.half_at, s.pinged = None, None, False
        # The event keeps the reason's code: the renderer words it.
        self.note(table, NewEvent("channel_paused", "", data={"reason": code}))
        await self.commit(table)
        # A DM to the host: in his language (the one he chose, or his last Discord locale).
        with speaking(await reader_language(self.storage, table.row.host_id)):
            needed = listing([msg(f"permission.{p}") for p in CHANNEL_PERMISSIONS])
            paused = msg(
                "play.channel_lost",
                game=table.id,
                channel=f"<#{table.row.channel_id}>",
                reason=rendering.channel_reason(code),
                permissions=needed,
            )
            await self.publisher.tell_host(table.row, say(paused))
