"""A game changed by another process (issue 24: shard clusters on one database): the copy a
process keeps in memory is never trusted past the stored version, and a commit that finds
the game moved on is run again on the stored game, not refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord
from anima_sim import Driver, World, actions, chose, start_game, stored
from databases import TestDatabase

from bot.app import AnimaBot

pytestmark = pytest.mark.both_backends


async def _other_process_decides(
    make_bot: Callable[..., AnimaBot], game_id: int, seat: str, action: str
) -> None:
    """Another bot on the same database (another process) applies ``seat``'s ``action`` and
    commits it (it posts nothing: its Discord is not this test's)."""
    other = make_bot()
    await other.storage.open()

    async def up_to_date(table: object, behind: bool = True) -> bool:
        return True  # its channel is not read: this bot has no Discord

    other.publisher.reconcile = up_to_date  # type: ignore[method-assign,assignment]
    async with other.games.lock(game_id):
        table = await other.games.load(game_id)
        await other.games.apply(table, seat, action, "click")
        await other.games.commit(table)


async def _two_start_choices(w: World, database: TestDatabase) -> tuple[int, Driver, str, str]:
    """A game of alice and bob (no AI), both choosing their start: (game, driver, alice's
    seat, bob's seat)."""
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    driver = Driver(w, database, game_id, {w.alice.id: w.alice, w.bob.id: w.bob}, seed=3)
    st = stored(database, game_id)
    return game_id, driver, st.seat_of(w.alice.id).seat, st.seat_of(w.bob.id).seat


@pytest.mark.parametrize("checked", [True, False], ids=["version-checked", "commit-refused"])
async def test_a_click_after_another_process_moved_the_game_applies_on_the_stored_game(
    checked: bool,
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, AnimaBot)
    # Checked: the cheap version read before a decision finds the copy stale. Not checked
    # (as if the other process committed between that read and this commit): the commit's
    # version check refuses, and the click is run once more on the game read again.
    bot.storage.shared = checked
    game_id, driver, alice, bob = await _two_start_choices(w, database)
    assert bot.games.cached(game_id)
    st = stored(database, game_id)
    before = st.version
    prompt = st.game.prompt_for(alice)
    assert prompt is not None
    await _other_process_decides(make_bot, game_id, alice, prompt.choices[0])
    assert stored(database, game_id).version == before + 1

    st = stored(database, game_id)
    bobs = st.game.prompt_for(bob)
    assert bobs is not None
    result = await driver.choose(st, bobs, 0)
    assert result.acknowledged and chose(result)
    logged = [(seat, action) for _v, seat, action, _s in actions(database, game_id)]
    # Both decisions, each once: the other process's, then bob's on top of it.
    assert logged[-2:] == [(alice, prompt.choices[0]), (bob, bobs.choices[0])]
    assert stored(database, game_id).version == before + 2
    assert not bot.errors
    final = await driver.play()
    assert final.status == "over"
