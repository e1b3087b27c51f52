"""Parties, their Strength and Speed (C1-C6), hands (R4) and the decks (D1, D2)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from engine import zones
from engine.cards import AdvantageCard, Card, EncounterCard, RegionCard, deck_of
from engine.cards.effects import Ability, Condition, Duration, Modify, Stat
from engine.rules.regions import region_level
from engine.state import Character, Modifier, Player
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game

HAND_LIMIT = 5  # R4
PARTY_LIMIT = 4  # R4, C1


# ---------------------------------------------------------------------- decks and discards


def top_card(g: Game, deck: str) -> str | None:
    """The top card of a deck, left there; an empty deck is first replaced by its shuffled
    discard pile (D1), except Regions, which are never reshuffled (D2)."""
    pile = g.s.decks[deck]
    if not pile and deck != "region" and g.s.discards[deck]:
        zones.move_all(g.s, Zone("discard", deck), Zone("deck", deck))
        g.shuffle(pile)
        g.emit("reshuffle", f"The {deck} discard pile is shuffled into a new deck.", deck=deck)
    return pile[-1] if pile else None


def draw(g: Game, deck: str, to: Zone) -> str | None:
    """Move the top card of a deck (see :func:`top_card`) to ``to``; None if there is none."""
    if top_card(g, deck) is None:
        return None
    return zones.draw_top(g.s, Zone("deck", deck), to)


def discard_pile(g: Game, card_id: str) -> Zone:
    """Where a discarded card goes: its type's discard pile (D1; an Arcane character's is the
    Arcane discard pile, C7); missions are set aside."""
    kind = deck_of(g.db[card_id])
    return Zone("discard", kind) if kind in g.s.discards else Zone("set_aside")


def discard_card(g: Game, card_id: str, source: Zone) -> None:
    """Move a card from ``source`` to its discard pile (D1)."""
    zones.move(g.s, card_id, source, discard_pile(g, card_id))


# ---------------------------------------------------------------------- characters


def active(p: Player) -> list[Character]:
    """Characters that are not incapacitated (C6)."""
    return [c for c in p.party if not c.incapacitated]


def is_arcane(g: Game, card_id: str) -> bool:
    """C7: an Arcane character."""
    return g.db.character(card_id).arcane


def normal_characters(g: Game, p: Player) -> list[str]:
    """C7: the party's characters that are not Arcane."""
    return [c.card for c in p.party if not is_arcane(g, c.card)]


def skilled_characters(g: Game, p: Player, skill: str) -> list[str]:
    """C4: the characters who may turn to use a Skill card: untapped, active, with the skill."""
    return [
        c.card
        for c in p.party
        if not c.tapped and not c.incapacitated and skill in g.db.character(c.card).skills
    ]


def can_use_skill(g: Game, p: Player, skill: str) -> bool:
    """C4: an untapped, active character with the skill."""
    return bool(skilled_characters(g, p, skill))


def add_character(g: Game, p: Player, card_id: str, source: Zone) -> None:
    """A character joins ``p``'s party from ``source`` (a deck, a discard pile)."""
    zones.move(g.s, card_id, source, Zone("party", p.name))
    g.emit("hire", f"{g.db[card_id].name} joins {p.name}'s party.", player=p.name, card=card_id)


def kill(g: Game, p: Player, card_id: str) -> None:
    """A character dies (C5); a player left without characters forms a new party and discards
    his Organization (A3)."""
    discard_card(g, card_id, Zone("party", p.name))
    g.emit("death", f"{g.db[card_id].name} of {p.name}'s party dies.", player=p.name, card=card_id)
    if not p.party:
        # A3: the Organization goes; so do the Faction and the Artifact, which also belong to
        # the party (a ruling: A6/A7 are silent).
        for lost in (organization(g, p), faction(g, p), artifact(g, p)):
            if lost is not None:
                discard_card(g, lost.id, Zone("in_play", p.name))
                g.emit(
                    "discard",
                    f"{p.name} loses {lost.name}.",
                    player=p.name,
                    card=lost.id,
                    why="lost",
                )
        new = draw(g, "character", Zone("party", p.name))
        if new is not None:
            g.emit(
                "new_party",
                f"{p.name} has lost every character and forms a new party with {g.db[new].name}.",
                player=p.name,
                card=new,
            )


def end_turn(g: Game, p: Player) -> None:
    """B7/M2/E3: the party's turn ends now; it does not reach or stay in its Region."""
    if not p.turn_over:
        g.emit("turn_over", f"{p.name}'s turn is over.", player=p.name)
    p.turn_over = True
    p.arrived = False


def drive_out(g: Game, p: Player) -> None:
    """E3/F2: a party defeated in its Region (by an Encounter, or by a Resistance mission's
    enemies) loses its turn and leaves the Region; a Resistance mission starts over."""
    end_turn(g, p)
    if p.region is not None:
        g.emit(
            "expelled",
            f"{p.name}'s party is driven out of {g.db[p.region].name}.",
            player=p.name,
            region=p.region,
        )
        p.region = None
        p.resisting.clear()


# ---------------------------------------------------------------------- hands


def room_in_hand(p: Player) -> int:
    return max(0, HAND_LIMIT - len(p.hand))


def hand_over_random(
    g: Game, giver: Player, taker: Player, kinds: tuple[str, str], text: str, **public: Any
) -> None:
    """A random Advantage of ``giver``'s hand goes into ``taker``'s (a theft, the spoils of a
    battle): everybody is told ``text`` (event ``kinds[0]``, ``public`` its payload); only the
    two of them learn which card (``kinds[1]``: the same payload and the card)."""
    card = giver.hand[g.randint(len(giver.hand))]
    zones.move(g.s, card, Zone("hand", giver.name), Zone("hand", taker.name))
    g.emit(kinds[0], text, **public)
    g.emit(
        kinds[1],
        f"{g.db[card].name} goes from {giver.name} to {taker.name}.",
        to=[taker.name, giver.name],
        card=card,
        **public,
    )


def draw_advantages(g: Game, p: Player, count: int) -> int:
    """Draw up to ``count`` Advantages, capped by the hand limit (R4); returns how many."""
    drawn: list[str] = []
    for _ in range(min(count, room_in_hand(p))):
        card = draw(g, "advantage", Zone("hand", p.name))
        if card is None:
            break
        drawn.append(card)
    if drawn:
        names = ", ".join(g.db[c].name for c in drawn)
        many = "s" if len(drawn) != 1 else ""
        g.emit("draw", f"{p.name} draws {len(drawn)} Advantage{many}.", player=p.name, n=len(drawn))
        g.emit("draw_private", f"You draw {names}.", to=[p.name], cards=drawn)
    return len(drawn)


# ---------------------------------------------------------------------- Organizations (A3)


def is_organization(card: Card) -> bool:
    """An Organization card (A3): played in the Reset phase, it stays in front of the party."""
    return isinstance(card, AdvantageCard) and card.kind == "organization"


#: Advantage kinds that stay in front of their player once played: Organizations (A3),
#: Incidents until the end of the turn (A4), Factions (A6), Artifacts (A7).
IN_PLAY_KINDS = frozenset({"organization", "incident", "faction", "artifact"})


def stays_in_play(card: AdvantageCard) -> bool:
    """A2-A7: a played card that stays in front of the player instead of being discarded."""
    return card.persistent or card.kind in IN_PLAY_KINDS


def organization(g: Game, p: Player) -> AdvantageCard | None:
    """The Organization the party belongs to, if any (A3: at most one)."""
    for card in p.in_play:
        adv = g.db.advantage(card)
        if is_organization(adv):
            return adv
    return None


def can_join_organization(g: Game, p: Player) -> bool:
    """A3: a party belongs to at most one Organization; to change, it leaves the old one."""
    return organization(g, p) is None


def in_play_of_kind(g: Game, p: Player, kind: str) -> AdvantageCard | None:
    """The first card of ``kind`` (organization, faction, artifact...) ``p`` has in play."""
    for card in p.in_play:
        adv = g.db.advantage(card)
        if adv.kind == kind:
            return adv
    return None


def faction(g: Game, p: Player) -> AdvantageCard | None:
    """The Faction the party belongs to, if any (A6: at most one, besides an Organization)."""
    return in_play_of_kind(g, p, "faction")


def lose_faction(g: Game, p: Player) -> None:
    """A6/E6: the party leaves its Faction, which goes to the discard pile."""
    card = faction(g, p)
    if card is None:
        return
    discard_card(g, card.id, Zone("in_play", p.name))
    g.emit(
        "discard",
        f"{p.name} loses the Faction {card.name}.",
        player=p.name,
        card=card.id,
        why="faction",
    )


def artifact(g: Game, p: Player) -> AdvantageCard | None:
    """The Artifact the party holds, if any (A7: at most one)."""
    return in_play_of_kind(g, p, "artifact")


def _enemies(x: AdvantageCard | None, y: AdvantageCard | None) -> bool:
    return bool(x and y and (y.id in x.rivals or x.id in y.rivals))


def are_rivals(g: Game, a: Player, b: Player) -> bool:
    """I3: the two parties belong to rival Organizations (A3) or enemy Factions (A6)."""
    return _enemies(organization(g, a), organization(g, b)) or _enemies(
        faction(g, a), faction(g, b)
    )


#: The engine's words for a rivalry (its log's line; front ends word it from the code).
RIVALRIES = {"organizations": "rival Organizations", "factions": "enemy Factions"}


def rivalry_kind(g: Game, a: Player, b: Player) -> str:
    """What makes two parties fight (I3): ``organizations`` (rival Organizations) or
    ``factions`` (enemy Factions)."""
    if _enemies(organization(g, a), organization(g, b)):
        return "organizations"
    return "factions"


def rivalry(g: Game, a: Player, b: Player) -> str:
    """What makes two parties fight (I3), in words: rival Organizations or enemy Factions."""
    return RIVALRIES[rivalry_kind(g, a, b)]


# ---------------------------------------------------------------------- conditions, statics


class Versus:
    """The other side of a battle, for conditions (vs, vs_keyword)."""

    def __init__(self, kind: str, keywords: list[str] | None = None) -> None:
        self.kind = kind
        self.keywords = keywords or []


def holds(g: Game, cond: Condition, p: Player, vs: Versus | None = None) -> bool:
    """Does the condition hold for player ``p`` (optionally in a battle against ``vs``)?"""
    if cond.vs is not None and (vs is None or vs.kind != cond.vs):
        return False
    if cond.vs_keyword is not None and (
        vs is None or vs.kind != "monster" or cond.vs_keyword not in vs.keywords
    ):
        return False
    region = g.db.region(p.region) if p.region else None
    if cond.region_level_at_least is not None and (
        region is None or region_level(g, region.id) < cond.region_level_at_least
    ):
        return False
    if cond.in_trade_region is not None and (region is not None and region.trade) != (
        cond.in_trade_region
    ):
        return False
    if cond.party_size_at_most is not None and len(p.party) > cond.party_size_at_most:
        return False
    if cond.party_size_at_least is not None and len(p.party) < cond.party_size_at_least:
        return False
    if cond.has_skill is not None and not can_use_skill(g, p, cond.has_skill):
        return False
    return cond.has_gender is None or any(
        g.db.character(c.card).gender == cond.has_gender for c in active(p)
    )


def static_sources(g: Game, p: Player) -> Iterator[tuple[str, Ability]]:
    """Static abilities of a party: its active characters and its cards in play."""
    statics = g.db.statics
    for c in p.party:
        if not c.incapacitated:
            for ability in statics[c.card]:
                yield c.card, ability
    for card in p.in_play:
        for ability in statics[card]:
            yield card, ability


def static_bonus(g: Game, p: Player, stat: Stat, target: str, vs: Versus | None = None) -> int:
    """Sum of ``p``'s static modifiers of ``stat`` aimed at ``target`` (self or opponent)."""
    total = 0
    for _, ability in static_sources(g, p):
        if holds(g, ability.condition, p, vs):
            for op in ability.effects:
                if isinstance(op, Modify) and op.stat == stat and op.target == target:
                    total += op.amount
    return total


def modifier_bonus(g: Game, p: Player, stat: Stat) -> int:
    """Active duration modifiers (rest M6, mission rewards F1, played cards)."""
    total = 0
    for m in p.modifiers:
        if m.stat != stat:
            continue
        if m.duration == "next_turn" and g.s.turn != m.turn + 1:
            continue
        total += m.amount
    return total


def strength(g: Game, p: Player, vs: Versus | None = None) -> int:
    """Party Strength (C1): active characters only (C6), plus modifiers and statics."""
    base = sum(g.db.character(c.card).strength for c in active(p))
    return max(
        0, base + modifier_bonus(g, p, "strength") + static_bonus(g, p, "strength", "self", vs)
    )


def speed(g: Game, p: Player) -> int:
    """Party Speed (C1): every character, plus modifiers and statics."""
    base = sum(g.db.character(c.card).speed for c in p.party)
    return max(0, base + modifier_bonus(g, p, "speed") + static_bonus(g, p, "speed", "self"))


def add_modifier(
    g: Game, p: Player, stat: Stat, amount: int, duration: Duration, source: str
) -> None:
    p.modifiers.append(
        Modifier(stat=stat, amount=amount, duration=duration, turn=g.s.turn, source=source)
    )


def monster_strength(g: Game, monster: EncounterCard, party: Player) -> int:
    """A monster's Strength plus its own static modifiers (for monsters, ``opponent`` is the
    monster itself and ``self`` the party meeting it)."""
    total = monster.strength or 0
    for ability in monster.abilities:
        if ability.timing == "static" and holds(g, ability.condition, party):
            for op in ability.effects:
                if isinstance(op, Modify) and op.stat == "strength" and op.target == "opponent":
                    total += op.amount
    return total


def region_of(g: Game, p: Player) -> RegionCard | None:
    return g.db.region(p.region) if p.region else None
