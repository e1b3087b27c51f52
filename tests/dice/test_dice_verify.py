"""``anima verify``: a record of the keyed stream passes, a record with one die or one card of
a shuffle changed fails with one line naming it; and records of the old generator (games
stored before the keyed stream) still replay as they did."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from dice_records import KINDS, run, simulated_record, tampered

from engine.game import Game
from engine.tools.cli import main
from engine.tools.replay import GameRecord, parse_record, record_from, replay
from engine.tools.verify import verify

OLD_GAME = Path(__file__).with_name("old_scheme_game.json")


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return simulated_record(7, turn_cap=6)


def _write(tmp_path: Path, record: GameRecord) -> str:
    path = tmp_path / "game-replay.json"
    path.write_text(record.to_json(), encoding="utf-8")
    return str(path)


def test_verify_passes_the_records_and_fails_each_tampered_one() -> None:
    # The figure is 100 games of 60 turns (dice_records.py --games 100); here 12
    # short ones, each kind of tampering four times.
    figures = run(12, first_seed=0, turn_cap=6)
    assert figures.refused == [] and figures.passed == 12
    assert figures.missed == [] and figures.caught == 12


def test_verify_names_the_changed_die_in_one_line(
    tmp_path: Path, record: GameRecord, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", _write(tmp_path, record)]) == 0
    out = capsys.readouterr().out
    assert "verified" in out and record.dice is not None and record.dice.commitment in out
    bad, _ = tampered(record, "die", random.Random(1))
    assert main(["verify", _write(tmp_path, bad)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    named = r".*: (setup|step \d+ \(.*\)): die \d+ is \d in the record, the seeds roll \d"
    assert re.fullmatch(named, lines[0]), lines


def test_verify_names_the_first_card_of_a_shuffle_that_differs(record: GameRecord) -> None:
    bad, said = tampered(record, "card", random.Random(2))
    problems = verify(bad).problems
    assert len(problems) == 1, problems
    place = said.split()[1]
    assert f"differs at card {place}:" in problems[0]


def test_verify_fails_a_seed_that_is_not_the_committed_one(record: GameRecord) -> None:
    data = json.loads(record.to_json())
    data["dice"]["server_seed"] = hashlib.sha256(b"another seed").hexdigest()
    problems = verify(parse_record(data)).problems
    assert problems[0].startswith("the server seed does not match the commitment")
    assert len(problems) > 1  # and the other seed's dice are not the record's


def test_verify_fails_a_record_without_seeds() -> None:
    old = parse_record(json.loads(OLD_GAME.read_text())["record"])
    assert ["no dice seeds" in p for p in verify(old).problems] == [True]


def test_a_record_carries_the_seat_seeds_and_replays_to_the_same_state(
    record: GameRecord,
) -> None:
    stored = GameRecord.model_validate_json(record.to_json())
    assert stored == record and stored.dice is not None
    # Game 7 has four seats: a seed for each but the last (an AI seat).
    assert stored.dice.seat_seeds == {f"P{i}": f"join of P{i} in game 7" for i in (1, 2, 3)}
    again = replay(stored)
    assert again.s.dice is not None and again.s.dice.server_seed == stored.dice.server_seed
    assert record_from(again, [(a.player, a.action) for a in stored.actions]) == record


def test_a_game_recorded_under_the_old_generator_replays_identically() -> None:
    # Made by main's engine before the keyed stream (SplitMix64): its record replays to the
    # same state, byte for byte, and so does a state stored mid-game and played on.
    old: dict[str, Any] = json.loads(OLD_GAME.read_text())
    record = parse_record(old["record"])
    game = replay(record)
    assert game.s.dice is None and game.over
    assert hashlib.sha256(game.to_json().encode()).hexdigest() == old["state_sha256"]
    stored = Game.from_json(json.dumps(old["middle_state"]))
    assert stored.s.dice is None
    for step in record.actions[old["middle_after"] :]:
        stored.apply(step.player, step.action)
    assert stored.to_json() == game.to_json()
    assert json.loads(record_from(game, record.actions).to_json()) == old["record"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_tampering_changes_the_record(record: GameRecord, kind: str) -> None:
    bad, said = tampered(record, kind, random.Random(3))
    assert bad != record, said
