"""Scenarios: scripted games that check the rules step by step (``anima scenario FILE.json``).

A scenario file (JSON, validated by :class:`Scenario`) fixes the players, the options, the seed,
an optional starting position (:class:`Setup`), rigged dice and a list of steps: actions by
players (or actions that must be refused) and expectations about the state, the events of the
last action and the open prompts. The format is documented in ``docs/scenarios.md``.

:func:`load` reads and validates a file (a malformed one raises :class:`ScenarioError` with a
one-line message); :func:`run` plays a scenario and returns an :class:`Outcome` naming the
first step that did not hold, if any.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
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

from engine import zones
from engine.cards import CardDB, deck_of
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import Game
from engine.options import Options
from engine.rules.regions import lay_out
from engine.rules.setup import default_start
from engine.rules.turn import start_turn
from engine.state import DeckName, Frame, GameState
from engine.zones import Zone

#: ``until`` and ``pass_all`` give up after this many actions (a scenario that never gets there).
MAX_ANSWERS = 500

DECKS: tuple[DeckName, ...] = ("character", "region", "encounter", "advantage", "arcane")


class ScenarioError(Exception):
    """A scenario file that cannot be run: unreadable, not JSON, or not a valid scenario."""


# ---------------------------------------------------------------------- the file format


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
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"{p}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{p}: not valid JSON: {exc.msg} (line {exc.lineno})") from None
    return parse(data, str(p))


# ---------------------------------------------------------------------- cards and places


def card_places(s: GameState) -> list[str]:
    """Every card id in the state, once per place it is in (the map of :mod:`engine.zones`)."""
    return zones.all_cards(s)


def home(g: Game, card: str) -> Zone:
    """Where a card goes when a setup does not use it: its deck (missions: set aside; Final
    missions: their deck)."""
    kind = deck_of(g.db[card])  # an Arcane character's deck is "arcane" (C7)
    if kind in g.s.decks:
        return Zone("deck", kind)
    return Zone("final_deck") if kind == "final_mission" else Zone("set_aside")


def send_home(g: Game, card: str, source: Zone) -> None:
    """Move ``card`` from ``source`` to the bottom of its deck (set-aside missions: on top)."""
    destination = home(g, card)
    zones.move(g.s, card, source, destination, bottom=destination.kind != "set_aside")


def place_card(g: Game, card: str, destination: Zone) -> None:
    """Move ``card`` from wherever it is to ``destination`` (on top of a pile). An active
    Region taken away sends its Preliminary Encounter home first."""
    source = zones.locate(g.s, card)
    if source.kind == "region":
        under = next(r.preliminary for r in g.s.regions if r.card == card)
        if under:
            send_home(g, under, Zone("preliminary", card))
    zones.move(g.s, card, source, destination)


# ---------------------------------------------------------------------- applying a setup


@dataclass
class _Named:
    """Every card the setup names, with where, to check types and duplicates first."""

    db: CardDB
    sets: set[str]
    seen: dict[str, str] = field(default_factory=dict)

    def check(self, card: str, where: str, *types: str) -> None:
        if card not in self.db.by_id:
            raise ScenarioError(f"{where}: unknown card {card!r}")
        found = self.db[card]
        if found.type not in types:
            wanted = types[0].replace("_", " ")
            raise ScenarioError(f"{where}: {card!r} is a {found.type} card, not {_a(wanted)}")
        if found.set not in self.sets:
            raise ScenarioError(f"{where}: {card!r} is from {found.set}, not in options.sets")
        if card in self.seen:
            raise ScenarioError(f"{where}: {card!r} is already placed at {self.seen[card]}")
        self.seen[card] = where


def _a(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


def _character_id(entry: str | CharacterSetup) -> str:
    return entry if isinstance(entry, str) else entry.card


def _check_setup(g: Game, setup: Setup) -> set[str]:
    """Validate every card id of the setup against the cards; returns the named ids."""
    named = _Named(g.db, set(g.s.options.sets))
    for name, ps in setup.players.items():
        where = f"setup.players.{name}"
        for entry in ps.party or []:
            named.check(_character_id(entry), f"{where}.party", "character")
        for card in ps.hand or []:
            named.check(card, f"{where}.hand", "advantage")
        for card in ps.in_play or []:
            named.check(card, f"{where}.in_play", "advantage")
        for key in ("missions", "started", "completed"):
            for card in getattr(ps, key) or []:
                named.check(card, f"{where}.{key}", "mission")
    active: set[str] = set()
    for i, r in enumerate(setup.regions or []):
        named.check(r.card, f"setup.regions.{i}.card", "region")
        active.add(r.card)
        if r.preliminary is not None:
            named.check(r.preliminary, f"setup.regions.{i}.preliminary", "encounter")
        for owner, traps in r.traps.items():
            where = f"setup.regions.{i}.traps.{owner}"
            if owner not in g.s.players:
                raise ScenarioError(f"{where}: {owner!r} is not a player")
            for card in traps:
                named.check(card, where, "advantage")
                if g.db.advantage(card).kind != "trap":
                    raise ScenarioError(f"{where}: {card!r} is not a Trap")
    for deck, cards in setup.decks.items():
        if deck not in g.s.decks:
            raise ScenarioError(f"setup.decks.{deck}: no such deck with these sets")
        for card in cards:
            named.check(card, f"setup.decks.{deck}", "character" if deck == "arcane" else deck)
            if deck_of(g.db[card]) != deck:
                raise ScenarioError(f"setup.decks.{deck}: {card!r} belongs to another deck")
    if setup.final_mission is not None:
        named.check(setup.final_mission, "setup.final_mission", "final_mission")
    for name, ps in setup.players.items():
        if ps.region is not None and setup.regions is not None and ps.region not in active:
            raise ScenarioError(
                f"setup.players.{name}.region: {ps.region!r} is not one of setup.regions"
            )
    return set(named.seen)


def _top_unnamed(pile: list[str], named: set[str]) -> str | None:
    """The topmost card of ``pile`` that the setup does not name."""
    return next((card for card in reversed(pile) if card not in named), None)


def _replace(g: Game, zone: Zone, cards: list[str]) -> None:
    """Send the zone's current cards home, then move ``cards`` into it, in order."""
    for card in zones.cards_in(g.s, zone):
        send_home(g, card, zone)
    for card in cards:
        place_card(g, card, zone)


def apply_setup(g: Game, setup: Setup) -> None:
    """Skip the start choice and put every named card where the setup says, each card staying
    in exactly one place; then start the game at a fresh turn (R1 and T2 apply)."""
    s = g.s
    every_card = set(zones.all_cards(s))
    named = _check_setup(g, setup)
    default_start(g)  # S3 as if every start choice timed out (X6)
    # The active Regions: the setup's, or S4 (as many as players, face down) from the cards
    # the setup does not name.
    if setup.regions is None:
        for _ in s.seats:
            region = _top_unnamed(s.decks["region"], named)
            if region is None:
                break
            zones.move(s, region, Zone("deck", "region"), Zone("region"))
            lay_out(g, region)
            encounter = _top_unnamed(s.decks["encounter"], named)
            if encounter is not None:
                zones.move(s, encounter, Zone("deck", "encounter"), Zone("preliminary", region))
    else:
        for r in list(s.regions):
            if r.preliminary:
                send_home(g, r.preliminary, Zone("preliminary", r.card))
            send_home(g, r.card, Zone("region"))
        for spec in setup.regions:
            place_card(g, spec.card, Zone("region"))
            if spec.preliminary is not None:
                place_card(g, spec.preliminary, Zone("preliminary", spec.card))
            s.regions[-1].revealed = spec.revealed
            lay_out(g, spec.card)
            if spec.guarded is not None:
                s.regions[-1].guarded = spec.guarded and g.db.region(spec.card).guard is not None
            for owner, traps in spec.traps.items():
                for trap in traps:
                    place_card(g, trap, zones.traps_zone(spec.card, owner))
    for name, ps in setup.players.items():
        p = s.players[name]
        if ps.party is not None:
            _replace(g, Zone("party", name), [_character_id(e) for e in ps.party])
        for key in ("hand", "missions", "started", "completed", "in_play"):
            cards = getattr(ps, key)
            if cards is not None:
                _replace(g, Zone(key, name), cards)
        if "region" in ps.model_fields_set:
            if ps.region is not None and ps.region not in {r.card for r in s.regions}:
                raise ScenarioError(
                    f"setup.players.{name}.region: {ps.region!r} is not an active Region"
                )
            p.region = ps.region
    if "final_mission" in setup.model_fields_set:
        if s.final_mission is not None:
            send_home(g, s.final_mission, Zone("final_mission"))
        if setup.final_mission is not None:
            place_card(g, setup.final_mission, Zone("final_mission"))
            limit = g.db.final_mission(setup.final_mission).crisis.limit
            s.crisis = setup.crisis or (limit if s.options.crisis else None)
    elif setup.crisis is not None:
        raise ScenarioError("setup.crisis: there is no Final mission (setup.final_mission)")
    for deck, cards in setup.decks.items():
        for card in reversed(cards):  # the engine draws from the end: the first listed on top
            place_card(g, card, Zone("deck", deck))
    try:
        zones.check_conservation(s, every_card)
    except zones.ZoneError as exc:
        raise ScenarioError(f"setup bug: {exc}") from None
    _start(g, setup)


def _start(g: Game, setup: Setup) -> None:
    s = g.s
    s.prompts = []
    s.turn = setup.turn - 1
    if setup.phase == "reset":
        s.stack = [Frame(kind="turn", stage="start")]
        g.advance()
        return
    # A later phase: the turn starts (R1, T2, T3), the earlier phases are skipped, then the
    # setup's turned and incapacitated characters are laid as given.
    start_turn(g)
    s.phase = setup.phase
    for name, ps in setup.players.items():
        p = s.players[name]
        flags = {e.card: e for e in ps.party or [] if isinstance(e, CharacterSetup)}
        for c in p.party:
            if c.card in flags:
                c.tapped, c.incapacitated = flags[c.card].tapped, flags[c.card].incapacitated
    for p in s.players.values():
        p.arrived = p.region is not None and setup.phase in ("interaction", "exploration")
    s.stack = [Frame(kind="turn", stage=setup.phase, data={"i": 0})]
    g.advance()


def build_game(scenario: Scenario, cards: CardDB | None = None) -> Game:
    """The game a scenario starts from (its setup applied, its dice rigged)."""
    try:
        game = Game.new(
            scenario.players, scenario.options, scenario.seed, cards, rigged=scenario.dice
        )
    except IllegalAction as exc:
        raise ScenarioError(f"players: {exc}") from None
    if scenario.setup is not None:
        apply_setup(game, scenario.setup)  # a tie in Speed at its first turn rolls dice (T2)
    return game


# ---------------------------------------------------------------------- running the steps


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
            raise _StepFailed(f"{spec.path} is {_show(value)}, expected {_show(spec.equals)}")
        if "contains" in spec.model_fields_set:
            if isinstance(value, str):
                ok = isinstance(spec.contains, str) and spec.contains in value
            elif isinstance(value, list | dict):
                ok = spec.contains in value
            else:
                raise _StepFailed(f"{spec.path} is {_show(value)}: it cannot contain anything")
            if not ok:
                raise _StepFailed(f"{spec.path} is {_show(value)}: no {_show(spec.contains)}")
        if spec.length is not None:
            if not isinstance(value, str | list | dict):
                raise _StepFailed(f"{spec.path} is {_show(value)}: it has no length")
            if len(value) != spec.length:
                raise _StepFailed(
                    f"{spec.path} has length {len(value)} ({_show(value)}), expected {spec.length}"
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
            raise _StepFailed(f"{path}: {here} is {_show(value)}, not a list or object")
        walked.append(part)
    return value


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


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
        parts.append(f"data {_show(spec.data)}")
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


# ---------------------------------------------------------------------- showing the result


def hidden_info(g: Game) -> dict[str, dict[str, Any]]:
    """What each player alone may see: hand, secret missions, start offers, scouted
    Preliminary Encounters, open prompt."""
    public = {r["card"]: r["preliminary"] for r in g.view(None)["regions"]}
    result: dict[str, dict[str, Any]] = {}
    for name in g.s.seats:
        view = g.view(name)
        mine = view["players"][name]
        result[name] = {
            "hand": mine["hand"],
            "missions": mine["missions"],
            "offered_characters": mine["offered_characters"],
            "offered_advantages": mine["offered_advantages"],
            "scouted": {
                r["card"]: r["preliminary"]
                for r in view["regions"]
                if r["preliminary"] != public[r["card"]]
            },
            "prompt": view.get("prompt"),
        }
    return result


def _names(cards: list[str]) -> str:
    return ", ".join(cards) or "-"


def render(g: Game) -> str:
    """The final state for humans: the public view, then each player's hidden info."""
    view = g.view(None)
    hidden = hidden_info(g)
    lines = [
        f"Turn {view['turn']}, {view['phase']} phase; order: {_names(view['order'])}",
        "Waiting for: "
        + (", ".join(f"{w['player']} ({w['kind']})" for w in view["waiting_for"]) or "nobody"),
    ]
    if view["winner"] or view["ending"]:
        lines.append(f"Game over: winner {view['winner'] or 'nobody'} ({view['ending']})")
    final = view["final_mission"] or "not revealed"
    crisis = f", Crisis! in {view['crisis']}" if view["crisis"] is not None else ""
    lines += [f"Final mission: {final}{crisis}", "", "Regions:"]
    for r in view["regions"]:
        pre = {None: "none", "face_down": "face down"}.get(r["preliminary"], r["preliminary"])
        lines.append(f"  {r['card']} (level {r['level']}), Preliminary Encounter: {pre}")
    lines += ["", "Players:"]
    for name in view["seats"]:
        p = view["players"][name]
        where = p["region"] or "no Region"
        flags = [
            flag
            for flag, on in (
                ("turn over", p["turn_over"]),
                ("resting", p["resting"]),
                ("lost", p["lost"]),
            )
            if on
        ]
        extra = f" [{', '.join(flags)}]" if flags else ""
        lines.append(f"  {name}: Strength {p['strength']}, Speed {p['speed']}, at {where}{extra}")
        party = [
            c["card"]
            + (" (tapped)" if c["tapped"] else "")
            + (" (incapacitated)" if c["incapacitated"] else "")
            for c in p["party"]
        ]
        lines.append(f"    party: {_names(party)}")
        lines.append(f"    in play: {_names(p['in_play'])}")
        lines.append(f"    missions started: {_names(p['started'])}")
        lines.append(f"    missions completed: {_names(p['completed'])}")
        if p["resisting"]:
            lines.append(f"    resisting: {_show(p['resisting'])}")
        h = hidden[name]
        lines.append(f"    hand ({len(h['hand'])}, hidden): {_names(h['hand'])}")
        lines.append(f"    secret missions (hidden): {_names(h['missions'])}")
        if h["offered_characters"] or h["offered_advantages"]:
            offered = h["offered_characters"] + h["offered_advantages"]
            lines.append(f"    offered (hidden): {_names(offered)}")
        for region, card in h["scouted"].items():
            lines.append(f"    scouted (hidden): {region} holds {card}")
        if h["prompt"]:
            lines.append(f"    prompt ({h['prompt']['kind']}): {_names(h['prompt']['choices'])}")
    decks = ", ".join(f"{k} {v}" for k, v in view["decks"].items())
    lines += [
        "",
        f"Decks: {decks}; final missions {view['final_deck']}; set aside {view['set_aside']}",
        "Discards:",
    ]
    lines += [f"  {k}: {_names(v)}" for k, v in view["discards"].items()]
    return "\n".join(lines)


def as_json(outcome: Outcome, source: str) -> dict[str, Any]:
    """The machine form printed by ``anima scenario --json``."""
    failure = outcome.failure
    return {
        "scenario": source,
        "ok": outcome.ok,
        "steps": len(outcome.scenario.steps),
        "steps_run": outcome.steps_run,
        "failure": (
            {"step": failure.step, "spec": failure.spec, "reason": failure.reason}
            if failure
            else None
        ),
        "view": outcome.game.view(None),
        "hidden": hidden_info(outcome.game),
    }


# ---------------------------------------------------------------------- the command


def _cmd_scenario(args: argparse.Namespace) -> int:
    try:
        outcome = run_file(args.file)
    except ScenarioError as exc:
        print(f"anima scenario: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(as_json(outcome, args.file), ensure_ascii=False, indent=2))
    else:
        print(render(outcome.game))
        print()
    if outcome.failure is not None:
        print(f"{args.file}: {outcome.failure}", file=sys.stderr)
        return 1
    if not args.json:
        print(f"{args.file}: all {len(outcome.scenario.steps)} steps hold.")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scenario`` subcommand to the ``anima`` parser."""
    parser = sub.add_parser(
        "scenario",
        help="run a scenario file (docs/scenarios.md)",
        description="Run a scenario file and print the final state; exit 0 when every step "
        "holds, 1 at the first failing step, 2 for a malformed file.",
    )
    parser.add_argument("file", help="the scenario file (JSON)")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.set_defaults(func=_cmd_scenario)
