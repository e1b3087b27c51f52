"""Replaying a game from its record: ``anima replay FILE``.

Every random draw and roll comes from the game's seeded generator (X5), so a game is rebuilt
exactly from its players, options, seed and the actions applied, in order: the *game record*
(:class:`GameRecord`, the format in docs/replay.md). :func:`record_from` makes the record of a
game (the bot's game history export), :func:`replay` rebuilds the game from it with
``Game.new`` and ``Game.apply``, and :func:`replay_steps` does it one action at a time, with the
events each action caused (the command prints the public ones, turn by turn).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from engine import rng
from engine.actions import Action, parse_action
from engine.cards import CardDB
from engine.endings import ENDINGS, TIEBREAKS
from engine.errors import IllegalAction, Refusal
from engine.events import Event
from engine.game import Draw, Game
from engine.options import Options
from engine.rules.crisis import standing, tiebreak_scores
from engine.tools.jsonfile import read_json

#: The version of the record format this engine writes and reads. The keyed stream added
#: keys that only its games have (``dice``, the draws), versioned by ``dice.scheme``: a record
#: without them is as before, and an engine older than them refuses them (unknown keys).
FORMAT = 1


class ReplayError(Exception):
    """A record that cannot be replayed: the message is one line and names the step."""


class DieDraw(BaseModel):
    """A die rolled from the keyed stream (1-6)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    die: int = Field(ge=1, le=6)


class PickDraw(BaseModel):
    """A random index ``pick`` below ``of`` (a card taken at random from a hand...)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pick: int = Field(ge=0)
    of: int = Field(ge=1)


class ShuffleDraw(BaseModel):
    """A shuffle: the cards in their order after it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    shuffle: tuple[str, ...]


#: One draw of the keyed stream, in the record.
RecordedDraw = DieDraw | PickDraw | ShuffleDraw


class RecordedDice(BaseModel):
    """The keyed stream's seeds: the record is made after the end, when the server
    seed may be revealed; ``anima verify`` checks it against the commitment."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scheme: Literal["blake2b-ctr-1"] = rng.KEYED  # type: ignore[assignment]
    #: SHA-256 of the server seed, as the table was shown it at the start (hex).
    commitment: str
    server_seed: str
    seat_seeds: dict[str, str] = Field(default_factory=dict)


class RecordedAction(BaseModel):
    """One applied action: who took it, and the action in its string form."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    player: str
    #: The string form (``"go arkhangel"``); the JSON form is accepted and stored as a string.
    action: str
    #: The player ran out of time and the engine took this, the prompt's default (X6).
    timeout: bool = False
    #: With the record's ``dice``: what the keyed stream drew during the action, in order.
    draws: tuple[RecordedDraw, ...] = ()

    @field_validator("action", mode="before")
    @classmethod
    def _well_formed(cls, value: Any) -> str:
        try:
            return str(parse_action(value))
        except IllegalAction as exc:
            raise ValueError(str(exc)) from None


class GameRecord(BaseModel):
    """A whole game as seed + actions: ``Game.new(players, options, seed)`` then each action."""

    model_config = ConfigDict(extra="forbid")

    #: The version of this format (:data:`FORMAT`).
    format: Literal[1]
    #: The seats, in order (``GameState.seats``).
    players: list[str] = Field(min_length=2, max_length=5)
    options: Options = Field(default_factory=Options)
    seed: int
    #: The keyed stream's seeds; None: the game's dice came from the old generator (``seed``).
    dice: RecordedDice | None = None
    #: With ``dice``: what the keyed stream drew during the setup, in order.
    setup_draws: tuple[RecordedDraw, ...] = ()
    actions: list[RecordedAction] = Field(default_factory=list)

    @model_validator(mode="after")
    def _draws_need_dice(self) -> GameRecord:
        if self.dice is None and (self.setup_draws or any(a.draws for a in self.actions)):
            raise ValueError("draws of the keyed stream, but no dice (its seeds)")
        return self

    def to_json(self) -> str:
        """The record as JSON, one action a line (readable, and diffs well)."""
        # A format-1 record is written as before the keyed stream: no dice, no draws.
        empty = {"dice"} if self.dice is None else set()
        empty |= set() if self.setup_draws else {"setup_draws"}
        head = self.model_dump(mode="json", exclude={"actions", *empty})
        lines = [json.dumps(a.model_dump(mode="json", exclude_defaults=True)) for a in self.actions]
        body = ",\n    ".join(lines)
        top = json.dumps(head, ensure_ascii=False)[:-1]
        return f'{top}, "actions": [\n    {body}\n]}}\n' if lines else f'{top}, "actions": []}}\n'


@dataclass(frozen=True, slots=True)
class Step:
    """One replayed action (``number`` 0: the setup) and the events it caused."""

    number: int
    player: str | None
    action: str | None
    timeout: bool
    events: list[Event]
    #: What the keyed stream drew during the step (none for the old generator).
    draws: list[Draw] = field(default_factory=list)


def _explain(exc: ValidationError) -> str:
    """The first problem as one line; actions are numbered from 1, as steps."""
    err = exc.errors()[0]
    loc = list(err["loc"])
    if len(loc) >= 2 and loc[0] == "actions" and isinstance(loc[1], int):
        loc[:2] = [f"step {loc[1] + 1}"]
    where = ".".join(str(part) for part in loc) or "(top)"
    more = f" (and {exc.error_count() - 1} more problem(s))" if exc.error_count() > 1 else ""
    msg = str(err["msg"]).removeprefix("Value error, ")
    return f"malformed record: {where}: {msg}{more}"


def parse_record(data: Any) -> GameRecord:
    """A record from parsed JSON; raises :class:`ReplayError` (one line)."""
    try:
        return GameRecord.model_validate(data)
    except ValidationError as exc:
        raise ReplayError(_explain(exc)) from None


def load_record(path: str | Path) -> GameRecord:
    """Read and validate a record file (``-``: standard input); raises :class:`ReplayError`."""
    return parse_record(read_json(path, ReplayError, stdin=True))


def _recorded(player: str, action: Action | str | dict[str, Any]) -> RecordedAction:
    """A ``(player, action)`` pair as a recorded action (checked like a record's)."""
    try:
        return RecordedAction.model_validate({"player": player, "action": action})
    except ValidationError as exc:
        raise ReplayError(_explain(exc)) from None


def record_from(
    game: Game,
    actions: Iterable[RecordedAction | tuple[str, Action | str | dict[str, Any]]],
    check: bool = True,
) -> GameRecord:
    """The record of ``game``: its seats, options and seed, and ``actions``, every action
    applied to it since ``Game.new``, in order (``(player, action)`` pairs, or
    :class:`RecordedAction` to mark a time-out). A game of the keyed stream gets its seeds
    too (the server seed revealed: make the record after the end) and every draw of each
    step, found by replaying it.

    With ``check`` (the default) the record is replayed and must give ``game``'s state byte
    for byte (X5); otherwise :class:`ReplayError` says where it parts (an action left out, a
    game set up with rigged dice or changed by hand).
    """
    steps = [a if isinstance(a, RecordedAction) else _recorded(*a) for a in actions]
    s = game.s
    dice = s.dice
    record = GameRecord(
        format=FORMAT,
        players=list(s.seats),
        options=s.options.model_copy(deep=True),
        seed=s.seed,
        dice=None
        if dice is None
        else RecordedDice(
            commitment=rng.commitment(dice.server_seed),
            server_seed=dice.server_seed,
            seat_seeds=dict(dice.seat_seeds),
        ),
        actions=steps,
    )
    if dice is None and not check:
        return record
    drawn: list[tuple[RecordedDraw, ...]] = []
    replayed = game
    for replayed, step in replay_steps(record, cards=game.db):  # noqa: B007 (the last game)
        drawn.append(tuple(recorded_draw(d) for d in step.draws))
    if check and replayed.to_json() != game.to_json():
        raise ReplayError(
            f"the record of {len(steps)} action(s) does not replay to this game's state"
        )
    if dice is None:
        return record
    record.setup_draws = drawn[0]
    record.actions = [
        a.model_copy(update={"draws": d}) for a, d in zip(steps, drawn[1:], strict=True)
    ]
    return record


def recorded_draw(draw: Draw) -> RecordedDraw:
    """A draw of :attr:`Game.draws` as the record writes it."""
    if draw[0] == "die":
        return DieDraw(die=draw[1])
    if draw[0] == "pick":
        return PickDraw(pick=draw[1], of=draw[2])  # type: ignore[misc]
    return ShuffleDraw(shuffle=tuple(draw[1]))  # type: ignore[arg-type]


def replay_steps(
    record: GameRecord, until: int | None = None, cards: CardDB | None = None
) -> Iterator[tuple[Game, Step]]:
    """Rebuild the game one step at a time: first the setup (step 0), then each action up to
    ``until`` (all when None). Yields the game after the step and the step (with the draws
    of the keyed stream it made); raises :class:`ReplayError` naming the step that cannot be
    taken. The draws come from the record's seeds: the record's own ``draws`` are not read
    (``anima verify`` compares the two)."""
    if until is not None and not 0 <= until <= len(record.actions):
        raise ReplayError(f"--until {until}: the record has {len(record.actions)} action(s)")
    dice = record.dice
    draws: list[Draw] = []
    try:
        game = Game.new(
            record.players,
            record.options,
            record.seed,
            cards,
            server_seed=dice.server_seed if dice is not None else None,
            seat_seeds=dice.seat_seeds if dice is not None else None,
            draws=draws,
        )
    except IllegalAction as exc:
        raise ReplayError(f"setup: {exc}") from None
    except ValueError as exc:  # the seeds (a server seed of the wrong length...)
        raise ReplayError(f"setup: {exc}") from None
    yield game, Step(0, None, None, False, list(game.last_events), draws)
    steps = record.actions[:until]
    for number, step in enumerate(steps, start=1):
        draws = game.draws = []
        # An action the next step takes back (``undo``, issue 25) is applied as the player's
        # own decision, so that the game keeps the state before it.
        undone = number < len(steps) and steps[number].action == "undo"
        if undone and step.timeout:
            raise ReplayError(f"step {number + 1}: a time-out cannot be taken back")
        try:
            if step.timeout:
                prompt = game.prompt_for(step.player)
                if prompt is not None and prompt.default != step.action:
                    raise IllegalAction(
                        Refusal.NOT_THE_DEFAULT,
                        f"the default of the open decision is {prompt.default!r}",
                        default=prompt.default,
                    )
                events = game.timeout(step.player)
            else:
                events = game.apply(step.player, step.action, undoable=undone)
        except IllegalAction as exc:
            how = " (time-out)" if step.timeout else ""
            raise ReplayError(
                f"step {number} ({step.player}: {step.action!r}{how}, turn {game.s.turn}): "
                f"illegal: {exc}"
            ) from None
        yield game, Step(number, step.player, step.action, step.timeout, list(events), draws)


def replay(record: GameRecord, until: int | None = None, cards: CardDB | None = None) -> Game:
    """The game rebuilt from ``record`` (up to action ``until``); raises :class:`ReplayError`."""
    last = deque(replay_steps(record, until, cards), maxlen=1)  # the setup is always a step
    return last[0][0]


# ---------------------------------------------------------------------- the report


def _score_words(score: dict[str, int]) -> str:
    """'1 completed mission, 2 characters, Strength + Speed 12'."""
    done = score["completed_missions"]
    chars = score["characters"]
    parts = [
        f"{done} completed mission{'s' * (done != 1)}",
        f"{chars} character{'s' * (chars != 1)}",
        f"Strength + Speed {score['strength_speed']}",
    ]
    held = score["final_mission_progress"]
    if held:
        parts.insert(1, f"{held} turn{'s' * (held != 1)} held on the Final mission")
    return ", ".join(parts)


def outcome(game: Game) -> dict[str, Any]:
    """Where the replayed game stands: over or not, the ending, the standing, who is waited
    for. The standing ranks the players still in the game by the turn limit's tie-break
    criteria (the winner first)."""
    s = game.s
    scores = tiebreak_scores(game)
    over = [e for e in game.last_events if e.kind == "game_over"]
    return {
        "over": game.over,
        "turn": s.turn,
        "phase": s.phase,
        "ending": s.ending,
        "winner": s.winner,
        "tiebreak": over[0].data.get("tiebreak") if over else None,
        "standing": [{"player": name, **scores[name]} for name in standing(game)],
        "lost": [name for name in s.seats if s.players[name].lost],
        "waiting_for": [{"player": p.player, "kind": p.kind} for p in s.prompts],
    }


def _public(events: Iterable[Event]) -> list[Event]:
    return [e for e in events if e.to is None]


def _cmd_replay(args: argparse.Namespace) -> int:
    log: list[dict[str, Any]] = []
    turn = 0
    game: Game | None = None
    printed_turn = -1
    try:
        record = load_record(args.file)
        for now, step in replay_steps(record, args.until):
            game = now
            if step.number == 0 and not args.json:
                options = record.options.model_dump(exclude_defaults=True)
                said = ", ".join(f"{k} {v}" for k, v in options.items()) or "defaults"
                print(
                    f"Replay of {args.file}: {len(record.players)} players "
                    f"({', '.join(record.players)}), seed {record.seed}, options: {said}; "
                    f"{len(record.actions)} action(s)."
                )
            for event in _public(step.events):
                if event.kind == "turn":
                    turn = int(event.data.get("turn", turn))
                entry = {"step": step.number, "turn": turn, "kind": event.kind, "text": event.text}
                log.append(entry)
                if args.json:
                    continue
                if turn != printed_turn:
                    print(f"\n{'Setup' if turn == 0 else f'Turn {turn}'}")
                    printed_turn = turn
                print(f"  {event.text}")
    except ReplayError as exc:
        print(f"anima replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    assert game is not None
    result = outcome(game)
    if args.json:
        report = {
            "format": record.format,
            "players": record.players,
            "seed": record.seed,
            "options": record.options.model_dump(mode="json"),
            "actions": len(record.actions),
            "replayed": len(record.actions) if args.until is None else args.until,
            **result,
            "log": log,
        }
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    replayed = len(record.actions) if args.until is None else args.until
    print(f"\nStanding after {replayed} of {len(record.actions)} action(s):")
    scores = {entry["player"]: entry for entry in result["standing"]}
    for rank, name in enumerate(scores, start=1):
        crown = " 🏆" if name == result["winner"] else ""
        print(f"  {rank}. {name}{crown}: {_score_words(scores[name])}")
    for name in result["lost"]:
        print(f"  -. {name}: lost in the Crisis!")
    if result["over"]:
        ending = ENDINGS.get(result["ending"], result["ending"])
        winner = result["winner"] or "nobody"
        how = f", on {TIEBREAKS[result['tiebreak']]}" if result["tiebreak"] else ""
        print(f"Ending: {ending}; winner: {winner}{how}.")
    else:
        waiting = ", ".join(f"{w['player']} ({w['kind']})" for w in result["waiting_for"])
        print(f"Not over: turn {result['turn']}, {result['phase']}; waiting for {waiting}.")
    return 0


def _count(text: str) -> int:
    """An argparse type: a whole number of at least 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be at least 0")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add ``anima replay`` to the ``anima`` subcommands; its parser, for the replay page's
    options (``--html``: the top-level ``replay_viewer``, which the engine may not import)."""
    cmd = sub.add_parser(
        "replay",
        help="replay a game record (seed + actions) and print its public log",
        description="Rebuild a game from its record (players, options, seed, actions; "
        "docs/replay.md) and print the public log turn by turn, the standing and the ending. "
        "A malformed record or an illegal action stops it with one line naming the step "
        "(exit 1).",
    )
    cmd.add_argument("file", help="the game record (JSON; - reads standard input)")
    cmd.add_argument("--json", action="store_true", help="print the log and outcome as JSON")
    cmd.add_argument(
        "--until", type=_count, default=None, metavar="N", help="replay only the first N actions"
    )
    cmd.set_defaults(func=_cmd_replay)
    return cmd
