"""The Game: actions in, events out.

A game is a :class:`~engine.state.GameState` plus the card database. Resolution is a stack
of :class:`~engine.state.Frame` s (game flow as data): :func:`advance` runs the top frame's
handler until some frame asks a player something (a :class:`~engine.state.Prompt`). An action
answers a prompt; it is checked against the prompt's legal choices *before* anything changes,
so a refused action leaves the state exactly as it was.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

# Importing the rules registers every frame handler (engine.flow).
from engine import rng, zones
from engine.actions import CARD_ARG, Action, offered_action, parse_action
from engine.cards import CardDB, default_cards
from engine.cards.aliases import upgrade_stored_game
from engine.errors import GameDataError, IllegalAction, Refusal
from engine.events import Event
from engine.flow import HANDLERS, RESPONDERS
from engine.options import Options
from engine.prompts import Prompt, prompt_rule
from engine.rules import setup
from engine.rules.sets import check_table
from engine.state import Dice, Frame, GameState, Player
from engine.undo import UndoPoint, UndoRefusal, chance, refusal, revealed
from engine.views import (
    PromptView,
    SeatView,
    TableView,
    plain_view,
    prompt_view,
    seat_view,
    table_view,
)

#: One draw of the keyed stream, as :attr:`Game.draws` records it.
Draw = tuple[str, int] | tuple[str, int, int] | tuple[str, list[str]]

#: More handler steps than this without a prompt means a rules bug (an endless loop).
_MAX_STEPS = 100_000


class Game:
    """One game of Anima. Create with :meth:`new` or :meth:`from_json`."""

    def __init__(self, state: GameState, cards: CardDB | None = None) -> None:
        self.s = state
        self.db = cards if cards is not None else default_cards()
        self._events: list[Event] = []
        #: The events of the last ``new``/``apply``/``timeout`` (``new``: the setup's).
        self.last_events: list[Event] = []
        #: The keyed stream of ``s.dice`` (its key and last block), made at the first draw.
        self._stream: rng.KeyedStream | None = None
        self._stream_of: Dice | None = None
        #: When a list, every draw of the stream is added to it (the replay record's
        #: ``draws``, engine.tools.replay): ``("die", 1-6)``, ``("pick", i, n)`` or
        #: ``("shuffle", the items after it)``.
        self.draws: list[Draw] | None = None
        #: The last decision applied with ``undoable=True`` (issue 25): kept in memory only,
        #: so a reloaded game has none (:meth:`undo_refusal`).
        self.undo_point: UndoPoint | None = None

    # ------------------------------------------------------------------ creation, storage

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        options: Options | dict[str, Any] | None = None,
        seed: int = 0,
        cards: CardDB | None = None,
        rigged: Iterable[int] = (),
        *,
        server_seed: str | None = None,
        seat_seeds: Mapping[str, str] | None = None,
        draws: list[Draw] | None = None,
    ) -> Game:
        """Set up a new game (S1-S4); the first prompts are the start choices (S3).

        With ``server_seed`` (a secret of 256 bits as 64 hex digits: ``secrets.token_hex(32)``)
        every die, shuffle and random pick comes from the keyed stream (engine.rng,
        docs/fair_dice.md), mixed with ``seat_seeds``, one text per human seat (seat -> seed),
        fixed now, before the first shuffle. Without it, from SplitMix64 seeded with ``seed``
        (the old generator: the tests' and scenarios' games, and format-1 replay records).
        ``draws``: a list that gets every draw of the keyed stream, the setup's first
        (:attr:`draws`).
        """
        opts = options if isinstance(options, Options) else Options.model_validate(options or {})
        if len(set(players)) != len(players) or any(not p or " " in p for p in players):
            raise IllegalAction(
                Refusal.BAD_PLAYER_NAMES, "player names must be distinct, non-empty, without spaces"
            )
        # G1: the sets and the player count (and the cards of each set, to deal them).
        check_table(opts.sets, len(players), cards if cards is not None else default_cards())
        state = GameState(options=opts, seed=seed, rng=seed & ((1 << 64) - 1))
        state.dice = _dice(list(players), server_seed, seat_seeds)
        state.rigged = list(rigged)
        game = cls(state, cards)
        game.draws = draws
        setup.deal(game, list(players))
        game.advance()
        game.last_events = game._events
        return game

    def to_json(self) -> str:
        """The whole state as JSON (the RNG included): ``from_json`` rebuilds it exactly."""
        return self.s.to_json()

    @classmethod
    def from_json(cls, text: str | bytes, cards: CardDB | None = None) -> Game:
        """Load a stored game; malformed data raises :class:`GameDataError`. Card ids of
        earlier versions of cards.json are read as today's (engine.cards.aliases)."""
        try:
            text = upgrade_stored_game(text)
        except ValueError as exc:  # resolving a card that left the base set
            raise GameDataError(f"stored game cannot be read: {exc}") from None
        try:
            state = GameState.from_json(text)
        except ValidationError as exc:
            raise GameDataError(f"stored game is malformed: {exc.errors()[0]['msg']}") from None
        game = cls(state, cards)
        try:
            unknown = [c for c in game._all_card_ids() if c not in game.db.by_id]
        except zones.ZoneError as exc:
            raise GameDataError(f"stored game is impossible: {exc}") from None
        if unknown:
            raise GameDataError(f"stored game names unknown card {unknown[0]!r}")
        if state.stack and state.stack[-1].kind not in HANDLERS:
            raise GameDataError(f"stored game has an unknown step {state.stack[-1].kind!r}")
        return game

    # ------------------------------------------------------------------ the public interface

    @property
    def over(self) -> bool:
        return self.s.phase == "over"

    def pending(self) -> list[Prompt]:
        """Who must decide what right now."""
        return list(self.s.prompts)

    def prompt_for(self, player: str) -> Prompt | None:
        """The open prompt of ``player``, if any."""
        for prompt in self.s.prompts:
            if prompt.player == player:
                return prompt
        return None

    def legal_actions(self, player: str) -> list[Action]:
        """Every action ``player`` may take now (empty when it is not his decision)."""
        prompt = self.prompt_for(player)
        return [parse_action(c) for c in prompt.choices] if prompt else []

    def apply(
        self, player: str, action: Action | str | dict[str, Any], *, undoable: bool = False
    ) -> list[Event]:
        """Apply ``player``'s action and return the events it caused.

        Raises :class:`IllegalAction` (state unchanged) when the action is not legal now.
        ``undoable``: the player's own decision, which he may take back (the action ``undo``,
        :meth:`undo_refusal`) until anything is revealed or anybody else acts: the state
        before it is kept in memory.
        """
        s = self.s
        if player not in s.players:
            raise IllegalAction(
                Refusal.NOT_A_PLAYER, f"{player!r} is not in this game", player=player
            )
        if s.phase == "over":
            raise IllegalAction(Refusal.GAME_OVER, "the game is over")
        prompts = s.prompts
        prompt = None
        for open_prompt in prompts:  # prompt_for, inline: this runs for every action
            if open_prompt.player == player:
                prompt = open_prompt
                break
        if prompt is not None and isinstance(action, str) and action in prompt.choices:
            # The common case: a string the engine itself offered, so it is well formed.
            act = offered_action(action)
        else:
            act = parse_action(action)
            if act.type == "undo":  # never one of a prompt's choices
                return self._undo(player)
            if prompt is None:
                waiting = tuple(sorted({p.player for p in s.prompts}))
                raise IllegalAction(
                    Refusal.NOT_YOUR_DECISION,
                    f"it is not your decision (waiting for {', '.join(waiting) or 'nobody'})",
                    waiting=waiting,
                )
            if str(act) not in prompt.choices:
                raise self._refusal(act, prompt)
        before = pickle.dumps(s, pickle.HIGHEST_PROTOCOL) if undoable else None
        luck = chance(s) if undoable else None
        events: list[Event] = []
        self._events = events
        # Most often the prompt answered is the only one open.
        s.prompts = [] if len(prompts) == 1 else [p for p in prompts if p is not prompt]
        frame = s.stack[-1]
        RESPONDERS[frame.kind](self, frame, player, act)
        s.actions += 1
        if not s.prompts:  # most often another player's prompt is still open (a window)
            self.advance()
        self.last_events = events
        point = self.undo_point
        if before is not None and luck is not None:
            earlier = point.earlier | {point.player, *point.later} if point else frozenset()
            self.undo_point = UndoPoint(player, str(act), before, luck, events, earlier=earlier)
        elif point is not None:
            point.later.append(player)
        return events

    def undo_refusal(self, seat: str) -> UndoRefusal | None:
        """Why ``seat`` may not take back his last decision now (None: he may).

        He may while his decision (applied with ``undoable=True``) is the game's last action
        and it revealed nothing: no die rolled or card shuffled, no card shown to anybody who
        could not see it before (engine.undo). Checked once per decision, then remembered."""
        if self.over:
            return UndoRefusal.GAME_OVER
        point = self.undo_point
        why = refusal(point, seat)
        if why is not None or point is None:
            return why
        made, found = point.reveal
        if not made:
            found = revealed(point, self.s, point.events, self.db.by_id)
            point.reveal = (True, found)
        return found

    def _undo(self, player: str) -> list[Event]:
        """The action ``undo``: the game becomes the replay of its actions minus the last,
        ``player``'s decision, with its version counting on (the undo is an action of the
        log). The replay is checked: the state kept, given the action again, must be this
        state, byte for byte."""
        why = self.undo_refusal(player)
        point = self.undo_point
        if why is not None or point is None:
            raise IllegalAction(
                Refusal.UNDO_REFUSED,
                f"{player} cannot undo now: {why}",
                why=why or UndoRefusal.NOTHING_TO_UNDO,
            )
        proof = Game(pickle.loads(point.before), self.db)
        proof.apply(point.player, point.action)
        if proof.to_json() != self.to_json():
            raise RuntimeError("undo: the state kept, given the action again, is not the game")
        state: GameState = pickle.loads(point.before)
        state.actions = self.s.actions + 1
        self.s = state
        self.undo_point = None
        note = Event("undone", f"{player} takes back the last decision.", None, {"player": player})
        self.last_events = [note]
        return self.last_events

    def _refusal(self, act: Action, prompt: Prompt) -> IllegalAction:
        """Why ``act``, well formed, is not one of ``prompt``'s choices: it names a card this
        game does not have, or it is simply not legal now."""
        if act.type in CARD_ARG and act.arg is not None and act.arg not in self.db.by_id:
            return IllegalAction(
                Refusal.UNKNOWN_CARD, f"there is no card {act.arg!r}", card=act.arg
            )
        return IllegalAction(
            Refusal.NOT_LEGAL_NOW,
            f"'{act}' is not a legal choice now ({prompt.text})",
            prompt_rule(prompt.kind, act.type),
            action=str(act),
            decision=prompt.kind,
        )

    def timeout(self, player: str) -> list[Event]:
        """Apply the default of ``player``'s open prompt (X6) and say so in the log."""
        prompt = self.prompt_for(player)
        if prompt is None:
            raise IllegalAction(
                Refusal.NO_OPEN_DECISION, f"{player!r} has no open decision", player=player
            )
        default = prompt.default
        events = self.apply(player, default)
        # The default may name a hidden card (a start choice, a card to give): only the
        # player learns which; everybody learns that the time ran out.
        note = Event(
            kind="timeout",
            text=f"{player} ran out of time; the default was taken.",
            data={"player": player},
        )
        private = Event(
            kind="timeout_private",
            text=f"Time ran out: {default}.",
            to=[player],
            data={"action": default},
        )
        self.last_events = [note, private, *events]
        return self.last_events

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: the public table) as plain data."""
        return plain_view(self, player)

    @property
    def version(self) -> int:
        """Actions applied so far: the state version (the bot puts it in its buttons)."""
        return self.s.actions

    def table_view(self) -> TableView:
        """The public table: what everybody may see."""
        return table_view(self)

    def seat_view(
        self, seat: str, *, sealed: bool = True, table: TableView | None = None
    ) -> SeatView:
        """What ``seat`` may see: the table, its own hidden cards and its open prompt, and
        (``sealed``, the default) the sealed table agents read. A front end that only renders
        the view passes ``sealed=False`` (a third of the cost), and the public table it already
        built for this state (``table``: see :func:`engine.views.seat_view`)."""
        return seat_view(self, seat, sealed=sealed, table=table)

    def prompt_view(self, seat: str) -> PromptView | None:
        """The open prompt of ``seat`` as that seat sees it (labels, publicity), if any."""
        prompt = self.prompt_for(seat)
        return prompt_view(self, prompt) if prompt is not None else None

    def clone(self) -> Game:
        """An independent deep copy (same card database, no shared mutable state)."""
        game = Game(pickle.loads(pickle.dumps(self.s, pickle.HIGHEST_PROTOCOL)), self.db)
        game.last_events = list(self.last_events)
        return game

    # ------------------------------------------------------------------ for the rule modules

    def advance(self) -> None:
        """Run frames until a prompt is open or the game is over."""
        s = self.s
        stack = s.stack  # rules change the stack in place; they may replace s.prompts
        steps = 0
        while not s.prompts and stack:
            frame = stack[-1]
            HANDLERS[frame.kind](self, frame)
            steps += 1
            if steps > _MAX_STEPS:
                raise RuntimeError(f"rules loop without a decision at {frame.kind}/{frame.stage}")

    def push(
        self,
        kind: str,
        *,
        stage: str = "",
        player: str | None = None,
        other: str | None = None,
        card: str | None = None,
        region: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> Frame:
        """Put a new frame on top of the stack; it runs next."""
        # Positional, in the order of Frame's fields (engine.plain says why).
        frame = Frame(kind, stage, player, other, card, region, {} if data is None else data)
        self.s.stack.append(frame)
        return frame

    def pop(self, **result: Any) -> None:
        """Finish the top frame, reporting ``result`` to the frame below."""
        self.s.stack.pop()
        self.s.result = result

    def ask(
        self,
        player: str,
        kind: str,
        text: str,
        choices: Sequence[str],
        default: str | None = None,
        window: bool = False,
        data: dict[str, Any] | None = None,
    ) -> None:
        """Open a prompt for ``player`` (an action offered twice, as for two copies of a card,
        is one choice); ``data``: what a front end words it from (:attr:`Prompt.data`)."""
        # Most prompts (a window's lone "pass") have one choice, which cannot repeat.
        choices = list(dict.fromkeys(choices)) if len(choices) > 1 else list(choices)
        # Positional, in the order of Prompt's fields (engine.plain says why).
        self.s.prompts.append(
            Prompt(
                player,
                kind,
                text,
                choices,
                choices[0] if default is None else default,
                window,
                data if data is not None else {},
            )
        )

    def emit(self, kind: str, text: str, to: Sequence[str] | None = None, **data: Any) -> None:
        """Record an event; ``to`` limits who may see it."""
        # Positional, in the order of Event's fields (engine.plain says why).
        self._events.append(Event(kind, text, list(to) if to else None, data))

    def die(self) -> int:
        """One six-sided die: a rigged result first (scenarios), else the game's generator."""
        s = self.s
        if s.rigged:
            return s.rigged.pop(0)
        dice = s.dice
        if dice is None:
            s.rng, value = rng.below(s.rng, 6)
            return value + 1
        dice.drawn, value = self._keyed(dice).below(dice.drawn, 6)
        if self.draws is not None:
            self.draws.append(("die", value + 1))
        return value + 1

    def shuffle(self, items: list[str]) -> None:
        """Shuffle in place with the game's generator."""
        dice = self.s.dice
        if dice is None:
            self.s.rng = rng.shuffle(self.s.rng, items)
            return
        dice.drawn = self._keyed(dice).shuffle(dice.drawn, items)
        if self.draws is not None:
            self.draws.append(("shuffle", list(items)))

    def randint(self, n: int) -> int:
        """A uniform index in [0, n)."""
        dice = self.s.dice
        if dice is None:
            self.s.rng, value = rng.below(self.s.rng, n)
            return value
        dice.drawn, value = self._keyed(dice).below(dice.drawn, n)
        if self.draws is not None:
            self.draws.append(("pick", value, n))
        return value

    def _keyed(self, dice: Dice) -> rng.KeyedStream:
        """The stream of ``dice``: its key is derived once per game object (and again if the
        state's seeds were replaced)."""
        if self._stream_of is not dice or self._stream is None:
            key = rng.stream_key(dice.server_seed, dice.seat_seeds)
            self._stream, self._stream_of = rng.KeyedStream(key), dice
        return self._stream

    @property
    def dice_commitment(self) -> str | None:
        """SHA-256 of the server seed (hex), public from the start; None: the old generator."""
        dice = self.s.dice
        return rng.commitment(dice.server_seed) if dice is not None else None

    def player(self, name: str) -> Player:
        return self.s.players[name]

    def others(self, name: str) -> list[str]:
        """The other players still in the game, in seat order."""
        return [p for p in self.s.seats if p != name and not self.s.players[p].lost]

    def find_frame(self, kind: str) -> Frame | None:
        """The nearest frame of ``kind`` below the top (the current battle, window, move...)."""
        for frame in reversed(self.s.stack):
            if frame.kind == kind:
                return frame
        return None

    def _all_card_ids(self) -> Iterable[str]:
        """Every card id of the state, once per place (the map of :mod:`engine.zones`)."""
        return zones.all_cards(self.s)


def _dice(
    seats: list[str], server_seed: str | None, seat_seeds: Mapping[str, str] | None
) -> Dice | None:
    """The keyed stream's seeds of a new game, checked (None: the old generator)."""
    if server_seed is None:
        if seat_seeds:
            raise ValueError("seat seeds need a server seed: they mix into its stream")
        return None
    seeds = dict(seat_seeds or {})
    for seat, text in seeds.items():
        if seat not in seats:
            raise ValueError(f"a seat seed for {seat!r}, who is not at the table")
        if not isinstance(text, str) or len(text) > rng.MAX_SEAT_SEED:
            raise ValueError(f"the seed of {seat} must be text of at most {rng.MAX_SEAT_SEED}")
    return Dice(server_seed=rng.check_server_seed(server_seed), seat_seeds=seeds)
