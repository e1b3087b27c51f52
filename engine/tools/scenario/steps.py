"""Running a scenario's steps: actions, refusals and expectations, until one fails."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
)

from engine.cards import CardDB
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import Game
from engine.tools.scenario.format import (
    DoStep,
    EventSpec,
    ExpectEventStep,
    ExpectPromptStep,
    ExpectStep,
    PassAllStep,
    Scenario,
    ScenarioError,
    UntilStep,
    load,
    shown,
)
from engine.tools.scenario.setup import build_game

#: ``until`` and ``pass_all`` give up after this many actions (a scenario that never gets there).
MAX_ANSWERS = 500


@dataclass
class Failure:
    """The first step that did not hold: its number (from 1), the step as written, why."""

    step: int
    spec: dict[str, Any]
    reason: str

    def __str__(self) -> str:
        return (
            f"step {self.step} failed: {json.dumps(self.spec, ensure_ascii=False)}\n  {self.reason}"
        )


@dataclass
class Outcome:
    """The result of running a scenario: the game as it ended and the failure, if any."""

    scenario: Scenario
    game: Game
    failure: Failure | None = None
    steps_run: int = 0

    @property
    def ok(self) -> bool:
        return self.failure is None


class _StepFailed(Exception):
    pass


@dataclass
class _Runner:
    game: Game
    last_events: list[Event] = field(default_factory=list)

    def act(self, player: str, action: str | dict[str, Any]) -> list[Event]:
        try:
            return self.game.apply(player, action)
        except IllegalAction as exc:
            raise _StepFailed(f"{player}: {action!r} was refused: {exc}") from None

    # -- one method per step kind

    def do(self, step: DoStep) -> None:
        g = self.game
        try:
            events = g.apply(step.by, step.do)
        except IllegalAction as exc:
            if not step.refused:
                prompt = g.prompt_for(step.by)
                legal = f" Legal now: {', '.join(prompt.choices)}." if prompt else ""
                raise _StepFailed(f"refused: {exc}.{legal}") from None
            if step.reason_contains is not None and step.reason_contains not in str(exc):
                raise _StepFailed(
                    f"refused as expected, but the reason {str(exc)!r} does not contain "
                    f"{step.reason_contains!r}"
                ) from None
            self.last_events = []
            return
        self.last_events = events
        if step.refused:
            raise _StepFailed("the action was accepted, but it should have been refused")

    def expect(self, step: ExpectStep) -> None:
        spec = step.expect
        value = _lookup(self.game, spec.path)
        if "equals" in spec.model_fields_set and value != spec.equals:
            raise _StepFailed(f"{spec.path} is {shown(value)}, expected {shown(spec.equals)}")
        if "contains" in spec.model_fields_set:
            if isinstance(value, str):
                ok = isinstance(spec.contains, str) and spec.contains in value
            elif isinstance(value, list | dict):
                ok = spec.contains in value
            else:
                raise _StepFailed(f"{spec.path} is {shown(value)}: it cannot contain anything")
            if not ok:
                raise _StepFailed(f"{spec.path} is {shown(value)}: no {shown(spec.contains)}")
        if spec.length is not None:
            if not isinstance(value, str | list | dict):
                raise _StepFailed(f"{spec.path} is {shown(value)}: it has no length")
            if len(value) != spec.length:
                raise _StepFailed(
                    f"{spec.path} has length {len(value)} ({shown(value)}), expected {spec.length}"
                )

    def expect_event(self, step: ExpectEventStep) -> None:
        spec = step.expect_event
        matches = [e for e in self.last_events if _event_matches(e, spec)]
        wanted = _describe_event_spec(spec)
        if spec.absent and matches:
            raise _StepFailed(f"unexpected event {wanted}: {matches[0].text!r}")
        if not spec.absent and not matches:
            seen = "; ".join(f"{e.kind}: {e.text}" for e in self.last_events) or "no events"
            raise _StepFailed(f"no event {wanted} in the last action step ({seen})")

    def expect_prompt(self, step: ExpectPromptStep) -> None:
        spec = step.expect_prompt
        found = [
            p
            for p in self.game.pending()
            if p.player == spec.player and (spec.kind is None or p.kind == spec.kind)
        ]
        what = f"{spec.player}" + (f" ({spec.kind})" if spec.kind else "")
        if spec.absent:
            if found:
                raise _StepFailed(f"{what} has an open prompt: {found[0].text}")
            return
        if not found:
            raise _StepFailed(f"no open prompt for {what}; open: {_open_prompts(self.game)}")
        choices = found[0].choices
        if spec.choices is not None and choices != spec.choices:
            raise _StepFailed(f"{what} may choose {choices}, expected {spec.choices}")
        missing = [c for c in spec.includes if c not in choices]
        if missing:
            raise _StepFailed(f"{what} may choose {choices}: {missing} missing")
        extra = [c for c in spec.excludes if c in choices]
        if extra:
            raise _StepFailed(f"{what} may choose {choices}, including {extra}")

    def pass_all(self, step: PassAllStep) -> None:
        events: list[Event] = []
        for answered in range(MAX_ANSWERS):
            window = next((p for p in self.game.pending() if p.window), None)
            if window is None:
                if answered:
                    self.last_events = events
                return
            events += self.act(window.player, "pass")
        raise _StepFailed(f"reaction windows still open after {MAX_ANSWERS} passes")

    def until(self, step: UntilStep) -> None:
        spec = step.until
        g = self.game
        events: list[Event] = []
        what = f"{spec.player}" + (f" ({spec.kind})" if spec.kind else "")
        for answered in range(MAX_ANSWERS):
            pending = g.pending()
            if any(
                p.player == spec.player and (spec.kind is None or p.kind == spec.kind)
                for p in pending
            ):
                if answered:
                    self.last_events = events
                return
            if not pending:
                end = "the game is over" if g.over else "nobody has a decision"
                raise _StepFailed(f"{end} before {what} had one")
            prompt = pending[0]
            answer = "pass" if step.answer == "pass" and "pass" in prompt.choices else None
            events += self.act(prompt.player, answer or prompt.default)
        raise _StepFailed(f"no prompt for {what} after {MAX_ANSWERS} answers")


def _lookup(g: Game, path: str) -> Any:
    parts = path.split(".")
    if parts[0] == "view":
        value: Any = g.view(None)
        parts = parts[1:]
    else:
        value = g.s.to_data()
    walked: list[str] = []
    for part in parts:
        here = ".".join(walked) or "(top)"
        if isinstance(value, dict):
            if part not in value:
                keys = ", ".join(map(str, value)) or "none"
                raise _StepFailed(f"{path}: {here} has no {part!r} (keys: {keys})")
            value = value[part]
        elif isinstance(value, list):
            try:
                value = value[int(part)]
            except (ValueError, IndexError):
                raise _StepFailed(
                    f"{path}: {here} is a list of {len(value)}; {part!r} is not an index"
                ) from None
        else:
            raise _StepFailed(f"{path}: {here} is {shown(value)}, not a list or object")
        walked.append(part)
    return value


def _event_matches(event: Event, spec: EventSpec) -> bool:
    if spec.kind is not None and event.kind != spec.kind:
        return False
    if spec.text_contains is not None and spec.text_contains not in event.text:
        return False
    data = json.loads(json.dumps(event.data, default=str))
    return all(data.get(k) == v for k, v in spec.data.items())


def _describe_event_spec(spec: EventSpec) -> str:
    parts = [f"kind={spec.kind}"] if spec.kind else []
    if spec.text_contains is not None:
        parts.append(f"text containing {spec.text_contains!r}")
    if spec.data:
        parts.append(f"data {shown(spec.data)}")
    return "(" + ", ".join(parts or ["any"]) + ")"


def _open_prompts(g: Game) -> str:
    return ", ".join(f"{p.player} ({p.kind})" for p in g.pending()) or "none"


def run(scenario: Scenario, cards: CardDB | None = None) -> Outcome:
    """Play a scenario; stops at the first step that does not hold."""
    game = build_game(scenario, cards)
    runner = _Runner(game)
    handlers: dict[type[BaseModel], Callable[[Any], None]] = {
        DoStep: runner.do,
        ExpectStep: runner.expect,
        ExpectEventStep: runner.expect_event,
        ExpectPromptStep: runner.expect_prompt,
        PassAllStep: runner.pass_all,
        UntilStep: runner.until,
    }
    outcome = Outcome(scenario, game)
    for number, step in enumerate(scenario.steps, 1):
        try:
            handlers[type(step)](step)
        except _StepFailed as exc:
            reason = str(exc)
        except Exception as exc:  # an engine bug: report it as the step's failure
            reason = f"engine error: {type(exc).__name__}: {exc}"
        else:
            outcome.steps_run = number
            continue
        outcome.failure = Failure(number, step.model_dump(mode="json", exclude_unset=True), reason)
        break
    return outcome


def run_file(path: str | Path, cards: CardDB | None = None) -> Outcome:
    """:func:`load` then :func:`run`; every :class:`ScenarioError` names the file."""
    scenario = load(path)
    try:
        return run(scenario, cards)
    except ScenarioError as exc:
        raise ScenarioError(f"{path}: {exc}") from None
