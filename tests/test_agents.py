"""The AI levels (engine.agents.levels): each decides from what its seat can see only, plays
legal choices, and the normal level plays like a reasonable person."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.agents import Agent, choice_actions
from engine.agents.hard import HardAgent
from engine.agents.levels import LEVELS, make_agent
from engine.agents.normal import NormalAgent
from engine.agents.normal_seat import Seat
from engine.agents.normal_values import p_beat_monster, p_beat_party, p_check, p_lose_by_five
from engine.determinize import determinize
from engine.game import Game
from engine.prompts import Prompt
from engine.state import Character
from engine.tools.simulate import play_game, seat_names, simulate
from engine.views import SeatView

#: A small thinking time for searching levels: the choice must not depend on hidden cards at
#: any budget, and the test must stay short.
BUDGET_MS = 20.0


def _decision_points(seed: int, every: int, limit: int) -> list[tuple[Game, Prompt]]:
    """Copies of a 4-player game between normal AIs at every ``every``-th decision with a
    real choice, and at every reaction window where a card could be played (up to
    ``limit``), with the prompt answered there."""
    points: list[tuple[Game, Prompt]] = []
    game = Game.new(seat_names(4), {}, seed)
    agents = {n: NormalAgent(f"{seed}:{n}") for n in seat_names(4)}
    pick = random.Random(seed).random
    count = 0
    while not game.over and len(points) < limit:
        prompts = game.pending()
        prompt = prompts[int(pick() * len(prompts))]
        if len(prompt.choices) > 1:
            if prompt.window or count % every == 0:
                points.append((game.clone(), prompt))
            count += 1
        view = game.seat_view(prompt.player)
        game.apply(prompt.player, agents[prompt.player].choose(view, prompt))
    return points


def _hidden(game: Game, seat: str) -> dict[str, Any]:
    """What ``seat`` cannot see of ``game``: the other hands and missions, the decks, the
    face-down Encounters, the generator."""
    s = game.s
    return {
        "hands": {n: list(p.hand) for n, p in s.players.items() if n != seat},
        "missions": {n: list(p.missions) for n, p in s.players.items() if n != seat},
        "decks": {k: list(v) for k, v in s.decks.items()},
        "preliminaries": [r.preliminary for r in s.regions if not r.revealed],
        "rng": s.rng,
    }


def _same_view_other_secrets(game: Game, seat: str, seed: int) -> Game:
    """A copy of ``game`` whose hidden cards (for ``seat``) are dealt anew, the generator
    changed too, with ``seat``'s view the same (checked)."""
    view = game.seat_view(seat)
    other = determinize(view, random.Random(seed))
    other.s.rng = (game.s.rng * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    assert other.seat_view(seat) == view, "the other deal must keep the seat's view"
    return other


def _choice(level: str, seed: str, game: Game, prompt: Prompt) -> str:
    # The hard AI's budget is wall-clock time: its choice would depend on the machine's
    # speed. An iteration cap and no time budget make it the same on every run.
    agent = (
        HardAgent(seed, budget_ms=None, iterations=8)
        if level == "hard"
        else make_agent(level, seed, BUDGET_MS)
    )
    return agent.choose(game.seat_view(prompt.player), game.prompt_for(prompt.player) or prompt)


@pytest.mark.parametrize("level", list(LEVELS))
def test_an_ai_decides_from_what_its_seat_sees_only(level: str) -> None:
    """Deal every card a seat cannot see anew (other hands, other missions, deck order, the
    face-down Encounters, the future dice), keep its view identical: the AI of every level,
    with the same seed, takes the same decision."""
    points = _decision_points(seed=7, every=4, limit=80 if level != "hard" else 12)
    changed = 0
    kinds = set()
    for i, (game, prompt) in enumerate(points):
        seat = prompt.player
        other = _same_view_other_secrets(game, seat, seed=i)
        changed += _hidden(other, seat) != _hidden(game, seat)
        kinds.add(prompt.kind)
        seed = f"hidden:{i}"
        assert _choice(level, seed, game, prompt) == _choice(level, seed, other, prompt), (
            f"{level} changed its choice at {prompt.kind} when only hidden cards changed"
        )
    assert changed == len(points)  # every deal really moved hidden cards
    if level != "hard":
        assert {"movement", "window", "exploration", "reward"} <= kinds


def test_the_hidden_information_test_catches_an_ai_that_peeks() -> None:
    """The same check on an agent that reads another seat's hand finds it out: the test
    above can fail."""

    class Peeker:
        def __init__(self, game: Game) -> None:
            self.game = game

        def choose(self, view: SeatView, prompt: Prompt) -> str:
            other = next(n for n in self.game.s.seats if n != view.seat)
            actions = choice_actions(prompt)
            secret = "".join(self.game.s.players[other].hand)
            return actions[len(secret) * 7 % len(actions)]

    caught = 0
    for i, (game, prompt) in enumerate(_decision_points(seed=7, every=4, limit=30)):
        other = _same_view_other_secrets(game, prompt.player, seed=i)
        caught += Peeker(game).choose(game.seat_view(prompt.player), prompt) != Peeker(
            other
        ).choose(other.seat_view(prompt.player), prompt)
    assert caught > 0


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_is_an_agent_that_plays_whole_games(level: str) -> None:
    # A searching level thinks within BUDGET_MS; the others play every seat.
    levels = [level, "random", "random", "random"] if level == "hard" else [level] * 4
    agents = {
        name: make_agent(lv, f"3:{name}", BUDGET_MS)
        for name, lv in zip(seat_names(4), levels, strict=True)
    }
    assert all(isinstance(a, Agent) for a in agents.values())
    result = play_game(3, 4, 20, agents=agents)
    assert result.error is None, result.traceback
    assert result.ending is not None


def test_make_agent_refuses_an_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown AI level 'genius'"):
        make_agent("genius", "0")
    assert isinstance(make_agent("normal", "0"), NormalAgent)


# ------------------------------------------------------------------------------ odds


def test_battle_odds_are_exact_for_two_dice() -> None:
    assert p_beat_monster(5, 5) == pytest.approx(21 / 36)  # B2: a tie goes to the party
    assert p_beat_monster(0, 6) == pytest.approx(0)
    assert p_beat_monster(6, 0) == pytest.approx(1)
    assert p_beat_monster(5, 10) == pytest.approx(1 / 36)
    assert p_beat_party(4, 4) == pytest.approx(0.5)  # V2: ties are rolled again
    assert p_beat_party(6, 4) > 0.75
    assert p_lose_by_five(0, 0) == pytest.approx(1 / 36)  # a 1 against a 6
    assert p_check(3, 8) == pytest.approx(1 / 3)  # a 5 or a 6
    assert p_check(9, 8) == 1.0
    assert p_check(0, 8) == 0.0


# ------------------------------------------------------------------------------ normal


def _ask(game: Game, player: str, kind: str, choices: list[str], **extra: Any) -> Prompt:
    prompt = Prompt(player, kind, "", choices, choices[0], **extra)
    game.s.prompts = [prompt]
    return prompt


def _started(seed: int = 1) -> Game:
    """A 2-player game past the start choices, in turn 1's Movement phase."""
    game = Game.new(["A", "B"], {}, seed)
    agents = {"A": NormalAgent(1), "B": NormalAgent(2)}
    while game.s.phase != "movement":
        prompt = game.pending()[0]
        view = game.seat_view(prompt.player)
        game.apply(prompt.player, agents[prompt.player].choose(view, prompt))
    return game


def test_normal_never_gives_away_its_only_character_at_the_pit_of_hell() -> None:
    """The Pit of Hell's Infernal Pact kills a character for +2 Strength: with one
    character the normal AI takes Advantages instead."""
    game = _started()
    a = game.s.players["A"]
    a.party = [Character(card="paladin")]
    a.hand = []
    a.region = "pit_of_hell"
    a.missions = []
    prompt = _ask(game, "A", "reward", ["reward 0", "reward 1"])
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "reward 0"


def test_normal_avoids_a_monster_above_its_strength() -> None:
    game = _started()
    a = game.s.players["A"]
    a.party = [Character(card="mechanist")]  # Strength 2
    a.missions, a.region = [], None
    regions = game.s.regions
    regions[0].preliminary, regions[0].revealed = "dragon_god", True  # Strength 11
    regions[1].preliminary, regions[1].revealed = None, False
    choices = [f"go {regions[0].card}", f"go {regions[1].card}", "rest"]
    prompt = _ask(game, "A", "movement", choices)
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) != choices[0]


def test_normal_goes_for_a_mission_it_can_complete() -> None:
    """A party that can win the Bandit King's fight goes to the Crossroads Inn for it."""
    game = _started()
    a = game.s.players["A"]
    a.party = [Character(card=c) for c in ("templar", "weapons_specialist", "acrobat")]  # 14
    a.missions, a.region, a.hand = ["the_bandit_king"], None, []  # Strength 12
    inn = game.s.regions[0]
    inn.card, inn.preliminary, inn.revealed = "crossroads_inn", None, False
    choices = [f"go {r.card}" for r in game.s.regions] + ["rest"]
    prompt = _ask(game, "A", "movement", choices)
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "go crossroads_inn"
    a.region = "crossroads_inn"
    prompt = _ask(game, "A", "reward", ["reward 0", "reward 1", "mission the_bandit_king"])
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "mission the_bandit_king"


def test_normal_plays_a_battle_card_when_its_battle_is_in_doubt_only() -> None:
    game = _started()
    a = game.s.players["A"]
    a.party = [Character(card="paladin")]
    a.hand = ["battle_fury"]
    game.push("battle", player="A", data={"name": "an ogre", "strength": 5})
    game.push("window", player="A", data={"when": "battle_start", "passed": []})
    prompt = _ask(game, "A", "window", ["pass", "play battle_fury"], window=True)
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "play battle_fury"
    game.s.stack[-2].data["strength"] = 0  # won anyway: keep the card
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "pass"


def test_normal_is_stronger_than_random() -> None:
    """A short run of the strength figure (docs/balance.md has the 1,000-game one)."""
    summary = simulate(40, 4, 500, levels=["normal", "random", "random", "random"])
    report = summary.deterministic()
    assert report["errors"] == 0
    assert report["wins_per_level"]["normal"]["rate"] > 0.5


def test_F2_normal_weighs_missions_that_fight_on_every_turn_or_encounter() -> None:
    """A weak party reads The Long Night (6 Encounters, the Region counting as level 3) and the
    level-14 beasts (two battles) as long shots; a strong one reads them as better odds."""
    game = Game.new(["A", "B"], {"sets": ["beyond_good_and_evil"]}, 1)
    agent = NormalAgent(0)
    a = game.s.players["A"]

    def odds(mission: str) -> float:
        return Seat(agent, game.seat_view("A")).objective_odds(mission)

    a.party = [Character(card="seer")]  # Strength 2
    weak = odds("the_long_night"), odds("hunt_the_beasts_of_the_apocalypse")
    assert weak[0] < 0.5 and weak[1] < 0.05
    a.party = [Character(card="samurai"), Character(card="priestess"), Character(card="seer")]
    strong = odds("the_long_night"), odds("hunt_the_beasts_of_the_apocalypse")
    assert strong[0] > weak[0] and strong[1] > weak[1]
