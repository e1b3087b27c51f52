"""The picture cache (issue 23): pictures are drawn in one worker process, kept by slot and by
what they show, drawn again only when that changed, and a burst of requests for one slot is
drawn once, in its newest state (no Discord needed)."""

from __future__ import annotations

import asyncio
import os
from functools import partial
from pathlib import Path

import pytest
from pictures.drawings import broken, busy, calls, tagged
from pictures.positions import NAMES, position

from bot.pictures import PictureCache, draw_board
from engine.cards import default_cards

DB = default_cards()


async def test_a_picture_is_drawn_once_and_kept(tmp_path: Path) -> None:
    cache, log = PictureCache(), tmp_path / "log"
    first = await cache.get(("g1", "card"), "a", partial(tagged, "a", log))
    again = await cache.get(("g1", "card"), "a", partial(tagged, "a", log))
    assert first is again and calls(log) == ["a"]
    assert cache.stats.drawn == 1 and cache.stats.hits == 1
    # Drawn off the bot's process (its interpreter lock), in the cache's worker process.
    assert int(first.png) != os.getpid()
    cache.close()


async def test_a_change_draws_again_and_slots_are_apart(tmp_path: Path) -> None:
    cache, log = PictureCache(), tmp_path / "log"
    assert (await cache.get("board", "a", partial(tagged, "a", log))).alt == "a"
    assert (await cache.get("board", "b", partial(tagged, "b", log))).alt == "b"
    assert (await cache.get("other", "a", partial(tagged, "a2", log))).alt == "a2"
    assert calls(log) == ["a", "b", "a2"]
    assert cache.peek("board") is not None and cache.peek("none") is None
    cache.close()


async def test_a_burst_is_drawn_once_in_its_newest_state(tmp_path: Path) -> None:
    cache, log, gate = PictureCache(), tmp_path / "log", tmp_path / "gate"

    def get(tag: str) -> asyncio.Task[object]:
        # Every drawing waits for the gate: the first one runs until it is opened.
        return asyncio.create_task(cache.get("board", tag, partial(tagged, tag, log, gate)))

    first = get("v1")
    await asyncio.sleep(0.05)
    burst = [get(f"v{i}") for i in (2, 3, 4)]
    await asyncio.sleep(0.05)
    gate.touch()
    pictures = await asyncio.gather(first, *burst)
    # v1 was being drawn; v2 and v3 were superseded by v4 before their turn.
    assert calls(log) == ["v1", "v4"]
    assert cache.stats.superseded == 2 and cache.stats.drawn == 2
    # Every request gets the newest picture: a state never shows after a newer one.
    assert [p.alt for p in pictures] == ["v4"] * 4  # type: ignore[attr-defined]
    cache.close()


async def test_a_failed_drawing_fails_its_callers_not_the_slot(tmp_path: Path) -> None:
    cache = PictureCache()
    with pytest.raises(RuntimeError, match="broken"):
        await cache.get("board", "a", partial(broken))
    assert (await cache.get("board", "a", partial(tagged, "a", tmp_path / "log"))).alt == "a"
    cache.close()


async def test_old_slots_are_let_go(tmp_path: Path) -> None:
    cache = PictureCache(slots=2)
    for slot in ("a", "b", "c"):
        await cache.get(slot, "x", partial(tagged, slot, tmp_path / "log"))
    assert cache.peek("a") is None and cache.peek("c") is not None
    cache.close()


async def test_the_cpu_time_of_a_drawing_is_the_workers() -> None:
    cache = PictureCache()
    await cache.get("warm", "x", partial(busy, 0))  # the worker started and ready
    own = os.times()
    picture = await cache.get("busy", "x", partial(busy, 0.2))
    spent = os.times()
    assert int(picture.png) != os.getpid()
    # The worker's CPU seconds come back with the picture; the bot's process only waited.
    assert 0.2 <= cache.stats.seconds < 0.5
    assert (spent.user + spent.system) - (own.user + own.system) < 0.1
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


async def test_the_board_drawn_in_the_worker_is_the_one_drawn_here() -> None:
    cache = PictureCache()
    game, _ = position()
    view = game.table_view()
    for language in ("en", "ru"):
        there = await cache.board(1, view, DB, NAMES, language)
        assert there == draw_board(view, DB, NAMES, language)
    cache.close()
