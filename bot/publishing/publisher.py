"""After an action: the lines of what happened, who must decide now, the board under them, the
private lines (DM) and the live panels; the half-time pings."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from typing import Any

import discord

from bot import rendering
from bot.languages import public_language
from bot.publishing.base import ClickedBoard, lost_channel, pointer
from bot.publishing.restart import Restarts
from bot.storage import GameRow, Pointer, SeatRow, kill_point
from bot.storage.leases import EVENTS, PING, POST, PostClaim
from bot.table import GameBroken, Table, now
from words import SOURCE, msg, say, speaking

log = logging.getLogger("anima.publishing")

#: Posts one publish makes at most: a post left in flight by a stopped process, then its own.
MAX_POSTS = 3


class Publisher(Restarts):
    """Posts games to their channels and DMs their players. One per bot."""

    async def publish(
        self,
        table: Table,
        actor: str | None = None,
        panel: int | None = None,
        clicked: ClickedBoard | None = None,
    ) -> list[str]:
        """Post what happened since the last publish with the board and its buttons under
        it (one message: see :meth:`_post`), send private events to the players they are
        for (DM), refresh the players' live panels (``panel``: the one being answered by
        its own interaction), and return the private texts for ``actor``. ``clicked``: the
        board click being handled, whose answer may be the board's own edit.

        On a shared database (shard clusters, issue 24) the game's events are posted under
        its posting lease, from the stored pointer: the outbox (:meth:`_publish_leased`)."""
        if not self.storage.shared:
            return await self._publish(table, actor, panel, clicked)
        return await self._publish_leased(table, actor, panel, clicked)

    async def _publish_leased(
        self,
        table: Table,
        actor: str | None,
        panel: int | None,
        clicked: ClickedBoard | None,
    ) -> list[str]:
        """The outbox: claim the game's posting lease (another live process posting it now:
        nothing to do here, it posts these events too, or the timer loop's catch-up does
        once its lease expires), then post from the pointer as stored, each message with
        the nonce of its post. A post left in flight by a process that stopped is sent
        again first, as it was (the same nonces: Discord keeps one message), then the rest.
        The pointer and the lease's end are written together once the post is out."""
        row = table.row
        lines: list[str] = []
        for _ in range(MAX_POSTS):
            claim = await self.storage.begin_post(
                row.id, table.game.version, EVENTS, self.lease_seconds, now()
            )
            if claim is None:
                return lines
            if not claim.again and claim.pointer.version > table.game.version:
                # Another process posted a newer state of the game than this copy: nothing
                # of this copy is to post (its board would be older than the posted one).
                await self.storage.end_post(row.id, None)
                return lines
            self._adopt(row, claim.pointer)
            if claim.again and claim.posting.startswith(PING):
                await self._ping_again(table, claim)
                continue
            if not await self._still_ours(row.id, claim):
                return lines
            with self.nonces(row.id, claim.posting, claim.upto_event, claim.upto_version):
                lines = await self._publish(table, actor, panel, clicked, claim)
            if not claim.again:
                return lines
        return lines

    async def _still_ours(self, game_id: int, claim: PostClaim) -> bool:
        """Whether the posting lease is still this process's, renewed when half of it is
        gone: a process held up longer than its lease (another took the game's posts over)
        must not send what it was about to."""
        if time.monotonic() - claim.at < self.lease_seconds / 2:
            return True
        return await self.storage.renew(POST, game_id, self.lease_seconds, now())

    async def _orphaned(
        self, table: Table, channel: discord.PartialMessageable, stored_board: int
    ) -> None:
        """This process was held up past its posting lease while it posted: another process
        took the game's posts over meanwhile, and the board this one just posted is not the
        stored one (that process posts, or posted, its own). Its buttons would be live beside
        the game's board: it loses them, keeping its lines (the kill test found such a board
        on a loaded machine). The game is read again at its next use."""
        posted = table.row.board_message_id
        if posted and posted != stored_board:
            log.warning(
                "game %s: held up past its posting lease, board %s retired", table.id, posted
            )
            await self._retire_board(channel, posted)
        self.forget(table.id)

    @staticmethod
    def _adopt(row: GameRow, stored: Pointer) -> None:
        """The game's pointer as stored (another process may have posted since)."""
        row.published_event_id, row.published_version = stored.event_id, stored.version
        row.board_message_id, row.board_turn = stored.board_message_id, stored.board_turn

    async def _publish(
        self,
        table: Table,
        actor: str | None,
        panel: int | None,
        clicked: ClickedBoard | None,
        claim: PostClaim | None = None,
    ) -> list[str]:
        """:meth:`publish`'s post: what was not yet posted (``claim``: what the posting lease
        says to post, up to its event and version), the board, the DMs, the panels."""
        row = table.row
        g = table.game
        names = table.names
        # The version the board shows once posted.
        final = claim.upto_version if claim is not None else g.version
        if claim is not None:
            events = [
                e
                for e in await self.storage.events_after(row.id, row.published_event_id)
                if e.id <= claim.upto_event
            ]
        elif row.id in self._pending:
            events = self._pending[row.id]
            self._pending[row.id] = []
        else:
            events = await self.storage.events_after(row.id, row.published_event_id)
        damaged = [e for e in events if e.damaged]
        if damaged:
            # A row that cannot be read: its game alone stops, told once in its channel.
            self.forget(row.id)
            why = msg("notice.reason.event", event=damaged[0].id)
            # The table reads why in its language; storage, the log and the error English.
            reason = say(why, SOURCE)
            if await self.storage.stop_game(row.id, "broken", now(), reason):
                log.warning("game %s marked broken: %s", row.id, reason)
                await self.report_broken(row, why)
            raise GameBroken(reason)
        actor_lines: list[str] = []
        dms: dict[str, list[str]] = {}
        for e in events:
            if e.recipients is None:
                continue
            for r in e.recipients:
                seat = table.seats.get(r)
                if r != actor and (seat is None or not seat.human or seat.ai):
                    continue
                # Each reader's line in his own language.
                with speaking(await self.reader(row, seat)):
                    line = rendering.event_line(e, names, table.game.db)
                if r == actor:
                    actor_lines.append(line)
                else:
                    dms.setdefault(r, []).append(line)
        public = [e for e in events if e.recipients is None]
        channel = self.channel(row)
        with speaking(public_language(row)):
            lines = rendering.event_lines(public, names, table.game.db)
            pings, users = self._prompt_lines(table, actor)
            if any(e.kind == "paused" for e in public):
                # The one ping of a pause: every seated member, the AI's seats included.
                humans = [s for s in table.seats.values() if s.user_id is not None]
                who = " ".join(f"<@{s.user_id}>" for s in humans)
                pings.append(f"⏸️ {say(msg('notice.paused', players=who))}")
                users += [discord.Object(s.user_id or 0) for s in humans]
            if claim is not None and claim.again and not lines + pings:
                # A post sent again must be a message, as it may have been the first time
                # (its lines were who decides then): the same nonce gives that one back.
                pings = [f"🗺️ **{say(msg('notice.game', game=row.id))}**"]
            try:
                changed = bool(events) or row.published_version != final
                await self._post(table, channel, lines + pings, users, changed, clicked, public)
                kill_point("after post")
                if g.over and final == g.version and row.published_version != final:
                    await channel.send(
                        embed=await self.summary(table, events),
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
            except discord.HTTPException as exc:
                if lost_channel(exc):
                    # Nothing is marked posted: it all goes out when the channel is back.
                    log.warning("game %s: its channel refuses the bot (%s)", row.id, exc.code)
                    self.forget(row.id)
                    if claim is not None:
                        await self.storage.end_post(row.id, None)
                    if self.on_channel_lost is not None:
                        await self.on_channel_lost(table, self._why_lost(exc))
                    return actor_lines
                log.exception("could not post to the channel of game %s", row.id)
        row.published_event_id = events[-1].id if events else row.published_event_id
        row.published_version = final
        kill_point("before pointer")
        if claim is not None:
            row.published_event_id = max(row.published_event_id, claim.upto_event)
            stored_board = await self.storage.end_post(row.id, pointer(row))
            if stored_board is not None:
                await self._orphaned(table, channel, stored_board)
        else:
            await self.save_pointer(table)
        for seat_id, private in dms.items():
            seat = table.seats[seat_id]
            with speaking(await self.reader(row, seat)):
                head = say(msg("notice.game", game=row.id))
            text = "\n".join(f"🔒 {line}" for line in private)
            await self.dm(table, seat, f"**{head}**\n{text}")
        told = {r for e in events if e.recipients is not None for r in e.recipients}
        await self.panels.refresh(table, skip=panel, told=told)
        return actor_lines

    @staticmethod
    def _why_lost(exc: discord.HTTPException) -> str:
        """Why the channel refuses the bot, as a reason code (``rendering.channel_reason``)."""
        return "deleted" if exc.code in (10003, 10004) else "forbidden"

    def _prompt_lines(self, table: Table, actor: str | None) -> tuple[list[str], list[Any]]:
        """Who must decide now, for decisions that appeared since the last publish (in the
        current language: the game's). These lines stay in the channel, so a time in them is
        absolute (``<t:…:T>``): a relative one would read "closes 6 seconds ago" for ever."""
        g = table.game
        if g.over or table.row.status != "running" or table.paused:
            return [], []
        published = table.row.published_version
        names = table.names
        waiting = {w.player: w for w in table.table_view().waiting}
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
            text = rendering.waiting_text(waiting[first.player], names, g.db)
            deadline = table.seats[first.player].deadline
            button = say(msg("button.respond"))
            if deadline:
                when = rendering.at_time(deadline)
                line = msg("notice.window.closes", decision=text, button=button, time=when)
            else:
                line = msg("notice.window", decision=text, button=button)
            return [f"⚡ {say(line)}"], []
        lines, users = [], []
        humans = [p for p in fresh if not table.seats[p.player].ai and p.player != actor]
        if not humans:
            return [], []
        if all(p.kind.startswith("start_") for p in humans) and len(prompts) > 1:
            who = " ".join(names.mention(p.player) for p in humans)
            start = msg(
                "notice.start.dms" if table.settings.dms else "notice.start",
                players=who,
                button=say(msg("button.start")),
            )
            lines.append(f"🎴 {say(start)}")
        else:
            for p in humans:
                text = rendering.waiting_text(waiting[p.player], names, g.db)
                lines.append(f"➡️ {names.mention(p.player)}: {text}")
        users = [
            discord.Object(table.seats[p.player].user_id or 0)
            for p in humans
            if table.seats[p.player].user_id
        ]
        if table.row.slow:
            # A slow game pings each member once, privately when it can and never in his
            # quiet hours (bot.slow): these lines name him without pinging him.
            users = []
        return lines, users

    async def post_pings(self, table: Table, seats: Sequence[SeatRow]) -> None:
        """Tell the players of ``seats`` that half of their time is gone; the ping carries
        the board and its buttons (no link to follow). On a shared database, under the
        game's posting lease, after what is still to post, and written down with its claim
        (its lines and mentions: sent again as they were if this process stops)."""
        lines = []
        users = []
        with speaking(public_language(table.row)):
            for s in seats:
                who, when = table.names.mention(s.seat), rendering.at_time(s.deadline)
                lines.append(f"⏰ {say(msg('notice.half_time', player=who, time=when))}")
                if s.user_id:
                    users.append(s.user_id)
        await self.ping_lines(table, lines, users)

    async def ping_lines(self, table: Table, lines: list[str], users: list[int]) -> None:
        """Post ``lines`` that ping ``users`` (said in the game's language), the board under
        them: a half-time ping, a slow game's ping in the channel (bot.slow)."""
        if not self.storage.shared:
            await self.post_lines(table, lines, [discord.Object(u) for u in users])
            return
        await self._publish_leased(table, None, None, None)
        ping = PING + json.dumps({"lines": lines, "users": users})
        claim = await self.storage.begin_post(
            table.id, table.game.version, ping, self.lease_seconds, now()
        )
        if claim is None or claim.again:
            return  # another process posts the game now; the ping is its turn's board
        self._adopt(table.row, claim.pointer)
        await self._post_ping(table, claim)

    async def _ping_again(self, table: Table, claim: PostClaim) -> None:
        """A ping left in flight by a process that stopped: sent again as it was."""
        await self._post_ping(table, claim)

    async def _post_ping(self, table: Table, claim: PostClaim) -> None:
        """Post the ping written down in ``claim`` under its nonces, then its pointer."""
        said = json.loads(claim.posting[len(PING) :])
        users = [discord.Object(u) for u in said["users"]]
        row = table.row
        if not await self._still_ours(row.id, claim):
            return
        # Its lines in its nonce: two pings of one version (two seats' deadlines) differ.
        with self.nonces(row.id, claim.posting, claim.upto_event, claim.upto_version):
            try:
                with speaking(public_language(row)):
                    await self._post(table, self.channel(row), said["lines"], users)
            except discord.HTTPException:
                log.warning("could not post to the channel of game %s", table.id)
                # A board that went out before the failure is the game's board all the same.
                moved = row.board_message_id != claim.pointer.board_message_id
                await self.storage.end_post(row.id, pointer(row) if moved else None)
                return
        await self.storage.end_post(row.id, pointer(row))
