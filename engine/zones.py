"""Where cards are: the one map of every zone a card can be in, and who may see it there.

Every card of a game is in exactly one :class:`Zone` at any time (D1). A zone is a *kind*
(the table :data:`ZONE_KINDS`) and a *key*: the deck it belongs to, the player who owns it, the
Region it lies at, or the kind of frame that holds it on the stack. What a viewer may see of a
zone is its visibility (:mod:`engine.visibility`). :func:`zones` walks the map with a copy of each
zone's cards; :func:`piles`, the same walk without copies, is for callers that only read
(views walk it at every decision).

:func:`move` is the one way a card changes place: it checks that the card is where the caller
says, then puts it in its destination. :func:`draw_top` and :func:`move_all` are built on it.
The setup (S1, S2) alone makes cards appear, by dealing the game's cards into their decks.

Cards held on the stack: an Encounter drawn to be met while exploring (E4) or at a change of
level of the Tree of Regions (O1) leaves its deck and is held by its ``encounter`` frame until
it is discarded; that frame is its place (zone ``stack``, key ``encounter``). Every other card a
frame names stays where it is (see :data:`FRAME_CARDS`).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from engine.state import Character, Frame, GameState, Player, Region, Trap

ZoneKind = Literal[
    "deck",
    "discard",
    "hand",
    "party",
    "missions",
    "started",
    "completed",
    "in_play",
    "offered_characters",
    "offered_advantages",
    "region",
    "preliminary",
    "set_aside",
    "final_deck",
    "final_mission",
    "stack",
    "traps",
]

#: Who may see a zone's cards: everybody; its owner (the player of the key); its owner only
#: during the setup (S3), then everybody; nobody; a face-down Preliminary Encounter: nobody but
#: the players who scouted it, everybody once it is revealed; a Trap on a Region: the player who
#: laid it (the key's part after the ``/``).
Sight = Literal["everyone", "owner", "owner_in_setup", "nobody", "face_down", "trap_owner"]


class ZoneError(RuntimeError):
    """A card is not where a move says it is, a destination cannot take it, or a card is in
    no zone (or two): a rules bug, never a player's mistake."""


class Zone(NamedTuple):
    """One place for cards: a kind of :data:`ZONE_KINDS` and its key (deck name, player name,
    Region card id, frame kind; empty when the kind has one zone per game).

    A named tuple rather than a frozen dataclass: the rules build one or two for every card
    they move, and a frozen dataclass costs three times as much to build."""

    kind: ZoneKind
    key: str = ""

    def __str__(self) -> str:
        return f"{self.kind}:{self.key}" if self.key else self.kind


@dataclass(frozen=True, slots=True)
class ZoneKindInfo:
    """What a kind of zone is: what its key names, who sees its cards, whether how many cards
    it holds is public, and the rule behind it."""

    key: Literal["", "deck", "player", "region", "frame", "region/player"]
    sight: Sight
    count_public: bool
    rule: str
    what: str


ZONE_KINDS: dict[ZoneKind, ZoneKindInfo] = {
    "deck": ZoneKindInfo("deck", "nobody", True, "D1", "a draw deck, face down (top: the end)"),
    "discard": ZoneKindInfo("deck", "everyone", True, "D1", "a discard pile, face up"),
    "hand": ZoneKindInfo("player", "owner", True, "R4", "a player's Advantages in hand"),
    "party": ZoneKindInfo(
        "player", "owner_in_setup", True, "C1, S3", "a party's characters (secret during S3)"
    ),
    "missions": ZoneKindInfo("player", "owner", True, "S2, F1", "secret Basic missions"),
    "started": ZoneKindInfo("player", "everyone", True, "F1", "announced Basic missions"),
    "completed": ZoneKindInfo("player", "everyone", True, "F1", "completed Basic missions"),
    "in_play": ZoneKindInfo("player", "everyone", True, "A2, A3", "Advantages in play"),
    "offered_characters": ZoneKindInfo("player", "owner", True, "S3", "start offer: characters"),
    "offered_advantages": ZoneKindInfo("player", "owner", True, "S3", "start offer: Advantages"),
    "region": ZoneKindInfo("", "everyone", True, "S4, M4", "the active Regions"),
    "preliminary": ZoneKindInfo(
        "region", "face_down", True, "S4, M2", "a Region's Preliminary Encounter"
    ),
    "set_aside": ZoneKindInfo("", "nobody", True, "S2", "Basic missions set aside unseen"),
    "final_deck": ZoneKindInfo("", "nobody", True, "F3", "the Final mission deck"),
    "final_mission": ZoneKindInfo("", "everyone", True, "F3", "the revealed Final mission"),
    "stack": ZoneKindInfo("frame", "everyone", True, "E4, O1", "an Encounter being met"),
    "traps": ZoneKindInfo(
        "region/player", "trap_owner", True, "A5, M9", "Traps one player laid on a Region"
    ),
}

#: Player zones that are plain lists of card ids (the party is a list of Characters).
PLAYER_PILES: tuple[ZoneKind, ...] = (
    "hand",
    "missions",
    "started",
    "completed",
    "in_play",
    "offered_characters",
    "offered_advantages",
)


def _holds_encounter(frame: Frame) -> bool:
    # A Preliminary Encounter stays at its Region while it is met (M7: a monster that wins
    # stays there); the frame only names it.
    return frame.data.get("context") != "preliminary"


def _refers(frame: Frame) -> bool:
    return False


#: Each kind of frame that names a card in ``card``: whether it holds the card (the card is
#: nowhere else while the frame resolves) and what the card is. A frame of a kind not listed
#: here that names a card is a :class:`ZoneError`: a new kind must say whether it holds it.
#: Cards named in a frame's ``data`` are never held: a ``trade`` frame's offer (``give``,
#: ``ask``, ``payment``) stays in the hands and parties until the exchange; a ``pickup``
#: frame's queue names cards in the discard piles; a ``move`` or ``explore_new`` frame's
#: ``region`` is an active Region or, before it is explored, a Region in the discard pile.
FRAME_CARDS: dict[str, tuple[Callable[[Frame], bool], str]] = {
    "encounter": (_holds_encounter, "the Encounter met; held unless it is a Preliminary one"),
    "battle": (_refers, "the monster fought: an Encounter on the stack or at its Region"),
    "effects": (_refers, "the card whose operations run: in play, discarded, a character..."),
    "mission": (_refers, "the mission attempted: secret, started, or the Final mission"),
    "skill_choice": (_refers, "the Skill card about to be played, still in its player's hand"),
    "place_trap": (_refers, "the Trap about to be laid (A5), still in its player's hand"),
}

#: Where a card held on the stack goes when its frame is dropped unfinished (the game ends):
#: an Encounter met is discarded (M7, E4).
RELEASE: dict[str, Zone] = {"encounter": Zone("discard", "encounter")}


# ---------------------------------------------------------------------- the map


def traps_zone(region: str, owner: str) -> Zone:
    """The zone of the Traps ``owner`` laid on ``region`` (A5)."""
    return Zone("traps", f"{region}/{owner}")


def trap_key(key: str) -> tuple[str, str]:
    """(Region, owner) of a ``traps`` zone's key (card ids never hold a ``/``)."""
    region, _, owner = key.partition("/")
    return region, owner


def region_at(state: GameState, card: str) -> Region:
    for region in state.regions:
        if region.card == card:
            return region
    raise ZoneError(f"{card!r} is not an active Region")


def _player(state: GameState, name: str) -> Player:
    try:
        return state.players[name]
    except KeyError:
        raise ZoneError(f"{name!r} is not a player of this game") from None


def _held(frame: Frame) -> bool:
    """Whether ``frame`` holds its card (False when it names none)."""
    if frame.card is None:
        return False
    entry = FRAME_CARDS.get(frame.kind)
    if entry is None:
        raise ZoneError(
            f"a {frame.kind!r} frame names {frame.card!r}, but engine.zones.FRAME_CARDS does not "
            "say whether that kind of frame holds its card"
        )
    return entry[0](frame)


#: The zones a game has one of (built once: the map is walked for every view).
_SET_ASIDE, _FINAL_DECK = Zone("set_aside"), Zone("final_deck")
_FINAL_MISSION, _REGIONS = Zone("final_mission"), Zone("region")


def piles(
    state: GameState, kinds: Container[ZoneKind] = ZONE_KINDS
) -> Iterator[tuple[Zone, Sequence[str]]]:
    """Every zone of the game (of ``kinds``: all by default) with its cards, in a fixed
    order: decks, discard piles, set-aside and Final cards, Regions, players, the stack.

    The sequences are the state's own lists where it keeps the zone as a list (decks, hands,
    piles): the caller reads them and must not change them, nor move cards while it walks.
    Views walk the map several times per decision; copying every deck would cost more than
    the rest of the walk. :func:`zones` gives copies."""
    if "deck" in kinds:
        for deck, pile in state.decks.items():
            yield Zone("deck", deck), pile
    if "discard" in kinds:
        for deck, pile in state.discards.items():
            yield Zone("discard", deck), pile
    if "set_aside" in kinds:
        yield _SET_ASIDE, state.set_aside
    if "final_deck" in kinds:
        yield _FINAL_DECK, state.final_deck
    if "final_mission" in kinds:
        yield _FINAL_MISSION, (state.final_mission,) if state.final_mission else ()
    if "region" in kinds:
        yield _REGIONS, [r.card for r in state.regions]
    if "preliminary" in kinds:
        for region in state.regions:
            if region.preliminary:
                yield Zone("preliminary", region.card), (region.preliminary,)
    if "traps" in kinds:
        for region in state.regions:
            if region.traps:
                for owner in dict.fromkeys(t.owner for t in region.traps):
                    cards = [t.card for t in region.traps if t.owner == owner]
                    yield traps_zone(region.card, owner), cards
    party = "party" in kinds
    player_piles = [kind for kind in PLAYER_PILES if kind in kinds]
    for name, p in state.players.items():
        if party:
            yield Zone("party", name), [c.card for c in p.party]
        for kind in player_piles:
            yield Zone(kind, name), getattr(p, kind)
    if "stack" in kinds:
        for frame in state.stack:
            if _held(frame):
                assert frame.card is not None
                yield Zone("stack", frame.kind), (frame.card,)


def zones(state: GameState) -> Iterator[tuple[Zone, list[str]]]:
    """Every zone of the game with its cards (a list made for the caller), in the order of
    :func:`piles`."""
    for zone, cards in piles(state):
        yield zone, list(cards)


def all_cards(state: GameState) -> list[str]:
    """Every card id of the game, once per place it is in (a card in two places: twice)."""
    return [card for _, cards in piles(state) for card in cards]


def places(state: GameState) -> list[tuple[str, Zone]]:
    """Every (card, zone) pair of the game (a card in two places appears twice)."""
    return [(card, zone) for zone, cards in piles(state) for card in cards]


def where(state: GameState) -> dict[str, Zone]:
    """Card id -> its zone, for every card of the game; a card in two places is a ZoneError."""
    found: dict[str, Zone] = {}
    for card, zone in places(state):
        if card in found:
            raise ZoneError(f"{card!r} is in two places: {found[card]} and {zone}")
        found[card] = zone
    return found


def check_conservation(state: GameState, expected: set[str]) -> None:
    """D1: every card of ``expected`` (the game's cards) in exactly one zone, and no other
    card anywhere; else a ZoneError naming the cards in two places, missing or unknown."""
    seen: set[str] = set()
    twice: set[str] = set()
    for card in all_cards(state):
        (twice if card in seen else seen).add(card)
    if twice or seen != expected:
        raise ZoneError(
            f"cards not in exactly one place: in two {sorted(twice)}, "
            f"missing {sorted(expected - seen)}, unknown {sorted(seen - expected)}"
        )


def locate(state: GameState, card: str) -> Zone:
    """The zone ``card`` is in; a card in no zone is a ZoneError."""
    for zone, cards in piles(state):
        if card in cards:
            return zone
    raise ZoneError(f"{card!r} is in no zone of this game")


def cards_in(state: GameState, zone: Zone) -> list[str]:
    """The cards of ``zone`` in order (decks and piles: bottom first, top last)."""
    kind = zone.kind
    if kind == "party":
        return [c.card for c in _player(state, zone.key).party]
    if kind == "region":
        return [r.card for r in state.regions]
    if kind == "preliminary":
        preliminary = region_at(state, zone.key).preliminary
        return [preliminary] if preliminary else []
    if kind == "final_mission":
        return [state.final_mission] if state.final_mission else []
    if kind == "stack":
        return [f.card for f in state.stack if f.kind == zone.key and f.card and _held(f)]
    if kind == "traps":
        region_card, owner = trap_key(zone.key)
        return [t.card for t in region_at(state, region_card).traps if t.owner == owner]
    return list(_pile(state, zone))


# ---------------------------------------------------------------------- moving cards


#: The list of card ids behind each pile kind of zone, from the state and the zone's key.
_PILES: dict[str, Callable[[GameState, str], list[str]]] = {
    "deck": lambda s, key: s.decks[key],
    "discard": lambda s, key: s.discards[key],
    "set_aside": lambda s, key: s.set_aside,
    "final_deck": lambda s, key: s.final_deck,
    "hand": lambda s, key: s.players[key].hand,
    "missions": lambda s, key: s.players[key].missions,
    "started": lambda s, key: s.players[key].started,
    "completed": lambda s, key: s.players[key].completed,
    "in_play": lambda s, key: s.players[key].in_play,
    "offered_characters": lambda s, key: s.players[key].offered_characters,
    "offered_advantages": lambda s, key: s.players[key].offered_advantages,
}


def _pile(state: GameState, zone: Zone) -> list[str]:
    """The list of card ids behind a pile zone."""
    get = _PILES.get(zone.kind)
    if get is None:
        raise ZoneError(f"{zone} is not a pile of cards")
    try:
        return get(state, zone.key)
    except KeyError:
        raise ZoneError(f"there is no {zone} in this game") from None


def _take(state: GameState, card: str, zone: Zone) -> Character | None:
    """Take ``card`` out of ``zone``; returns its Character record when it left a party."""
    kind = zone.kind
    if kind in _PILES:  # the common case first: moves are on the engine's hot path
        pile = _pile(state, zone)
        if card in pile:
            pile.remove(card)
            return None
    elif kind == "party":
        party = _player(state, zone.key).party
        for i, ch in enumerate(party):
            if ch.card == card:
                del party[i]
                return ch
    elif kind == "region":
        for i, region in enumerate(state.regions):
            if region.card == card:
                if region.preliminary:
                    raise ZoneError(f"{card!r} still holds its Preliminary {region.preliminary!r}")
                if region.traps:
                    raise ZoneError(f"{card!r} still holds Traps")
                del state.regions[i]
                return None
    elif kind == "preliminary":
        region = region_at(state, zone.key)
        if region.preliminary == card:
            region.preliminary = None
            return None
    elif kind == "final_mission":
        if state.final_mission == card:
            state.final_mission = None
            return None
    elif kind == "traps":
        region_card, owner = trap_key(zone.key)
        traps = region_at(state, region_card).traps
        for i, trap in enumerate(traps):
            if trap.card == card and trap.owner == owner:
                del traps[i]
                return None
    else:  # stack
        for frame in reversed(state.stack):
            if frame.card == card and frame.kind == zone.key and _held(frame):
                frame.card = None
                return None
    raise ZoneError(f"{card!r} is not in {zone}")


def _check_room(state: GameState, card: str, zone: Zone) -> None:
    """A destination must exist and have room (a slot holds one card), so that a refused
    move changes nothing."""
    kind = zone.kind
    if kind in _PILES:
        _pile(state, zone)
    elif kind == "party":
        _player(state, zone.key)
    elif kind == "preliminary":
        if region_at(state, zone.key).preliminary is not None:
            raise ZoneError(f"{zone} already holds a Preliminary Encounter")
    elif kind == "final_mission":
        if state.final_mission is not None:
            raise ZoneError("the Final mission is already revealed")
    elif kind == "traps":
        region_card, owner = trap_key(zone.key)
        region_at(state, region_card)
        _player(state, owner)
    elif kind == "stack":
        top = state.stack[-1] if state.stack else None
        holds = FRAME_CARDS.get(top.kind) if top is not None else None
        if top is None or top.kind != zone.key or top.card is not None or holds is None:
            raise ZoneError(f"{card!r} goes on the stack: the top frame must be an empty {zone}")
        if not holds[0](top):
            raise ZoneError(f"this {top.kind!r} frame does not hold its card")


def _put(
    state: GameState, card: str, zone: Zone, bottom: bool, lying: Character | None = None
) -> None:
    kind = zone.kind
    if kind in _PILES:
        if bottom:
            _pile(state, zone).insert(0, card)
        else:
            _pile(state, zone).append(card)
    elif kind == "party":
        _player(state, zone.key).party.append(lying if lying is not None else Character(card=card))
    elif kind == "region":
        state.regions.append(Region(card=card))
    elif kind == "preliminary":
        region_at(state, zone.key).preliminary = card
    elif kind == "final_mission":
        state.final_mission = card
    elif kind == "traps":
        region_card, owner = trap_key(zone.key)
        region_at(state, region_card).traps.append(Trap(card=card, owner=owner))
    else:  # stack: the top frame, checked by _check_room
        state.stack[-1].card = card


def move(
    state: GameState,
    card: str,
    source: Zone,
    destination: Zone,
    *,
    bottom: bool = False,
    as_it_lies: bool = False,
) -> None:
    """Move ``card`` from ``source`` to ``destination``: the one way a card changes place.

    Piles take it on top (their end; ``bottom``: at their start), a party as a new untapped
    character, the Regions as a new active Region with no Preliminary Encounter, the stack as
    the card of its top frame (pushed first, naming no card). With ``as_it_lies``, a character
    going from one party to another keeps how it lies (turned, incapacitated). A card not in
    ``source`` or a destination without room raises :class:`ZoneError` and changes nothing.
    """
    take_from, put_on = _PILES.get(source.kind), _PILES.get(destination.kind)
    if take_from is not None and put_on is not None:
        # Pile to pile, the common case, inline: moves are on the engine's hot path.
        try:
            to = put_on(state, destination.key)
            take_from(state, source.key).remove(card)
        except KeyError:
            _pile(state, source)  # raises the ZoneError naming the missing zone
            _pile(state, destination)
            raise
        except ValueError:
            raise ZoneError(f"{card!r} is not in {source}") from None
        if bottom:
            to.insert(0, card)
        else:
            to.append(card)
        return
    _check_room(state, card, destination)
    taken = _take(state, card, source)
    _put(state, card, destination, bottom, taken if as_it_lies else None)


def draw_top(state: GameState, source: Zone, destination: Zone) -> str | None:
    """Move the top card of the pile ``source`` (its last) to ``destination``; None when the
    pile is empty."""
    pile = _pile(state, source)
    if not pile:
        return None
    card = pile[-1]
    if destination.kind in _PILES:  # pile to pile, the common case
        _pile(state, destination).append(pile.pop())
        return card
    _check_room(state, card, destination)
    pile.pop()  # the top card: no search through the pile
    _put(state, card, destination, bottom=False)
    return card


def move_all(state: GameState, source: Zone, destination: Zone) -> None:
    """Move every card of ``source`` to ``destination``, in order (bottom first)."""
    for card in cards_in(state, source):
        move(state, card, source, destination)


def clear_stack(state: GameState) -> None:
    """Drop every frame (the game ends); a card a frame holds goes where :data:`RELEASE` says
    first, so that no card leaves the game with its frame."""
    for frame in reversed(state.stack):
        if _held(frame):
            assert frame.card is not None
            release = RELEASE.get(frame.kind)
            if release is None:
                raise ZoneError(f"nowhere to put {frame.card!r} held by a {frame.kind!r} frame")
            _put(state, frame.card, release, bottom=False)
            frame.card = None
    state.stack.clear()
