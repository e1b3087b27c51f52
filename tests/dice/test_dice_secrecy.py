"""The server seed is the dice's secret: who knows it knows every card still to be drawn. No
view (the public table, a seat's, the AI's sealed table) and no event shows it while the game
runs; the public view shows its commitment from the start and the seed itself once the game
is over."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine.agents import RandomAgent
from engine.determinize import determinize
from engine.game import Game
from engine.views import lazy_seat_view


def seed_of(game: Game) -> str:
    assert game.s.dice is not None
    return game.s.dice.server_seed


def shown(game: Game, seat: str | None) -> str:
    """Everything ``seat`` (None: the public) is shown of ``game`` now, as one text."""
    if seat is None:
        return game.table_view().model_dump_json() + json.dumps(game.view(None))
    view = game.seat_view(seat)
    assert view.sealed is not None
    return view.model_dump_json() + view.sealed.state + json.dumps(game.view(seat))


def check_secret(game: Game, events: list[object]) -> None:
    secret = seed_of(game)
    for text in [secret, secret.upper(), secret[:32], secret[32:]]:
        for seat in [None, *game.s.seats]:
            assert text not in shown(game, seat), f"{seat or 'the public'} sees the seed"
        assert all(text not in repr(e) for e in events), "an event names the seed"


@pytest.mark.parametrize("number", range(4))
def test_no_view_and_no_event_shows_the_server_seed_before_the_end(number: int) -> None:
    names = ["P1", "P2", "P3", "P4"][: 2 + number % 3]
    server_seed = hashlib.sha256(f"secret {number}".encode()).hexdigest()
    game = Game.new(
        names,
        {"turn_cap": 3 + number},
        number,
        server_seed=server_seed,
        seat_seeds={n: f"join {n}" for n in names[1:]},
    )
    commitment = hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()
    agents = {n: RandomAgent(f"{number}:{n}") for n in names}
    pick = random.Random(number).random
    events: list[object] = list(game.last_events)
    while not game.over:
        table = game.table_view()
        assert table.dice_commitment == commitment and table.dice_server_seed is None
        check_secret(game, events)
        prompts = game.pending()
        prompt = prompts[int(pick() * len(prompts))]
        action = agents[prompt.player].choose(lazy_seat_view(game, prompt.player), prompt)
        events = game.apply(prompt.player, action)
    table = game.table_view()
    assert table.dice_commitment == commitment and table.dice_server_seed == server_seed
    assert game.view(None)["dice_server_seed"] == server_seed


def test_the_ai_samples_its_worlds_without_the_keyed_stream() -> None:
    game = Game.new(["A", "B", "C"], seed=2, server_seed="ab" * 32, seat_seeds={"A": "a"})
    view = game.seat_view("B")
    assert view.sealed is not None and json.loads(view.sealed.state)["dice"] is None
    world = determinize(view, random.Random(1), game.db)
    assert world.s.dice is None  # its dice: SplitMix64 from the AI's own seed


def test_a_game_of_the_old_generator_has_no_commitment() -> None:
    game = Game.new(["A", "B"], seed=2)
    assert game.s.dice is None and game.table_view().dice_commitment is None
    assert "dice" not in json.loads(game.to_json())  # stored exactly as before
