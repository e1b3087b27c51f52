"""Reset (Discard) phase (R1-R5): discard, dismiss, leave an Organization, play Reset cards,
then the pick-up of what others let go. R1 (straighten, turn face up) runs in
:func:`engine.rules.turn.start_turn`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import zones
from engine.actions import Action
from engine.flow import handles, responds
from engine.rules.party import (
    HAND_LIMIT,
    PARTY_LIMIT,
    add_character,
    discard_card,
    normal_characters,
)
from engine.rules.play import own_turn_plays, play_step_action
from engine.state import Frame
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game


@handles("reset_step")
def reset_step(g: Game, frame: Frame) -> None:
    if frame.stage == "done":
        g.pop()
        return
    name = frame.player or ""
    p = g.player(name)
    if p.turn_over:  # a party that sits out this turn (lose_next_turn) does nothing
        g.pop()
        return
    choices = ["done"]
    choices += [f"discard {c}" for c in p.hand]  # R2, R3
    if len(p.party) > 1:  # the last character cannot walk away
        # C7: an Arcane character is never dismissed.
        choices += [f"dismiss {c}" for c in normal_characters(g, p)]
    # R2: a party may leave an Organization or a Faction, or give up an Artifact (or a card
    # that stays in play); an Incident is not left: it lasts until the end of the turn (A4).
    choices += [f"leave {c}" for c in p.in_play if g.db.advantage(c).kind != "incident"]
    choices += own_turn_plays(g, name, "reset")
    g.ask(name, "reset", "Reset phase: discard, dismiss, play Reset cards, or done (R2).", choices)


@responds("reset_step")
def answer_reset(g: Game, frame: Frame, player: str, action: Action) -> None:
    card = action.arg or ""
    if action.type == "done":
        # Finished at once rather than through a "done" stage: one handler step less per
        # player and turn, on the engine's hot path (the same state and events).
        g.pop()
    elif action.type == "discard":
        discard_card(g, card, Zone("hand", player))
        g.s.discarded_by[card] = player
        g.emit("discard", f"{player} discards {g.db[card].name}.", player=player, card=card)
    elif action.type == "dismiss":
        discard_card(g, card, Zone("party", player))
        g.s.dismissed[card] = player
        g.emit("dismiss", f"{player} dismisses {g.db[card].name}.", player=player, card=card)
    elif action.type == "leave":
        discard_card(g, card, Zone("in_play", player))
        g.emit("leave", f"{player} gives up {g.db[card].name}.", player=player, card=card)
    else:
        play_step_action(g, player, action, "reset")


def _fewest(g: Game, size: dict[str, int]) -> str | None:
    """R5: the one player with the fewest; nobody when two or more tie."""
    if not size:
        return None
    low = min(size.values())
    at_low = [n for n, v in size.items() if v == low]
    return at_low[0] if len(at_low) == 1 else None


def _holding(g: Game, name: str, deck: str) -> int:
    p = g.player(name)
    return len(p.party) if deck == "character" else len(p.hand)


def pickup_offers(g: Game) -> list[tuple[str, list[str]]]:
    """R5: who may take which cards. For each player who let cards go, the one player with the
    fewest characters (for dismissed characters) or fewest Advantages (for discarded ones)
    among the *others* may take one of them (the rulebook's example leaves the discarder out
    of the comparison); a tie for fewest means nobody takes them."""
    s = g.s
    players = [n for n in s.seats if not g.player(n).lost]
    offers: dict[tuple[str, str], list[str]] = {}
    for let_go, deck in ((s.dismissed, "character"), (s.discarded_by, "advantage")):
        limit = PARTY_LIMIT if deck == "character" else HAND_LIMIT
        for giver in dict.fromkeys(let_go.values()):
            sizes = {n: _holding(g, n, deck) for n in players if n != giver}
            who = _fewest(g, sizes)
            cards = [c for c, by in let_go.items() if by == giver and c in s.discards[deck]]
            if who is not None and cards and sizes[who] < limit:
                offers.setdefault((who, deck), []).extend(cards)
    # In turn order, characters before Advantages; each is a separate pick-up.
    return [
        (who, offers[who, deck])
        for deck in ("character", "advantage")
        for who in s.order
        if (who, deck) in offers
    ]


@handles("pickup")
def run_pickup(g: Game, frame: Frame) -> None:
    """R5: each player entitled to a pick-up may take one of the cards offered to him."""
    if frame.stage == "":
        frame.stage = "asking"
        frame.data = {"queue": [[who, cards] for who, cards in pickup_offers(g)]}
    queue = frame.data["queue"]
    while queue:
        who, cards = queue.pop(0)
        kept = [c for c in cards if c in g.s.discards[g.db[c].type]]
        if kept:
            g.ask(who, "pickup", "You have the fewest: take a card another player let go (R5)?",
                  ["pass", *(f"take {c}" for c in kept)], "pass")  # fmt: skip
            return
    g.pop()


@responds("pickup")
def answer_pickup(g: Game, frame: Frame, player: str, action: Action) -> None:
    if action.type != "take" or action.arg is None:
        return
    p = g.player(player)
    card = action.arg
    if g.db[card].type == "character":
        add_character(g, p, card, Zone("discard", "character"))
    else:
        zones.move(g.s, card, Zone("discard", "advantage"), Zone("hand", player))
        g.emit("take", f"{player} takes {g.db[card].name}.", player=player, card=card)
