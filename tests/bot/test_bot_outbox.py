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
from anima_sim import World
from databases import TestDatabase
from discord_nonces import NonceLog, honour_nonces
from posting_checks import (
    assert_killed,
    killed_mid_game,
    posted_once_to_the_end,
)

from bot.app import AnimaBot
from bot.publishing.base import NONCE_LENGTH, nonce

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
