"""Taking back a decision (issue 25): when a player may undo his last action, and why not.

An undo is the replay of the game's actions minus the last: the state before the action,
which :class:`UndoPoint` keeps (pickled) when a front end applies a player's own decision with
``Game.apply(..., undoable=True)``. It is refused (:class:`UndoRefusal`) when the action, and
everything the rules did after it by themselves, told anybody something the replay without it
would not: a die or a shuffle (the generator moved), a card a seat could not see before (it
moved where he sees it, an event or a prompt named it to him); or when somebody else decided
since, or the last action was not his decision (a time-out, an auto-pass).

The reveal check reads two states and the events: it runs once per decision, when a front end
first asks, never inside ``apply`` (the engine's speed is untouched).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine import visibility as sight
from engine import zones
from engine.events import Event
from engine.prompts import Prompt
from engine.state import GameState


class UndoRefusal(StrEnum):
    """Why a seat may not take his last decision back now (a front end words each kind)."""

    #: No decision to take back (none yet, the last one already taken back, the game was
    #: reloaded since).
    NOTHING_TO_UNDO = "nothing_to_undo"
    #: The game's last action is not a decision of his: another seat's, or one taken for him
    #: (a time-out, an auto-pass).
    NOT_YOUR_LAST = "not_your_last"
    #: Somebody else decided after him (a window answered, the next player's move).
    OTHERS_DECIDED = "others_decided"
    #: The action rolled a die, shuffled or picked at random: its result is known.
    RANDOMNESS_REVEALED = "randomness_revealed"
    #: The action showed somebody a card he could not see before (a card drawn, looked at,
    #: played from a hand, an Encounter turned face up, a trade offered).
    HIDDEN_REVEALED = "hidden_revealed"
    #: The game is over.
    GAME_OVER = "game_over"


@dataclass(slots=True)
class UndoPoint:
    """The last decision applied with ``undoable=True``: who, what, the state before it (the
    replay of the actions without it), and who acted after it."""

    player: str
    action: str
    #: ``pickle`` of the :class:`GameState` before the action.
    before: bytes
    #: Where the randomness stood before it (:func:`chance`): a change is a die rolled.
    chance: tuple[int, int, int | None]
    #: The events the action caused (what it told whom).
    events: list[Event]
    #: Seats that acted after it, in order (AI seats, time-outs and auto-passes included).
    later: list[str] = field(default_factory=list)
    #: Seats whose decisions came before it in this game object (for the refusal's kind).
    earlier: frozenset[str] = frozenset()
    #: The reveal check, once made: (made, its refusal or None).
    reveal: tuple[bool, UndoRefusal | None] = (False, None)


def refusal(point: UndoPoint | None, seat: str) -> UndoRefusal | None:
    """Why ``seat`` may not undo, from who acted (the reveal check is the caller's)."""
    if point is None:
        return UndoRefusal.NOTHING_TO_UNDO
    if point.player == seat:
        if any(other != seat for other in point.later):
            return UndoRefusal.OTHERS_DECIDED
        return UndoRefusal.NOT_YOUR_LAST if point.later else None
    if seat in point.earlier and seat not in point.later:
        return UndoRefusal.OTHERS_DECIDED  # his decision came before another's
    return UndoRefusal.NOT_YOUR_LAST


def chance(state: GameState) -> tuple[int, int, int | None]:
    """Where a state's randomness stands: its generator, the rigged draws left (tests), the
    keyed stream's draws. Any change between two states is a random result drawn."""
    return (state.rng, len(state.rigged), state.dice.drawn if state.dice is not None else None)


def _sight(state: GameState) -> dict[str, sight.Visibility]:
    """Who may see each card where it is (one walk of the map)."""
    return {
        card: sight.visibility(zone, state) for zone, cards in zones.piles(state) for card in cards
    }


def revealed(
    point: UndoPoint, after: GameState, events: Sequence[Event], cards: Iterable[str]
) -> UndoRefusal | None:
    """What the step from ``point``'s state to ``after`` (with ``events``) revealed, if
    anything: randomness drawn, or a card shown to a seat that could not see it before.
    ``cards``: every card id of the game (to tell a card named in an event from a seat).
    Randomness is told from the fingerprints alone; the cards, from who may see each card
    before and after (one walk of each state's map, whatever the number of seats)."""
    if point.chance != chance(after):
        return UndoRefusal.RANDOMNESS_REVEALED
    before = _sight(pickle.loads(point.before))
    now = _sight(after)
    shown = [(card, was, now.get(card)) for card, was in before.items() if now.get(card) != was]
    known = set(cards)
    prompts = {p.player: p for p in after.prompts}
    for viewer in after.seats:
        for _card, was, seen in shown:
            if seen is not None and seen.allows(viewer) and not was.allows(viewer):
                return UndoRefusal.HIDDEN_REVEALED  # a card moved where he sees it
        told = [e for e in events if e.to is None or viewer in e.to]
        named = _named(told, prompts.get(viewer), known)
        if any(card in before and not before[card].allows(viewer) for card in named):
            return UndoRefusal.HIDDEN_REVEALED  # an event or his prompt names it to him
    return None


def _named(events: Sequence[Event], prompt: Prompt | None, known: set[str]) -> Iterator[str]:
    """The card ids named in ``events``' data and in ``prompt``'s choices and data."""
    for event in events:
        yield from _ids(event.data, known)
    if prompt is not None:
        for choice in prompt.choices:
            _, _, arg = choice.partition(" ")
            if arg in known:
                yield arg
        yield from _ids(prompt.data, known)


def _ids(value: Any, known: set[str]) -> Iterator[str]:
    """Card ids anywhere in plain data (strings, lists, dicts)."""
    if isinstance(value, str):
        if value in known:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ids(item, known)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _ids(item, known)
