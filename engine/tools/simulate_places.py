"""Per Region and per Encounter figures of a run (``anima simulate --json``: ``regions`` and
``encounters``), read from the events of each game.

A Region's *visits* are the parties that arrived there (``arrive``). Its *fights* are the
battles fought to a result there against an Encounter, a mission's foe or the Crisis!'s
(not another party: those are its ``rival_fights``), and its *wins* the ones the party won;
``mission_fights`` and ``mission_wins`` are the part of them against a mission's or the
Crisis!'s foe (a Final mission's Region sees many).
An Encounter is *met* when it is revealed to a party (``encounter``); its *fights* and *wins*
are the battles against it that reached a result and the ones the party won (a tie goes to
the party, B2); *fled* counts the parties that escaped it (E7, Twilight of the Gods).

A battle is placed where its party stands, or is going: a move reveals the Encounter of the
Region entered before the party arrives there (``move``, then ``encounter`` and ``battle``,
then ``arrive``), so the destination of the last move counts, not the state's Region.
A battle's result can come actions after its start (a battle window lies between), so the
open battle is kept from one action to the next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Self

from engine.cards import CardDB
from engine.events import Event

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tools.simulate import GameResult


@dataclass
class Tally:
    """Counters that add up over games, field by field."""

    def add(self, other: Self) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass
class RegionCount(Tally):
    """One Region over a run (see the module docstring)."""

    visits: int = 0
    fights: int = 0
    wins: int = 0
    #: Of ``fights`` and ``wins``: those against a mission's or the Crisis!'s foe (the
    #: battle names neither a card nor a party), not an Encounter of the Region.
    mission_fights: int = 0
    mission_wins: int = 0
    rival_fights: int = 0


@dataclass
class EncounterCount(Tally):
    """One Encounter over a run (see the module docstring)."""

    met: int = 0
    fights: int = 0
    wins: int = 0
    fled: int = 0


@dataclass
class _OpenBattle:
    player: str
    other: str | None
    card: str | None
    region: str | None


@dataclass
class _GameTally:
    """The counts of one game being played, and what its events left open."""

    # Not ``regions``: the zone check (tests/test_zones.py) reads that name as a pile of cards.
    per_region: dict[str, RegionCount] = field(default_factory=dict)
    per_encounter: dict[str, EncounterCount] = field(default_factory=dict)
    #: Per party: the Region it stands in or is moving to.
    where: dict[str, str | None] = field(default_factory=dict)
    battle: _OpenBattle | None = None

    def region(self, region: str) -> RegionCount:
        return self.per_region.setdefault(region, RegionCount())

    def encounter(self, card: str) -> EncounterCount:
        return self.per_encounter.setdefault(card, EncounterCount())

    def read(self, game: Game, events: Sequence[Event]) -> None:
        """Count one action's events."""
        for event in events:
            kind, data = event.kind, event.data
            player = data.get("player")
            if kind in ("move", "redirect") and player:
                self.where[player] = data["region"]
            elif kind == "arrive" and player:
                self.where[player] = data["region"]
                self.region(data["region"]).visits += 1
            elif kind in ("move_cancelled", "expelled") and player:
                self.where[player] = game.s.players[player].region
            elif kind == "encounter" and player:
                self.encounter(data["card"]).met += 1
            elif kind == "flee" and data.get("success"):
                self.encounter(data["card"]).fled += 1
            elif kind == "battle" and player:
                region = self.where.get(player, game.s.players[player].region)
                self.battle = _OpenBattle(player, data.get("other"), data.get("card"), region)
            elif kind == "battle_cancelled":
                self.battle = None
            elif kind == "battle_result" and self.battle is not None:
                self._result(self.battle, data["winner"] == self.battle.player)
                self.battle = None

    def _result(self, battle: _OpenBattle, party_won: bool) -> None:
        if battle.region is not None:
            place = self.region(battle.region)
            if battle.other is not None:
                place.rival_fights += 1
            else:
                place.fights += 1
                place.wins += party_won
                if battle.card is None:
                    place.mission_fights += 1
                    place.mission_wins += party_won
        if battle.card is not None:
            foe = self.encounter(battle.card)
            foe.fights += 1
            foe.wins += party_won


@dataclass
class PlaceCounts:
    """Counts Regions and Encounters game by game, like the report's card counts: ``watch``
    gives the simulator an observer for a game, ``finish`` adds the game once it is over (a
    game the engine failed counts for nothing)."""

    per_region: dict[str, RegionCount] = field(default_factory=dict)
    per_encounter: dict[str, EncounterCount] = field(default_factory=dict)
    _games: dict[int, _GameTally] = field(default_factory=dict)

    def watch(self, seed: int) -> Callable[[Game, list[Event]], None]:
        """An observer of game ``seed`` for :func:`engine.tools.simulate.play_game`."""
        tally = self._games[seed] = _GameTally()
        return tally.read

    def finish(self, result: GameResult) -> None:
        tally = self._games.pop(result.seed, None)
        if tally is None or result.error is not None:
            return
        for region, count in tally.per_region.items():
            self.per_region.setdefault(region, RegionCount()).add(count)
        for card, enc in tally.per_encounter.items():
            self.per_encounter.setdefault(card, EncounterCount()).add(enc)

    def to_json(self, db: CardDB, all_cards: Sequence[str]) -> dict[str, Any]:
        """``regions`` and ``encounters``: every Region and Encounter of the sets in play, in
        the cards' order, with its counts (zeros for one never seen: a finding too)."""
        return {
            "regions": {
                c: asdict(self.per_region.get(c, RegionCount()))
                for c in all_cards
                if db[c].type == "region"
            },
            "encounters": {
                c: {
                    "kind": db.encounter(c).kind,
                    **asdict(self.per_encounter.get(c, EncounterCount())),
                }
                for c in all_cards
                if db[c].type == "encounter"
            },
        }


__all__ = ["EncounterCount", "PlaceCounts", "RegionCount"]
