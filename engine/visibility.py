"""Who may see a card where it is: a zone's :func:`visibility` (from its kind's sight,
:data:`engine.zones.ZONE_KINDS`), and the cards a viewer may not see (:func:`hidden_from`)
or everybody may (:func:`seen_by_all`), for views, events, undo and the no-leak tests."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.state import GameState
from engine.zones import ZONE_KINDS, Sight, Zone, ZoneKind, locate, piles, region_at, trap_key


@dataclass(frozen=True, slots=True)
class Visibility:
    """Who may see a card: everybody, or only the listed players (none: nobody)."""

    everyone: bool = False
    players: frozenset[str] = frozenset()

    def allows(self, viewer: str | None) -> bool:
        """Whether ``viewer`` (None: the public, a spectator) may see the card."""
        return self.everyone or (viewer is not None and viewer in self.players)


EVERYONE = Visibility(everyone=True)
NOBODY = Visibility()


#: The sight of each kind of zone (read for every zone of every view built).
_SIGHT: dict[ZoneKind, Sight] = {kind: info.sight for kind, info in ZONE_KINDS.items()}


@lru_cache(maxsize=1024)
def _only(player: str) -> Visibility:
    """Visible to ``player`` alone (one shared object per player: views ask for it for
    every zone a player owns)."""
    return Visibility(players=frozenset((player,)))


def visibility(zone: Zone, state: GameState) -> Visibility:
    """Who may see the cards of ``zone`` now."""
    sight = _SIGHT[zone.kind]
    if sight == "everyone":
        return EVERYONE
    if sight == "nobody":
        return NOBODY
    if sight == "owner" or (sight == "owner_in_setup" and state.phase == "setup"):
        return _only(zone.key)
    if sight == "owner_in_setup":
        return EVERYONE
    if sight == "trap_owner":
        return _only(trap_key(zone.key)[1])
    region = region_at(state, zone.key)
    return EVERYONE if region.revealed else Visibility(players=frozenset(region.peeked))


def hidden_from(state: GameState, viewer: str | None) -> set[str]:
    """Every card ``viewer`` (None: the public) may not see, wherever it is."""
    hidden: set[str] = set()
    for zone, cards in piles(state):
        if cards and not visibility(zone, state).allows(viewer):
            hidden.update(cards)
    return hidden


#: The kinds of zone whose cards everybody may see, at least at times (a deck, a hand, a Trap
#: never shows its cards to the table).
OPEN_KINDS: frozenset[ZoneKind] = frozenset(
    kind for kind, sight in _SIGHT.items() if sight not in ("nobody", "owner", "trap_owner")
)


def seen_by_all(state: GameState) -> set[str]:
    """Every card everybody may see now, wherever it is (the face-up cards of the table)."""
    seen: set[str] = set()
    for zone, cards in piles(state, OPEN_KINDS):
        if cards and visibility(zone, state).everyone:
            seen.update(cards)
    return seen


def is_visible_to(state: GameState, card: str, viewer: str | None) -> bool:
    """Whether ``viewer`` (None: the public) may see ``card`` where it is now."""
    return visibility(locate(state, card), state).allows(viewer)
