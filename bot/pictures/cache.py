"""Pictures drawn off the interaction path: :class:`PictureCache` draws in one worker process
(:class:`~bot.pictures.pool.PicturePool`), keeps what it drew, draws again only when what a
picture shows changed, and lets a newer request for a picture supersede one still waiting (a
burst of actions draws the board once, in its latest state).

How it is used: ``await cache.board(game_id, view, db, names, language)`` for the public
board (the same for every reader of a language), ``await cache.get(key, digest, draw)`` for
anything else (a card, a hand, a battle), where ``draw`` is a picklable call (a
``functools.partial`` of a drawing function and its inputs: it runs in the worker), ``key``
names the picture's slot (the game, the kind, the language, the seat) and ``digest`` what it
shows. Two requests of one slot with the same digest get the same
:class:`~bot.pictures.Picture` without a second drawing.

Why one worker process: drawing is CPU work whose Python parts would hold the bot's
interpreter lock and delay the clicks (:mod:`bot.pictures.pool`), and one worker keeps the
pictures to one core however many games play at once; a slot waiting for the worker is drawn
once, in its latest state, so a busy table costs at most one drawing per slot at a time.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from functools import partial

from bot.pictures.board import draw_board
from bot.pictures.board_alt import board_digest
from bot.pictures.canvas import Picture
from bot.pictures.pool import Draw, PicturePool
from engine import CardDB, TableView


@dataclass
class _Slot:
    """One picture's place: what was drawn last, and what waits to be drawn."""

    digest: str | None = None
    picture: Picture | None = None
    #: The newest request not yet drawn: its digest and how to draw it.
    wanted: tuple[str, Draw] | None = None
    #: Callers waiting for a picture, each with the digest it asked for.
    waiters: list[tuple[str, asyncio.Future[Picture]]] = field(default_factory=list)
    running: asyncio.Task[None] | None = None


@dataclass
class CacheStats:
    """What the cache did: pictures drawn, requests answered from what was drawn, and
    requests superseded by a newer one before they were drawn."""

    drawn: int = 0
    hits: int = 0
    superseded: int = 0
    #: CPU seconds spent drawing (``time.process_time`` of the worker process, measured there).
    seconds: float = 0.0


class PictureCache:
    """Pictures by slot, drawn in one worker process (see the module).

    ``slots``: how many slots are kept (the least recently used go first); ``workers``: the
    worker processes, started by the first drawing (:meth:`close` stops them)."""

    def __init__(self, slots: int = 512, workers: int = 1) -> None:
        self._slots: OrderedDict[Hashable, _Slot] = OrderedDict()
        self._limit = slots
        self.pool = PicturePool(workers)
        self.stats = CacheStats()

    async def board(
        self,
        game_id: int,
        view: TableView,
        db: CardDB,
        names: Mapping[str, str],
        language: str,
    ) -> Picture:
        """The public board of game ``game_id`` in ``language``: drawn again only when what
        it shows changed (:func:`bot.pictures.board_alt.board_digest`)."""
        digest = board_digest(view, names, language)
        draw = partial(draw_board, view, db, dict(names), language)
        return await self.get((game_id, "board", language), digest, draw)

    def ready(self, key: Hashable, digest: str) -> Picture | None:
        """The picture of slot ``key`` if the one drawn last shows ``digest`` (None if it
        shows something else or nothing yet), without waiting: what a message being sent
        now can carry at no cost."""
        slot = self._slots.get(key)
        if slot is None or slot.digest != digest or slot.picture is None:
            return None
        self.stats.hits += 1
        return slot.picture

    def peek(self, key: Hashable) -> Picture | None:
        """The last picture drawn in slot ``key`` (None if none), without waiting."""
        slot = self._slots.get(key)
        return slot.picture if slot is not None else None

    async def get(self, key: Hashable, digest: str, draw: Draw) -> Picture:
        """The picture of slot ``key`` showing ``digest``: the one drawn already, or drawn
        by ``draw`` in the worker process. While a drawing of the slot runs, a request waits;
        of several waiting requests only the newest is drawn, and every waiter gets it (its
        picture shows the latest state; an older state is never shown after a newer)."""
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = _Slot()
            while len(self._slots) > self._limit:
                self._slots.popitem(last=False)
        else:
            self._slots.move_to_end(key)
        if slot.digest == digest and slot.picture is not None and slot.wanted is None:
            self.stats.hits += 1
            return slot.picture
        if slot.wanted is not None:
            self.stats.superseded += 1
        slot.wanted = (digest, draw)
        future: asyncio.Future[Picture] = asyncio.get_running_loop().create_future()
        slot.waiters.append((digest, future))
        if slot.running is None or slot.running.done():
            slot.running = asyncio.create_task(self._run(slot))
        return await future

    async def _run(self, slot: _Slot) -> None:
        """Draw the slot's newest request until none waits; answer every waiter."""
        while slot.wanted is not None:
            digest, draw = slot.wanted
            slot.wanted = None
            if digest == slot.digest and slot.picture is not None:
                picture = slot.picture
            else:
                try:
                    picture, seconds = await self.pool.draw(draw)
                except Exception as exc:  # a drawing that fails fails its waiters, not the slot
                    self._answer(slot, None, exc)
                    continue
                self.stats.drawn += 1
                self.stats.seconds += seconds
                slot.digest, slot.picture = digest, picture
            if slot.wanted is None:
                self._answer(slot, picture, None)

    @staticmethod
    def _answer(slot: _Slot, picture: Picture | None, error: Exception | None) -> None:
        waiters, slot.waiters = slot.waiters, []
        for _, future in waiters:
            if future.done():
                continue
            if error is not None:
                future.set_exception(error)
            elif picture is not None:
                future.set_result(picture)

    def close(self) -> None:
        """Stop the worker process (a later drawing would start a new one)."""
        self.pool.close()
