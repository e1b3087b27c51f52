"""The process that draws the pictures (issue 23): a :class:`PicturePool` sends a drawing (a
picklable call such as ``functools.partial(draw_board, view, db, names, language)``) to a
worker process and gets back the :class:`~bot.pictures.Picture` (its PNG bytes and alt text)
and the CPU seconds the worker spent on it.

Why a process and not a thread: the Python parts of a drawing (laying the board out, text
runs, the palette) hold the interpreter lock, and a click that arrived meanwhile waited for
them: with the pictures drawn in a thread of the bot's process, the interaction p99 was 31 ms
against a target of 15 (``benchmarks/bot_speed.py --pictures``). A worker process has its own
interpreter lock; the bot's process only pickles the inputs (a view of a few KB, well under a
millisecond) and receives the bytes.

- The inputs are the public :class:`engine.TableView`, a seat's own view, card ids, names and
  the language: what the drawing shows, nothing more. A card database among a call's
  arguments is not pickled with every call: it travels as a token (:class:`_Cards`), and each
  worker keeps the databases it was sent (the published cards it loads itself, once).
- The workers are started the first time a picture is drawn (a bot, or a test, that draws
  nothing starts none), by the ``forkserver`` method where the platform has it: a server
  process, started once per bot process with the pictures' modules, the cards, the catalogs
  and the fonts loaded (:mod:`bot.pictures.warm`), forks each worker (a fork of the bot
  itself would copy its threads' locks, aiosqlite's among them, in any state); elsewhere
  (Windows) by ``spawn``. Every platform the bot runs on has one of the two, so there is no
  thread fallback.
- A worker that died (killed by the system) breaks the pool: the drawing is tried once more
  in a new one.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import Any

from bot.pictures.canvas import Picture
from engine import CardDB, default_cards

#: What the pool draws: a call without arguments that returns a picture, picklable (a
#: ``functools.partial`` of a module's function, its arguments picklable, a card database
#: among them allowed).
Draw = Callable[[], Picture]

#: The token of the published cards (``engine.default_cards()``): a worker loads them itself.
PUBLISHED = "published"

#: Imported once by the fork server before it forks the workers: the pictures' modules, the
#: published cards, the catalogs and the fonts (:mod:`bot.pictures.warm`), so that a worker
#: starts warm.
PRELOAD = ["bot.pictures.warm"]


@dataclass(frozen=True)
class _Cards:
    """A card database in a drawing's arguments, by its token."""

    token: str


class _UnknownCards(Exception):
    """A worker was asked to draw with a card database it was never sent."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


class PicturePool:
    """The worker processes that draw the pictures (see the module); ``workers``: how many
    (one keeps the pictures to one core however many games play at once)."""

    def __init__(self, workers: int = 1) -> None:
        self._workers = workers
        self._executor: ProcessPoolExecutor | None = None
        #: Held while the workers start (two drawings at once start them once).
        self._starting = asyncio.Lock()
        #: How many times the pool was closed: a start that a close overtook is undone.
        self._closes = 0
        #: The card databases met so far, by ``id``, with their tokens (kept alive here so
        #: that an ``id`` is never reused for another database while the pool lives).
        self._cards: dict[int, tuple[str, CardDB]] = {}
        #: How many times a card database was sent to a worker (once per worker and database).
        self.sent = 0

    @property
    def started(self) -> bool:
        """Whether the worker processes are running."""
        return self._executor is not None

    async def draw(self, draw: Draw) -> tuple[Picture, float]:
        """``draw()`` run in a worker process: the picture and the worker's CPU seconds."""
        func, args, kwargs = _parts(draw)
        args = tuple(self._token(a) for a in args)
        kwargs = {k: self._token(v) for k, v in kwargs.items()}
        sent: dict[str, CardDB] = {}
        retried = False
        while True:
            executor = await self._running()
            try:
                return await asyncio.wrap_future(executor.submit(_draw, func, args, kwargs, sent))
            except _UnknownCards as missing:  # this worker has not had these cards yet
                if missing.token in sent:
                    raise
                sent = {**sent, missing.token: self._database(missing.token)}
                self.sent += 1
            except BrokenProcessPool:  # a worker died: try once more in a new pool
                if retried:
                    raise
                retried = True
                self.close()

    def close(self) -> None:
        """Stop the worker processes (the drawing under way, if any, ends first: a process is
        never left behind); the next drawing starts new ones."""
        self._closes += 1
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    async def _running(self) -> ProcessPoolExecutor:
        """The pool, its workers started (see :meth:`_launch`)."""
        async with self._starting:
            if self._executor is None:
                closes = self._closes
                executor = await _in_a_thread(self._launch)
                if closes != self._closes:  # closed meanwhile: no worker may outlive it
                    executor.shutdown(wait=True, cancel_futures=True)
                    raise RuntimeError("the pictures' pool was closed")
                self._executor = executor
            return self._executor

    def _launch(self) -> ProcessPoolExecutor:
        """A new pool, its workers started and ready. Run in a thread: the call that submits
        the first work starts the processes and waits for them (the fork server, the first
        time, loads the pictures' modules: a second or so), and the event loop must not."""
        executor = ProcessPoolExecutor(
            self._workers, mp_context=_context(), initializer=_watch_the_bot
        )
        for ready in [executor.submit(_ready) for _ in range(self._workers)]:
            ready.result()
        return executor

    def _token(self, value: Any) -> Any:
        """``value``, or its token if it is a card database."""
        if not isinstance(value, CardDB):
            return value
        if value is default_cards():
            return _Cards(PUBLISHED)
        known = self._cards.setdefault(id(value), (f"cards-{len(self._cards)}", value))
        return _Cards(known[0])

    def _database(self, token: str) -> CardDB:
        return next(db for name, db in self._cards.values() if name == token)


async def _in_a_thread(start: Callable[[], ProcessPoolExecutor]) -> ProcessPoolExecutor:
    """``start()`` run in a thread of its own, awaited.

    Not ``asyncio.to_thread``: that runs it with the caller's context variables, and nothing
    of the bot's context concerns starting processes (a test harness that reads its own
    clock from them, SimCord, would make multiprocessing's zero-timeout polls of the earlier
    workers spin on a clock that stands still)."""
    loop = asyncio.get_running_loop()
    started: asyncio.Future[ProcessPoolExecutor] = loop.create_future()

    def answer(executor: ProcessPoolExecutor | None, error: BaseException | None) -> None:
        if started.cancelled():  # nobody waits for it any more
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        elif error is not None:
            started.set_exception(error)
        elif executor is not None:
            started.set_result(executor)

    def run() -> None:
        try:
            executor = start()
        except BaseException as error:  # handed to the awaiting task
            loop.call_soon_threadsafe(answer, None, error)
        else:
            loop.call_soon_threadsafe(answer, executor, None)

    threading.Thread(target=run, name="pictures-start", daemon=True).start()
    return await started


def _parts(draw: Draw) -> tuple[Callable[..., Picture], tuple[Any, ...], dict[str, Any]]:
    """The function and arguments of ``draw``: a ``partial``'s, or ``draw`` itself."""
    if isinstance(draw, partial):
        return draw.func, draw.args, dict(draw.keywords)
    return draw, (), {}


def _context() -> multiprocessing.context.BaseContext:
    """How the workers are started (see the module)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


# ---------------------------------------------------------------------- in the worker

#: The card databases this worker was sent, by token.
_DATABASES: dict[str, CardDB] = {}


def _watch_the_bot() -> None:
    """Run in a worker as it starts: a thread that ends the worker when the bot's process
    ends, however it ends (killed, it never closes the pool; an orphan worker would wait for
    work forever)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="watch-the-bot", daemon=True).start()


def _ready() -> None:
    """Run in a worker: nothing (the worker is up)."""


def _draw(
    func: Callable[..., Picture],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    sent: dict[str, CardDB],
) -> tuple[Picture, float]:
    """Run in a worker: ``func(*args, **kwargs)`` with the card databases' tokens resolved,
    and the CPU seconds this process spent on it."""
    start = time.process_time()
    _DATABASES.update(sent)
    picture = func(*(_resolve(a) for a in args), **{k: _resolve(v) for k, v in kwargs.items()})
    return picture, time.process_time() - start


def _resolve(value: Any) -> Any:
    if not isinstance(value, _Cards):
        return value
    if value.token == PUBLISHED:
        return default_cards()  # loaded once per process
    if value.token not in _DATABASES:
        raise _UnknownCards(value.token)
    return _DATABASES[value.token]
