"""Games at the slow pace (issue 26): the pings of a game played over days, and the table's
vote on an absent member's seat. :mod:`bot.timers` calls it for every slow game; its rules are
in that module's docstring.

- **Pings.** A member whose decision opens gets one ping (:data:`bot.table.PING_GRACE` later,
  if he has not answered meanwhile), one reminder at half time, and, if he asked for it
  (``/anima settings heads_up``), a "you are next" heads-up when the member before him gets
  his ping. A ping is a DM with a link to the game's newest message when he allows DMs
  (:meth:`bot.publishing.Publisher.dm`), else a mention in the game's channel. A ping due in
  his quiet hours (:mod:`bot.quiet`) waits for their end. A decision that runs out pings its
  member again: his next decision's ping, or one saying the default was taken. What is
  pending lives in the seat's row (:attr:`bot.storage.SeatRow.slow_json`), so it survives a
  restart; it is committed as done *before* it is sent (a crash between loses a ping rather
  than sending it twice).
- **The vote.** After ``away_after`` time-outs in a row (the server's AI-takeover count) the
  other seated members vote: give the seat to an AI player, or wait. The vote closes when all
  of them voted, or after the game's decision timer; the majority of the ballots decides, and
  a tie is the host's ballot (no ballot of his: the table waits). Waiting starts the count of
  time-outs again; the member's own click closes the vote (he is back).
"""

from __future__ import annotations

import logging

import discord

from bot import rendering
from bot.components.vote import vote_view
from bot.games.play import answering
from bot.games.service import Games
from bot.languages import public_language, reader_language
from bot.publishing import Publisher
from bot.quiet import Quiet
from bot.storage import NewEvent, SeatRow, Storage
from bot.table import PING_GRACE, NoGame, Reply, Table, jump_url, now
from words import Message, msg, say, speaking

log = logging.getLogger("anima.slow")

#: A ballot's choices.
CHOICES = ("ai", "wait")


class Slow:
    """Pings, reminders, heads-ups and votes of slow games. One per bot."""

    def __init__(self, storage: Storage, games: Games, publisher: Publisher) -> None:
        self.storage = storage
        self.games = games
        self.publisher = publisher
        #: Votes opened by a time-out, whose message is still to post: (game, seat).
        self._to_post: set[tuple[int, str]] = set()

    # ------------------------------------------------------------------ pings

    async def ping(self, table: Table, t: float) -> None:
        """Send the pings, reminders and heads-ups due at ``t`` (moving those that fall in
        their member's quiet hours to the quiet hours' end)."""
        g = table.game
        sends: list[tuple[SeatRow, str]] = []
        changed = False
        for s in table.seats.values():
            quiet = table.quiet.get(s.user_id or 0)
            prompt = g.prompt_for(s.seat)
            deciding = (
                prompt is not None
                and not prompt.window
                and not s.ai
                and s.deadline is not None
                and s.deadline > t
            )
            if s.ping_at is not None and s.ping_at <= t:
                changed = True
                s.ping_at, send = _settle(t, not deciding, quiet)
                if send:
                    sends.append((s, "open"))
                    await self._heads_up(table, s, t)
            if s.half_at is not None and s.half_at <= t and not s.pinged:
                changed = True
                if not deciding:
                    s.pinged = True
                elif s.ping_at is not None:
                    s.half_at = s.ping_at  # the reminder comes after the ping, never first
                elif quiet is not None and quiet.quiet_at(t):
                    s.half_at = quiet.ends(t)
                else:
                    s.pinged = True
                    sends.append((s, "half"))
            if s.missed_at is not None and s.missed_at <= t:
                changed = True
                # A new decision of his: its own ping tells him again.
                s.missed_at, send = _settle(t, deciding or s.ai, quiet)
                if send:
                    sends.append((s, "missed"))
            if s.heads_at is not None and s.heads_at <= t:
                changed = True
                # Already deciding himself: his own decision's ping says more.
                s.heads_at, send = _settle(t, prompt is not None or s.ai, quiet)
                if send:
                    sends.append((s, "next"))
        if not changed:
            return
        await self.games.commit(table, touched=True)
        channel: list[tuple[SeatRow, str]] = []
        for s, kind in sends:
            if not await self._dm(table, s, kind):
                channel.append((s, kind))
        if channel:
            with speaking(public_language(table.row)):
                lines = [self._line(table, s, kind) for s, kind in channel]
            await self.publisher.ping_lines(table, lines, [s.user_id or 0 for s, _ in channel])

    async def _heads_up(self, table: Table, s: SeatRow, t: float) -> None:
        """The member after ``s`` (in seat order) gets his heads-up, if he wants it."""
        order = sorted(table.seats.values(), key=lambda o: o.position)
        i = order.index(s)
        for o in order[i + 1 :] + order[:i]:
            if o.human and not o.ai:
                if not o.headed and (await self.storage.member_pings(o.user_id or 0)).heads_up:
                    o.heads_at, o.headed = t, True
                return

    def _line(self, table: Table, s: SeatRow, kind: str) -> str:
        """A ping's words (in the current language), with the link to the newest message."""
        row = table.row
        link = jump_url(row.guild_id, row.channel_id, row.board_message_id)
        who = table.names.mention(s.seat)
        when = rendering.at_time(s.deadline) if s.deadline is not None else ""
        icon = {"open": "🔔", "half": "⏰", "next": "👀", "missed": "⌛"}[kind]
        text: Message = msg(f"slow.ping.{kind}", player=who, game=row.id, time=when, link=link)
        return f"{icon} {say(text)}"

    async def _dm(self, table: Table, s: SeatRow, kind: str) -> bool:
        """The ping as a DM (in the member's language); False if he gets none."""
        if s.user_id is None:
            return False
        with speaking(await reader_language(self.storage, s.user_id)):
            text = self._line(table, s, kind)
        return await self.publisher.dm(table, s, text) is not None

    def missed(self, s: SeatRow, t: float) -> None:
        """``s``'s decision ran out (its default taken): he is pinged again, by his next
        decision's ping or, if none opens, by one saying so."""
        s.missed_at = t + PING_GRACE

    # ------------------------------------------------------------------ votes

    def open_vote(self, table: Table, s: SeatRow, t: float) -> None:
        """``s`` timed out ``away_after`` times in a row: the table votes on his seat (its
        message is posted by :meth:`post_votes`, after the time-out is published)."""
        if s.vote_until is not None or not _voters(table, s):
            return
        s.vote_until = t + (table.row.decision_timer or 3600)
        s.ballots = {}
        data = {"player": s.seat, "times": s.timeouts}
        self.games.note(table, NewEvent("vote_open", "", data=data))
        self._to_post.add((table.id, s.seat))

    async def post_votes(self, table: Table) -> None:
        """Post the message of each vote opened in this game (its buttons, the voters
        mentioned unless they are in their quiet hours)."""
        for seat in [s for g, s in self._to_post if g == table.id]:
            self._to_post.discard((table.id, seat))
            s = table.seats[seat]
            if s.vote_until is None:
                continue
            t = now()
            voters = [
                o.user_id or 0
                for o in _voters(table, s)
                if not ((q := table.quiet.get(o.user_id or 0)) and q.quiet_at(t))
            ]
            with speaking(public_language(table.row)):
                text = say(
                    msg(
                        "slow.vote",
                        player=table.names.mention(s.seat),
                        voters=" ".join(table.names.mention(o.seat) for o in _voters(table, s)),
                        time=rendering.at_time(s.vote_until),
                    )
                )
                view = vote_view(table.id, s.seat)
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in voters])
            try:
                await self.publisher.channel(table.row).send(
                    text, view=view, allowed_mentions=mentions
                )
            except discord.HTTPException:
                log.warning("could not post the vote of game %s", table.id)

    def close_votes(self, table: Table, t: float) -> bool:
        """Close the votes whose time is up; True if any was closed."""
        due = [s for s in table.seats.values() if s.vote_until is not None and s.vote_until <= t]
        for s in due:
            self._decide(table, s)
        return bool(due)

    def _decide(self, table: Table, s: SeatRow) -> None:
        """Count the ballots on ``s``'s seat: the majority, a tie the host's ballot (none:
        the table waits)."""
        ballots = list(s.ballots.values())
        ai, wait = ballots.count("ai"), ballots.count("wait")
        host = s.ballots.get(str(table.row.host_id))
        give = ai > wait or (ai == wait and host == "ai")
        s.vote_until, s.ballots = None, {}
        data = {"player": s.seat}
        if give and not s.ai:
            s.ai = True
            s.deadline, s.half_at, s.ping_at = None, None, None
            self.games.note(table, NewEvent("vote_ai", "", data=data))
        else:
            s.timeouts = 0
            self.games.note(table, NewEvent("vote_wait", "", data=data))

    @answering
    async def vote(self, game_id: int, user_id: int, seat: str, choice: str) -> Reply:
        """A member's ballot on ``seat`` (``ai`` or ``wait``)."""
        async with self.games.lock(game_id):
            try:
                table = await self.games.load(game_id)
            except NoGame:
                return Reply(say(msg("slow.vote.closed")))
            s = table.seats.get(seat)
            if (
                s is None
                or s.vote_until is None
                or table.row.status != "running"
                or choice not in CHOICES
            ):
                return Reply(say(msg("slow.vote.closed")))
            if all(o.user_id != user_id for o in _voters(table, s)):
                return Reply(say(msg("slow.vote.not_yours")))
            s.ballots[str(user_id)] = choice
            done = len(s.ballots) >= len(_voters(table, s))
            if done:
                self._decide(table, s)
                if s.ai:
                    await self.games.run_ai(table)
            await self.games.commit(table, touched=True)
            if done:
                await self.publisher.publish(table)
            return Reply(say(msg(f"slow.vote.counted.{choice}")), ok=True)


def _settle(t: float, drop: bool, quiet: Quiet | None) -> tuple[float | None, bool]:
    """A pending ping due at ``t``: (when it is due now, whether to send it now): dropped
    (``drop``: no longer wanted), moved to the end of the member's quiet hours, or sent."""
    if drop:
        return None, False
    if quiet is not None and quiet.quiet_at(t):
        return quiet.ends(t), False
    return None, True


def _voters(table: Table, s: SeatRow) -> list[SeatRow]:
    """Who votes on ``s``'s seat: every other seated member who plays his seat himself."""
    return [o for o in table.seats.values() if o.human and not o.ai and o.seat != s.seat]
