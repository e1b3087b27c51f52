"""Operations on characters: incapacitate, turn, kill, straighten, betray (take a character
from another party), exchange one for an Arcane, hire from the discard pile (docs/cards.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import zones
from engine.cards import effects as fx
from engine.rules.effective import betrayal_victims
from engine.rules.interpreter import op, pick, use_of
from engine.rules.party import (
    PARTY_LIMIT,
    add_character,
    discard_card,
    kill,
    normal_characters,
    top_card,
)
from engine.rules.sets import ARCANE_DECK
from engine.rules.targets import each_party, on_named, on_party
from engine.state import Frame, Player
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game


def _character_op(
    g: Game,
    frame: Frame,
    o: Any,
    st: dict[str, Any],
    apply: Callable[[Player, str], None],
    only_active: bool = True,
    only_untapped: bool = False,
) -> bool:
    """Shared by incapacitate/tap/kill: pick a character of each target and apply."""

    def act(p: Player) -> bool:
        chars = [
            c.card
            for c in p.party
            if not (only_active and c.incapacitated) and not (only_untapped and c.tapped)
        ]
        if o.pick == "this_character":
            chars = [c for c in chars if c == frame.card]
        if not chars:
            return True
        if o.pick == "random":
            card = chars[g.randint(len(chars))]
        elif o.pick == "this_character" or len(chars) == 1:
            card = chars[0]
        else:
            chooser = p.name if o.pick == "owner_chooses" else frame.player or p.name
            text = f"Choose a character of {p.name}'s party."
            data = {"variant": "character", "player": p.name}
            picked = pick(g, frame, st, chooser, text, chars, data)
            if picked is None:
                return False
            card = picked
        apply(p, card)
        return True

    return each_party(g, frame, o, st, act)


@op("incapacitate")
def op_incapacitate(g: Game, frame: Frame, o: fx.Incapacitate, st: dict[str, Any]) -> bool:
    def apply(p: Player, card: str) -> None:
        next(c for c in p.party if c.card == card).incapacitated = True
        g.emit(
            "incapacitate",
            f"{g.db[card].name} of {p.name}'s party is incapacitated.",
            player=p.name,
            card=card,
        )

    return _character_op(g, frame, o, st, apply)


@op("tap")
def op_tap(g: Game, frame: Frame, o: fx.Tap, st: dict[str, Any]) -> bool:
    def apply(p: Player, card: str) -> None:
        next(c for c in p.party if c.card == card).tapped = True
        g.emit("tap", f"{g.db[card].name} of {p.name}'s party is turned.", player=p.name, card=card)

    # Turning picks among untapped characters: two taps turn two different characters.
    return _character_op(g, frame, o, st, apply, only_untapped=o.pick != "this_character")


@op("kill")
def op_kill(g: Game, frame: Frame, o: fx.Kill, st: dict[str, Any]) -> bool:
    return _character_op(g, frame, o, st, lambda p, card: kill(g, p, card), only_active=False)


@op("untap")
def op_untap(g: Game, frame: Frame, o: fx.Untap, st: dict[str, Any]) -> bool:
    def untap(p: Player) -> None:
        for c in p.party:
            c.tapped = False
        g.emit("untap", f"{p.name}'s characters straighten.", player=p.name)

    return each_party(g, frame, o, st, untap)


@op("take_character")
def op_take_character(g: Game, frame: Frame, o: fx.TakeCharacter, st: dict[str, Any]) -> bool:
    """Betrayal: a character leaves another party and joins the user's (C1, C5, R4)."""
    user = g.player(frame.player or "")

    def betray(victim: Player) -> bool:
        chars = [c.card for c in victim.party]
        if o.pick == "random":
            card = chars[g.randint(len(chars))]
        else:
            chooser = victim.name if o.pick == "owner_chooses" else user.name
            text = f"Choose a character of {victim.name}'s party."
            data = {"variant": "character", "player": victim.name}
            picked = pick(g, frame, st, chooser, text, chars, data)
            if picked is None:
                return False
            card = picked
        # As it lies: turned or face down, it stays so.
        zones.move(g.s, card, Zone("party", victim.name), Zone("party", user.name), as_it_lies=True)
        g.emit(
            "take_character",
            f"{g.db[card].name} leaves {victim.name}'s party and joins {user.name}'s.",
            player=user.name,
            victim=victim.name,
            card=card,
        )
        return True

    # R4: a party of 4 takes nobody; C1/C5: a party is never left empty, so only parties
    # of 2 or more can be chosen (the one named before a roll, if any: Roll.against).
    text = "Choose a player to betray."
    return on_named(
        g, frame, st, (text, "betray"), lambda: betrayal_victims(g, use_of(frame), o), betray
    )


@op("exchange_arcane")
def op_exchange_arcane(g: Game, frame: Frame, o: fx.ExchangeArcane, st: dict[str, Any]) -> bool:
    """C7 (Ascension): each target party gives up a normal character (its owner chooses) for
    the top Arcane character."""

    def exchange(p: Player) -> bool:
        normal = normal_characters(g, p)
        # The Arcane deck exists only when a set in play has Arcane characters (C7).
        if not normal or ARCANE_DECK not in g.s.decks:
            return True
        if top_card(g, ARCANE_DECK) is None:  # none left, even in the discard pile
            return True
        if len(normal) == 1:
            card = normal[0]
        else:
            text = "Choose the character who leaves."
            picked = pick(g, frame, st, p.name, text, normal, {"variant": "leaves"})
            if picked is None:
                return False
            card = picked
        arcane = top_card(g, ARCANE_DECK)
        assert arcane is not None
        discard_card(g, card, Zone("party", p.name))
        zones.move(g.s, arcane, Zone("deck", ARCANE_DECK), Zone("party", p.name))
        g.emit(
            "exchange_arcane",
            f"{g.db[card].name} leaves {p.name}'s party; the Arcane {g.db[arcane].name} joins it.",
            player=p.name,
            card=card,
            arcane=arcane,
        )
        return True

    return each_party(g, frame, o, st, exchange)


@op("hire_from_discard")
def op_hire_discard(g: Game, frame: Frame, o: fx.Hire, st: dict[str, Any]) -> bool:
    def hire(p: Player) -> bool:
        pile = g.s.discards["character"]
        if not pile or len(p.party) >= PARTY_LIMIT:
            return True
        text = "Choose a character from the discard pile."
        picked = pick(g, frame, st, p.name, text, list(pile), {"variant": "hire_discard"})
        if picked is None:
            return False
        add_character(g, p, picked, Zone("discard", "character"))
        return True

    return on_party(g, frame, o, st, hire)
