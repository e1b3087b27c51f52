"""Determinization: from what one seat knows, a whole game in which the hidden cards sit in
one consistent, random position.

An AI that looks ahead samples the cards it cannot see: :func:`determinize` takes the seat's
:class:`~engine.views.SeatView` (never the real game) and deals every card that seat cannot
see -- the other hands, secret missions and start offers, face-down Preliminary Encounters it
did not peek at, the order of every deck, the set-aside missions and the Final mission deck --
into the places the sealed table marks, each card to a place of its own type. The public
table and the seat's own cards stay as they are; the future dice come from ``rng``.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

from engine.cards import AdvantageCard, Card, CardDB, deck_of, default_cards
from engine.errors import GameDataError
from engine.flow import HANDLERS
from engine.game import Game
from engine.options import Options
from engine.rules.sets import in_game
from engine.state import GameState
from engine.views import CARD_SECTIONS, SeatView, swap_action


def _strings(obj: Any, out: set[str]) -> None:
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, list):
        for x in obj:
            _strings(x, out)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            _strings(v, out)


def _replace(obj: Any, deal: dict[str, str]) -> Any:
    if isinstance(obj, str):
        return deal.get(obj, obj)
    if isinstance(obj, list):
        return [_replace(x, deal) for x in obj]
    if isinstance(obj, dict):
        return {deal.get(k, k): _replace(v, deal) for k, v in obj.items()}
    return obj


def _fits(card: Card, kind: str) -> bool:
    """Whether ``card`` may fill a hidden place of ``kind`` (a card type, or ``trap``: an
    Advantage of the Trap kind; an Arcane character's deck is ``arcane``, C7)."""
    if kind == "trap":
        return isinstance(card, AdvantageCard) and card.kind == "trap"
    return deck_of(card) == kind


#: Per card database and the options that decide which cards are dealt (S5): the ids of the
#: cards in the game that may fill a hidden place of each kind, in the database's order.
_CANDIDATES: dict[tuple[int, tuple[str, ...], str], tuple[CardDB, dict[str, list[str]]]] = {}


def _candidates(db: CardDB, options: Options) -> dict[str, list[str]]:
    """The cards that may fill each kind of hidden place (see :func:`_fits`), computed once
    per database and set combination: the hard AI deals a world per search sample, and
    scanning the whole database for every kind of every deal cost a sixth of its search."""
    key = (id(db), tuple(options.sets), str(options.combined_missions))
    known = _CANDIDATES.get(key)
    if known is not None and known[0] is db:
        return known[1]
    found: dict[str, list[str]] = defaultdict(list)
    for card in db:
        if in_game(card, options):
            found[deck_of(card)].append(card.id)
            if _fits(card, "trap"):
                found["trap"].append(card.id)
    _CANDIDATES[key] = (db, found)
    return found


#: Steps whose handler leaves the stage it asked in (frame kind -> that stage).
_ASKED_AT = {"remote_mission": ""}


def determinize(view: SeatView, rng: random.Random, cards: CardDB | None = None) -> Game:
    """A game consistent with ``view``: same public table and same own cards for its seat,
    every card it cannot see dealt at random (by ``rng``) among the places it could be.

    Raises :class:`GameDataError` if the sealed table does not fit the card database, and
    ValueError if ``view`` was built without it (``sealed=False``).
    """
    db = cards if cards is not None else default_cards()
    data: dict[str, Any] = json.loads(view.sealed_table().state)
    options = Options.model_validate(data.get("options", {}))
    seen: set[str] = set()
    for key in CARD_SECTIONS:
        _strings(data[key], seen)
    places: dict[str, list[str]] = defaultdict(list)
    for token in sorted(t for t in seen if t.startswith("?")):
        kind, _, _ = token[1:].partition(":")
        places[kind].append(token)
    deal: dict[str, str] = {}
    candidates = _candidates(db, options)
    # Traps first (A5): a face-down Trap on a Region is one of the unseen Trap cards; the
    # unseen Advantages left over fill the other hidden Advantage places.
    for kind in sorted(places, key=lambda k: k != "trap"):
        tokens = places[kind]
        dealt = set(deal.values())
        pool = [c for c in candidates.get(kind, ()) if c not in seen and c not in dealt]
        if len(pool) < len(tokens) or (kind != "trap" and len(pool) != len(tokens)):
            raise GameDataError(
                f"the sealed table hides {len(tokens)} {kind} cards, but {len(pool)} are unseen"
            )
        rng.shuffle(pool)
        deal.update(zip(tokens, pool[: len(tokens)], strict=True))
    for key in CARD_SECTIONS:
        data[key] = _replace(data[key], deal)

    # Another seat's start choices name its hidden offers inside action strings (seal).
    def dealt_card(card: str) -> str:
        return deal.get(card, card)

    for prompt in data["prompts"]:
        if "choices" in prompt:
            prompt["choices"] = [swap_action(c, dealt_card) for c in prompt["choices"]]
            prompt["default"] = swap_action(prompt["default"], dealt_card)
    data["rng"] = rng.getrandbits(64)
    # Prompts sealed to who and what kind are asked again by the rules, from the new deal:
    # the top frame's handler asks every open decision of its step.
    asked = sorted((p["player"], p["kind"]) for p in data["prompts"])
    sealed = any("choices" not in p for p in data["prompts"])
    if sealed:
        data["prompts"] = []
    game = Game(GameState.from_data(data), db)
    if sealed:
        frame = game.s.stack[-1]
        # A handler that moves to its next stage as it asks is run from the stage it asked in.
        frame.stage = _ASKED_AT.get(frame.kind, frame.stage)
        HANDLERS[frame.kind](game, frame)
        again = sorted((p.player, p.kind) for p in game.s.prompts)
        if again != asked:
            raise GameDataError(f"the rules ask {again} again, not {asked}")
    return game


__all__ = ["determinize"]
