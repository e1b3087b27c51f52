"""Python's garbage collector runs between the bot's units of work (bot.collector): once
installed (``bot.app.tune_gc``, as ``run_bot`` does), a component callback, a slash command
and a run of a game's panel sender each end by asking for the collection that is due, which
runs on the next turn of the event loop, after that unit's answers; never in the middle of
it because its count tipped over."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import simcord
from anima_sim import World

from bot import collector
from bot.app import tune_gc
from bot.collector import (
    COLLECTOR,
    FULL_EVERY,
    MIDDLE_EVERY,
    SAFETY_THRESHOLDS,
    YOUNG_EVERY,
    IdleCollector,
)
from bot.components.answers import guarded
from bot.panels import Panels


@pytest.fixture
def installed() -> Iterator[IdleCollector]:
    """The process's collector, installed as ``run_bot`` installs it; Python's own settings
    come back afterwards."""
    before = gc.get_threshold()
    tune_gc()
    try:
        yield COLLECTOR
    finally:
        COLLECTOR.uninstall(before)


@pytest.fixture
def collections(installed: IdleCollector, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What happened, in order: the tests' own marks and "collect" for each collection run
    by the collector (one is always due)."""
    happened: list[str] = []

    def collect() -> int | None:
        installed._scheduled = False
        happened.append("collect")
        return 0

    monkeypatch.setattr(installed, "due", lambda: 0)
    monkeypatch.setattr(installed, "collect", collect)
    return happened


def test_tune_gc_freezes_what_the_bot_holds_and_leaves_python_a_safety_net(
    installed: IdleCollector,
) -> None:
    assert installed.installed
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == SAFETY_THRESHOLDS
    # Python's own young collection fires only after many units of work's worth of objects.
    assert SAFETY_THRESHOLDS[0] > YOUNG_EVERY


@pytest.mark.parametrize(
    ("counts", "due"),
    [
        ((YOUNG_EVERY - 1, MIDDLE_EVERY, FULL_EVERY), None),  # not enough new objects yet
        ((YOUNG_EVERY, 0, 0), 0),
        ((YOUNG_EVERY, MIDDLE_EVERY - 1, FULL_EVERY - 1), 0),
        ((YOUNG_EVERY, MIDDLE_EVERY, 0), 1),
        ((YOUNG_EVERY, MIDDLE_EVERY, FULL_EVERY - 1), 1),
        ((YOUNG_EVERY, 0, FULL_EVERY), 2),
    ],
)
def test_the_generation_due_follows_pythons_counts(
    monkeypatch: pytest.MonkeyPatch, counts: tuple[int, int, int], due: int | None
) -> None:
    monkeypatch.setattr(gc, "get_count", lambda: counts)
    assert IdleCollector.due() == due


async def test_nothing_is_scheduled_until_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    idle = IdleCollector()
    monkeypatch.setattr(idle, "due", lambda: 0)
    ran: list[int | None] = []
    monkeypatch.setattr(idle, "collect", lambda: ran.append(0))
    idle.work_done()
    await asyncio.sleep(0)
    assert ran == []


async def test_a_due_collection_runs_once_on_the_next_turn_of_the_loop(
    installed: IdleCollector,
) -> None:
    generations: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    gc.collect()  # every count back to 0
    kept: list[list[int]] = [
        [] for _ in range(YOUNG_EVERY + 100)
    ]  # new containers: a young collection is due
    assert installed.due() == 0
    gc.callbacks.append(seen)
    try:
        installed.work_done()
        installed.work_done()  # a second unit ending meanwhile asks for nothing more
        assert generations == []  # not inside the unit of work
        await asyncio.sleep(0)
        assert generations == [0]
        assert gc.get_count()[0] < YOUNG_EVERY
        assert installed.due() is None
        installed.work_done()  # nothing due: nothing scheduled
        await asyncio.sleep(0)
        assert generations == [0]
    finally:
        gc.callbacks.remove(seen)
    assert len(kept) == YOUNG_EVERY + 100


async def test_a_component_callback_collects_after_its_answer_failed_or_not(
    collections: list[str],
) -> None:
    errors: list[BaseException] = []
    bot = SimpleNamespace(errors=errors, record_error=errors.append)
    answered: list[str] = []

    async def send_message(text: str, ephemeral: bool) -> None:
        answered.append(text)
        collections.append("answer")

    response = SimpleNamespace(is_done=lambda: False, send_message=send_message)
    interaction: Any = SimpleNamespace(client=bot, response=response)

    async def work() -> None:
        collections.append("work")

    async def failing() -> None:
        collections.append("work")
        raise RuntimeError("boom")

    await guarded(interaction, work)
    assert collections == ["work"]
    await asyncio.sleep(0)
    assert collections == ["work", "collect"]
    await guarded(interaction, failing)
    await asyncio.sleep(0)
    assert collections == ["work", "collect", "work", "answer", "collect"]
    assert len(errors) == 1 and answered  # the apology went out before the collection


async def test_a_slash_command_ends_a_unit_of_work(
    w: World, simcord_env: simcord.Env, collections: list[str]
) -> None:
    before = len(simcord_env.http_requests)
    result = await w.alice.slash(w.table, "anima about")
    assert result.response is not None
    assert len(simcord_env.http_requests) > before
    assert collections == ["collect"]


async def test_a_panel_senders_run_ends_a_unit_of_work(collections: list[str]) -> None:
    panels = Panels(storage=None)  # type: ignore[arg-type]
    await panels._send(7)  # a run with nothing left to send
    assert collections == []
    await asyncio.sleep(0)
    assert collections == ["collect"]


def test_the_module_function_asks_the_process_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[bool] = []
    monkeypatch.setattr(COLLECTOR, "work_done", lambda: asked.append(True))
    collector.work_done()
    assert asked == [True]
