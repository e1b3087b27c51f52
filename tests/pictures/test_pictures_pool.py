"""The pictures' worker process (issue 23, ``bot.pictures.pool``): it draws what the bot
would draw, from the pictures' inputs alone, a card database is sent to it once, it starts
with the first drawing and stops with the cache (and the bot), and a worker that died is
replaced."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

from pictures.drawings import dies_once, tagged
from pictures.positions import position

from bot.app import create_bot
from bot.pictures import PictureCache, draw_card, draw_hand
from bot.pictures.pool import PicturePool
from bot.settings import Settings
from engine import CardDB
from engine.cards import default_cards

DB = default_cards()


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (and was reaped: no zombie left)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_the_hand_and_a_card_drawn_in_the_worker_are_the_ones_drawn_here() -> None:
    cache = PictureCache()
    game, _ = position()
    seat_view = game.seat_view("P2")
    there = await cache.get("hand", "x", partial(draw_hand, seat_view, DB, "ru"))
    assert there == draw_hand(seat_view, DB, "ru")
    card_id = DB.characters[0].id
    there = await cache.get("card", "x", partial(draw_card, card_id, DB, "es"))
    assert there == draw_card(card_id, DB, "es")
    cache.close()


async def test_another_card_database_is_sent_to_the_worker_once() -> None:
    pool = PicturePool()
    # A database of the published cards' first hundred: not the one a worker loads itself.
    db = CardDB(list(DB.by_id.values())[:100])
    card_id = db.characters[-1].id
    first, _ = await pool.draw(partial(draw_card, card_id, db, "en"))
    again, _ = await pool.draw(partial(draw_card, card_id, db, "it"))
    assert first == draw_card(card_id, db, "en") and again == draw_card(card_id, db, "it")
    assert pool.sent == 1  # the first call was sent without it, the worker asked, once
    pool.close()


async def test_the_worker_starts_with_the_first_drawing_and_stops_on_close(
    tmp_path: Path,
) -> None:
    cache = PictureCache()
    assert not cache.pool.started
    cache.close()  # nothing to stop
    picture = await cache.get("a", "x", partial(tagged, "a", tmp_path / "log"))
    worker = int(picture.png)
    assert cache.pool.started and not _gone(worker)
    cache.close()
    assert not cache.pool.started and _gone(worker)
    # A later drawing starts a new worker.
    picture = await cache.get("a", "y", partial(tagged, "b", tmp_path / "log"))
    assert int(picture.png) != worker
    cache.close()
    assert _gone(int(picture.png))


async def test_a_worker_that_died_is_replaced(tmp_path: Path) -> None:
    cache = PictureCache()
    picture = await cache.get("a", "x", partial(dies_once, tmp_path / "died"))
    assert picture.alt == "again" and (tmp_path / "died").exists()
    cache.close()
    assert _gone(int(picture.png))


async def test_closing_the_bot_stops_its_pictures_worker(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, DISCORD_TOKEN="", ANIMA_DB_PATH=tmp_path / "a.sqlite3")
    bot = create_bot(settings)
    picture = await bot.pictures.get("a", "x", partial(tagged, "a", tmp_path / "log"))
    assert bot.pictures.pool.started
    await bot.close()
    assert not bot.pictures.pool.started and _gone(int(picture.png))


def test_a_worker_ends_when_its_bot_is_killed(tmp_path: Path) -> None:
    script = Path(__file__).with_name("bot_dies.py")
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "log")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    worker = int(done.stdout)
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(worker)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (not a child of ours: a zombie counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
