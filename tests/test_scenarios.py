"""Scenario files (``tests/scenarios/*.json``) and the ``anima scenario`` command.

Every scenario file must hold from its first step to its last. The tests named after rule IDs
of ``/work/shared/rules/DIGEST.md`` run the scenario that shows that rule; the others check the
runner itself: failures name the step, malformed files give one clear line, setups keep every
card in exactly one place.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.rules.sets import in_game
from engine.tools import scenario
from engine.tools.cli import main
from engine.tools.scenario import Scenario, ScenarioError, build_game, card_places, parse, run

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*.json"))


def _run(name: str) -> scenario.Outcome:
    outcome = scenario.run_file(SCENARIOS / name)
    assert outcome.failure is None, str(outcome.failure)
    return outcome


def _write(tmp_path: Path, data: Any, name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _soo() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (SCENARIOS / "shadow_of_omega_example.json").read_text(encoding="utf-8")
    )
    return data


# ---------------------------------------------------------------------- every file holds


def test_there_are_scenarios() -> None:
    names = {f.name for f in FILES}
    assert {"shadow_of_omega_example.json", "beyond_good_and_evil_example.json"} <= names


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario_holds(path: Path) -> None:
    outcome = scenario.run_file(path)
    assert outcome.failure is None, str(outcome.failure)
    assert outcome.steps_run == len(outcome.scenario.steps)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario_is_documented(path: Path) -> None:
    assert len(scenario.load(path).description) > 40


# ---------------------------------------------------------------------- rules shown by scenarios


def test_T2_example_of_play_order_and_battle_totals() -> None:
    outcome = _run("shadow_of_omega_example.json")
    s = outcome.game.s
    assert s.order == ["John", "Steve", "Peter"]
    assert [c.card for c in s.players["John"].party] == [
        "acrobat",
        "illusionist",
        "weapons_specialist",
    ]
    assert s.players["Steve"].completed == []


def test_M8_false_alarms_in_the_beyond_good_and_evil_example() -> None:
    s = _run("beyond_good_and_evil_example.json").game.s
    assert {"dark_judgement", "shadow_of_azrael"} <= set(s.discards["encounter"])
    assert s.players["Player1"].region is None


def test_S3_start_choice_without_setup() -> None:
    _run("s3_start_choice.json")


def test_M1_only_one_new_region_per_turn() -> None:
    _run("m1_explore_new_once_per_turn.json")


def test_M5_removal_can_be_blocked() -> None:
    _run("m5_remove_and_block.json")


def test_X1_going_to_own_region_meets_no_preliminary_encounter() -> None:
    _run("x1_go_to_own_region.json")


def test_R5_pickup_by_the_one_with_fewest() -> None:
    _run("r5_pickup.json")


def test_B2_tie_goes_to_the_party_and_B3_loser_by_five_loses_a_character() -> None:
    _run("b2_b3_battles.json")


def test_I4_loser_pays_leaves_and_ends_his_turn() -> None:
    _run("i2_i4_attack.json")


def test_X3_one_trade_per_pair_per_phase() -> None:
    _run("x3_trades.json")


def test_F3_final_mission_revealed_after_a_basic_mission() -> None:
    _run("f1_f3_missions.json")


# ---------------------------------------------------------------------- the command


def test_command_prints_state_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["scenario", str(SCENARIOS / "shadow_of_omega_example.json")])
    out = capsys.readouterr().out
    assert rc == 0
    assert "John: Strength 11, Speed 10, at arkhangel" in out
    assert "party: acrobat, illusionist, weapons_specialist" in out
    assert "hand (3, hidden)" in out
    assert "steps hold" in out


def test_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["scenario", "--json", str(SCENARIOS / "m1_explore_new_once_per_turn.json")])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert data["ok"] is True and data["failure"] is None
    assert data["view"]["viewer"] is None
    assert set(data["hidden"]) == {"John", "Peter"}
    assert "missions" in data["hidden"]["John"]


def test_failing_expectation_exits_nonzero_with_step_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _soo()
    number = next(
        i
        for i, step in enumerate(data["steps"], 1)
        if step.get("expect_event", {}).get("kind") == "battle_roll"
    )
    data["steps"][number - 1]["expect_event"]["data"]["totals"] = [9, 7]
    path = _write(tmp_path, data)
    rc = main(["scenario", str(path)])
    err = capsys.readouterr().err
    assert rc == 1
    assert f"step {number} failed" in err
    assert '"battle_roll"' in err  # the step itself
    assert "no event" in err and "= 9 vs" in err  # why, with the events seen


def test_failing_step_in_json_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _soo()
    data["steps"].insert(3, {"expect": {"path": "players.John.region", "equals": "arkhangel"}})
    rc = main(["scenario", "--json", str(_write(tmp_path, data))])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert out["ok"] is False
    assert out["failure"]["step"] == 4
    assert out["failure"]["reason"] == 'players.John.region is null, expected "arkhangel"'
    assert out["steps_run"] == 3


def test_illegal_action_fails_with_the_legal_choices(tmp_path: Path) -> None:
    data = _soo()
    data["steps"] = [{"do": "go lost_ruins", "by": "John"}]
    outcome = run(parse(data))
    assert outcome.failure is not None
    assert outcome.failure.step == 1
    assert "refused" in outcome.failure.reason
    assert "Legal now: done" in outcome.failure.reason


def test_refused_step_that_is_accepted_fails() -> None:
    data = _soo()
    data["steps"] = [{"do": "done", "by": "John", "refused": True}]
    outcome = run(parse(data))
    assert outcome.failure is not None
    assert "should have been refused" in outcome.failure.reason


def test_refusal_reason_is_checked() -> None:
    data = _soo()
    data["steps"] = [
        {"do": "done", "by": "Peter", "refused": True, "reason_contains": "not your decision"},
        {"do": "done", "by": "Peter", "refused": True, "reason_contains": "the moon"},
    ]
    outcome = run(parse(data))
    assert outcome.failure is not None and outcome.failure.step == 2
    assert "does not contain 'the moon'" in outcome.failure.reason


def test_until_gives_up(tmp_path: Path) -> None:
    data = _soo()
    data["steps"] = [{"until": {"player": "John", "kind": "no_such_prompt"}}]
    outcome = run(parse(data))
    assert outcome.failure is not None
    assert "after 500 answers" in outcome.failure.reason


def test_pass_all_keeps_the_last_events_when_nothing_is_open() -> None:
    data = _soo()
    data["steps"] = [
        {"do": "play black_sun_organization", "by": "John"},
        {"pass_all": True},
        {"expect_event": {"kind": "play"}},
    ]
    assert run(parse(data)).ok


def test_expect_checks() -> None:
    data = _soo()
    data["steps"] = [
        {"expect": {"path": "players.John.hand", "contains": "scrying", "length": 3}},
        {"expect": {"path": "players.John.party.-1.card", "equals": "illusionist"}},
        {"expect": {"path": "players", "contains": "Peter"}},
        {"expect": {"path": "view.players.Steve.speed", "equals": 7}},
        {"expect": {"path": "players.Nobody", "equals": 1}},
    ]
    outcome = run(parse(data))
    assert outcome.failure is not None and outcome.failure.step == 5
    assert "has no 'Nobody'" in outcome.failure.reason


# ---------------------------------------------------------------------- malformed files


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "valid dictionary"),
        ({"players": ["a", "b"], "steps": [{"do": "go x"}]}, "step 1.by: Field required"),
        ({"players": ["a", "b"], "steps": [{"fly": 1}]}, "step 1: a step needs one of"),
        ({"players": ["a", "b"], "steps": [{"expect": {"path": "turn"}}]}, "needs equals"),
        ({"players": ["a", "b"], "dice": [7]}, "dice.0"),
        ({"players": ["a"]}, "players"),
        ({"players": ["a", "b"], "steps": [{"do": "done", "by": "c"}]}, "'c'"),
        ({"players": ["a", "b"], "options": {"crisis": "maybe"}}, "options.crisis"),
        (
            {"players": ["a", "b"], "setup": {"players": {"a": {"hand": ["acrobat"]}}}},
            "'acrobat' is a character card, not an advantage",
        ),
        (
            {"players": ["a", "b"], "setup": {"regions": [{"card": "atlantis"}]}},
            "unknown card 'atlantis'",
        ),
        (
            {
                "players": ["a", "b"],
                "setup": {"players": {"a": {"hand": ["truce"]}, "b": {"hand": ["truce"]}}},
            },
            "already placed",
        ),
        (
            {"players": ["a", "b"], "setup": {"players": {"a": {"region": "atlantis"}}}},
            "not an active Region",
        ),
    ],
)
def test_malformed_file_gives_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: Any, message: str
) -> None:
    path = _write(tmp_path, content)
    rc = main(["scenario", str(path)])
    captured = capsys.readouterr()
    assert rc == 2
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"anima scenario: {path}: ")
    assert message in lines[0]
    assert "Traceback" not in captured.err


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "/no/such/file.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_load_raises_scenario_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="not valid JSON"):
        scenario.load(_write(tmp_path, "nope"))


# ---------------------------------------------------------------------- setups


def _base(setup: dict[str, Any], players: list[str] | None = None) -> Scenario:
    return parse({"players": players or ["John", "Peter"], "seed": 3, "setup": setup})


def test_D1_setup_keeps_every_card_in_exactly_one_place() -> None:
    for path in FILES:
        sc = scenario.load(path)
        game = build_game(sc)
        places = card_places(game.s)
        dealt = [c for c in game.db if in_game(c, game.s.options)]
        assert len(places) == len(set(places)) == len(dealt), path.name


def test_setup_moves_cards_from_wherever_they_are() -> None:
    setup = {
        "players": {
            "John": {"party": ["acrobat"], "hand": ["truce"], "missions": ["defeat_tiamat"]},
            "Peter": {"party": ["mercenary"], "hand": [], "completed": ["the_fellowship"]},
        },
        "decks": {"advantage": ["fireball", "scrying"], "encounter": ["lich"]},
        "final_mission": "the_last_seal",
    }
    game = build_game(_base(setup))
    s = game.s
    assert [c.card for c in s.players["John"].party] == ["acrobat"]
    assert s.players["John"].hand == ["truce"]
    assert s.players["John"].missions == ["defeat_tiamat"]
    assert s.players["Peter"].completed == ["the_fellowship"]
    assert s.decks["advantage"][-2:] == ["scrying", "fireball"]  # fireball is drawn first
    assert s.decks["encounter"][-1] == "lich"
    assert s.final_mission == "the_last_seal" and s.crisis == 9
    assert len(s.regions) == 2  # S4: as many Regions as players, none of the named cards
    assert all(r.preliminary not in ("lich",) and not r.revealed for r in s.regions)
    assert all(not p.offered_characters and not p.offered_advantages for p in s.players.values())
    assert [p.player for p in s.prompts] == [s.order[0]] and s.prompts[0].kind == "reset"


def test_setup_without_party_keeps_the_default_start_choice() -> None:
    game = build_game(_base({"players": {"John": {"party": ["acrobat"]}}}))
    peter = game.s.players["Peter"]
    assert len(peter.party) == 1 and len(peter.hand) == 3 and len(peter.missions) == 2


def test_R1_setup_tapped_characters_straighten_at_a_reset_start() -> None:
    party = [{"card": "thief", "tapped": True}, {"card": "monk", "incapacitated": True}]
    game = build_game(_base({"players": {"John": {"party": party}}}))
    assert not any(c.tapped or c.incapacitated for c in game.s.players["John"].party)


def test_setup_later_phase_keeps_flags_and_arrival() -> None:
    party = [{"card": "thief", "tapped": True}, {"card": "monk", "incapacitated": True}]
    setup = {
        "phase": "exploration",
        "turn": 5,
        "players": {"John": {"party": party, "region": "arkhangel"}},
        "regions": [{"card": "arkhangel"}, {"card": "village_of_cornes", "preliminary": "lich"}],
    }
    game = build_game(_base(setup))
    s = game.s
    john = s.players["John"]
    assert s.turn == 5 and s.phase == "exploration"
    assert [(c.tapped, c.incapacitated) for c in john.party] == [(True, False), (False, True)]
    assert john.arrived and not s.players["Peter"].arrived
    assert [(p.player, p.kind) for p in s.prompts] == [("John", "exploration")]
    assert s.regions[1].preliminary == "lich" and not s.regions[1].revealed


def test_dice_are_rigged_in_order() -> None:
    sc = parse({"players": ["John", "Peter"], "dice": [6, 1, 2]})
    game = build_game(sc)
    assert [game.die(), game.die(), game.die()] == [6, 1, 2]


def test_T2_speed_tie_at_the_first_turn_uses_the_rigged_dice() -> None:
    setup = {"players": {"John": {"party": ["mercenary"]}, "Peter": {"party": ["paladin"]}}}
    sc = parse({"players": ["John", "Peter"], "setup": setup, "dice": [2, 5, 4]})
    game = build_game(sc)
    assert game.s.order == ["Peter", "John"]  # Speed 2 each: John rolls 2, Peter 5
    assert game.s.rigged == [4]


def test_until_answers_pass_where_it_can() -> None:
    data = _soo()
    data["steps"] = [
        {"do": "done", "by": "John"},
        {"do": "done", "by": "Steve"},
        {"do": "done", "by": "Peter"},
        {"do": "go arkhangel", "by": "John"},
        {"until": {"player": "Steve", "kind": "movement"}, "answer": "pass"},
        {"expect_event": {"kind": "arrive", "data": {"player": "John"}}},
    ]
    outcome = run(parse(data))
    assert outcome.ok, str(outcome.failure)
