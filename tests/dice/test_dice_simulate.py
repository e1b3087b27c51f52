"""``anima simulate --keyed-dice`` plays the keyed stream of the bot's games; without it, the
old generator the tests' positions were made with."""

from __future__ import annotations

import json

import pytest

from engine.game import Game
from engine.tools.cli import main
from engine.tools.simulate import play_game


def test_play_game_draws_from_the_keyed_stream_only_when_asked() -> None:
    games: dict[bool, Game] = {}
    for keyed in (False, True):
        result = play_game(3, 3, 4, keyed=keyed, observe=lambda g, _, k=keyed: games.update({k: g}))
        assert result.error is None
    assert games[False].s.dice is None
    assert games[True].s.dice is not None and games[True].s.dice.drawn > 0


def test_simulate_takes_keyed_dice(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "2", "--players", "3", "--turn-cap", "3", "--json"]
    assert main(args) == 0
    old = json.loads(capsys.readouterr().out)
    assert main([*args, "--keyed-dice"]) == 0
    keyed = json.loads(capsys.readouterr().out)
    assert keyed["errors"] == 0 and keyed["games"] == 2
    del old["timing"], keyed["timing"]
    assert old != keyed  # another stream, other games
