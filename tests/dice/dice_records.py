"""Records of simulated games of the keyed stream, and each one tampered with once.

``anima verify`` must pass every record and fail every tampered one. The tests run a few short
games; the issue's figure (100 games, each tampered once) is this script's:

    .venv/bin/python tests/dice/dice_records.py --games 100 [--turn-cap 60] [--seed 0]

Each game has three or four seats, a server seed and a seed for every seat but the last (an AI
seat has none), random agents. The tampering rotates over three kinds: one die changed to
another value, one card of a shuffle replaced by another card of the game, two cards of a
shuffle swapped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from dataclasses import dataclass

from engine.agents import RandomAgent
from engine.game import Game
from engine.tools.replay import GameRecord, record_from
from engine.tools.verify import verify
from engine.views import lazy_seat_view

#: The kinds of tampering, in the order game ``i`` takes them (``i mod 3``).
KINDS = ("die", "card", "swap")


def simulated_record(seed: int, turn_cap: int) -> GameRecord:
    """The record of a whole game between random agents (with seat seeds)."""
    names = [f"P{i + 1}" for i in range(3 + seed % 2)]
    server_seed = hashlib.sha256(f"test server seed {seed}".encode()).hexdigest()
    seat_seeds = {name: f"join of {name} in game {seed}" for name in names[:-1]}
    game = Game.new(
        names, {"turn_cap": turn_cap}, seed, server_seed=server_seed, seat_seeds=seat_seeds
    )
    agents = {name: RandomAgent(f"{seed}:{name}") for name in names}
    pick = random.Random(f"{seed}:scheduler").random
    log: list[tuple[str, str]] = []
    while not game.over:
        prompts = game.s.prompts
        prompt = prompts[int(pick() * len(prompts))]
        action = agents[prompt.player].choose(lazy_seat_view(game, prompt.player), prompt)
        game.apply(prompt.player, action)
        log.append((prompt.player, action))
    return record_from(game, log)


def tampered(record: GameRecord, kind: str, rnd: random.Random) -> tuple[GameRecord, str]:
    """A copy of ``record`` with one die or one shuffle changed (``kind``), and what changed.
    A game without a die (rare) gets a card replaced instead."""
    data = json.loads(record.to_json())
    places = [data["setup_draws"], *(a.get("draws", []) for a in data["actions"])]
    dice = [(d, draw) for d in places for draw in d if "die" in draw]
    shuffles = [(d, draw) for d in places for draw in d if len(draw.get("shuffle", ())) > 1]
    if kind == "die" and dice:
        _, draw = rnd.choice(dice)
        was = draw["die"]
        draw["die"] = rnd.choice([v for v in range(1, 7) if v != was])
        said = f"a die {was} -> {draw['die']}"
    else:
        _, draw = rnd.choice(shuffles)
        cards = draw["shuffle"]
        i, j = rnd.sample(range(len(cards)), 2)
        if kind == "swap":
            cards[i], cards[j] = cards[j], cards[i]
            said = f"cards {i + 1} and {j + 1} of a shuffle swapped"
        else:
            others = sorted({c for _, d in shuffles for c in d["shuffle"]} - set(cards))
            was = cards[i]
            cards[i] = rnd.choice(others) if others else cards[j]
            said = f"card {i + 1} of a shuffle {was} -> {cards[i]}"
    return GameRecord.model_validate(data), said


@dataclass
class Figures:
    """What a run found."""

    games: int = 0
    passed: int = 0
    caught: int = 0
    #: Tampered records that verified anyway, with what was changed (must be none).
    missed: list[str] | None = None
    #: Untouched records that failed, with the first problem (must be none).
    refused: list[str] | None = None
    seconds: float = 0.0


def run(games: int, first_seed: int = 0, turn_cap: int = 60) -> Figures:
    """Make, verify, tamper and verify again ``games`` records."""
    figures = Figures(games=games, missed=[], refused=[])
    assert figures.missed is not None and figures.refused is not None
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        record = simulated_record(seed, turn_cap)
        verdict = verify(record)
        if verdict.ok:
            figures.passed += 1
        else:
            figures.refused.append(f"game {seed}: {verdict.problems[0]}")
        bad, said = tampered(record, KINDS[seed % len(KINDS)], random.Random(seed))
        if verify(bad).ok:
            figures.missed.append(f"game {seed}: {said}")
        else:
            figures.caught += 1
    figures.seconds = time.perf_counter() - start
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--turn-cap", type=int, default=60)
    args = parser.parse_args()
    f = run(args.games, args.seed, args.turn_cap)
    print(f"records verified: {f.passed}/{f.games}")
    print(f"tampered records refused: {f.caught}/{f.games}")
    for line in (f.refused or []) + (f.missed or []):
        print(f"  {line}")
    print(f"time: {f.seconds:.1f} s")
    return 0 if f.passed == f.caught == f.games else 1


if __name__ == "__main__":
    sys.exit(main())
