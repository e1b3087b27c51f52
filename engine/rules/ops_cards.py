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
    hand_over_random,
    lose_faction,
    room_in_hand,
    top_card,
)
from engine.rules.targets import each_party, on_named
from engine.state import Frame, Player
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game


@op("draw")
def op_draw(g: Game, frame: Frame, o: fx.Draw, st: dict[str, Any]) -> bool:
    def draw(p: Player) -> None:
        if o.deck == "advantage":
            draw_advantages(g, p, o.count)
            return
        for _ in range(o.count):
            if len(p.party) >= PARTY_LIMIT:
                break
            card = top_card(g, "character")
            if card is None:
                break
            add_character(g, p, card, Zone("deck", "character"))

    return each_party(g, frame, o, st, draw)


@op("discard")
def op_discard(g: Game, frame: Frame, o: fx.Discard, st: dict[str, Any]) -> bool:
    def discard(p: Player) -> bool:
        while (n := st.setdefault("n", 0)) < o.count and p.hand:
            if o.choice == "random":
                card = p.hand[g.randint(len(p.hand))]
            else:
                text = "Choose an Advantage to discard."
                picked = pick(g, frame, st, p.name, text, p.hand, {"variant": "discard"})
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
    thief = g.player(frame.player or "")

    def steal(victim: Player) -> None:
        name = victim.name
        if name == thief.name:  # the thief among the targets (the parties in his Region)
            return
        for _ in range(o.count):
            if not victim.hand or not room_in_hand(thief):
                break
            text = f"{thief.name} steals an Advantage from {name}."
            kinds = ("steal", "steal_private")
            hand_over_random(g, victim, thief, kinds, text, player=thief.name, victim=name)

    return each_party(g, frame, o, st, steal)


@op("take_discarded")
def op_take_discarded(g: Game, frame: Frame, o: fx.TakeDiscarded, st: dict[str, Any]) -> bool:
    def take(p: Player) -> None:
        # The played card (discarded as it was played) is not taken back: Scavenge could
        # otherwise be played again and again without end.
        under = [c for c in g.s.discards["advantage"] if c != frame.card]
        if under and room_in_hand(p):
            card = under[-1]
            zones.move(g.s, card, Zone("discard", "advantage"), Zone("hand", p.name))
            g.emit(
                "take",
                f"{p.name} takes {g.db[card].name} from the discard pile.",
                player=p.name,
                card=card,
                source="discard",
            )

    return each_party(g, frame, o, st, take)


@op("exchange_advantage")
def op_exchange_advantage(
    g: Game, frame: Frame, o: fx.ExchangeAdvantage, st: dict[str, Any]
) -> bool:
    """The Agent: the user gives an Advantage of his choice to a player he names and takes one
    of that player's at random (hands are secret); both hands keep their size."""
    user = g.player(frame.player or "")

    def exchange(victim: Player) -> bool:
        text = f"Choose the Advantage you give {victim.name}."
        data = {"variant": "exchange", "player": victim.name}
        given = pick(g, frame, st, user.name, text, list(user.hand), data)
        if given is None:
            return False
        _exchange(g, user, victim, given)
        return True

    # A player with an Advantage in hand, while the user has one to give (the one named
    # before a roll, if any: Roll.against).
    text = "Choose a player to exchange an Advantage with."
    return on_named(
        g,
        frame,
        st,
        (text, "exchange_partner"),
        lambda: exchange_partners(g, use_of(frame), o),
        exchange,
    )


def _exchange(g: Game, user: Player, victim: Player, given: str) -> None:
    """The Agent's exchange, once the user gave ``given``: he takes one of the victim's."""
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


@op("discard_faction")
def op_discard_faction(g: Game, frame: Frame, o: fx.DiscardFaction, st: dict[str, Any]) -> bool:
    return each_party(g, frame, o, st, lambda p: lose_faction(g, p))
