"""The outbox (issue 24) of shard clusters: a game's events are posted under its posting
lease from the stored pointer, each message with a nonce made of the game and its post. A
cluster killed at any step of a decision and started again posts every line exactly once
and in order, one end summary, and buttons on the newest board only: the post in flight is
sent again with the same nonces, and Discord (modelled: :mod:`discord_nonces`) keeps the one
message."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import simcord
from anima_sim import Driver, World, open_lobby
from databases import TestDatabase, connect
from discord_nonces import NonceLog, honour_nonces
from posting_checks import (
    assert_killed,
    killed_mid_game,
    live_buttons,
    posted_once_to_the_end,
)

from bot.app import AnimaBot
from bot.publishing.base import NONCE_LENGTH, nonce
from bot.storage import Pointer

pytestmark = pytest.mark.both_backends

KILLS = [("after commit", 6), ("after post", 6), ("before pointer", 6), ("after final commit", 0)]


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    return make_bot(shard_count=1)


@pytest.fixture
def nonces() -> Iterator[NonceLog]:
    with honour_nonces() as seen:
        yield seen


def test_a_nonce_is_the_same_for_the_same_post_and_within_discords_length() -> None:
    assert nonce(12, "post", 345, 67, 1) == nonce(12, "post", 345, 67, 1)
    assert len({nonce(12, "post", 345, 67, i) for i in range(1, 4)}) == 3
    assert nonce(12, "post", 345, 67, 1) != nonce(13, "post", 345, 67, 1)
    assert len(nonce(10**18, "ping", 10**18, 10**9, 99)) <= NONCE_LENGTH


@pytest.mark.parametrize(("step", "passes"), KILLS)
async def test_a_cluster_killed_mid_post_posts_every_line_once_when_back(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
    nonces: NonceLog,
    step: str,
    passes: int,
) -> None:
    env = simcord_env
    bot = env.bot
    assert isinstance(bot, AnimaBot) and bot.storage.shared
    game_id, players = await killed_mid_game(w, database, step, passes)

    # The same cluster (the same shards: the same lease holder) starts again.
    await env.restart_bot(make_bot(shard_count=1))
    assert_killed(env, step)
    if step == "before pointer":
        assert nonces.deduplicated >= 1  # the post in flight went out again: one message
    await posted_once_to_the_end(env.bot, w, database, game_id, players)


async def test_a_board_posted_by_a_cluster_held_up_past_its_lease_loses_its_buttons(
    w: World, simcord_env: simcord.Env, database: TestDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cluster held up longer than its posting lease (a loaded machine) sends its board
    # after another took the game's posts over: the other's board is the stored one, and
    # this one must not keep live buttons beside it (the kill test found one).
    bot = simcord_env.bot
    assert isinstance(bot, AnimaBot) and bot.storage.shared
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], ai=1, turns=2)
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    players = {m.id: m for m in (w.alice, w.bob)}
    driver = Driver(w, database, game_id, players, seed=5)
    driver.use_commands = False
    for _ in range(40):  # past the secret starts, into the turns
        assert await driver.step()
    end_post = bot.storage.end_post
    stolen: list[int] = []  # the board posted past the lease

    async def held_up(game: int, pointer: Pointer | None) -> int | None:
        with connect(database) as db:
            (stored,) = db.execute(
                "SELECT board_message_id FROM games WHERE id = ?", (game,)
            ).fetchone()
            if not stolen and pointer is not None and pointer.board_message_id != stored:
                # It posted a new board; meanwhile another process took the lease over,
                # and the board it stored is the older one.
                db.execute("UPDATE leases SET holder = 'another' WHERE game_id = ?", (game,))
                stolen.append(pointer.board_message_id or 0)
        return await end_post(game, pointer)

    monkeypatch.setattr(bot.storage, "end_post", held_up)
    for _ in range(200):
        if stolen:
            break
        assert await driver.step()
    assert stolen, "no new board was posted"
    # The board it posted meanwhile lost its buttons (the other process's board, stored,
    # keeps its own: here the older one, which this process retired as it posted).
    assert stolen[0] not in live_buttons(w.table, game_id)
