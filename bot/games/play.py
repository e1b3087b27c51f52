"""What the players ask of a running game: a click on a choice, ``/anima play``, their private
panels, taking a seat back from the AI and their auto-pass; each answered in words
(:class:`bot.table.Reply`), a refusal included, in the current language: the caller's
entry point (a command, a component) speaks the reader's (:func:`words.speaking`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, ParamSpec

import discord

from bot import rendering
from bot.attachments import picture_file
from bot.autopass import WINDOW_KINDS, describe, parse_kinds, window_tip
from bot.components.game_views import reclaim_view, tip_view
from bot.components.undo import undo_view
from bot.games.cache import broken_reply
from bot.games.since import looked, since_you_looked
from bot.games.turns import GameTurns
from bot.panels import HAND_FILE, HandRequest, fingerprint, hand_request, show_hand
from bot.publishing import ClickedBoard
from bot.refusals import refusal_text
from bot.storage import NewEvent, SeatRow, StorageUnavailable, VersionConflict
from bot.table import NO_GAME, GameBroken, PanelKey, Reply, Table, now
from engine import Game, IllegalAction, Prompt, PromptView
from words import Message, listing, msg, say

log = logging.getLogger("anima.games")

CANNOT_SAVE = msg("play.cannot_save")

P = ParamSpec("P")


def answering(
    method: Callable[P, Coroutine[Any, Any, Reply]],
) -> Callable[P, Coroutine[Any, Any, Reply]]:
    """A player's request answers in words when storage cannot save (fault 8: the real
    cause is logged by storage) or when a stored row of the game turns out unreadable.

    A request whose commit finds the game moved on (another process changed it since this
    one read it: :class:`VersionConflict`, nothing written, the copy in memory dropped by the
    game's lock) is run once more on the game read again, not refused (issue 24)."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> Reply:
        try:
            try:
                return await method(*args, **kwargs)
            except VersionConflict as exc:
                log.info("%s: %s; trying again on the stored game", method.__name__, exc)
                return await method(*args, **kwargs)
        except (StorageUnavailable, VersionConflict):
            return Reply(say(CANNOT_SAVE))
        except GameBroken as exc:
            return broken_reply(exc)

    return wrapper


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


class GamePlay(GameTurns):
    """The players' requests to a running game."""

    def whose(self, table: Table) -> Message:
        """'it is X's decision' for anybody who clicks out of turn (a clause: the
        sentences around it are ``play.not_your_turn``, ``play.whose``...)."""
        prompts = table.game.pending()
        if table.game.over:
            return msg("play.whose.over")
        if not prompts:
            return msg("play.whose.nobody")
        names = table.names
        if len(prompts) == 1:
            return msg("play.whose.one", player=names.bold(prompts[0].player))
        return msg("play.whose.many", players=listing([names.bold(p.player) for p in prompts]))

    async def _player(
        self, game_id: int, user_id: int, whose: bool = True
    ) -> tuple[Table, SeatRow] | Reply:
        """Under the game's lock: the game and the member's seat, or the refusal in words (the
        game is gone or broken, or he does not play in it; ``whose``: the refusal says whose
        decision it is)."""
        table = await self._table_for(game_id)
        if isinstance(table, Reply):
            return table
        seat = table.seat_of(user_id)
        if seat is None:
            if whose:
                return Reply(say(msg("play.not_seated.whose", whose=self.whose(table))))
            return Reply(say(msg("play.not_seated")))
        return table, seat

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
            found = await self._running_player(game_id, user_id)
            if isinstance(found, Reply):
                return found
            table, seat = found
            reply = await self._resuming(
                table,
                seat,
                lambda: self._choose(table, seat, since, index, panel, clicked),
                panel,
                clicked,
            )
            await looked(self.storage, table, seat, now())  # "Since you last looked"
            return reply

    async def _running_player(self, game_id: int, user_id: int) -> tuple[Table, SeatRow] | Reply:
        """Under the game's lock: :meth:`_player`, refused too when the game is not running."""
        found = await self._player(game_id, user_id)
        if isinstance(found, Reply):
            return found
        if found[0].row.status != "running":
            return Reply(say(self._over_text(found[0])))
        return found

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
                return Reply(say(msg("play.window_answered")))
            return Reply(say(msg("play.not_your_turn", whose=self.whose(table))))
        if prompt is None or seat.prompt_since != since or not 0 <= index < len(prompt.choices):
            return await self._with_panel(table, seat, say(msg("play.no_longer_open")))
        return await self._human_action(
            table, seat, prompt, prompt.choices[index], panel, board=panel is None, clicked=clicked
        )

    @answering
    async def play_card(self, channel_id: int, user_id: int, card: str) -> Reply:
        """``/anima play``: apply ``play <card>`` if it is legal now."""
        game_id = await self.running_game_id(channel_id)
        if game_id is None:
            return Reply(NO_GAME)
        async with self.lock(game_id):
            found = await self._player(game_id, user_id, whose=False)
            if isinstance(found, Reply):
                return found
            table, seat = found
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
            typed = rendering.escape(rendering.clip(card, 80))
            return Reply(say(msg("play.not_in_hand", card=typed)))
        card = found
        prompt = g.prompt_for(seat.seat)
        action = f"play {card}"
        if prompt is None or action not in prompt.choices:
            name = rendering.card_name(g.db, card)
            why = "play.cannot_play.not_yours" if prompt is None else "play.cannot_play.not_now"
            return Reply(say(msg(why, card=name)))
        return await self._human_action(table, seat, prompt, action)

    @staticmethod
    def _over_text(table: Table) -> Message:
        return msg("play.over" if table.row.status == "over" else "play.ended")

    def _taken_over_reply(self, table: Table) -> Reply:
        return Reply(say(msg("play.taken_over")), view=reclaim_view(table.id))

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
        label = (
            rendering.choice_text(choice, table.names, table.game.db)
            if choice
            else rendering.escape(action)
        )
        # He plays his seat himself: a slow game's vote on it closes (bot.slow).
        seat.timeouts, seat.vote_until, seat.ballots = 0, None, {}
        try:
            await self.apply(table, seat.seat, action, "human")
        except IllegalAction as exc:
            return Reply(f"❌ {refusal_text(exc, table.names, table.game.db)}")
        # Read before the AI moves on: whether this Pass was in his first turn's windows.
        tip = board and action == "pass" and await self._tip_due(table, seat, offered)
        await self.run_ai(table)
        private = await self.publisher.publish(table, actor=seat.seat, panel=panel, clicked=clicked)
        lines = [say(msg("play.chose", choice=label))]
        if board and not private:
            if tip:
                # He clicked Pass: tell him he need not, and offer auto-pass (issue 23).
                timed = rendering.window_tip(timed=table.row.window_timer > 0)
                return Reply(f"{lines[0]}\n{timed}", view=tip_view(table.id), ok=True)
            # Nothing is sent: rendering his panel for the answer would be wasted work.
            return Reply(lines[0], ok=True, quiet=True)
        lines += [f"🔒 {line}" for line in private]
        return await self._with_panel(table, seat, "\n".join(lines), ok=True)

    async def _tip_due(self, table: Table, seat: SeatRow, prompt: PromptView | None) -> bool:
        """Whether ``seat``'s member reads the first turn's tip about reaction windows now
        (:func:`bot.autopass.window_tip`; ``prompt``: his open decision)."""
        if seat.user_id is None:
            return False
        mine = await self.storage.autopass(table.row.guild_id, [seat.user_id])
        kinds = mine.get(seat.user_id, frozenset())
        return window_tip(prompt, kinds, table.table_view().turn)

    async def _with_panel(self, table: Table, seat: SeatRow, text: str, ok: bool = False) -> Reply:
        """``text`` and, when the player must decide now, his private panel. The answer
        stands in the place of his panel either way: it is refreshed into a full panel when
        his situation changes (:mod:`bot.panels`)."""
        g = table.game
        embed, view = await self.publisher.panels.parts(table, seat)
        key = PanelKey(table.id, seat.seat, fingerprint(embed, view))
        if g.prompt_for(seat.seat) is None or table.row.status != "running":
            if not g.over:
                whose = say(self.whose(table))  # a clause, made a sentence of its own
                text += "\n" + say(msg("play.whose", whose=whose[:1].upper() + whose[1:]))
            # Nothing to decide: Undo alone, while he may take his decision back (issue 25).
            undo = undo_view(table, seat) if table.row.status == "running" else None
            return Reply(rendering.clip(text, rendering.CONTENT_LIMIT), None, undo, ok, panel=key)
        return Reply(rendering.clip(text, rendering.CONTENT_LIMIT), embed, view, ok, panel=key)

    async def panel_parts(
        self, table: Table, seat: SeatRow
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """A player's private panel: his hand embed and the buttons of his open prompt."""
        return await self.publisher.panels.parts(table, seat)

    @answering
    async def panel(self, game_id: int, user_id: int, mode: str, pictured: bool = False) -> Reply:
        """The ``My hand`` / ``Decide`` / ``Respond`` buttons and ``/anima hand``;
        ``pictured``: the answer is ephemeral, so it shows the member's hand drawn: at once
        if it is drawn already, else edited in once drawn (the answer never waits for it)."""
        reply, request = await self._panel(game_id, user_id, mode, pictured)
        if request is None or reply.embed is None:
            return reply
        picture = self.publisher.panels.ready_hand(request)
        if picture is not None:  # drawn already: it comes with the answer
            show_hand(reply.embed)
            reply.files.append(picture_file(picture, HAND_FILE))
        else:  # drawn in the pictures' thread, and edited in (bot.panels)
            reply.hand = request
        return reply

    async def _panel(
        self, game_id: int, user_id: int, mode: str, pictured: bool
    ) -> tuple[Reply, HandRequest | None]:
        """:meth:`panel`'s answer under the game's lock, and the hand to draw for it (if
        ``pictured`` and the answer is his panel), from his own seat view."""
        async with self.lock(game_id):
            found = await self._player(game_id, user_id, whose=mode != "hand")
            if isinstance(found, Reply):
                return found, None
            table, seat = found
            if await self.resume(table, seat):
                await self.publisher.publish(table, actor=seat.seat)
            if seat.taken_over:
                return self._taken_over_reply(table), None
            prompt = table.game.prompt_for(seat.seat)
            if mode == "decide" and prompt is None:
                return Reply(say(msg("play.not_your_turn", whose=self.whose(table)))), None
            if mode == "respond" and (prompt is None or not prompt.window):
                return Reply(say(msg("play.no_window"))), None
            embed, view = await self.panel_parts(table, seat)
            key = PanelKey(table.id, seat.seat, fingerprint(embed, view))
            # What he missed while away (issue 26), above his panel.
            missed = await since_you_looked(self.storage, table, seat, now())
            reply = Reply(missed, embed, view, ok=True, panel=key)
            if not pictured:
                return reply, None
            language = await self.publisher.panels.language(table, seat)
            return reply, hand_request(table, seat, language)

    @answering
    async def reclaim(self, game_id: int, user_id: int) -> Reply:
        """A player takes his seat back from the AI."""
        async with self.lock(game_id):
            table = await self._table_for(game_id)
            if isinstance(table, Reply):
                return table
            seat = table.seat_of(user_id)
            if seat is None or not seat.taken_over:
                return Reply(say(msg("play.not_taken_over")))
            if table.row.status != "running":
                return Reply(say(msg("play.over")))
            if not await self.resume(table, seat):  # resuming gives the seat back, too
                seat.ai, seat.timeouts = False, 0
                prompt = table.game.prompt_for(seat.seat)
                if prompt is not None:
                    table.set_deadline(seat, prompt, now())
                event = NewEvent("reclaimed", "", data={"player": seat.seat})
                self.note(table, event)
                await self.commit(table)
            await self.publisher.publish(table, actor=seat.seat)
            return await self._with_panel(table, seat, say(msg("play.reclaimed")), ok=True)

    @answering
    async def set_autopass(self, game_id: int, user_id: int, codes: list[str]) -> Reply:
        """A member changes his auto-pass from his panel: remembered on the server, and
        applied at once to what is open now (as if he had clicked it)."""
        async with self.lock(game_id):
            return await self._set_autopass(game_id, user_id, lambda _: parse_kinds(codes))

    @answering
    async def autopass_windows(self, game_id: int, user_id: int) -> Reply:
        """**Auto-pass windows** (the first turn's tip): every kind of reaction window joins
        the member's auto-pass, applied at once as :meth:`set_autopass` does."""
        async with self.lock(game_id):
            return await self._set_autopass(
                game_id, user_id, lambda kinds: kinds | frozenset(WINDOW_KINDS)
            )

    async def _set_autopass(
        self,
        game_id: int,
        user_id: int,
        change: Callable[[frozenset[str]], frozenset[str]],
    ) -> Reply:
        """Under the game's lock: save the member's auto-pass as ``change`` makes it of his
        current one, answer what it covers now, and answer with his panel and a short
        confirmation above it (the panel stays: it is updated in place)."""
        table = await self._table_for(game_id)
        if isinstance(table, Reply):
            return table
        mine = await self.storage.autopass(table.row.guild_id, [user_id])
        kinds = change(mine.get(user_id, frozenset()))
        await self.storage.set_autopass(table.row.guild_id, user_id, kinds)
        seat = table.seat_of(user_id)
        text = say(msg("autopass.set", kinds=describe(kinds)))
        if seat is None or table.row.status != "running":
            return Reply(text, ok=True)
        if await self.run_ai(table):
            await self.publisher.publish(table, actor=seat.seat)
        embed, view = await self.publisher.panels.parts(table, seat)
        key = PanelKey(table.id, seat.seat, fingerprint(embed, view))
        return Reply(text, embed, view, ok=True, panel=key)

    async def autopass_now(self, guild_id: int, channel_id: int, user_id: int) -> None:
        """After ``/anima settings`` changed a member's auto-pass: answer what it covers in
        the channel's running game now."""
        game_id = await self.running_game_id(channel_id)
        if game_id is None:
            return
        async with self.lock(game_id):
            table = await self._table_for(game_id)
            if isinstance(table, Reply) or table.row.guild_id != guild_id:
                return
            seat = table.seat_of(user_id)
            if seat is not None and await self.run_ai(table):
                await self.publisher.publish(table, actor=seat.seat)
