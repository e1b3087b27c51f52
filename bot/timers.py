"""Deadlines: half-time pings, time-outs (X6) of due decisions and reaction windows, the AI
takeover of a seat after too many time-outs in a row, and the pause when everybody is away.

Away and pause (issue 8). Only real decisions count: a reaction window's time-out does not
(everybody times out of a window together), nor do the setup choices (leader and Advantages,
``start_*`` prompts), which a newcomer may well miss once. A seat whose member let
``Table.away_after`` real decisions in a row time out (the server's ``ai_takeover``, or 3 when
takeover is off) is *away*. When a seat becomes away:

- if another seat is still *present* (a member plays it himself and is not away), the AI takes
  the seat over (when the server allows takeovers) and the game goes on;
- otherwise every human is away: the AI never takes that last human seat; the game **pauses**
  instead. Its deadlines are cleared (no timer runs, ``games.paused_at`` is set, so this survives
  a restart), the board says so and one message pings every seated member. The first click of
  any seated member (a board or panel button, **My hand**, ``/anima hand`` or ``/anima play``)
  resumes it (:meth:`bot.games.service.Games.resume`): every open decision gets a fresh deadline.

Slow games (issue 26, the lobby's pace; :mod:`bot.slow`). A decision's timer is counted in
hours (the server's ``slow_timer``, 12 h by default, or the lobby's choice) and **does not run
down during its member's quiet hours** (``/anima settings quiet_hours``, in his time zone):
his deadline, and his half time, are moved on by the quiet hours they overlap
(:meth:`bot.quiet.Quiet.active_after`), computed when the decision opens. A reaction window is
everybody's: it closes when every player in it answered, or after the server's
``slow_window`` (1 h by default), quiet hours or not, and pings nobody (the auto-pass answers
it for a member who wants). A member is pinged once per decision (a DM when he allows them,
else a mention in the channel; never in his quiet hours: a ping due then waits for their end)
and reminded once at half time. A time-out takes the default as in a live game and pings the
member again (his next decision's ping, or one saying the default was taken), but **never
gives a seat to the AI without the table's say**: when a seat becomes away (above), if another
seat is present and the server allows takeovers, the other seated members vote (AI or wait,
:class:`bot.slow.Slow`); waiting starts the count again. When every human is away the game
pauses, as a live one does.

Deadlines live in the seats' rows (see :class:`bot.table.Table.set_deadline`), so they survive
restarts; the bot's timer loop (:mod:`bot.app`) asks storage which games have one due and
calls :meth:`Timers.run` for each. What a pass changes (time-outs, notices, a takeover, the
pause) is committed with :meth:`bot.games.service.Games.commit`, one transaction, before it
is posted.
"""

from __future__ import annotations

from bot.games.service import Games
from bot.publishing import Publisher
from bot.slow import Slow
from bot.storage import NewEvent, SeatRow, Storage
from bot.table import MAX_SEATS, GameBroken, NoGame, Table, now

#: Time-outs applied in one pass at most (every seat, every window of a few cascades).
MAX_TIMEOUTS = MAX_SEATS * 50


class Timers:
    """Applies what is due in a game: pings, time-outs, takeovers. One per bot."""

    def __init__(self, storage: Storage, games: Games, publisher: Publisher) -> None:
        self.storage = storage
        self.games = games
        self.publisher = publisher
        #: Slow games' pings and votes.
        self.slow = Slow(storage, games, publisher)

    async def run(self, game_id: int) -> None:
        """Half-time pings, then time-outs (X6) of every due decision, AI takeovers."""
        async with self.games.lock(game_id):
            try:
                table = await self.games.load(game_id)
            except (NoGame, GameBroken):
                return
            if table.row.status != "running" or table.paused:
                return
            t = now()
            closed = False
            if table.row.slow:
                await self.slow.ping(table, t)
                closed = self.slow.close_votes(table, t)
                if closed:
                    await self.games.run_ai(table)  # a seat the table gave to the AI
            else:
                await self._ping(table, t)
            if await self._time_out(table, t) or closed:
                await self.games.commit(table)
                await self.publisher.publish(table)
            if table.row.slow:
                await self.slow.post_votes(table)

    async def _ping(self, table: Table, t: float) -> None:
        g = table.game
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
            await self.games.commit(table, touched=True)
            await self.publisher.post_pings(table, pings)

    async def _time_out(self, table: Table, t: float) -> bool:
        """Apply the defaults of every decision due at ``t``; True if anything changed."""
        g = table.game
        changed = False
        for _ in range(MAX_TIMEOUTS):
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
                # Everybody still in the window passes at once (X6): that is how a window
                # nobody answers closes (issue 23). The table is told before the last pass,
                # whose events are those of the game going on (the Encounter revealed...).
                still = [s for s in windows if (p := g.prompt_for(s.seat)) and p.window]
                for s in still[:-1]:
                    await self.games.apply(table, s.seat, None, "timeout")
                self.games.note(table, NewEvent("window_closed", ""))
                last = g.prompt_for(still[-1].seat) if still else None
                if last is not None and last.window:
                    await self.games.apply(table, still[-1].seat, None, "timeout")
            else:
                s = due[0]
                # The setup choices do not count towards being away (see the module's doc).
                prompt = g.prompt_for(s.seat)
                counts = prompt is not None and not prompt.kind.startswith("start_")
                if counts:
                    s.timeouts += 1
                await self.games.apply(table, s.seat, None, "timeout")
                if table.row.slow:
                    self.slow.missed(s, t)
                if counts and s.timeouts >= table.away_after and not g.over:
                    if not any(table.present(o) for o in table.seats.values()):
                        await self.games.run_ai(table)
                        if not g.over:
                            await self._pause(table)
                        break
                    if table.row.slow:
                        if table.settings.ai_takeover:
                            self.slow.open_vote(table, s, t)
                    elif table.settings.ai_takeover:
                        await self._takeover(table, s)
            await self.games.run_ai(table)
        return changed

    async def _pause(self, table: Table) -> None:
        """Every human is away: stop every clock until a seated member clicks."""
        t = now()
        table.row.paused_at = t
        for s in table.seats.values():
            s.deadline, s.half_at, s.pinged = None, None, False
        self.games.note(table, NewEvent("paused", ""))
        await self.games.commit(table)

    async def _takeover(self, table: Table, s: SeatRow) -> None:
        s.ai = True
        s.deadline, s.half_at = None, None
        data = {"player": s.seat, "times": s.timeouts}
        self.games.note(table, NewEvent("takeover", "", data=data))
