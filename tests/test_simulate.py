"""``anima simulate``: whole games between random agents, without engine errors, with a
summary that is the same on every run for a given seed (X5)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.agents import Agent, RandomAgent
from engine.cards import default_cards
from engine.endings import ENDINGS
from engine.events import Event
from engine.game import Game
from engine.state import Character
from engine.tools.cli import main
from engine.tools.pace import GamePace, pace_summary, quartiles, track_pace
from engine.tools.simulate import (
    battle_members,
    collect_resolved,
    play_game,
    rate_entry,
    simulate,
    wilson,
)
from engine.views import SeatView

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["simulate", "--games", "20", "--players", "4", "--seed", "1", "--json"]


def _run_in_process(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().out


def _deterministic(out: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(out)
    assert set(report["timing"]) == {"seconds", "actions_per_second", "ms_per_game"}
    del report["timing"]
    return report


def test_simulate_json_reports_no_errors_and_is_deterministic(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = _run_in_process(capsys, ARGS)
    assert code == 0
    first = _deterministic(out)
    assert first["errors"] == 0, first["error_details"]
    assert first["error_details"] == []
    assert first["games"] == 20
    assert first["players"] == 4
    assert first["seeds"] == [1, 20]
    assert first["turn_cap"] == 60
    assert sum(first["endings"].values()) == 20
    assert list(first["endings"]) == list(ENDINGS)
    assert sum(first["wins"].values()) == 20
    assert list(first["wins"]) == ["P1", "P2", "P3", "P4", "nobody"]
    # Only Omega leaves a game without a winner: a turn limit has its tie-break.
    assert first["wins"]["nobody"] == first["endings"]["crisis_lost"]
    assert 1 <= first["turns"]["min"] <= first["turns"]["median"] <= first["turns"]["max"] <= 60
    cov = first["coverage"]
    assert cov["total"] == sum(c.set == "shadow_of_omega" for c in default_cards())
    assert cov["resolved"] + len(cov["never_resolved"]) == cov["total"]
    assert cov["resolved"] > cov["total"] // 2
    by_type = [c for ids in cov["never_resolved_by_type"].values() for c in ids]
    assert sorted(by_type) == sorted(cov["never_resolved"])

    # The second run is a fresh process with another hash seed: nothing may depend on the
    # order of a set or on what an earlier run left behind.
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    proc = subprocess.run(
        [sys.executable, "-m", "engine.tools.cli", *ARGS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert _deterministic(proc.stdout) == first


def test_simulate_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "3", "--players", "2", "--seed", "5", "--turn-cap", "10"]
    code, out = _run_in_process(capsys, [*args, "--verbose"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "games: 3 (2 players, seeds 5-7, turn cap 10)"
    assert "errors: 0" in lines
    assert any(line.startswith("turns per game: min ") for line in lines)
    for label in ENDINGS.values():
        assert any(line.startswith(f"  {label}: ") for line in lines)
    assert any(line.startswith("wins per seat: P1 ") for line in lines)
    assert any(line.startswith("card coverage: ") for line in lines)
    assert any(line.startswith("never resolved (") for line in lines)
    assert lines[-1].startswith("time: ")
    _, again = _run_in_process(capsys, [*args, "--verbose"])
    assert again.splitlines()[:-1] == lines[:-1]  # only the timing line may differ


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "1"],
        ["--players", "6"],
        ["--games", "0"],
        ["--turn-cap", "-1"],
        ["--seed", "x"],
    ],
)
def test_simulate_refuses_bad_arguments(args: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", *args])
    assert info.value.code == 2


def test_each_game_uses_seed_plus_i() -> None:
    summary = simulate(games=3, players=3, seed=40, turn_cap=8)
    assert [r.seed for r in summary.results] == [40, 41, 42]
    alone = play_game(41, 3, 8)
    assert (alone.actions, alone.turns, alone.ending, alone.winner_seat, alone.resolved) == (
        summary.results[1].actions,
        summary.results[1].turns,
        summary.results[1].ending,
        summary.results[1].winner_seat,
        summary.results[1].resolved,
    )


@pytest.mark.parametrize("players", [2, 3, 5])
def test_games_of_every_size_end_without_errors(players: int) -> None:
    summary = simulate(games=4, players=players, seed=100 * players, turn_cap=25)
    details = summary.deterministic()
    assert details["errors"] == 0, details["error_details"]
    assert all(r.ending in ENDINGS for r in summary.results)
    assert all(r.turns <= 25 for r in summary.results)


def test_engine_errors_are_caught_and_reported() -> None:
    class Broken:
        def choose(self, view: SeatView, prompt: Any) -> str:
            return "fly"

    result = play_game(3, 2, agents={"P1": Broken(), "P2": Broken()})
    assert result.error is not None
    assert result.error.startswith("seed 3: IllegalAction: unknown action 'fly'")
    assert "apply" in result.traceback
    endless = play_game(3, 2, max_actions=30)
    assert endless.error is not None and "no end after 30 actions" in endless.error


# ------------------------------------------------------------------------------ coverage


def test_coverage_counts_only_cards_that_took_effect() -> None:
    result = play_game(8, 4, 60)
    assert result.error is None
    db = default_cards()
    assert result.resolved <= set(db.by_id)
    kinds = Counter(db[c].type for c in result.resolved)
    assert kinds["region"] >= 4  # the parties entered Regions
    assert kinds["encounter"] >= 1
    assert kinds["character"] >= 4  # every start character fought or used an ability


def test_coverage_reads_the_events_data() -> None:
    game = Game.new(["P1", "P2"], {}, seed=1)
    events = [
        Event(kind="play", text="", data={"player": "P1", "card": "fireball"}),
        Event(kind="ability", text="", data={"player": "P1", "card": "thief"}),
        Event(kind="encounter", text="", data={"player": "P1", "card": "giant_rats"}),
        Event(kind="false_alarm", text="", data={"card": "lich"}),
        Event(kind="arrive", text="", data={"player": "P1", "region": "arkhangel"}),
        Event(kind="mission_attempt", text="", data={"player": "P1", "card": "cross_the_swamp"}),
        Event(kind="final_revealed", text="", data={"player": "P1", "card": "the_last_seal"}),
        Event(kind="trap_revealed", text="", data={"region": "arkhangel", "card": "rune_snare"}),
        Event(kind="trap_set", text="", data={"player": "P1", "region": "arkhangel"}),
        Event(kind="move", text="", data={"player": "P1", "region": "lost_ruins"}),
        Event(kind="discard", text="", data={"player": "P1", "card": "truce"}),
        Event(kind="explore_new", text="", data={"region": "iron_mines", "encounter": "sleep"}),
    ]
    found: set[str] = set()
    collect_resolved(game, events, found)
    assert found == {
        "fireball",
        "thief",
        "giant_rats",
        "lich",
        "arkhangel",
        "cross_the_swamp",
        "the_last_seal",
        "rune_snare",
    }


def test_battle_members_are_the_party_at_the_battle() -> None:
    """The party after the action, walked back through the casualty and the new party that
    came after the battle in the same action."""
    game = Game.new(["P1", "P2"], {}, seed=1)
    game.s.players["P1"].party = [Character(card="monk")]  # after: the monk replaced them
    game.s.players["P2"].party = [Character(card="bard"), Character(card="ranger")]
    events = [
        Event(kind="hire", text="", data={"player": "P1", "card": "paladin"}),  # before: fought
        Event(kind="battle", text="", data={"player": "P1", "other": "P2", "card": None}),
        Event(kind="death", text="", data={"player": "P1", "card": "paladin"}),
        Event(kind="death", text="", data={"player": "P1", "card": "wizard"}),
        Event(kind="new_party", text="", data={"player": "P1", "card": "monk"}),
    ]
    assert battle_members(game, events, 1) == {"paladin", "wizard", "bard", "ranger"}


# ------------------------------------------------------------------------------ agents


def test_random_agent_is_an_agent_and_picks_legal_choices_uniformly() -> None:
    game = Game.new(["P1", "P2"], {}, seed=1)
    agent = RandomAgent(9)
    assert isinstance(agent, Agent)
    prompt = game.pending()[0]
    view = game.seat_view(prompt.player)
    rng_before = game.s.rng
    picks = Counter(agent.choose(view, prompt) for _ in range(2000))
    assert game.s.rng == rng_before  # the agent never touches the game's generator (X5)
    assert set(picks) == set(prompt.choices)
    assert min(picks.values()) > 2000 / len(prompt.choices) * 0.8
    one, two = RandomAgent(9), RandomAgent(9)
    assert [one.choose(view, prompt) for _ in range(50)] == [
        two.choose(view, game.seat_view(prompt.player).prompt or prompt) for _ in range(50)
    ]


# ------------------------------------------------------------------------------ AI levels


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert (low, round(high, 4)) == (0.0, 0.2775)
    assert wilson(0, 0) == (0.0, 1.0)
    assert rate_entry(600, 1000) == {"wins": 600, "of": 1000, "rate": 0.6, "ci95": [0.5693, 0.6299]}


def test_simulate_seats_sets_each_seat_level_and_reports_wins_per_seat_and_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "--games", "6", "--seed", "3", "--turn-cap", "30"]
    code, out = _run_in_process(capsys, [*args, "--seats", "normal,random,random", "--json"])
    assert code == 0
    report = _deterministic(out)
    assert report["players"] == 3  # as many as the seats named
    assert report["errors"] == 0, report["error_details"]
    assert report["seat_levels"] == {"P1": "normal", "P2": "random", "P3": "random"}
    per_seat = report["wins_per_seat"]
    assert [per_seat[s]["wins"] for s in ("P1", "P2", "P3")] == [
        report["wins"][s] for s in ("P1", "P2", "P3")
    ]
    assert all(
        e["of"] == 6 and e["ci95"][0] <= e["rate"] <= e["ci95"][1] for e in per_seat.values()
    )
    levels = report["wins_per_level"]
    assert levels["normal"]["seats"] == ["P1"] and levels["random"]["seats"] == ["P2", "P3"]
    assert levels["random"]["of"] == 12
    assert levels["random"]["wins"] == report["wins"]["P2"] + report["wins"]["P3"]
    assert sum(report["endings"].values()) == 6
    designed = ("final_mission", "crisis_won", "crisis_lost", "last_player")
    assert report["final_or_crisis"]["wins"] == sum(report["endings"][k] for k in designed)
    assert report["final_or_crisis"]["of"] == 6
    # The text summary names the levels and their intervals.
    code, text = _run_in_process(capsys, [*args, "--seats", "normal,random,random"])
    assert "seat levels: P1 normal, P2 random, P3 random" in text
    assert any(
        line.startswith("  normal (P1): ") and "95% CI" in line for line in text.splitlines()
    )


def test_simulate_default_seats_are_random_and_give_the_same_games() -> None:
    """``--seats random,...`` plays exactly the games of the default (same agents' seeds)."""
    plain = simulate(games=3, players=4, seed=11, turn_cap=12).deterministic()
    named = simulate(games=3, players=4, seed=11, turn_cap=12, levels=["random"] * 4)
    assert named.deterministic()["seat_levels"] == plain["seat_levels"]
    assert named.deterministic() == plain


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "normal,genius"], "unknown AI level 'genius'"),
        (["--seats", "normal,,random"], "name a level for every seat"),
        (["--seats", "normal,random", "--players", "3"], "names 2 levels for 3 players"),
    ],
)
def test_simulate_refuses_bad_seats(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(["simulate", "--games", "1", *args])
    except SystemExit as exc:
        code = exc.code  # argparse refuses it
    assert code == 2
    assert message in capsys.readouterr().err


# ------------------------------------------------------------------------------ pace


def test_pace_figures_are_read_from_the_events() -> None:
    """The turn of the game's first completed Basic mission, of the Final mission's reveal,
    the countdown it set (F5) and the winner's completed Basic missions."""
    game = Game.new(["P1", "P2"], {}, seed=1)
    pace = GamePace()
    game.s.turn = 4
    track_pace(game, [Event(kind="mission_completed", text="", data={"player": "P1"})], pace)
    game.s.turn = 6
    track_pace(game, [Event(kind="mission_completed", text="", data={"player": "P2"})], pace)
    game.s.crisis = 9
    track_pace(game, [Event(kind="final_revealed", text="", data={"player": "P2"})], pace)
    game.s.crisis = 8
    game.s.turn = 7
    track_pace(game, [Event(kind="final_revealed", text="", data={"player": "P1"})], pace)
    game.s.players["P2"].completed = ["the_bandit_king", "cross_the_swamp"]
    game.s.winner = "P2"
    track_pace(game, [Event(kind="game_over", text="", data={})], pace)
    assert pace == GamePace(
        first_basic_mission_turn=4,
        final_revealed_turn=6,
        crisis_countdown=9,
        winner_basic_missions=2,
    )


def test_pace_summary_medians_and_share() -> None:
    paces = [
        GamePace(4, 7, 9, 2),
        GamePace(5, 8, 10, 1),
        GamePace(6, None, None, None),  # no reveal, nobody won
        GamePace(None, None, None, None),
    ]
    assert pace_summary(paces) == {
        "first_basic_mission_turn_median": 5,
        "games_with_a_basic_mission": 3,
        "final_revealed_turn_median": 7.5,
        "games_with_final_revealed": 2,
        "crisis_countdown_median": 9.5,
        "winners_with_two_basic_missions": 0.5,
        "winners": 2,
    }
    assert quartiles([8, 10, 12, 14, 16]) == (10.0, 14.0)
    assert quartiles([]) == (0.0, 0.0) and quartiles([7]) == (7.0, 7.0)


def test_simulate_reports_the_pace(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "6", "--seats", "normal,normal,normal,normal", "--seed", "2"]
    code, out = _run_in_process(capsys, [*args, "--json"])
    assert code == 0
    report = _deterministic(out)
    turns, pace = report["turns"], report["pace"]
    assert turns["min"] <= turns["p25"] <= turns["median"] <= turns["p75"] <= turns["max"]
    assert pace["games_with_a_basic_mission"] >= pace["games_with_final_revealed"] >= 1
    assert pace["first_basic_mission_turn_median"] <= pace["final_revealed_turn_median"]
    assert 1 <= pace["crisis_countdown_median"] <= 10  # a d10 (F5)
    assert 0 <= pace["winners_with_two_basic_missions"] <= 1
    assert pace["winners"] == 6 - report["wins"]["nobody"]
    summary = simulate(6, 4, 2, levels=["normal"] * 4)
    for r in summary.results:  # F3: a reveal needs a completed Basic mission
        first, revealed = r.pace.first_basic_mission_turn, r.pace.final_revealed_turn
        assert revealed is None or (first is not None and first <= revealed)
    code, text = _run_in_process(capsys, args)
    assert code == 0
    lines = text.splitlines()
    assert f"turns quartiles: p25 {turns['p25']:g}, p75 {turns['p75']:g}" in lines
    assert any(
        line.startswith("pace: first Basic mission completed on turn ")
        and f"Crisis! countdown set to {pace['crisis_countdown_median']:g}" in line
        for line in lines
    )
    assert any(line.startswith("winners with both Basic missions: ") for line in lines)
