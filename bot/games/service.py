"""The game service as the bot composes it (:class:`Games`, one per bot): the players'
requests (:mod:`bot.games.play`) and, here, what the commands show (``/anima board``,
``play``'s suggestions, ``log``, ``history``), the end of a game (``/anima end``) and the
catch-up after a restart.
"""

from __future__ import annotations

import asyncio
import logging

from bot import history, rendering
from bot.components.end import end_view
from bot.components.game_views import board_view
from bot.games.play import answering
from bot.games.undo import GameUndo
from bot.storage.leases import AI
from bot.table import NO_GAME, GameBroken, NoGame, Reply, Table, jump_url, now
from engine import Game
from words import msg, say

log = logging.getLogger("anima.games")

#: Events ``/anima log`` reads (the latest 30 lines the user may see are shown).
LOG_EVENTS = 60


class Games(GameUndo):
    """Everything that changes a running game. One per bot."""

    @answering
    async def board(self, game_id: int) -> Reply:
        """``/anima board``: the current board, with a link to it in the channel."""
        async with self.lock(game_id):
            try:
                table = await self.load(game_id)
            except (NoGame, GameBroken) as exc:
                return Reply(say(msg("play.cannot_show", reason=str(exc))))
            row = table.row
            link = jump_url(row.guild_id, row.channel_id, row.board_message_id)
            embed = rendering.board_embed(table.table_view(), table.game.db, row, table.seats)
            return Reply(say(msg("play.board_link", link=link)), embed, board_view(table))

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
            names = rendering.seat_names(seats)
            return Reply("", rendering.log_embed(game_id, events, names, self.cards, mine))

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
            return Reply(say(msg("history.no_finished_game")))
        if row.status not in history.FINISHED:
            return Reply(say(msg("history.running", game=row.id)))
        async with self.lock(row.id):
            game = Game.from_json(row.state_json, self.cards)
            seats = await self.storage.seats(row.id)
            events = await self.storage.events_after(row.id, 0)
            actions = await self.storage.actions(row.id)
            # In a thread: the replay page draws every step of the game in every view (a
            # second of CPU for a long game), which the event loop must not wait for.
            files = await asyncio.to_thread(history.files, row, seats, events, game, actions)
        return Reply(say(msg("history.files", game=row.id)), files=files, ok=True)

    async def end_request(self, channel_id: int, user_id: int, admin: bool) -> Reply:
        """``/anima end``: its confirmation for the host (or Manage Server), or a refusal."""
        row = await self.storage.active_game(channel_id)
        if row is None:
            return Reply(NO_GAME)
        if user_id != row.host_id and not admin:
            return Reply(say(msg("end.host_only")))
        return Reply(say(msg("end.confirm", game=row.id)), view=end_view(row.id))

    @answering
    async def end_game(self, game_id: int, user_id: int, admin: bool) -> Reply:
        """``/anima end`` after its confirmation: stop the game without a result."""
        async with self.lock(game_id):
            row = await self.storage.game(game_id)
            if row is None or row.status not in ("lobby", "running"):
                return Reply(say(msg("end.already")))
            if user_id != row.host_id and not admin:
                return Reply(say(msg("end.host_only")))
            cached = self._cache.get(game_id)
            if cached is not None:
                row = cached.row  # its board is the one in memory
                self.drop(game_id)
            if not await self.storage.stop_game(game_id, "ended", now()):
                return Reply(say(msg("end.already")))
            await self.publisher.announce_end(row, user_id)
            return Reply(say(msg("end.done", game=game_id)), ok=True)

    async def recover(self) -> None:
        """After a (re)start: every running game of this process's shards, and every finished
        one whose end was not all posted (fault 1), each in its own isolation (a bad row marks
        that game broken and stops nothing else): load it (its channel reconciled with its
        pointer), redeliver the secret starts not delivered (fault 7), let AI seats move if the
        bot stopped before they did, and post what was not yet posted."""
        try:
            rows = await self.storage.games_to_recover()
        except Exception:
            log.exception("could not list the games to resume")
            return
        for row in rows:
            if not self.shards.owns(row.guild_id):
                continue  # another cluster's game: its process resumes it
            try:
                async with self.lock(row.id):
                    await self._recover(row.id)
            except Exception:
                log.exception("could not resume game %s", row.id)
        await self._rate_missed()

    async def _rate_missed(self) -> None:
        """The games over and not rated because the bot stopped between their last commit
        and their rating (issue 25): rated now, once (the rating's own mark)."""
        try:
            missed = await self.storage.games_to_rate()
        except Exception:
            log.exception("could not list the games to rate")
            return
        for game_id, guild_id in missed:
            if self.shards.owns(guild_id):
                await self.rate(game_id)

    async def catch_up(self, game_id: int) -> None:
        """A game whose last change is committed and not posted (its process stopped before
        it could, or its posting lease was another's at the time): let its AI seats move if
        they were to (claimed: an ``ai`` lease), and post it (under its posting lease)."""
        async with self.lock(game_id):
            try:
                table = await self.load(game_id)
            except (NoGame, GameBroken):
                return
            await self._ai_turns(table)
            if await self.publisher.behind(table):
                await self.publisher.publish(table)

    async def _ai_turns(self, table: Table) -> None:
        """The AI seats' moves not made before a stop, claimed so that one process makes
        them (the commit's version check refuses a second anyway)."""
        if table.row.status != "running":
            return
        if not await self.storage.claim(AI, table.id, self.publisher.lease_seconds, now()):
            return
        try:
            await self.run_ai(table)
        finally:
            await self.storage.release(AI, table.id)

    async def _recover(self, game_id: int) -> None:
        try:
            table = await self.load(game_id, resuming=True)
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
                await self.publisher.send_starts(table, open_start, again=True)
                for seat in pending:
                    if seat not in open_start:
                        await self.storage.set_start_delivered(game_id, seat)
            await self._ai_turns(table)
            if await self.publisher.behind(table):
                await self.publisher.publish(table)
        except GameBroken as exc:
            await self.mark_broken(table.row, str(exc))
