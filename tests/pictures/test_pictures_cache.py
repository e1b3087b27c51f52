"""The picture cache (issue 23): pictures are drawn in one worker thread, kept by slot and by
what they show, drawn again only when that changed, and a burst of requests for one slot is
drawn once, in its newest state (no Discord needed)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest
from pictures.positions import NAMES, position

from bot.pictures import Picture, PictureCache
from engine.cards import default_cards

DB = default_cards()


def _picture(tag: str) -> Picture:
    return Picture(tag.encode(), tag, 1, 1)


class Drawer:
    """Draw functions that count their calls and can be held until released."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.threads: set[str] = set()
        self.gate = threading.Event()
        self.gate.set()

    def __call__(self, tag: str) -> Callable[[], Picture]:
        def draw() -> Picture:
            self.threads.add(threading.current_thread().name)
            self.gate.wait(5)
            self.calls.append(tag)
            return _picture(tag)

        return draw


async def test_a_picture_is_drawn_once_and_kept() -> None:
    cache, draw = PictureCache(), Drawer()
    first = await cache.get(("g1", "card"), "a", draw("a"))
    again = await cache.get(("g1", "card"), "a", draw("a"))
    assert first is again and draw.calls == ["a"]
    assert cache.stats.drawn == 1 and cache.stats.hits == 1
    # Drawn off the event loop's thread, in the cache's one worker.
    assert draw.threads and all(t.startswith("pictures") for t in draw.threads)
    assert threading.current_thread().name not in draw.threads
    cache.close()


async def test_a_change_draws_again_and_slots_are_apart() -> None:
    cache, draw = PictureCache(), Drawer()
    assert (await cache.get("board", "a", draw("a"))).alt == "a"
    assert (await cache.get("board", "b", draw("b"))).alt == "b"
    assert (await cache.get("other", "a", draw("a2"))).alt == "a2"
    assert draw.calls == ["a", "b", "a2"]
    assert cache.peek("board") is not None and cache.peek("none") is None
    cache.close()


async def test_a_burst_is_drawn_once_in_its_newest_state() -> None:
    cache, draw = PictureCache(), Drawer()
    draw.gate.clear()  # the first drawing runs until released
    first = asyncio.create_task(cache.get("board", "v1", draw("v1")))
    await asyncio.sleep(0.05)
    burst = [asyncio.create_task(cache.get("board", f"v{i}", draw(f"v{i}"))) for i in (2, 3, 4)]
    await asyncio.sleep(0.05)
    draw.gate.set()
    pictures = await asyncio.gather(first, *burst)
    # v1 was being drawn; v2 and v3 were superseded by v4 before their turn.
    assert draw.calls == ["v1", "v4"]
    assert cache.stats.superseded == 2
    # Every request gets the newest picture: a state never shows after a newer one.
    assert [p.alt for p in pictures] == ["v4"] * 4
    cache.close()


async def test_a_failed_drawing_fails_its_callers_not_the_slot() -> None:
    cache, draw = PictureCache(), Drawer()

    def broken() -> Picture:
        raise RuntimeError("broken")

    with pytest.raises(RuntimeError):
        await cache.get("board", "a", broken)
    assert (await cache.get("board", "a", draw("a"))).alt == "a"
    cache.close()


async def test_old_slots_are_let_go() -> None:
    cache, draw = PictureCache(slots=2), Drawer()
    for slot in ("a", "b", "c"):
        await cache.get(slot, "x", draw(slot))
    assert cache.peek("a") is None and cache.peek("c") is not None
    cache.close()


async def test_the_board_is_drawn_again_only_when_what_it_shows_changed() -> None:
    cache = PictureCache()
    game, _ = position()
    view = game.table_view()
    first = await cache.board(7, view, DB, NAMES, "en")
    assert first.png.startswith(b"\x89PNG")
    # Another version whose drawn fields are the same (the decks changed): the same picture.
    later = view.model_copy(update={"version": view.version + 1, "decks": ()})
    assert await cache.board(7, later, DB, NAMES, "en") is first
    changed = view.model_copy(update={"crisis": 1})
    assert (await cache.board(7, changed, DB, NAMES, "en")).png != first.png
    # Each language and each game has its own slot.
    assert (await cache.board(7, view, DB, NAMES, "ru")).alt != first.alt
    await cache.board(8, view, DB, NAMES, "en")
    assert cache.stats.drawn == 4 and cache.stats.hits == 1
    assert cache.stats.seconds > 0
    cache.close()
