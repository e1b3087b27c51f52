"""Setup (S1-S4) and the secret start choice (S3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import zones
from engine.actions import Action
from engine.flow import handles, responds
from engine.rules.regions import lay_out
from engine.rules.sets import dealt, decks
from engine.state import Frame, Player
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game


def deal(g: Game, names: list[str]) -> None:
    """S1-S3: shuffle each type into its own deck, deal missions and the start offers.

    This is where the game's cards come into play (into the decks, the Final mission deck and,
    for Basic missions, set aside); from then on they only move (engine.zones)."""
    options = g.s.options
    for deck in decks(options):  # S1, C7; S5: which cards of the sets are dealt
        pile = dealt(g.db, options, deck)
        g.shuffle(pile)
        g.s.decks[deck] = pile
        g.s.discards[deck] = []
    missions = dealt(g.db, options, "mission")
    g.shuffle(missions)
    g.s.final_deck = dealt(g.db, options, "final_mission")
    g.shuffle(g.s.final_deck)
    g.s.seats = list(names)
    g.s.set_aside = missions  # S2: two for each player, the rest stays there unseen
    for name in names:
        g.s.players[name] = Player(name=name)
        for _ in range(2):
            zones.draw_top(g.s, Zone("set_aside"), Zone("missions", name))  # S2: secret
        for _ in range(2):
            zones.draw_top(g.s, Zone("deck", "character"), Zone("offered_characters", name))
        for _ in range(4):
            zones.draw_top(g.s, Zone("deck", "advantage"), Zone("offered_advantages", name))
    g.emit("setup", f"A game of Anima begins with {', '.join(names)}.", players=names)
    g.push("start_choice")


def _ask_character(g: Game, p: Player) -> None:
    g.ask(
        p.name,
        "start_character",
        "Choose the character who leads your party (S3).",
        [f"keep {c}" for c in p.offered_characters],
    )


def _ask_advantage(g: Game, p: Player) -> None:
    g.ask(
        p.name,
        "start_advantage",
        "Choose the Advantage you give back; you keep the other three (S3).",
        [f"drop {c}" for c in p.offered_advantages],
    )


@handles("start_choice")
def start_choice(g: Game, frame: Frame) -> None:
    """Every player chooses at once; when all have, finish the setup (S3, S4)."""
    if frame.stage == "":
        frame.stage = "choosing"
        for p in g.s.players.values():
            _ask_character(g, p)
        return
    return_offers(g)
    # S4: as many Regions as players, each with a face-down Preliminary Encounter.
    for _ in g.s.seats:
        region = zones.draw_top(g.s, Zone("deck", "region"), Zone("region"))
        assert region is not None, "the Region deck holds more Regions than seats"
        lay_out(g, region)  # TotG: a printed guard stands
        zones.draw_top(g.s, Zone("deck", "encounter"), Zone("preliminary", region))
    names = ", ".join(g.db[r.card].name for r in g.s.regions)
    g.emit(
        "regions",
        f"The first Regions are laid out: {names}.",
        regions=[r.card for r in g.s.regions],
    )
    g.s.stack[-1] = Frame(kind="turn", stage="start")


@responds("start_choice")
def start_choice_answer(g: Game, frame: Frame, player: str, action: Action) -> None:
    p = g.player(player)
    assert action.arg is not None
    if action.type == "keep":
        _keep_character(g, player, action.arg)
        g.emit("start_character", f"{player} chooses a leader.", player=player)
        g.emit(
            "start_character_private",
            f"You lead with {g.db[action.arg].name}.",
            to=[player],
            card=action.arg,
        )
        _ask_advantage(g, p)
    else:
        _keep_advantages(g, player, action.arg)
        g.emit("start_advantages", f"{player} keeps three Advantages.", player=player)


def _keep_character(g: Game, player: str, card: str) -> None:
    """S3: the character kept leads the party."""
    zones.move(g.s, card, Zone("offered_characters", player), Zone("party", player))


def _keep_advantages(g: Game, player: str, dropped: str) -> None:
    """S3: every Advantage offered but ``dropped`` goes to the hand."""
    for card in [c for c in g.player(player).offered_advantages if c != dropped]:
        zones.move(g.s, card, Zone("offered_advantages", player), Zone("hand", player))


def return_offers(g: Game) -> None:
    """S3, once everyone has chosen: what was not kept goes back and both decks are
    reshuffled."""
    for name in g.s.players:
        zones.move_all(g.s, Zone("offered_characters", name), Zone("deck", "character"))
        zones.move_all(g.s, Zone("offered_advantages", name), Zone("deck", "advantage"))
    g.shuffle(g.s.decks["character"])
    g.shuffle(g.s.decks["advantage"])


def default_start(g: Game) -> None:
    """S3 as if every player let the start choice time out (X6: each prompt's default is its
    first choice): the first character offered and the last three Advantages are kept, the
    rest goes back (:func:`return_offers`). No event is emitted and no Region is laid out:
    a caller that skips the choice (``engine.tools.scenario``) sets the table itself."""
    for p in g.s.players.values():
        if p.offered_characters:
            _keep_character(g, p.name, p.offered_characters[0])
        if p.offered_advantages:
            _keep_advantages(g, p.name, p.offered_advantages[0])
    return_offers(g)
