"""Private panels (a player's hand and his open decision, shown to him alone) and keeping the
ones on screen up to date.

What Discord allows: an ephemeral message (``My hand``, ``Decide``, ``/anima hand``, a panel
sent after a board click) can only be edited through the token of the interaction that
created or last updated it, and that token lives **15 minutes**. A DM is an ordinary message
the bot may edit at any time. So:

- every panel the bot shows is remembered (in memory) as the seat's *live* panel, with a way
  to edit it and when that way expires; a seat has one live panel: a newer one makes the older
  say it is outdated;
- after every change of a game (:meth:`bot.publishing.Publisher.publish`) the live panels
  whose owner's situation changed (his decision, hand, missions, party, private events, the
  game's status) are marked; the game's own *sender* task then renders them again (under the
  game's lock, from the game as it is by then) and edits **only those whose picture
  changed**, so a click elsewhere costs no edit;
- the sender works after the click that marked the panels, and edits outside the game's
  lock: the clicker's answer and the next click never wait for the other screens (over the
  network an edit takes a round trip each). One sender per game sends its edits in order; a
  panel changed again before the sender got to it is rendered and edited once, to what it
  shows last. The "outdated" edit of a panel replaced by a newer one goes the same way;
- an ephemeral panel (never a DM, never a public message) shows its owner's hand and missions
  drawn (:func:`bot.pictures.draw_hand`, from his own seat view), as its embed's image: drawn
  in the pictures' worker process, again only when the hand or the language changed, and edited in
  with the refresh (its picture is never older than its text);
- a minute before its token expires a panel is edited one last time to say that it no longer
  updates itself and that **Refresh** opens a fresh one (its buttons keep working: a click on
  an outdated choice answers with a fresh panel).

Each panel is said in its owner's language (:func:`bot.languages.reader_language`), which its
situation includes: a member who chooses another language sees it at the next refresh.

Panels opened before a restart are not remembered (the tokens were in memory only; storing
them would keep credentials on disk for nothing): they are not refreshed, and their buttons
still answer correctly, since every click is checked against the open prompt's version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Collection
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot import rendering
from bot.attachments import attachment_url, picture_file
from bot.autopass import window_tip
from bot.collector import work_done
from bot.components.game_views import private_view, refresh_view
from bot.languages import public_language, reader_language
from bot.pictures import Picture, PictureCache, draw_hand
from bot.storage import SeatRow, Storage
from bot.table import PanelKey, Table, now
from words import SOURCE, current, msg, say, speaking

log = logging.getLogger("anima.panels")

#: How long Discord lets an interaction's token edit its messages.
TOKEN_LIFE = 15 * 60.0
#: The last edit ("no longer updates itself") is made this long before the token expires.
MARGIN = 60.0
#: Private events listed in a player's panel.
PRIVATE_LOG = 6
#: The panel's picture of the hand (its embed's image).
HAND_FILE = "hand.png"


def outdated_text() -> str:
    """What a panel replaced by a newer one says (in the current language)."""
    return f"🕰 {say(msg('panel.outdated'))}"


def stopped_text() -> str:
    """What a panel says a minute before Discord stops letting the bot edit it."""
    return f"🕰 {say(msg('panel.stopped', button=say(msg('button.refresh'))))}"


#: :func:`outdated_text` in English (what tests compare).
OUTDATED = f"🕰 {say(msg('panel.outdated'), SOURCE)}"

#: Edits a panel's message: ``edit(content=..., embeds=[...], view=...)``.
Editor = Callable[..., Awaitable[Any]]
#: The game's lock (:meth:`bot.games.service.Games.lock`), held while the sender renders.
Locker = Callable[[int], AbstractAsyncContextManager[Any]]
#: The game to render a game's panels from, given the one its last change left: the game as
#: played now (:meth:`bot.games.service.Games.playing`), or None if there is none safe to show.
Current = Callable[[int, Table], Table | None]


@dataclass
class LivePanel:
    """A panel on a player's screen that the bot can still edit."""

    message_id: int
    edit: Editor
    #: When the edit stops working (None: a DM, editable for ever).
    expires_at: float | None
    shown: str
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    #: The owner's situation when the panel was last compared (see :func:`situation`).
    situation: tuple[Any, ...] | None = None
    #: Replaced by a newer panel or told that it stopped updating: no refresh is sent to it.
    retired: bool = False
    #: The language it is said in (its owner's when it was shown): its last words too.
    language: str = SOURCE
    #: It shows the owner's hand drawn (an ephemeral panel): its refreshes draw it again.
    pictured: bool = False


def situation(table: Table, seat: SeatRow, party: Any) -> tuple[Any, ...]:
    """A cheap summary of what a panel depends on: while it and the owner's private events
    stay the same, the panel is not rendered again (rendering every live panel after every
    click would cost more than the click itself)."""
    row = table.row
    return (
        row.status,
        row.paused_at is not None,
        seat.ai,
        seat.prompt_since,
        seat.deadline,
        table.game.undo_refusal(seat.seat) is None,  # the Undo button (issue 25)
        # The view itself: views are frozen, so it compares by value and cannot change
        # under the panel (cheaper than its repr, which this was).
        party,
    )


def fingerprint(embed: discord.Embed, view: discord.ui.View | None) -> str:
    """What a panel shows, to tell whether it must be edited (its timestamp left out)."""
    data = embed.to_dict()
    data.pop("timestamp", None)
    items = view.to_components() if view is not None else []
    return json.dumps([data, items], sort_keys=True, default=str)


@dataclass
class _Edit:
    """An edit of a panel waiting for its game's sender."""

    seat: str
    panel: LivePanel
    fields: dict[str, Any]
    #: Sent even if the panel is retired by then (the edit that says it is outdated).
    final: bool = False
    #: The hand to draw for it (a pictured panel), drawn by the sender outside the lock.
    hand: HandRequest | None = None


@dataclass(frozen=True)
class HandRequest:
    """A hand picture to draw: the cache's slot, what it shows, and how to draw it."""

    key: tuple[Any, ...]
    digest: str
    draw: Callable[[], Picture]


def hand_request(table: Table, seat: SeatRow, language: str) -> HandRequest:
    """``seat``'s hand and missions to draw in ``language``, from his own seat view only."""
    view = table.seat_view(seat.seat)
    shown = (
        view.hand,
        view.missions,
        view.offered_characters,
        view.offered_advantages,
    )
    db = table.game.db
    return HandRequest(
        (table.id, "hand", seat.seat, language),
        repr(shown),
        partial(draw_hand, view, db, language),  # drawn in the pictures' worker process
    )


def show_hand(embed: discord.Embed) -> discord.Embed:
    """``embed`` with the hand's picture (the attachment :data:`HAND_FILE`) as its image."""
    return embed.set_image(url=attachment_url(HAND_FILE))


class Panels:
    """Renders private panels and keeps the live ones up to date. One per bot.

    A panel shows its owner's latest private events and his auto-pass; both come from
    :class:`~bot.storage.Storage`, which keeps them in memory (updated by the commit that
    adds events, forgotten when the member changes his auto-pass), so that rendering a panel
    again costs no SQL statement."""

    def __init__(self, storage: Storage, pictures: PictureCache | None = None) -> None:
        self.storage = storage
        #: Where the hands are drawn (None: panels without pictures, as in some tests).
        self.pictures = pictures
        #: Hands being drawn for panels answered without them (:meth:`follow_hand`).
        self._following: set[asyncio.Task[None]] = set()
        self._live: dict[tuple[int, str], LivePanel] = {}
        #: Refreshed panels whose edit is not sent yet, per game, in the order they changed
        #: (a panel changed again keeps its place and sends only what it shows last).
        #: Keyed by game, then by the panel's message.
        self._outbox: dict[int, dict[int, _Edit]] = {}
        #: Per game, the seats whose live panel waits to be rendered again, and the game as
        #: the last change left it (used if the game is no longer in memory and is over).
        self._marked: dict[int, tuple[Table, set[str]]] = {}
        #: The sender task of each game with panels to render or edits to send.
        self._senders: dict[int, asyncio.Task[None]] = {}
        #: Set by the game service: the game's lock and the game as played now. By
        #: default (no game service: tests of this module) the table marked is rendered.
        self.lock: Locker = lambda game_id: nullcontext()
        self.current: Current = lambda game_id, marked: marked

    async def language(self, table: Table, seat: SeatRow) -> str:
        """The language of ``seat``'s panel: its member's (a seat without one: the game's)."""
        if seat.user_id is None:
            return public_language(table.row)
        return await reader_language(self.storage, seat.user_id)

    async def parts(
        self, table: Table, seat: SeatRow
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """A player's private panel: his hand embed and the buttons of his open prompt, in
        his language (whoever's click or task renders it)."""
        private = await self.storage.private_events(table.id, seat.seat, PRIVATE_LOG)
        kinds: frozenset[str] = frozenset()  # the member's auto-pass (bot.autopass)
        if seat.user_id is not None:
            mine = await self.storage.autopass(table.row.guild_id, [seat.user_id])
            kinds = mine.get(seat.user_id, frozenset())
        g = table.game
        seat_view = table.seat_view(seat.seat)
        # The first turn's tip about reaction windows: his own panel only, never the hand.
        tip = seat.user_id is not None and window_tip(seat_view.prompt, kinds, seat_view.table.turn)
        with speaking(await self.language(table, seat)):
            embed = rendering.hand_embed(
                seat_view,
                g.db,
                table.row,
                seat,
                table.names,
                private,
                autopass=kinds,
                tip=tip,
            )
            view = None
            if table.row.status == "running" and not seat.ai:
                view = private_view(table, seat, kinds, tip=tip)
        return embed, view

    async def hand_picture(self, request: HandRequest) -> Picture | None:
        """The hand ``request`` asks for, drawn (or kept) by the pictures' worker process; None
        without a picture cache."""
        if self.pictures is None:
            return None
        return await self.pictures.get(request.key, request.digest, request.draw)

    def ready_hand(self, request: HandRequest) -> Picture | None:
        """The hand ``request`` asks for if it is drawn already (None: not yet, or no
        picture cache), without waiting."""
        if self.pictures is None:
            return None
        return self.pictures.ready(request.key, request.digest)

    def follow_hand(self, game_id: int, seat: str, request: HandRequest) -> None:
        """Draw the hand of ``seat``'s live panel (answered without it) and edit it in by the
        game's sender, unless the panel was replaced or refreshed meanwhile."""
        live = self._live.get((game_id, seat))
        if live is None or not live.pictured or live.embed is None:
            return
        embed = show_hand(live.embed.copy())
        fields = {"embeds": [embed], "view": live.view}

        async def follow() -> None:
            with contextlib.suppress(Exception):  # a failed drawing leaves the text panel
                await self.hand_picture(request)
            if self._live.get((game_id, seat)) is live and live.embed is not None:
                shown = live.embed.to_dict()
                shown.pop("image", None)
                if shown == {k: v for k, v in embed.to_dict().items() if k != "image"}:
                    self._queue(game_id, _Edit(seat, live, fields, hand=request))

        task = asyncio.get_running_loop().create_task(follow())
        self._following.add(task)
        task.add_done_callback(self._following.discard)

    async def key(self, table: Table, seat: SeatRow) -> PanelKey:
        """The :class:`PanelKey` of ``seat``'s panel as it would be shown now."""
        embed, view = await self.parts(table, seat)
        return PanelKey(table.id, seat.seat, fingerprint(embed, view))

    # ------------------------------------------------------------------ the live panels

    async def opened(
        self,
        key: PanelKey,
        message_id: int,
        edit: Editor,
        dm: bool,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        """A panel was shown (or answered in place) with ``edit`` (an interaction's, unless
        ``dm``: a DM the bot edits directly): it becomes the seat's live panel, said in the
        current language (its owner's, set by the caller); the seat's previous one, if
        another message, says it is outdated. An ephemeral panel shows the hand drawn from
        its next refresh on (a DM never does: the pictures are for ephemeral panels only)."""
        expires_at = None if dm else now() + TOKEN_LIFE
        old = self._live.get((key.game_id, key.seat))
        pictured = not dm and self.pictures is not None
        self._live[(key.game_id, key.seat)] = LivePanel(
            message_id,
            edit,
            expires_at,
            key.shown,
            embed,
            view,
            language=current(),
            pictured=pictured,
        )
        if old is not None and old.message_id != message_id:
            old.retired = True  # a refresh still waiting to be sent is not sent
            if self._editable(old, now()):
                with speaking(old.language):
                    content = outdated_text()
                outdated: dict[str, Any] = {"content": content, "embeds": [], "view": None}
                if old.pictured:
                    outdated["attachments"] = []  # an old hand is no hand to show
                self._queue(key.game_id, _Edit(key.seat, old, outdated, final=True))

    def live(self, game_id: int, seat: str) -> LivePanel | None:
        """The seat's live panel, if the bot can still edit one."""
        return self._live.get((game_id, seat))

    async def refresh(
        self, table: Table, skip: int | None = None, told: Collection[str] = ()
    ) -> int:
        """Mark every live panel of the game whose owner's situation changed (``told``: the
        seats that were sent private events; the panel ``skip`` is being answered by its own
        interaction, which shows the game as it is now) for the game's sender, which renders
        them again and edits those that show something new (:meth:`_send`); returns how many
        were marked."""
        live_seats = [s for s in table.seats.values() if (table.id, s.seat) in self._live]
        if not live_seats:
            return 0
        t = now()
        _, marked = self._marked.get(table.id, (table, set()))
        parties = {p.seat: p for p in table.table_view().parties}
        for s in live_seats:
            live = self._live[(table.id, s.seat)]
            if not self._editable(live, t):
                del self._live[(table.id, s.seat)]
                marked.discard(s.seat)
                continue
            if live.message_id == skip:
                live.situation = None
                marked.discard(s.seat)
                continue
            # The owner's language is part of it: a new choice of his shows at once.
            now_in = (*situation(table, s, parties.get(s.seat)), await self.language(table, s))
            if now_in == live.situation and s.seat not in told:
                continue
            live.situation = now_in
            marked.add(s.seat)
        if marked:
            self._marked[table.id] = (table, marked)
            self._start(table.id)
        return len(marked)

    async def _render(self, game_id: int) -> None:
        """Render the game's marked panels again (under its lock, from the game as it is
        now) and queue an edit for each whose picture changed."""
        last, seats = self._marked.pop(game_id)
        async with self.lock(game_id):
            table = self.current(game_id, last)
            if table is None:
                return
            for seat in sorted(seats):
                live = self._live.get((game_id, seat))
                row = table.seats.get(seat)
                if live is None or row is None:
                    continue
                try:
                    embed, view = await self.parts(table, row)
                except Exception:
                    # The others' panels are not worth the game: it stays as it is.
                    log.exception("game %s: could not render the panel of %s", game_id, seat)
                    continue
                shown = fingerprint(embed, view)
                if shown == live.shown:
                    continue
                live.shown, live.embed, live.view = shown, embed, view
                live.language = await self.language(table, row)
                hand = None
                if live.pictured:
                    # Drawn by the sender, outside the lock: the next click does not wait.
                    hand = hand_request(table, row, live.language)
                    show_hand(embed)
                fields = {"content": None, "embeds": [embed], "view": view}
                self._queue(game_id, _Edit(seat, live, fields, hand=hand))
            if table.row.status != "running":
                for seat in table.seats:
                    self._live.pop((game_id, seat), None)

    def _queue(self, game_id: int, edit: _Edit) -> None:
        """Hand an edit to the game's sender (started if it is not running): it replaces an
        edit of the same panel still waiting, in that edit's place."""
        self._outbox.setdefault(game_id, {})[edit.panel.message_id] = edit
        self._start(game_id)

    def _start(self, game_id: int) -> None:
        if game_id not in self._senders:
            self._senders[game_id] = asyncio.get_running_loop().create_task(self._send(game_id))

    async def _send(self, game_id: int) -> None:
        """Render the game's marked panels and send its waiting edits, oldest first, until
        none is left."""
        try:
            while game_id in self._marked or self._outbox.get(game_id):
                if game_id in self._marked:
                    await self._render(game_id)
                outbox = self._outbox.get(game_id)
                if not outbox:
                    continue
                edit = outbox.pop(next(iter(outbox)))
                live = edit.panel
                if live.retired and not edit.final:
                    continue
                try:
                    fields = edit.fields
                    if edit.hand is not None:
                        picture = await self.hand_picture(edit.hand)
                        if picture is not None:
                            fields = {**fields, "attachments": [picture_file(picture, HAND_FILE)]}
                    await live.edit(**fields)
                except discord.HTTPException:
                    # Dismissed by its owner, or its token is gone: it cannot be edited any
                    # more.
                    if self._live.get((game_id, edit.seat)) is live:
                        del self._live[(game_id, edit.seat)]
                except Exception:
                    log.exception("game %s: could not edit the panel of %s", game_id, edit.seat)
        finally:
            self._outbox.pop(game_id, None)
            self._marked.pop(game_id, None)
            self._senders.pop(game_id, None)
            work_done()

    async def sent(self) -> None:
        """Wait until every refreshed panel is sent (tests, shutdown)."""
        while self._senders or self._following:
            await asyncio.gather(*self._senders.values(), *self._following, return_exceptions=True)

    async def sweep(self, t: float) -> int:
        """Panels whose token is about to expire say that they no longer update themselves
        (called by the bot's timer loop); returns how many."""
        ending = [
            (k, p)
            for k, p in self._live.items()
            if p.expires_at is not None and p.expires_at - MARGIN <= t
        ]
        for k, p in ending:
            del self._live[k]
            p.retired = True
            if p.expires_at is not None and p.expires_at <= t:
                continue
            with speaking(p.language):
                kwargs: dict[str, Any] = {"content": stopped_text()}
                if p.embed is not None:
                    kwargs["embeds"] = [p.embed]
                kwargs["view"] = p.view if p.view is not None else refresh_view(k[0])
            with contextlib.suppress(discord.HTTPException):
                await p.edit(**kwargs)
        return len(ending)

    @staticmethod
    def _editable(live: LivePanel, t: float) -> bool:
        return live.expires_at is None or live.expires_at - MARGIN > t
