"""Python's garbage collector, run between the bot's units of work rather than inside them.

CPython collects its cyclic garbage when the count of new container objects passes a
threshold: at whatever allocation tips it, which in the bot is nearly always in the middle
of somebody's click. The youngest generation takes a fraction of a millisecond; the middle
one several milliseconds once the process holds a few games (measured with
``benchmarks/bot_speed.py``, issue 10: ~6 ms, landing on about 2 % of the interactions,
which made it the largest part of the p99 handling time).

So once the bot is built (:meth:`IdleCollector.install`, called by :func:`bot.app.tune_gc`):

- what the process holds by then (the card database, the modules) is frozen out of every
  later collection (``gc.freeze``);
- Python's own thresholds become a safety net, high enough that they do not fire in a click
  (:data:`SAFETY_THRESHOLDS`);
- each unit of work calls :meth:`IdleCollector.work_done` when it ends, its answers sent: a
  component callback (``bot.components.answers.guarded``), a slash command, a run of a game's panel
  sender, a tick of the timer loop. When a collection is due, it runs on the next turn of
  the event loop (``call_soon``), after that unit's Discord calls and before anything else
  is started. The generation collected follows CPython's own rule, with the counts CPython
  keeps (``gc.get_count``): the youngest every :data:`YOUNG_EVERY` new containers, the
  middle one every :data:`MIDDLE_EVERY` young collections, everything every
  :data:`FULL_EVERY` middle ones.

The collections cost the same CPU; what changes is when they happen: after a reply has gone
out instead of before it. A click that arrives during a collection still waits for it.
"""

from __future__ import annotations

import asyncio
import gc

#: New container objects (the youngest generation's count) after which the end of a unit of
#: work collects the youngest generation (CPython's own default threshold is 700).
YOUNG_EVERY = 1000
#: Young collections between two collections of the middle generation.
MIDDLE_EVERY = 20
#: Middle collections between two full collections (CPython's default: 10, and then only
#: if the objects that survived since the last one are a quarter of the old ones; this
#: count stands in for that test, which Python does not expose).
FULL_EVERY = 100
#: Python's own thresholds once installed: they fire only if no unit of work ends while a
#: great many objects are made (a long recovery at start-up), so that the garbage of such a
#: stretch is still collected.
SAFETY_THRESHOLDS = (20 * YOUNG_EVERY, MIDDLE_EVERY, FULL_EVERY)


class IdleCollector:
    """Collects the garbage at the end of units of work (see the module's doc). One per
    process: :data:`COLLECTOR`. Until :meth:`install` it does nothing (tests, the preview)."""

    def __init__(self) -> None:
        self.installed = False
        #: A collection is scheduled on the event loop and has not run yet.
        self._scheduled = False

    def install(self) -> None:
        """Freeze what the process holds now and let the ends of units of work collect."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(*SAFETY_THRESHOLDS)
        self.installed = True

    def uninstall(self, thresholds: tuple[int, int, int]) -> None:
        """Back to Python's own collections, at ``thresholds`` (tests)."""
        self.installed = False
        gc.unfreeze()
        gc.set_threshold(*thresholds)

    @staticmethod
    def due() -> int | None:
        """The generation a collection now would collect, or None if none is due."""
        young, middle, full = gc.get_count()
        if young < YOUNG_EVERY:
            return None
        if full >= FULL_EVERY:
            return 2
        return 1 if middle >= MIDDLE_EVERY else 0

    def work_done(self) -> None:
        """A unit of work ended, its answers sent: collect on the next turn of the loop if a
        collection is due (once, however many units end meanwhile)."""
        if not self.installed or self._scheduled or self.due() is None:
            return
        self._scheduled = True
        asyncio.get_running_loop().call_soon(self.collect)

    def collect(self) -> int | None:
        """Run the collection that is due; the generation collected (None: none was due)."""
        self._scheduled = False
        generation = self.due()
        if generation is not None:
            gc.collect(generation)
        return generation


#: The process's collector.
COLLECTOR = IdleCollector()


def work_done() -> None:
    """A unit of work ended: see :meth:`IdleCollector.work_done`."""
    COLLECTOR.work_done()
