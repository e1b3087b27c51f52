"""Operations on where parties go and what they know of the Regions: move a party (or explore
a new Region), redirect a declared move, scout a Region's Encounter, change a Region's level
(docs/cards.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.cards import effects as fx
from engine.rules.effective import move_destinations, redirections, scoutable, where
from engine.rules.interpreter import op, pick
from engine.rules.regions import active_region, can_explore_new, region_level
from engine.rules.targets import on_party
from engine.state import Frame, Player

if TYPE_CHECKING:
    from engine.game import Game


@op("move")
def op_move(g: Game, frame: Frame, o: fx.Move, st: dict[str, Any]) -> bool:
    def move(p: Player) -> bool:
        name = p.name
        if o.to == "explore_new":
            return _explore_new(g, frame, st, name)
        options = move_destinations(g, name)  # past the Tree of Regions (O1), not where it is
        if not options:
            return True
        text = "Choose the Region to move to."
        picked = pick(g, frame, st, frame.player or name, text, options, {"variant": "move"})
        if picked is None:
            return False
        _moves_this_turn(g, name)
        frame.data["i"] += 1  # the move runs as a child frame; this op is done
        frame.data.pop("op", None)
        g.push("move", player=name, region=picked)  # a declared move: the window opens (T4)
        return False

    return on_party(g, frame, o, st, move)


def _explore_new(g: Game, frame: Frame, st: dict[str, Any], name: str) -> bool:
    """M4/D2: explore a new Region: the top of the Region deck, or, once the deck is empty,
    a Region of the explorer's choice from the Region discard pile."""
    if not can_explore_new(g):
        return True
    region: str | None = None
    if not g.s.decks["region"]:
        pile = g.s.discards["region"]
        region = (
            pile[0]
            if len(pile) == 1
            else pick(
                g, frame, st, name, "Choose the Region to explore from the discard pile (D2).", pile
            )
        )
        if region is None:
            return False
    _moves_this_turn(g, name)
    g.push("explore_new", player=name, region=region)
    return True


def _moves_this_turn(g: Game, name: str) -> None:
    """A card that moves a party in its own Movement step is its movement for the turn."""
    step = g.find_frame("movement_step")
    if step is not None and step.player == name:
        step.data["moved"] = True


@op("redirect_move")
def op_redirect(g: Game, frame: Frame, o: fx.RedirectMove, st: dict[str, Any]) -> bool:
    move = g.find_frame("move")
    options = redirections(g)
    if move is None or not options:
        return True
    text = "Choose where that party goes."
    picked = pick(g, frame, st, frame.player or "", text, options, {"variant": "redirect"})
    if picked is None:
        return False
    move.region = picked
    g.emit(
        "redirect",
        f"{move.player}'s party is led astray to {g.db[picked].name}.",
        player=move.player,
        region=picked,
    )
    return True


@op("reveal")
def op_reveal(g: Game, frame: Frame, o: fx.Reveal, st: dict[str, Any]) -> bool:
    user = frame.player or ""
    # Only Encounters the user does not know yet: Scrying's second look is at another Region.
    hidden = scoutable(g, user)
    if not hidden:
        return True
    picked = pick(g, frame, st, user, "Choose a Region to scout.", hidden, {"variant": "scout"})
    if picked is None:
        return False
    region = next(r for r in g.s.regions if r.card == picked)
    region.peeked.append(user)
    assert region.preliminary is not None
    g.emit("scout", f"{user} scouts {g.db[picked].name}.", player=user, region=picked)
    g.emit(
        "scout_private",
        f"At {g.db[picked].name} waits {g.db[region.preliminary].name}.",
        to=[user],
        region=picked,
        card=region.preliminary,
    )
    return True


@op("modify_region")
def op_modify_region(g: Game, frame: Frame, o: fx.ModifyRegion, st: dict[str, Any]) -> bool:
    """The Region the effect happens at (a Trap's or a guard's, at the end of the Movement
    phase, M9; else the user's) changes level until the end of the turn; the level stays
    within 1-3 (regions.region_level)."""
    card = frame.data.get("region") or where(g, frame.player or "")
    region = active_region(g, card) if card else None
    if region is None:
        return True
    region.level_bonus += o.amount
    g.emit(
        "region_level",
        f"{g.db[region.card].name} is now level {region_level(g, region.card)} until the end "
        "of the turn.",
        region=region.card,
        amount=o.amount,
        level=region_level(g, region.card),
    )
    return True
