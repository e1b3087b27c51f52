"""The sealed table: the game with every card a seat cannot see replaced by a placeholder."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.cards import deck_of
from engine.views.models import SealedTable
from engine.visibility import visibility
from engine.zones import piles

if TYPE_CHECKING:
    from engine.game import Game


def hidden_cards(g: Game, seat: str) -> list[str]:
    """Every card ``seat`` cannot see, in the map's fixed order of places (never by card id)."""
    s = g.s
    shown = offered_to(g, seat)
    return [
        card
        for zone, cards in piles(s)
        if not visibility(zone, s).allows(seat)
        for card in cards
        if card not in shown
    ]


def offered_to(g: Game, seat: str) -> frozenset[str]:
    """The cards of another's hand that a trade offer sent to ``seat`` names (I1, X3): they
    are still in that hand, but the offer showed them to him (``trade_offer_private``)."""
    return frozenset(
        card
        for frame in g.s.stack
        if frame.kind == "trade" and frame.other == seat and frame.stage in ("sent", "pay")
        for card in frame.data["give"]
    )


def _replace(obj: Any, swap: Callable[[str], str]) -> Any:
    if isinstance(obj, str):
        return swap(obj)
    if isinstance(obj, list):
        return [_replace(x, swap) for x in obj]
    if isinstance(obj, dict):
        return {swap(k): _replace(v, swap) for k, v in obj.items()}
    return obj


#: The parts of a stored game that hold card ids (the options name card sets, which may share
#: a card's id).
CARD_SECTIONS = (
    "players",
    "decks",
    "discards",
    "regions",
    "set_aside",
    "final_deck",
    "final_mission",
    "dismissed",
    "discarded_by",
    "stack",
    "prompts",
    "result",
)

#: Prompts whose choices are exactly some hidden zone of their player, so that the sealed
#: table may keep them with placeholders (S3: the start offers).
#: The pick-up (R5) offers only public discards: it is kept as it is.
OPEN_KINDS = frozenset({"start_character", "start_advantage", "pickup"})


def sealed_table(g: Game, seat: str) -> SealedTable:
    """The game as ``seat`` knows it (:func:`seal`), as a :class:`SealedTable`."""
    return SealedTable(seat=seat, state=json.dumps(seal(g, seat)))


def seal(g: Game, seat: str) -> dict[str, Any]:
    """The game state as ``seat`` knows it (see :class:`SealedTable`)."""
    hidden = hidden_cards(g, seat)
    # A hidden Trap on a Region is a Trap (A5): its placeholder says so, so that determinize
    # deals a Trap there, not any Advantage.
    traps = {t.card for r in g.s.regions for t in r.traps}
    placeholders = {
        c: f"?{'trap' if c in traps else deck_of(g.db[c])}:{i}" for i, c in enumerate(hidden)
    }
    data = g.s.to_data()
    # Another seat's open prompt would tell which of its hidden cards it may play now: the
    # sealed table keeps only who and what kind (determinize asks it again), except the start
    # choices, whose choices are all the offered cards (placeholders, as many as everybody
    # knows).
    data["prompts"] = [
        p
        if p["player"] == seat or p["kind"] in OPEN_KINDS
        else {"player": p["player"], "kind": p["kind"], "window": p["window"]}
        for p in data["prompts"]
    ]
    # The AI samples its worlds with dice of its own: the keyed stream and its seeds stay out.
    data["rng"], data["seed"], data["rigged"], data["dice"] = 0, 0, [], None
    get = placeholders.get

    def swap(card: str) -> str:
        return get(card, card)

    # The zones that hold hidden cards, directly (the generic walk costs twice as much)...
    for p in data["players"].values():
        for zone in ("hand", "missions", "offered_characters", "offered_advantages"):
            p[zone] = [swap(c) for c in p[zone]]
        for c in p["party"]:
            c["card"] = swap(c["card"])
        p["resisting"] = {swap(m): n for m, n in p["resisting"].items()}
        # A modifier names the card that made it, and the last hire its Region: a card seen
        # then, and hidden since (a discard pile reshuffled into its deck), is hidden here too.
        p["modifiers"] = _replace(p["modifiers"], swap)
        p["last_hire"] = _replace(p["last_hire"], swap)
    data["decks"] = {k: [swap(c) for c in v] for k, v in data["decks"].items()}
    data["set_aside"] = [swap(c) for c in data["set_aside"]]
    data["final_deck"] = [swap(c) for c in data["final_deck"]]
    for r in data["regions"]:
        r["preliminary"] = r["preliminary"] and swap(r["preliminary"])
        for trap in r["traps"]:
            trap["card"] = swap(trap["card"])
    # ... and whatever else names a card: the steps under way (a trade's offer, a pick),
    # and this turn's let-go cards (R5), which a pick-up or a reshuffle may have hidden since.
    for key in ("stack", "prompts", "result", "dismissed", "discarded_by"):
        data[key] = _replace(data[key], swap)
    # Another seat's start choices name its offered cards inside action strings ("keep
    # monk"): their argument becomes the placeholder too ("keep ?character:80").
    for prompt in data["prompts"]:
        if prompt["player"] != seat and "choices" in prompt:
            prompt["choices"] = [swap_action(c, swap) for c in prompt["choices"]]
            prompt["default"] = swap_action(prompt["default"], swap)
    return data


def swap_action(action: str, swap: Callable[[str], str]) -> str:
    """``action`` (an action string, ``type`` or ``type arg``) with its argument swapped."""
    kind, _, arg = action.partition(" ")
    return f"{kind} {swap(arg)}" if arg else action
