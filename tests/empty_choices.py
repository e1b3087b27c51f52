"""The "no empty choices" property (issue 20): an applied action, other than a pass, done or
decline, changes something in the game or tells the players something.

What an action changes is read from the state before and after it, less the bookkeeping of
the flow (the prompts, the version, the generator) and less the price of a card (the card
leaving the hand, the character who turns for it): a card played for nothing changes only
its price. What it tells is its events, less the announcement of that price ("A plays
Betrayal") and less a successful roll, which must be followed by what it succeeded at
(Valkyrie's "success" and then nothing was the defect).
"""

from __future__ import annotations

from typing import Any

from engine.actions import parse_action
from engine.events import Event
from engine.game import Game

#: Actions that decline, pass or close a decision: they may change nothing.
QUIET = frozenset({"pass", "done", "skip", "decline", "withdraw", "no"})
#: The state's bookkeeping of the flow, not the game.
FLOW = ("version", "rng", "rigged", "prompts", "result", "actions")
#: Events that only announce what a card costs.
PRICE_EVENTS = frozenset({"play", "ability"})


def price(events: list[Event]) -> tuple[set[str], set[str], list[Event]]:
    """The cards an action spent, the characters turned to pay for them, and the events left
    once their announcements are taken out (a ``tap`` just before a ``play`` is its C4
    price; a successful ``roll`` announces what follows, not an outcome of its own)."""
    cards: set[str] = set()
    turned: set[str] = set()
    told: list[Event] = []
    for i, event in enumerate(events):
        following = events[i + 1] if i + 1 < len(events) else None
        if event.kind in PRICE_EVENTS:
            cards.add(event.data["card"])
        elif event.kind == "tap" and following is not None and following.kind == "play":
            turned.add(event.data["card"])
        elif not (event.kind == "roll" and event.data.get("success")):
            told.append(event)
    return cards, turned, told


def substance(state: dict[str, Any], cards: set[str], turned: set[str]) -> Any:
    """A state (as plain data) less the flow's bookkeeping and the price: the spent ``cards``
    taken out of every pile, the ``turned`` characters (and a character whose ability was
    used) shown straight, a reaction window's list of players who passed left out (a play
    opens the window again for all, T4)."""
    state = {k: v for k, v in state.items() if k not in FLOW}
    state["stack"] = [
        {**f, "data": {k: v for k, v in f["data"].items() if k != "passed"}}
        if f["kind"] == "window"
        else f
        for f in state["stack"]
    ]
    return _without(state, cards, turned | cards)


def _without(value: Any, cards: set[str], straight: set[str]) -> Any:
    if isinstance(value, dict):
        if value.keys() >= {"card", "tapped", "incapacitated"} and value["card"] in straight:
            return {**value, "tapped": False}
        return {k: _without(v, cards, straight) for k, v in value.items()}
    if isinstance(value, list):
        return [
            _without(v, cards, straight) for v in value if not (isinstance(v, str) and v in cards)
        ]
    return value


class EmptyChoices:
    """Watches one game: :meth:`before` ahead of each action, :meth:`after` once it is
    applied; :attr:`found` lists every empty action (player, action, turn, phase)."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self._state: Any = None

    def before(self, game: Game) -> None:
        self._state = game.s.to_dict()

    def after(self, game: Game, player: str, action: str, events: list[Event]) -> None:
        if parse_action(action).type in QUIET:
            return
        cards, turned, told = price(events)
        if told:
            return
        # A card put into play (an Organization, an Incident...) is there: no price.
        cards -= {c for p in game.s.players.values() for c in p.in_play}
        if substance(game.s.to_dict(), cards, turned) == substance(self._state, cards, turned):
            where = f"turn {game.s.turn}, {game.s.phase}"
            self.found.append(f"{player} {action!r} ({where}) changed nothing")
