"""``anima replay``: a game rebuilt from its record (players, options, seed, actions) is the
same game, byte for byte (X5); a bad record is refused with one line naming the step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.agents import RandomAgent
from engine.endings import TIEBREAKS
from engine.game import Game
from engine.prompts import Prompt
from engine.tools.cli import main
from engine.tools.replay import (
    GameRecord,
    RecordedAction,
    ReplayError,
    load_record,
    parse_record,
    record_from,
    replay,
)
from engine.tools.simulate import play_game, seat_names


class Recorder:
    """A random agent that writes down every action it takes, as a table would."""

    def __init__(self, seed: str, log: list[tuple[str, str]]) -> None:
        self.inner = RandomAgent(seed)
        self.log = log

    def choose(self, game: Game, prompt: Prompt) -> str:
        action = self.inner.choose(game, prompt)
        self.log.append((prompt.player, action))
        return action


def simulated(
    seed: int, players: int, turn_cap: int, options: dict[str, Any] | None = None
) -> tuple[Game, list[tuple[str, str]]]:
    """A whole game between random agents, and every action applied to it, in order."""
    log: list[tuple[str, str]] = []
    games: list[Game] = []
    agents = {name: Recorder(f"{seed}:{name}", log) for name in seat_names(players)}
    result = play_game(
        seed, players, turn_cap, options, agents=agents, observe=lambda g, _: games.append(g)
    )
    assert result.error is None, result.error
    assert games[-1].over
    return games[-1], log


@pytest.mark.parametrize(
    ("seed", "players", "turn_cap", "options"),
    [
        (3, 3, 3, {}),
        (7, 4, 60, {}),
        (11, 5, 12, {"open_rolls": True, "party_tie": "stands", "tree_of_regions": "soo"}),
        (5, 2, 40, {"final_reveal": "immediate", "both_missions": True}),
    ],
)
def test_X5_a_simulated_games_record_replays_to_the_same_json(
    seed: int, players: int, turn_cap: int, options: dict[str, Any]
) -> None:
    game, log = simulated(seed, players, turn_cap, options)
    record = record_from(game, log)  # checks the replay itself, too
    stored = GameRecord.model_validate_json(record.to_json())  # the file form round-trips
    assert stored == record and stored.format == 1
    again = replay(stored)
    assert again.to_json() == game.to_json()
    assert again.over and again.s.winner == game.s.winner


def test_X5_record_from_refuses_a_history_that_does_not_give_the_game() -> None:
    game, log = simulated(3, 3, 3)
    with pytest.raises(ReplayError, match=r"does not replay to this game's state"):
        record_from(game, log[:-1])


def test_X6_a_time_out_replays_as_a_time_out() -> None:
    game = Game.new(["A", "B"], {"turn_cap": 2}, seed=4)
    history: list[RecordedAction] = []
    for _ in range(6):
        prompt = game.pending()[0]
        game.timeout(prompt.player)
        history.append(RecordedAction(player=prompt.player, action=prompt.default, timeout=True))
    record = record_from(game, history)
    texts = [e.text for e in replay(record, until=1).last_events]
    assert texts[0] == f"{history[0].player} ran out of time; the default was taken."


def test_a_record_accepts_the_json_form_of_an_action_and_stores_the_string_form() -> None:
    step = RecordedAction.model_validate({"player": "A", "action": {"type": "go", "arg": "ark"}})
    assert step.action == "go ark"


def _write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def short_game() -> dict[str, Any]:
    """The record of a 3-turn game between three random agents, as JSON data."""
    game, log = simulated(3, 3, 3)
    data: dict[str, Any] = json.loads(record_from(game, log).to_json())
    return data


def test_replay_prints_the_public_log_turn_by_turn_the_standing_and_the_ending(
    tmp_path: Path, short_game: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    game = replay(parse_record(short_game))
    winner, steps = game.s.winner, len(short_game["actions"])
    assert main(["replay", _write(tmp_path, short_game)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].endswith(
        f"3 players (P1, P2, P3), seed 3, options: turn_cap 3; {steps} action(s)."
    )
    headers = [line for line in lines if line and not line.startswith(" ")]
    assert headers[1:5] == ["Setup", "Turn 1", "Turn 2", "Turn 3"]
    assert headers[5] == f"Standing after {steps} of {steps} action(s):"
    assert "  The turn limit (3 turns) is reached: the tie-break decides." in out
    assert lines[-1].startswith(f"Ending: turn limit reached (tie-break); winner: {winner}, on ")
    assert lines[-1 - len(game.s.seats)].startswith(f"  1. {winner} 🏆: ")
    # The public log only: what one player alone saw (his dealt cards) stays out.
    private = [e.text for e in game.last_events if e.to is not None]
    assert not any(text in out for text in private)
    assert "You " not in out


def test_replay_until_stops_after_n_actions_and_says_who_is_waited_for(
    tmp_path: Path, short_game: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", _write(tmp_path, short_game), "--until", "20", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["actions"] == len(short_game["actions"]) and report["replayed"] == 20
    assert report["over"] is False and report["winner"] is None and report["ending"] is None
    game = replay(parse_record(short_game), until=20)
    assert report["waiting_for"] == [{"player": p.player, "kind": p.kind} for p in game.pending()]
    assert {e["step"] for e in report["log"]} <= set(range(21))
    assert report["log"][0]["step"] == 0 and report["log"][0]["turn"] == 0
    assert report["log"][0]["text"] == "A game of Anima begins with P1, P2, P3."
    assert sorted(s["player"] for s in report["standing"]) == ["P1", "P2", "P3"]


def test_replay_json_of_a_whole_game_names_the_tiebreak(
    tmp_path: Path, short_game: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", _write(tmp_path, short_game), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["over"] and report["ending"] == "turn_cap"
    assert report["winner"] == report["standing"][0]["player"]
    assert report["tiebreak"] in TIEBREAKS
    assert report["log"][-1]["kind"] == "game_over" and report["log"][-1]["turn"] == 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d.pop("format"),
            "malformed record: format: Field required",
        ),
        (
            lambda d: d.update(format=2),
            "malformed record: format: Input should be 1",
        ),
        (
            lambda d: d.update(players=["P1"]),
            "malformed record: players: List should have at least 2 items after validation, not 1",
        ),
        (
            lambda d: d["options"].update(turn_cap=-1),
            "malformed record: options.turn_cap: Input should be greater than or equal to 0",
        ),
        (
            lambda d: d["actions"][40].update(action="fly away"),
            "malformed record: step 41.action: unknown action 'fly'",
        ),
        (
            lambda d: d["actions"][40].update(action="go nowhere"),
            "step 41 ({a[40][player]}: 'go nowhere', turn {turn41}): illegal: there is no card "
            "'nowhere'",
        ),
        (
            lambda d: d["actions"].append({"player": "P1", "action": "pass"}),
            "step {n1} (P1: 'pass', turn 3): illegal: the game is over",
        ),
        (
            lambda d: d["actions"][0].update(player="Zed"),
            "step 1 (Zed: '{a[0][action]}', turn 0): illegal: 'Zed' is not in this game",
        ),
        (
            lambda d: d.update(players=["P1", "P1"]),
            "setup: player names must be distinct, non-empty, without spaces",
        ),
    ],
)
def test_replay_refuses_a_bad_record_with_one_line_naming_the_step(
    tmp_path: Path,
    short_game: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
    change: Any,
    message: str,
) -> None:
    data = json.loads(json.dumps(short_game))
    change(data)
    path = _write(tmp_path, data)
    turn41 = replay(parse_record(short_game), until=40).s.turn
    a, n1 = short_game["actions"], len(short_game["actions"]) + 1
    assert main(["replay", path, "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"anima replay: {path}: {message.format(a=a, n1=n1, turn41=turn41)}")


def test_replay_refuses_an_unreadable_file_and_bad_json(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(ReplayError, match=r"not valid JSON: .* \(line 1\)"):
        load_record(bad)
    with pytest.raises(ReplayError, match="until 5: the record has 0 action"):
        replay(parse_record({"format": 1, "players": ["A", "B"], "seed": 1}), until=5)
