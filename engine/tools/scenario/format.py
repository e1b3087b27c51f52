"""The scenario file format: its models, and reading a file (:func:`load`, :func:`parse`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    model_validator,
)

from engine.options import Options
from engine.state import DeckName
from engine.tools.jsonfile import read_json


class ScenarioError(Exception):
    """A scenario file that cannot be run: unreadable, not JSON, or not a valid scenario."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CharacterSetup(_Model):
    """A character placed in a party, optionally turned (C3) or incapacitated (C6)."""

    card: str
    tapped: bool = False
    incapacitated: bool = False


class PlayerSetup(_Model):
    """What a setup fixes for one player; every field left out keeps the dealt value."""

    party: list[str | CharacterSetup] | None = Field(default=None, min_length=1, max_length=4)
    hand: list[str] | None = Field(default=None, max_length=5)
    missions: list[str] | None = None
    started: list[str] | None = None
    completed: list[str] | None = None
    in_play: list[str] | None = None
    #: An active Region (one of the setup's ``regions``), or null: outside every Region.
    region: str | None = None


class RegionSetup(_Model):
    """An active Region and its Preliminary Encounter (null: none), face up or face down."""

    card: str
    preliminary: str | None = None
    revealed: bool = False
    #: TotG: whether the Region's printed guard still stands (left out: it does, if it has one).
    guarded: bool | None = None
    #: Traps laid face down on the Region before the setup (A5): owner -> Trap ids, in the
    #: order they were laid; only the owner knows them until they are revealed (M9).
    traps: dict[str, list[str]] = Field(default_factory=dict)


class Setup(_Model):
    """A starting position: the start choice is skipped and the game starts at a fresh turn."""

    players: dict[str, PlayerSetup] = Field(default_factory=dict)
    #: The active Regions; left out: as many Regions as players are laid out as in S4.
    regions: list[RegionSetup] | None = None
    #: Cards put on top of each deck; the first listed is drawn first.
    decks: dict[DeckName, list[str]] = Field(default_factory=dict)
    final_mission: str | None = None
    #: The Crisis! countdown (F5); left out: the Final mission's limit when V3 is on.
    crisis: int | None = Field(default=None, ge=1)
    turn: int = Field(default=1, ge=1)
    phase: Literal["reset", "movement", "interaction", "exploration"] = "reset"


class DoStep(_Model):
    """An action by a player; with ``refused`` it must raise IllegalAction instead."""

    do: str | dict[str, Any]
    by: str
    refused: bool = False
    reason_contains: str | None = None
    note: str = ""

    @model_validator(mode="after")
    def _reason_needs_refusal(self) -> DoStep:
        if self.reason_contains is not None and not self.refused:
            raise ValueError("reason_contains needs refused: true")
        return self


class ExpectSpec(_Model):
    """A value at a dotted path of the state (``view.``: of the public view)."""

    path: str = Field(min_length=1)
    equals: Any = None
    contains: Any = None
    length: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _needs_a_check(self) -> ExpectSpec:
        if not {"equals", "contains", "length"} & self.model_fields_set:
            raise ValueError("an expectation needs equals, contains or length")
        return self


class ExpectStep(_Model):
    expect: ExpectSpec
    note: str = ""


class EventSpec(_Model):
    """An event of the last action step (all of its fields must match)."""

    kind: str | None = None
    text_contains: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    #: No event of the last action step matches.
    absent: bool = False


class ExpectEventStep(_Model):
    expect_event: EventSpec
    note: str = ""


class PromptSpec(_Model):
    """An open prompt of ``player`` (of ``kind`` if given)."""

    player: str
    kind: str | None = None
    #: Exactly these legal choices, in this order.
    choices: list[str] | None = None
    includes: list[str] = Field(default_factory=list)
    excludes: list[str] = Field(default_factory=list)
    #: The player has no such open prompt.
    absent: bool = False


class ExpectPromptStep(_Model):
    expect_prompt: PromptSpec
    note: str = ""


class PassAllStep(_Model):
    """Answer every open reaction-window prompt with ``pass`` until none is open."""

    pass_all: Literal[True]
    note: str = ""


class UntilSpec(_Model):
    player: str
    kind: str | None = None


class UntilStep(_Model):
    """Answer every other prompt (with its default, or ``pass`` where legal) until ``player``
    has an open prompt (of ``kind``)."""

    until: UntilSpec
    answer: Literal["pass", "default"] = "default"
    note: str = ""


STEP_KEYS = ("do", "expect", "expect_event", "expect_prompt", "pass_all", "until")


def _step_tag(value: Any) -> str | None:
    if isinstance(value, dict):
        return next((key for key in STEP_KEYS if key in value), None)
    if isinstance(value, BaseModel):
        return next((key for key in STEP_KEYS if key in type(value).model_fields), None)
    return None


Step = Annotated[
    Annotated[DoStep, Tag("do")]
    | Annotated[ExpectStep, Tag("expect")]
    | Annotated[ExpectEventStep, Tag("expect_event")]
    | Annotated[ExpectPromptStep, Tag("expect_prompt")]
    | Annotated[PassAllStep, Tag("pass_all")]
    | Annotated[UntilStep, Tag("until")],
    Discriminator(
        _step_tag,
        custom_error_type="step_kind",
        custom_error_message="a step needs one of the keys " + ", ".join(STEP_KEYS),
    ),
]


class Scenario(_Model):
    """A whole scenario file."""

    description: str = ""
    players: list[str] = Field(min_length=2, max_length=5)
    options: Options = Field(default_factory=Options)
    seed: int = 0
    setup: Setup | None = None
    #: Die results used in order before the game's generator (``GameState.rigged``).
    dice: list[Annotated[int, Field(ge=1, le=6)]] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)

    @model_validator(mode="after")
    def _known_players(self) -> Scenario:
        names = set(self.players)
        if len(names) != len(self.players):
            raise ValueError("player names must be distinct")
        used: list[tuple[str, str]] = []
        if self.setup is not None:
            used += [(n, "setup.players") for n in self.setup.players]
        for i, step in enumerate(self.steps, 1):
            if isinstance(step, DoStep):
                used.append((step.by, f"step {i} (by)"))
            elif isinstance(step, ExpectPromptStep):
                used.append((step.expect_prompt.player, f"step {i} (player)"))
            elif isinstance(step, UntilStep):
                used.append((step.until.player, f"step {i} (player)"))
        for name, where in used:
            if name not in names:
                raise ValueError(f"{where} names {name!r}, who is not one of the players")
        return self


def _explain(exc: ValidationError) -> str:
    """The first problem as one line; steps are numbered from 1, as in run failures."""
    err = exc.errors()[0]
    loc = list(err["loc"])
    if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
        if len(loc) >= 3 and loc[2] in STEP_KEYS:
            del loc[2]  # the step kind (union tag), not a key of the file
        loc[:2] = [f"step {loc[1] + 1}"]
    where = ".".join(str(part) for part in loc) or "(top)"
    more = f" (and {exc.error_count() - 1} more problem(s))" if exc.error_count() > 1 else ""
    msg = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}: {msg}{more}"


def parse(data: Any, source: str = "scenario") -> Scenario:
    """A scenario from already-parsed JSON; raises :class:`ScenarioError` (one line)."""
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(f"{source}: {_explain(exc)}") from None


def load(path: str | Path) -> Scenario:
    """Read and validate a scenario file; raises :class:`ScenarioError` (one line)."""
    p = Path(path)
    return parse(read_json(p, ScenarioError, where=f"{p}: "), str(p))


def shown(value: Any) -> str:
    """A value of the game as a scenario's messages show it (JSON)."""
    return json.dumps(value, ensure_ascii=False, default=str)
