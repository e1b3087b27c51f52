"""Operations on cards in hands, decks and discard piles: draw, discard, steal, take back a
discarded Advantage, exchange Advantages, lose a Faction (docs/cards.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import zones
from engine.cards import effects as fx
from engine.rules.effective import exchange_partners
from engine.rules.interpreter import op, pick, use_of
from engine.rules.party import (
    PARTY_LIMIT,
    add_character,
    discard_card,
    draw_advantages,
    lose_faction,
    room_in_hand,
    top_card,
)
from engine.rules.targets import each_party, named, parties
from engine.state import Frame, Player
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game


@op("draw")
def op_draw(g: Game, frame: Frame, o: fx.Draw, st: dict[str, Any]) -> bool:
    targets = parties(g, frame, o, st)
    if targets is None:
        return False
    for p in targets:
        if o.deck == "advantage":
            draw_advantages(g, p, o.count)
        else:
            for _ in range(o.count):
                if len(p.party) >= PARTY_LIMIT:
                    break
                card = top_card(g, "character")
                if card is None:
                    break
                add_character(g, p, card, Zone("deck", "character"))
    return True


@op("discard")
def op_discard(g: Game, frame: Frame, o: fx.Discard, st: dict[str, Any]) -> bool:
    def discard(p: Player) -> bool:
        while (n := st.setdefault("n", 0)) < o.count and p.hand:
            if o.choice == "random":
                card = p.hand[g.randint(len(p.hand))]
            else:
                picked = pick(g, frame, st, p.name, "Choose an Advantage to discard.", p.hand)
                if picked is None:
                    return False
                card = picked
            discard_card(g, card, Zone("hand", p.name))
            st["n"] = n + 1
            g.emit("discard", f"{p.name} discards {g.db[card].name}.", player=p.name, card=card)
        return True

    return each_party(g, frame, o, st, discard)


@op("steal")
def op_steal(g: Game, frame: Frame, o: fx.Steal, st: dict[str, Any]) -> bool:
    targets = parties(g, frame, o, st)
    if targets is None:
        return False
    thief = g.player(frame.player or "")
    for victim in targets:
        if victim.name == thief.name:
            continue
        name = victim.name
        for _ in range(o.count):
            if not victim.hand or not room_in_hand(thief):
                break
            card = victim.hand[g.randint(len(victim.hand))]
            zones.move(g.s, card, Zone("hand", name), Zone("hand", thief.name))
            g.emit(
                "steal",
                f"{thief.name} steals an Advantage from {name}.",
                player=thief.name,
                victim=name,
            )
            g.emit(
                "steal_private",
                f"{g.db[card].name} goes from {name} to {thief.name}.",
                to=[thief.name, name],
                card=card,
            )
    return True


@op("take_discarded")
def op_take_discarded(g: Game, frame: Frame, o: fx.TakeDiscarded, st: dict[str, Any]) -> bool:
    targets = parties(g, frame, o, st)
    if targets is None:
        return False
    for p in targets:
        pile = g.s.discards["advantage"]
        # The played card (discarded as it was played) is not taken back: Scavenge could
        # otherwise be played again and again without end.
        under = [c for c in pile if c != frame.card]
        if under and room_in_hand(p):
            card = under[-1]
            zones.move(g.s, card, Zone("discard", "advantage"), Zone("hand", p.name))
            g.emit(
                "take",
                f"{p.name} takes {g.db[card].name} from the discard pile.",
                player=p.name,
                card=card,
            )
    return True


@op("exchange_advantage")
def op_exchange_advantage(
    g: Game, frame: Frame, o: fx.ExchangeAdvantage, st: dict[str, Any]
) -> bool:
    """The Agent: the user gives an Advantage of his choice to a player he names and takes one
    of that player's at random (hands are secret); both hands keep their size."""
    user = g.player(frame.player or "")
    # A player with an Advantage in hand, while the user has one to give (the one named
    # before a roll, if any: Roll.against).
    partner = named(
        g,
        frame,
        st,
        "victim",
        "Choose a player to exchange an Advantage with.",
        lambda: exchange_partners(g, use_of(frame), o),
    )
    if partner is None:
        return False
    if not partner:
        return True
    victim = g.player(partner[0])
    given = pick(
        g, frame, st, user.name, f"Choose the Advantage you give {victim.name}.", list(user.hand)
    )
    if given is None:
        return False
    # Taken before the given card arrives, so the user never draws back his own card.
    taken = victim.hand[g.randint(len(victim.hand))]
    zones.move(g.s, taken, Zone("hand", victim.name), Zone("hand", user.name))
    zones.move(g.s, given, Zone("hand", user.name), Zone("hand", victim.name))
    g.emit(
        "exchange_advantage",
        f"{user.name} exchanges an Advantage with {victim.name}.",
        player=user.name,
        victim=victim.name,
    )
    g.emit(
        "exchange_advantage_private",
        f"{g.db[given].name} goes from {user.name} to {victim.name}; "
        f"{g.db[taken].name} from {victim.name} to {user.name}.",
        to=[user.name, victim.name],
        player=user.name,
        victim=victim.name,
        given=given,
        taken=taken,
    )
    return True


@op("discard_faction")
def op_discard_faction(g: Game, frame: Frame, o: fx.DiscardFaction, st: dict[str, Any]) -> bool:
    targets = parties(g, frame, o, st)
    if targets is None:
        return False
    for p in targets:
        lose_faction(g, p)
    return True
