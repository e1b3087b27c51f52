"""The hard AI (issue 11): a search player that decides from its seat's view alone.

Every test gives the agent an iteration cap and no time budget (or a fake clock), so that no
result depends on the machine's speed (the time per decision is measured in
benchmarks/hard_strength.py).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.agents import Agent, RandomAgent, choice_actions
from engine.agents import hard as hard_module
from engine.agents.hard import UNSEARCHED, HardAgent, evaluate, party_score
from engine.agents.levels import make_agent
from engine.determinize import determinize
from engine.game import Game
from engine.prompts import Prompt
from engine.tools.simulate import play_game, seat_names
from engine.views import PromptView, SeatView


class _Recording:
    """Wraps a hard agent: the kinds of prompt it answered and the choices it made."""

    def __init__(self, agent: HardAgent) -> None:
        self.agent = agent
        self.searched: Counter[str] = Counter()
        self.illegal: list[str] = []

    def choose(self, view: SeatView, prompt: Prompt | PromptView) -> str:
        before = self.agent.searches
        action = self.agent.choose(view, prompt)
        if action not in choice_actions(prompt):
            self.illegal.append(f"{action!r} at {prompt.kind}")
        if self.agent.searches > before:
            self.searched[prompt.kind] += 1
        return action


def _decision(seed: int, seat: str = "P1", turn: int = 2) -> Game:
    """A random 4-player game stopped at ``seat``'s first decision from ``turn`` on with
    three choices or more worth a search while no other seat has a decision open."""
    game = Game.new(seat_names(4), {"turn_cap": 30}, seed=seed)
    agent = RandomAgent(seed)
    while not game.over:
        prompts = game.pending()
        if (
            game.s.turn >= turn
            and len(prompts) == 1
            and prompts[0].player == seat
            and len([c for c in prompts[0].choices if not c.startswith(UNSEARCHED)]) > 2
        ):
            return game
        prompt = prompts[int(agent.random() * len(prompts))]
        game.apply(prompt.player, agent.choose(game.seat_view(prompt.player), prompt))
    raise AssertionError(f"seed {seed}: no decision with several choices for {seat}")


def test_hard_plays_whole_games_with_legal_choices_on_every_kind_of_prompt() -> None:
    searched: Counter[str] = Counter()
    for seed in (3, 4):
        hard = _Recording(HardAgent(seed, budget_ms=None, iterations=4))
        agents: dict[str, Agent] = {n: RandomAgent(f"{seed}:{n}") for n in seat_names(4)}
        agents["P1"] = hard
        result = play_game(seed, 4, turn_cap=14, agents=agents)
        assert result.error is None, result.error
        assert result.ending is not None
        assert hard.illegal == []
        searched += hard.searched
    # The search ran on the player's own steps and on the decisions they lead to.
    assert {"start_character", "reset", "movement", "exploration"} <= set(searched), searched
    assert len(searched) >= 6, searched


def test_hard_is_deterministic_with_an_iteration_cap_and_the_same_seed() -> None:
    game = _decision(5)
    view, prompt = game.seat_view("P1"), game.pending()[0]
    one, two = HardAgent("s", budget_ms=None, iterations=30), HardAgent("s", None, 30)
    assert one.choose(view, prompt) == two.choose(view, prompt)
    assert one.last == two.last and one.last.iterations == 30
    # Every choice worth a look was tried (not giving cards away, R2); UCB spent the rest
    # where it mattered.
    assert set(one.last.arms) == {c for c in prompt.choices if not c.startswith(UNSEARCHED)}
    assert len(one.last.arms) > 1
    assert all(samples >= 1 for _, samples in one.last.arms.values())


def _hide_differently(game: Game, seat: str, rng: random.Random) -> Game:
    """A copy of ``game`` in which every card ``seat`` cannot see sits elsewhere (the other
    hands and secret missions, the deck order) and the future dice differ."""
    other = game.clone()
    s = other.s
    pool = s.decks["advantage"]
    for name, p in s.players.items():
        if name == seat:
            continue
        # Hand cards and the Advantage deck swap places; missions swap with the set-aside.
        n = min(len(p.hand), len(pool))
        p.hand[:n], pool[:n] = pool[:n], p.hand[:n]
        m = min(len(p.missions), len(s.set_aside))
        p.missions[:m], s.set_aside[:m] = s.set_aside[:m], p.missions[:m]
    for deck in s.decks.values():
        rng.shuffle(deck)
    s.rng ^= 0x5DEECE66D
    return other


def test_hard_decides_from_the_view_alone() -> None:
    """Hidden information the seat cannot see changes, its view stays the same: so does the
    choice, with the same seed and an iteration cap (and every sample is the same)."""
    changed = 0
    for seed in (6, 7, 8):
        game = _decision(seed)
        other = _hide_differently(game, "P1", random.Random(seed))
        if (
            json.loads(other.to_json())["players"]["P2"]
            != json.loads(game.to_json())["players"]["P2"]
        ):
            changed += 1
        view = game.seat_view("P1")
        assert other.seat_view("P1") == view
        prompt = game.pending()[0]
        assert other.pending()[0] == prompt
        here, there = HardAgent(seed, None, 12), HardAgent(seed, None, 12)
        assert here.choose(view, prompt) == there.choose(other.seat_view("P1"), other.pending()[0])
        assert here.last == there.last
    assert changed == 3, "the other hands did not change: the test proves nothing"


def test_a_decision_with_one_legal_choice_costs_no_search() -> None:
    game = _decision(9)
    view = game.seat_view("P1")
    lone = Prompt("P1", "window", "Respond, or pass.", ["pass"], "pass", window=True)
    agent = HardAgent(1, budget_ms=None, iterations=50)
    assert agent.choose(view, lone) == "pass"
    assert agent.searches == 0 and agent.last.iterations == 0 and agent.last.worlds == 0
    agent.choose(view, game.pending()[0])
    assert agent.searches == 1 and agent.last.iterations == 50


def test_evaluate_is_one_for_the_winner_and_ranks_a_completed_mission_first() -> None:
    game = _decision(10)
    fresh = evaluate(game, "P1")
    assert 0.0 < fresh < 1.0
    assert abs(sum(evaluate(game, n) for n in game.s.seats) - 1.0) < 1e-9
    ahead = game.clone()
    ahead.s.players["P1"].completed.append(ahead.s.set_aside[0])
    assert party_score(ahead, ahead.s.players["P1"]) > party_score(game, game.s.players["P1"])
    assert evaluate(ahead, "P1") > fresh
    over = game.clone()
    over.s.phase, over.s.winner = "over", "P2"
    assert evaluate(over, "P2") == 1.0 and evaluate(over, "P1") == 0.0


def test_the_sealed_table_names_no_start_offer_of_another_seat() -> None:
    """S3: another seat's start offers are hidden, also inside its open prompt's action
    strings (``keep monk``): the sealed table holds placeholders, and a determinized game
    offers each seat the cards it was dealt."""
    game = Game.new(seat_names(4), seed=0)
    view = game.seat_view("P1")
    sealed = view.sealed.state
    for name in ("P2", "P3", "P4"):
        p = game.s.players[name]
        for card in (*p.offered_characters, *p.offered_advantages):
            assert f'"{card}"' not in sealed and f' {card}"' not in sealed, card
    dealt = determinize(view, random.Random(1))
    for prompt in dealt.pending():
        offered = dealt.s.players[prompt.player].offered_characters
        assert prompt.choices == [f"keep {c}" for c in offered]
        assert prompt.default == prompt.choices[0]


def test_the_hard_level_takes_its_budget_from_the_table_of_levels() -> None:
    agent = make_agent("hard", "seed", 40.0)
    assert isinstance(agent, HardAgent) and agent.budget_ms == 40.0
    default = make_agent("hard", "seed")
    assert isinstance(default, HardAgent) and default.budget_ms == 100.0


class _FakeClock:
    """Stands in for the clocks of engine.agents.hard: each reading of a clock
    advances it by a fixed step, so that a test decides what a search "costs" without any
    real timing."""

    def __init__(self, cpu_step: float, wall_step: float) -> None:
        self.cpu = self.wall = 0.0
        self.cpu_step, self.wall_step = cpu_step, wall_step

    def thread_time(self) -> float:
        self.cpu += self.cpu_step
        return self.cpu

    def perf_counter(self) -> float:
        self.wall += self.wall_step
        return self.wall


def test_hard_budget_is_counted_in_its_own_cpu_time_not_in_wall_clock_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 20: a loaded machine (the wall clock runs 20 times faster than the thread's CPU
    # time) leaves the search its whole budget of work, up to the wall-clock ceiling.
    game = _decision(5)
    view, prompt = game.seat_view("P1"), game.pending()[0]
    clock = _FakeClock(cpu_step=0.001, wall_step=0.02)
    monkeypatch.setattr(hard_module, "time", clock)
    monkeypatch.setattr(hard_module, "thread_cpu_time", clock.thread_time)
    agent = HardAgent("s", budget_ms=100.0, ceiling_ms=100_000.0)
    agent.choose(view, prompt)
    # One CPU reading of 1 ms before the search and one per rollout: 99 rollouts in 100 ms.
    assert agent.last.iterations == 99
    assert not agent.last.hit_ceiling
    assert agent.last.cpu_ms >= 100.0  # its last reading, one step past the budget


def test_hard_wall_clock_ceiling_stops_a_starved_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # A thread that gets almost no CPU (1 us per rollout while 50 ms pass) stops at the
    # ceiling: 10 times the budget by default.
    game = _decision(5)
    view, prompt = game.seat_view("P1"), game.pending()[0]
    clock = _FakeClock(cpu_step=1e-6, wall_step=0.05)
    monkeypatch.setattr(hard_module, "time", clock)
    monkeypatch.setattr(hard_module, "thread_cpu_time", clock.thread_time)
    agent = HardAgent("s", budget_ms=100.0)
    assert agent.ceiling_ms == 1000.0
    agent.choose(view, prompt)
    assert agent.last.hit_ceiling
    assert agent.last.iterations == 19  # readings at 50 ms steps: 19 rollouts before 1 s
    assert agent.last.wall_ms >= 1000.0
