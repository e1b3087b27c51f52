"""Fixed positions of seeded games for the pictures' tests: 5-player games of the three sets
between normal AIs, stopped at chosen actions (deterministic: the same game on every run,
X5)."""

from __future__ import annotations

from functools import cache

from engine.agents.levels import make_agent
from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.tools.simulate import play_game

ALL_SETS = ["shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods"]
#: The board of the reference pictures: seed 4's game at its 1664th action, with revealed
#: Encounters, Traps, a beaten guard, cards in play, Arcane characters, the Final mission and
#: a reaction window; four seats' own tables there differ from the public one (their own
#: Traps, the Encounters they scouted).
BOARD_SEED, BOARD_ACTION = 4, 1664
#: Other positions of that game where some seat's own table holds its Traps and scouted
#: Encounters (the board drawn from it must be the public one's).
SECRET_ACTIONS = (210, 720, 1610)
SEATS = ("P1", "P2", "P3", "P4", "P5")
#: The players' display names of the pictures' tests (a Cyrillic one among them).
NAMES = {"P1": "Alice", "P2": "Борис", "P3": "Chiara", "P4": "Diego", "P5": "Eve"}

Position = tuple[Game, tuple[Event, ...]]


@cache
def positions(seed: int, ats: tuple[int, ...], every: int = 0) -> dict[int, Position]:
    """The game of ``seed`` after each of ``ats`` actions (and every ``every``-th action if
    ``every``), with every event so far; the game is played to its end."""
    db = default_cards()
    agents = {s: make_agent("normal", f"{seed}:{s}") for s in SEATS}
    kept: dict[int, Position] = {}
    events: list[Event] = []
    done = 0

    def observe(game: Game, new: list[Event]) -> None:
        nonlocal done
        done += 1
        events.extend(new)
        if done in ats or (every and done % every == 0 and not game.over):
            kept[done] = (game.clone(), tuple(events))

    options = {"sets": ALL_SETS}
    play_game(seed, len(SEATS), options=options, agents=agents, cards=db, observe=observe)
    return kept


def position(seed: int = BOARD_SEED, at: int = BOARD_ACTION) -> Position:
    """The game of ``seed`` after ``at`` actions, and every event so far."""
    return positions(seed, (BOARD_ACTION, *SECRET_ACTIONS), 60)[at]
