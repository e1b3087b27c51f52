"""SimCord fixtures for the bot's tests: a fresh bot per test (and per restart), each closed
at teardown; an uncaught error inside a component callback fails the test.

The bot's database is the ``database`` fixture: a SQLite file (``db_path``), or, for a test
marked ``both_backends`` (the storage tests: ``pytestmark`` of their module), each backend in
turn, a new PostgreSQL database of the session's cluster for the second. A test of such a
module that only makes sense on SQLite (a file's pages, PRAGMAs) is marked ``sqlite_only``; one
about PostgreSQL alone (``pg_dump``), ``postgresql_only``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord
from anima_sim import World, world
from databases import BACKENDS, TestDatabase
from postgres_cluster import PostgresCluster

from bot.app import AnimaBot, create_bot
from bot.settings import Settings
from bot.storage import crash_points
from engine.cards import CardDB


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "anima.sqlite3"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked ``both_backends`` that uses the database runs once per backend (once on
    PostgreSQL if marked ``postgresql_only``, on SQLite alone if ``sqlite_only``)."""
    node = metafunc.definition
    if "database" not in metafunc.fixturenames:
        return
    if node.get_closest_marker("postgresql_only") is not None:
        metafunc.parametrize("database", ["postgresql"], indirect=True)
    elif (
        node.get_closest_marker("both_backends") is not None
        and node.get_closest_marker("sqlite_only") is None
    ):
        metafunc.parametrize("database", BACKENDS, indirect=True)


def new_postgres_database(cluster: PostgresCluster) -> Iterator[TestDatabase]:
    """A new database of the session's PostgreSQL ``cluster``, dropped afterwards."""
    name = cluster.new_database()
    db = TestDatabase.postgresql(cluster.url(name))
    try:
        yield db
    finally:
        db.close()
        cluster.drop_database(name)


@pytest.fixture
def database(request: pytest.FixtureRequest, db_path: Path) -> Iterator[TestDatabase]:
    """The test's database: the SQLite file ``db_path``, or (parameter ``postgresql``) a new
    database of the session's PostgreSQL cluster, dropped after the test."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield TestDatabase.sqlite(db_path)
        return
    yield from new_postgres_database(request.getfixturevalue("postgres_cluster"))


@pytest.fixture
def target(postgres_cluster: PostgresCluster) -> Iterator[TestDatabase]:
    """A new, empty PostgreSQL database of the session's cluster (``anima-bot migrate``'s
    target)."""
    yield from new_postgres_database(postgres_cluster)


@pytest.fixture
def settings(db_path: Path, database: TestDatabase) -> Settings:
    # No .env: the tests must not depend on a developer's local settings.
    return Settings(
        _env_file=None,
        DISCORD_TOKEN="",
        ANIMA_DB_PATH=db_path,
        # SQLite: ANIMA_DB_PATH alone, as a default setup has it.
        DATABASE_URL=database.url if database.path is None else "",
        ANIMA_FIXED_SEED=11,
        ANIMA_DECISION_TIMER=0,
        ANIMA_WINDOW_TIMER=30,
        ANIMA_AI_TAKEOVER=3,
        # The text board, which the tests read; the tests of the pictures turn them on.
        ANIMA_TABLE_PICTURES=False,
    )


@pytest_asyncio.fixture
async def make_bot(settings: Settings) -> AsyncIterator[Callable[..., AnimaBot]]:
    """``make_bot(cards=None, **settings)`` -> a new unstarted bot on the same database
    (``cards``: another card database than the published one)."""
    bots: list[AnimaBot] = []

    def make(cards: CardDB | None = None, **overrides: Any) -> AnimaBot:
        s = settings.model_copy(update=overrides) if overrides else settings
        bot = create_bot(s, cards=cards)
        bots.append(bot)
        return bot

    yield make
    errors = []
    for bot in bots:
        bot.timers.cancel()
        await bot.storage.close()
        bot.pictures.close()  # its worker process, if it drew anything
        errors += bot.errors
    assert not errors, f"component callbacks raised: {errors!r}"


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    return make_bot()


@pytest.fixture(autouse=True)
def disarmed() -> Iterator[None]:
    """No crash point armed before or after a test (``bot.storage.crash_points``: the crash
    tests arm them to kill the bot at a named step)."""
    crash_points.clear()
    yield
    crash_points.clear()


@pytest.fixture
def w(simcord_env: simcord.Env) -> World:
    """The test server (``anima_sim.world``): a guild with a #table channel, alice, bob, carol,
    dave (who never plays: the public eye) and an admin."""
    return world(simcord_env)
