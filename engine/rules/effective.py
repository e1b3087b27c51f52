"""Whether a card's effects would change anything now: no empty choices (issue 20).

A card or ability whose effects would change nothing (Betrayal with no party to betray,
Pickpocket with nobody else in the Region, "take a character from the discard pile" with that
pile empty) is not offered: playing it would only throw the card away, a voluntary discard
outside the Reset phase (R3), and in the Reset phase ``discard`` does that already. For the
same reason, a player the user picks as the target of an operation is one the operation
would act on (a hand to steal from, a character to turn).

This module reads the state and changes nothing. Each operation of the effect language has
one predicate here (:data:`ACTS`, checked at import like the interpreter's ``OPS``): does it
act on something now? A list of operations acts if any of them does; a ``roll`` if one of its
branches does, a ``choose`` if one of its options does. The predicates read the state as it
is when the choice is offered, with the card itself already spent (:class:`Use`), so what the
card's own payment changes (a place in the hand) is counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.cards import effects as fx
from engine.rules.party import (
    HAND_LIMIT,
    PARTY_LIMIT,
    faction,
    normal_characters,
)
from engine.rules.regions import MAX_LEVEL, MIN_LEVEL, active_region, can_explore_new
from engine.rules.sets import ARCANE_DECK
from engine.state import Player

if TYPE_CHECKING:
    from engine.game import Game

MONSTER = "@monster"  # the target "opponent" when the other side is a monster


@dataclass(frozen=True, slots=True)
class Use:
    """One use of a card's effects: by ``user``, from ``card`` (the played card, the character
    whose ability it is, the Region or Encounter whose effect it is).

    ``spent``: the card is an Advantage still in the user's hand that leaves it before its
    effects run (the question is asked before it is played). ``chosen``: a player named
    before a roll (``Roll.against``). ``region``: where the effect happens, if not where the
    user stands (a Trap's Region)."""

    user: str
    card: str
    spent: bool = False
    chosen: str | None = None
    region: str | None = None


def hand(p: Player, use: Use) -> list[str]:
    """``p``'s hand once the used card has left it."""
    if use.spent and p.name == use.user:
        return [c for c in p.hand if c != use.card]
    return p.hand


def room(p: Player, use: Use) -> bool:
    """R4: ``p`` may take one more Advantage into his hand."""
    return len(hand(p, use)) < HAND_LIMIT


def where(g: Game, name: str) -> str | None:
    """The Region a party is at, or entering (while it meets that Region's Encounter)."""
    encounter = g.find_frame("encounter")
    if encounter is not None and encounter.player == name:
        return encounter.region
    return g.player(name).region


def acts(g: Game, use: Use, ops: Sequence[Any]) -> bool:
    """Whether running ``ops`` for ``use`` now would change anything."""
    return any(ACTS[o.op](g, use, o) for o in ops)


# ---------------------------------------------------------------------- targets


def candidates(g: Game, use: Use, target: str) -> list[str]:
    """The players (or :data:`MONSTER`) a party target may name now: every one of them for
    the fixed targets, the players the user may pick from for ``chosen_player`` and
    ``chosen_player_in_region`` (the one named before a roll, if any)."""
    user = use.user
    if use.chosen is not None and target in ("chosen_player", "chosen_player_in_region"):
        return [use.chosen]
    if target == "self":
        return [user]
    if target == "opponent":
        battle = g.find_frame("battle")
        if battle is None or user not in (battle.player, battle.other):
            return []
        if battle.other is None:
            return [MONSTER]
        return [battle.other if user == battle.player else battle.player or ""]
    if target == "declaring_party":
        window = g.find_frame("window")
        return [window.player] if window is not None and window.player else []
    if target == "chosen_player":
        return g.others(user)
    if target == "chosen_player_in_region":
        region = g.player(user).region
        return [n for n in g.others(user) if region is not None and g.player(n).region == region]
    if target == "parties_in_region":
        region = use.region or where(g, user)
        return [n for n in g.s.seats if region is not None and g.player(n).region == region]
    return g.others(user)  # each_other_player


def affected(g: Game, use: Use, o: Any) -> list[str]:
    """Of the players ``o``'s target may name, those it would act on (all of them for an
    operation that acts on a party whatever it holds)."""
    test = AFFECTS.get(o.op)
    names = candidates(g, use, o.target)
    if test is None:
        return names
    return [n for n in names if test(g, use, o, n)]


def _on_some(g: Game, use: Use, o: Any) -> bool:
    """Whether ``o`` would act on one of the parties its target may name (the first found
    answers: this runs for every card offered, at every step)."""
    test = AFFECTS[o.op]
    return any(test(g, use, o, n) for n in candidates(g, use, o.target))


def _party(
    test: Callable[[Game, Use, Any, Player], bool],
) -> Callable[[Game, Use, Any, str], bool]:
    """A test on a party (a monster target is never acted on)."""

    def on(g: Game, use: Use, o: Any, name: str) -> bool:
        return name != MONSTER and test(g, use, o, g.player(name))

    return on


def _characters(p: Player, o: Any, use: Use, active: bool, untapped: bool) -> bool:
    """Whether ``p`` has a character a character operation (``o.pick``) may act on."""
    for c in p.party:
        if o.pick == "this_character" and c.card != use.card:
            continue
        if (active and c.incapacitated) or (untapped and c.tapped):
            continue
        return True
    return False


def _draws(g: Game, use: Use, o: fx.Draw, p: Player) -> bool:
    if o.deck == "character":
        return len(p.party) < PARTY_LIMIT and bool(
            g.s.decks["character"] or g.s.discards["character"]
        )
    # The played card itself may be reshuffled into an empty deck (D1).
    cards = g.s.decks["advantage"] or g.s.discards["advantage"] or use.spent
    return room(p, use) and bool(cards)


def _modifies(g: Game, use: Use, o: fx.Modify, name: str) -> bool:
    if name == MONSTER:
        return o.stat == "strength" and g.find_frame("battle") is not None
    return True


def _steals(g: Game, use: Use, o: fx.Steal, name: str) -> bool:
    if name in (MONSTER, use.user):
        return False
    return bool(g.player(name).hand) and room(g.player(use.user), use)


def _hires_from_discard(g: Game, use: Use, o: Any, p: Player) -> bool:
    return len(p.party) < PARTY_LIMIT and bool(g.s.discards["character"])


def _takes_discarded(g: Game, use: Use, o: Any, p: Player) -> bool:
    # The played card, discarded as it was played, is not taken back (ops_cards.op_take_discarded).
    return room(p, use) and any(c != use.card for c in g.s.discards["advantage"])


def _exchanges_arcane(g: Game, use: Use, o: Any, p: Player) -> bool:
    if ARCANE_DECK not in g.s.decks or not normal_characters(g, p):
        return False
    return bool(g.s.decks[ARCANE_DECK] or g.s.discards[ARCANE_DECK])


#: Per party-targeted operation: would it act on the party ``name``?
AFFECTS: dict[str, Callable[[Game, Use, Any, str], bool]] = {
    "draw": _party(_draws),
    "discard": _party(lambda g, use, o, p: bool(hand(p, use))),
    "modify": _modifies,
    "incapacitate": _party(lambda g, use, o, p: _characters(p, o, use, True, False)),
    "tap": _party(lambda g, use, o, p: _characters(p, o, use, True, True)),
    "kill": _party(lambda g, use, o, p: _characters(p, o, use, False, False)),
    "untap": _party(lambda g, use, o, p: any(c.tapped for c in p.party)),
    "steal": _steals,
    "fight": _party(lambda g, use, o, p: True),
    "end_turn": _party(lambda g, use, o, p: not p.turn_over),
    "lose_next_turn": _party(lambda g, use, o, p: not p.skip_next_turn),
    "reroll": _party(lambda g, use, o, p: not p.reroll),
    "hire_from_discard": _party(_hires_from_discard),
    "take_discarded": _party(_takes_discarded),
    "exchange_arcane": _party(_exchanges_arcane),
    "discard_faction": _party(lambda g, use, o, p: faction(g, p) is not None),
}


# ---------------------------------------------------------------------- operations


def _moves(g: Game, use: Use, o: fx.Move) -> bool:
    name = next((n for n in candidates(g, use, o.target) if n != MONSTER), None)
    if name is None:
        return False
    if o.to == "explore_new":
        return can_explore_new(g)
    return bool(move_destinations(g, name))


def move_destinations(g: Game, name: str) -> list[str]:
    """Where a card may move a party: any active Region but the one it stands in (the card
    flies past the Tree of Regions, O1; a move to its own Region would change nothing, X1)."""
    here = g.player(name).region
    return [r.card for r in g.s.regions if r.card != here]


def redirections(g: Game) -> list[str]:
    """Where Wrong Road may send the declared move: any other active Region."""
    move = g.find_frame("move")
    if move is None or move.region is None:
        return []
    return [r.card for r in g.s.regions if r.card != move.region]


def scoutable(g: Game, user: str) -> list[str]:
    """The active Regions whose face-down Preliminary Encounter ``user`` does not know (S4)."""
    return [
        r.card for r in g.s.regions if r.preliminary and not r.revealed and user not in r.peeked
    ]


def _rolls(g: Game, use: Use, o: fx.Roll) -> bool:
    if o.against is None:
        return acts(g, use, o.success) or acts(g, use, o.failure)
    return any(_roll_acts(g, replace(use, chosen=n), o) for n in candidates(g, use, o.against))


def _roll_acts(g: Game, use: Use, o: fx.Roll) -> bool:
    return acts(g, use, o.success) or acts(g, use, o.failure)


def roll_victims(g: Game, use: Use, o: fx.Roll) -> list[str]:
    """The players a roll may be made against (``against``): those on whom one of its
    branches would act (the Thief names a player with an Advantage to steal)."""
    assert o.against is not None
    return [n for n in candidates(g, use, o.against) if _roll_acts(g, replace(use, chosen=n), o)]


def _cancels(g: Game, use: Use, o: fx.Cancel) -> bool:
    window = g.find_frame("window")
    return window is not None and not window.data.get("cancelled")


def betrayal_victims(g: Game, use: Use, o: fx.TakeCharacter) -> list[str]:
    """The players Betrayal may name: another party of 2 or more (a party is never left
    empty, C1, C5), in the user's Region for ``chosen_player_in_region``; nobody while the
    user's party has 4 (R4)."""
    if len(g.player(use.user).party) >= PARTY_LIMIT:
        return []
    return [n for n in candidates(g, use, o.target) if len(g.player(n).party) >= 2]


def exchange_partners(g: Game, use: Use, o: fx.ExchangeAdvantage) -> list[str]:
    """The players the Agent may exchange with: one with an Advantage in hand, while the
    user has one to give."""
    if not hand(g.player(use.user), use):
        return []
    return [n for n in candidates(g, use, o.target) if g.player(n).hand]


def _levels(g: Game, use: Use, o: fx.ModifyRegion) -> bool:
    card = use.region or where(g, use.user)
    region = active_region(g, card) if card else None
    if region is None:
        return False
    printed = g.db.region(region.card).level

    def clamp(bonus: int) -> int:
        return max(MIN_LEVEL, min(MAX_LEVEL, printed + bonus))

    return clamp(region.level_bonus + o.amount) != clamp(region.level_bonus)


#: Per operation: would it change anything now?
ACTS: dict[str, Callable[[Game, Use, Any], bool]] = {
    **{name: _on_some for name in AFFECTS},
    "move": _moves,
    "redirect_move": lambda g, use, o: bool(redirections(g)),
    "reveal": lambda g, use, o: bool(scoutable(g, use.user)),
    "roll": _rolls,
    "cancel": _cancels,
    "choose": lambda g, use, o: any(acts(g, use, option.effects) for option in o.options),
    "take_character": lambda g, use, o: bool(betrayal_victims(g, use, o)),
    "exchange_advantage": lambda g, use, o: bool(exchange_partners(g, use, o)),
    "modify_region": _levels,
}

assert set(ACTS) == fx.OPERATIONS, f"operations without a test: {fx.OPERATIONS - set(ACTS)}"
