"""Fixed positions of seeded games for the pictures' tests: a 5-player game of the three
sets between normal AIs, stopped at a chosen action (deterministic: the same game on every
run, X5)."""

from __future__ import annotations

from functools import cache

from engine.agents.levels import make_agent
from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.tools.simulate import play_game

ALL_SETS = ["shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods"]
#: The board of the reference pictures: seed 4's game at its 1664th action, with revealed
#: Encounters, Traps, a guard, cards in play, Arcane characters and the Final mission.
BOARD_SEED, BOARD_ACTION = 4, 1664
SEATS = ("P1", "P2", "P3", "P4", "P5")
#: The players' display names of the pictures' tests (a Cyrillic one among them).
NAMES = {"P1": "Alice", "P2": "Борис", "P3": "Chiara", "P4": "Diego", "P5": "Eve"}


class _Stop(Exception):
    pass


@cache
def position(seed: int = BOARD_SEED, at: int = BOARD_ACTION) -> tuple[Game, tuple[Event, ...]]:
    """The game of ``seed`` after ``at`` actions, and every event so far."""
    db = default_cards()
    agents = {s: make_agent("normal", f"{seed}:{s}") for s in SEATS}
    kept: list[Game] = []
    events: list[Event] = []
    done = 0

    def observe(game: Game, new: list[Event]) -> None:
        nonlocal done
        done += 1
        events.extend(new)
        if done == at:
            kept.append(game.clone())
            raise _Stop

    play_game(
        seed, len(SEATS), options={"sets": ALL_SETS}, agents=agents, cards=db, observe=observe
    )
    assert kept, f"game {seed} ended before action {at}"
    return kept[0], tuple(events)
