"""A scenario's starting position laid on a new game: cards put in their places."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import zones
from engine.cards import CardDB, deck_of
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules.regions import lay_out
from engine.rules.setup import default_start
from engine.rules.turn import start_turn
from engine.state import Frame, GameState
from engine.tools.scenario.format import CharacterSetup, Scenario, ScenarioError, Setup
from engine.zones import Zone


def card_places(s: GameState) -> list[str]:
    """Every card id in the state, once per place it is in (the map of :mod:`engine.zones`)."""
    return zones.all_cards(s)


def home(g: Game, card: str) -> Zone:
    """Where a card goes when a setup does not use it: its deck (missions: set aside; Final
    missions: their deck)."""
    kind = deck_of(g.db[card])  # an Arcane character's deck is "arcane" (C7)
    if kind in g.s.decks:
        return Zone("deck", kind)
    return Zone("final_deck") if kind == "final_mission" else Zone("set_aside")


def send_home(g: Game, card: str, source: Zone) -> None:
    """Move ``card`` from ``source`` to the bottom of its deck (set-aside missions: on top)."""
    destination = home(g, card)
    zones.move(g.s, card, source, destination, bottom=destination.kind != "set_aside")


def place_card(g: Game, card: str, destination: Zone) -> None:
    """Move ``card`` from wherever it is to ``destination`` (on top of a pile). An active
    Region taken away sends its Preliminary Encounter home first."""
    source = zones.locate(g.s, card)
    if source.kind == "region":
        under = next(r.preliminary for r in g.s.regions if r.card == card)
        if under:
            send_home(g, under, Zone("preliminary", card))
    zones.move(g.s, card, source, destination)


@dataclass
class _Named:
    """Every card the setup names, with where, to check types and duplicates first."""

    db: CardDB
    sets: set[str]
    seen: dict[str, str] = field(default_factory=dict)

    def check(self, card: str, where: str, *types: str) -> None:
        if card not in self.db.by_id:
            raise ScenarioError(f"{where}: unknown card {card!r}")
        found = self.db[card]
        if found.type not in types:
            wanted = types[0].replace("_", " ")
            raise ScenarioError(f"{where}: {card!r} is a {found.type} card, not {_a(wanted)}")
        if found.set not in self.sets:
            raise ScenarioError(f"{where}: {card!r} is from {found.set}, not in options.sets")
        if card in self.seen:
            raise ScenarioError(f"{where}: {card!r} is already placed at {self.seen[card]}")
        self.seen[card] = where


def _a(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


def _character_id(entry: str | CharacterSetup) -> str:
    return entry if isinstance(entry, str) else entry.card


def _check_setup(g: Game, setup: Setup) -> set[str]:
    """Validate every card id of the setup against the cards; returns the named ids."""
    named = _Named(g.db, set(g.s.options.sets))
    for name, ps in setup.players.items():
        where = f"setup.players.{name}"
        for entry in ps.party or []:
            named.check(_character_id(entry), f"{where}.party", "character")
        for card in ps.hand or []:
            named.check(card, f"{where}.hand", "advantage")
        for card in ps.in_play or []:
            named.check(card, f"{where}.in_play", "advantage")
        for key in ("missions", "started", "completed"):
            for card in getattr(ps, key) or []:
                named.check(card, f"{where}.{key}", "mission")
    active: set[str] = set()
    for i, r in enumerate(setup.regions or []):
        named.check(r.card, f"setup.regions.{i}.card", "region")
        active.add(r.card)
        if r.preliminary is not None:
            named.check(r.preliminary, f"setup.regions.{i}.preliminary", "encounter")
        for owner, traps in r.traps.items():
            where = f"setup.regions.{i}.traps.{owner}"
            if owner not in g.s.players:
                raise ScenarioError(f"{where}: {owner!r} is not a player")
            for card in traps:
                named.check(card, where, "advantage")
                if g.db.advantage(card).kind != "trap":
                    raise ScenarioError(f"{where}: {card!r} is not a Trap")
    for deck, cards in setup.decks.items():
        if deck not in g.s.decks:
            raise ScenarioError(f"setup.decks.{deck}: no such deck with these sets")
        for card in cards:
            named.check(card, f"setup.decks.{deck}", "character" if deck == "arcane" else deck)
            if deck_of(g.db[card]) != deck:
                raise ScenarioError(f"setup.decks.{deck}: {card!r} belongs to another deck")
    if setup.final_mission is not None:
        named.check(setup.final_mission, "setup.final_mission", "final_mission")
    for name, ps in setup.players.items():
        if ps.region is not None and setup.regions is not None and ps.region not in active:
            raise ScenarioError(
                f"setup.players.{name}.region: {ps.region!r} is not one of setup.regions"
            )
    return set(named.seen)


def _top_unnamed(pile: list[str], named: set[str]) -> str | None:
    """The topmost card of ``pile`` that the setup does not name."""
    return next((card for card in reversed(pile) if card not in named), None)


def _replace(g: Game, zone: Zone, cards: list[str]) -> None:
    """Send the zone's current cards home, then move ``cards`` into it, in order."""
    for card in zones.cards_in(g.s, zone):
        send_home(g, card, zone)
    for card in cards:
        place_card(g, card, zone)


def apply_setup(g: Game, setup: Setup) -> None:
    """Skip the start choice and put every named card where the setup says, each card staying
    in exactly one place; then start the game at a fresh turn (R1 and T2 apply)."""
    s = g.s
    every_card = set(zones.all_cards(s))
    named = _check_setup(g, setup)
    default_start(g)  # S3 as if every start choice timed out (X6)
    # The active Regions: the setup's, or S4 (as many as players, face down) from the cards
    # the setup does not name.
    if setup.regions is None:
        for _ in s.seats:
            region = _top_unnamed(s.decks["region"], named)
            if region is None:
                break
            zones.move(s, region, Zone("deck", "region"), Zone("region"))
            lay_out(g, region)
            encounter = _top_unnamed(s.decks["encounter"], named)
            if encounter is not None:
                zones.move(s, encounter, Zone("deck", "encounter"), Zone("preliminary", region))
    else:
        for r in list(s.regions):
            if r.preliminary:
                send_home(g, r.preliminary, Zone("preliminary", r.card))
            send_home(g, r.card, Zone("region"))
        for spec in setup.regions:
            place_card(g, spec.card, Zone("region"))
            if spec.preliminary is not None:
                place_card(g, spec.preliminary, Zone("preliminary", spec.card))
            s.regions[-1].revealed = spec.revealed
            lay_out(g, spec.card)
            if spec.guarded is not None:
                s.regions[-1].guarded = spec.guarded and g.db.region(spec.card).guard is not None
            for owner, traps in spec.traps.items():
                for trap in traps:
                    place_card(g, trap, zones.traps_zone(spec.card, owner))
    for name, ps in setup.players.items():
        p = s.players[name]
        if ps.party is not None:
            _replace(g, Zone("party", name), [_character_id(e) for e in ps.party])
        for key in ("hand", "missions", "started", "completed", "in_play"):
            cards = getattr(ps, key)
            if cards is not None:
                _replace(g, Zone(key, name), cards)
        if "region" in ps.model_fields_set:
            if ps.region is not None and ps.region not in {r.card for r in s.regions}:
                raise ScenarioError(
                    f"setup.players.{name}.region: {ps.region!r} is not an active Region"
                )
            p.region = ps.region
    if "final_mission" in setup.model_fields_set:
        if s.final_mission is not None:
            send_home(g, s.final_mission, Zone("final_mission"))
        if setup.final_mission is not None:
            place_card(g, setup.final_mission, Zone("final_mission"))
            limit = g.db.final_mission(setup.final_mission).crisis.limit
            s.crisis = setup.crisis or (limit if s.options.crisis else None)
    elif setup.crisis is not None:
        raise ScenarioError("setup.crisis: there is no Final mission (setup.final_mission)")
    for deck, cards in setup.decks.items():
        for card in reversed(cards):  # the engine draws from the end: the first listed on top
            place_card(g, card, Zone("deck", deck))
    try:
        zones.check_conservation(s, every_card)
    except zones.ZoneError as exc:
        raise ScenarioError(f"setup bug: {exc}") from None
    _start(g, setup)


def _start(g: Game, setup: Setup) -> None:
    s = g.s
    s.prompts = []
    s.turn = setup.turn - 1
    if setup.phase == "reset":
        s.stack = [Frame(kind="turn", stage="start")]
        g.advance()
        return
    # A later phase: the turn starts (R1, T2, T3), the earlier phases are skipped, then the
    # setup's turned and incapacitated characters are laid as given.
    start_turn(g)
    s.phase = setup.phase
    for name, ps in setup.players.items():
        p = s.players[name]
        flags = {e.card: e for e in ps.party or [] if isinstance(e, CharacterSetup)}
        for c in p.party:
            if c.card in flags:
                c.tapped, c.incapacitated = flags[c.card].tapped, flags[c.card].incapacitated
    for p in s.players.values():
        p.arrived = p.region is not None and setup.phase in ("interaction", "exploration")
    s.stack = [Frame(kind="turn", stage=setup.phase, data={"i": 0})]
    g.advance()


def build_game(scenario: Scenario, cards: CardDB | None = None) -> Game:
    """The game a scenario starts from (its setup applied, its dice rigged)."""
    try:
        game = Game.new(
            scenario.players, scenario.options, scenario.seed, cards, rigged=scenario.dice
        )
    except IllegalAction as exc:
        raise ScenarioError(f"players: {exc}") from None
    if scenario.setup is not None:
        apply_setup(game, scenario.setup)  # a tie in Speed at its first turn rolls dice (T2)
    return game
