"""AI seats at the level the host picked: a whole game with normal and hard AI players, the
default level for a member's seat taken over, and the hard AI's thinking off the event loop."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from anima_sim import Driver, World, actions, open_lobby, private_reply

import bot.games.turns
from bot.games.turns import ai_choice
from bot.storage import SeatRow
from engine.agents.levels import DEFAULT_LEVEL, make_agent
from engine.game import Game
from engine.views import lazy_seat_view


async def test_a_whole_game_with_three_normal_ai_seats_and_a_hard_one(
    w: World, db_path: Path
) -> None:
    # The lobby needs a member as its host: alice sits in seat 1 and plays at random.
    game_id, lobby = await open_lobby(
        w, w.alice, [], turns=4, ai_levels=["normal", "normal", "normal", "hard"]
    )
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert r.acknowledged and private_reply(r) is None, private_reply(r)
    with sqlite3.connect(db_path) as db:
        levels = [
            row[0]
            for row in db.execute(
                "SELECT ai_level FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
            )
        ]
    assert levels == [None, "normal", "normal", "normal", "hard"]

    final = await Driver(w, db_path, game_id, {w.alice.id: w.alice}, seed=3).play()
    assert final.status == "over" and final.game.over
    by_ai = {seat for _, seat, _, source in actions(db_path, game_id) if source == "ai"}
    assert by_ai == {"p2", "p3", "p4", "p5"}  # every AI seat took decisions of its own


def table_of(game: Game, levels: dict[str, str | None]) -> Any:
    """The parts of a bot table ``ai_choice`` reads: its id, game and seats."""
    seats = {
        name: SeatRow(1, name, i, None, name, ai=True, ai_level=levels.get(name))
        for i, name in enumerate(game.s.seats)
    }
    return SimpleNamespace(id=7, game=game, seats=seats)


async def test_a_seat_without_a_level_plays_at_the_default_level() -> None:
    """A member's seat taken over after time-outs has no level: it plays the default's moves."""
    game = Game.new(["p1", "p2", "p3"], {}, 11)
    for _ in range(40):  # into the first turn: decisions with several choices
        prompt = game.pending()[0]
        table = table_of(game, {})
        chosen = await ai_choice(table, prompt)
        expected = make_agent(DEFAULT_LEVEL, f"7:{prompt.player}:{game.version}").choose(
            lazy_seat_view(game, prompt.player), prompt
        )
        assert chosen == expected
        game.apply(prompt.player, chosen)


@pytest.mark.parametrize(("level", "threaded"), [("hard", True), ("normal", False)])
async def test_a_searching_level_thinks_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch, level: str, threaded: bool
) -> None:
    game = Game.new(["p1", "p2"], {}, 5)
    prompt = game.pending()[0]
    threads: list[int] = []

    class Recording:
        def choose(self, view: Any, prompt: Any) -> str:
            threads.append(threading.get_ident())
            return str(prompt.choices[0])

    made: list[str] = []

    def fake_make_agent(name: str, seed: str, budget_ms: float | None = None) -> Any:
        made.append(name)
        return Recording()

    monkeypatch.setattr(bot.games.turns, "make_agent", fake_make_agent)
    table = table_of(game, {prompt.player: level})
    assert await ai_choice(table, prompt) == prompt.choices[0]
    assert made == [level]
    assert (threads[0] != threading.get_ident()) is threaded


async def test_an_unknown_stored_level_falls_back_to_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game.new(["p1", "p2"], {}, 5)
    prompt = game.pending()[0]
    table = table_of(game, {prompt.player: "grandmaster"})
    expected = make_agent(DEFAULT_LEVEL, f"7:{prompt.player}:{game.version}").choose(
        lazy_seat_view(game, prompt.player), prompt
    )
    assert await ai_choice(table, prompt) == expected
