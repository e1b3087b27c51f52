"""Helpers for the rule tests: build a position with the scenario setup, then drive it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from engine.events import Event
from engine.game import Game
from engine.prompts import Prompt
from engine.tools.scenario import build_game, parse


class Table:
    """A game under test, with short ways to act and to skip what the test is not about."""

    def __init__(self, game: Game) -> None:
        self.g = game
        self.events: list[Event] = []

    @property
    def s(self) -> Any:
        return self.g.s

    def p(self, name: str) -> Any:
        return self.g.s.players[name]

    def prompt(self, player: str) -> Prompt | None:
        return self.g.prompt_for(player)

    def choices(self, player: str) -> list[str]:
        prompt = self.g.prompt_for(player)
        return list(prompt.choices) if prompt else []

    def do(self, player: str, action: str) -> list[Event]:
        events = self.g.apply(player, action)
        self.events.extend(events)
        return events

    def pass_windows(self) -> None:
        """Every open reaction window (and removal block) is passed by everybody."""
        while any(p.window for p in self.g.pending()):
            prompt = next(p for p in self.g.pending() if p.window)
            self.do(prompt.player, "pass")

    def until(self, player: str, kind: str, limit: int = 300) -> Prompt:
        """Answer every other prompt with its default until ``player`` must decide ``kind``."""
        for _ in range(limit):
            prompt = self.g.prompt_for(player)
            if prompt is not None and prompt.kind == kind:
                return prompt
            pending = self.g.pending()
            assert pending, f"the game stopped before {player} had to decide {kind}"
            self.do(pending[0].player, pending[0].default)
        raise AssertionError(f"{player} never had to decide {kind}")

    def refresh(self) -> None:
        """Ask the open decision again (after a test changed the state by hand)."""
        self.g.s.prompts.clear()
        self.g.advance()

    def texts(self, kind: str | None = None) -> list[str]:
        return [e.text for e in self.events if kind is None or e.kind == kind]


def make_table(
    players: Iterable[str] = ("A", "B"),
    setup: dict[str, Any] | None = None,
    dice: Iterable[int] = (),
    seed: int = 1,
    **options: Any,
) -> Table:
    """A game from a scenario-style setup (see docs/scenarios.md)."""
    data: dict[str, Any] = {"players": list(players), "seed": seed, "options": options}
    if setup is not None:
        data["setup"] = setup
    data["dice"] = list(dice)
    return Table(build_game(parse(data)))


@pytest.fixture
def table() -> type[Table]:
    return Table


@pytest.fixture
def make() -> Any:
    return make_table
