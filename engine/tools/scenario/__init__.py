"""Scenarios: scripted games that check the rules step by step (``anima scenario FILE.json``).

A scenario file (JSON, validated by :class:`Scenario`) fixes the players, the options, the seed,
an optional starting position (:class:`Setup`), rigged dice and a list of steps: actions by
players (or actions that must be refused) and expectations about the state, the events of the
last action and the open prompts. The format is documented in ``docs/scenarios.md``.

:func:`load` reads and validates a file (a malformed one raises :class:`ScenarioError` with a
one-line message); :func:`run` plays a scenario and returns an :class:`Outcome` naming the
first step that did not hold, if any.

The package, by job: :mod:`~engine.tools.scenario.format` (the file format),
:mod:`~engine.tools.scenario.setup` (the starting position), :mod:`~engine.tools.scenario.steps`
(running the steps), :mod:`~engine.tools.scenario.show` (the result as text or JSON) and
:mod:`~engine.tools.scenario.command` (``anima scenario``).
"""

from engine.tools.scenario.command import register
from engine.tools.scenario.format import Scenario, ScenarioError, load, parse
from engine.tools.scenario.setup import build_game, card_places
from engine.tools.scenario.show import as_json, render
from engine.tools.scenario.steps import Failure, Outcome, run, run_file

__all__ = [
    "Failure",
    "Outcome",
    "Scenario",
    "ScenarioError",
    "as_json",
    "build_game",
    "card_places",
    "load",
    "parse",
    "register",
    "render",
    "run",
    "run_file",
]
