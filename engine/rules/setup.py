"""Setup (S1-S4) and the secret start choice (S3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.flow import handles, responds
from engine.state import Character, Frame, Player, Region

if TYPE_CHECKING:
    from engine.game import Game

DECKS = ("character", "region", "encounter", "advantage")


def deal(g: Game, names: list[str]) -> None:
    """S1-S3: shuffle each type into its own deck, deal missions and the start offers."""
    sets = set(g.s.options.sets)
    for deck in DECKS:
        pile = [c.id for c in g.db if c.type == deck and c.set in sets]
        g.shuffle(pile)
        g.s.decks[deck] = pile
        g.s.discards[deck] = []
    missions = [c.id for c in g.db.missions if c.set in sets]
    g.shuffle(missions)
    g.s.final_deck = [c.id for c in g.db.final_missions if c.set in sets]
    g.shuffle(g.s.final_deck)
    g.s.seats = list(names)
    for name in names:
        p = Player(name=name)
        p.missions = [missions.pop(), missions.pop()]  # S2: secret
        p.offered_characters = [g.s.decks["character"].pop() for _ in range(2)]
        p.offered_advantages = [g.s.decks["advantage"].pop() for _ in range(4)]
        g.s.players[name] = p
    g.s.set_aside = missions  # S2: the rest, unseen
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
    # Everyone has chosen: what was not kept goes back and the decks are reshuffled (S3).
    for p in g.s.players.values():
        g.s.decks["character"].extend(p.offered_characters)
        g.s.decks["advantage"].extend(p.offered_advantages)
        p.offered_characters, p.offered_advantages = [], []
    g.shuffle(g.s.decks["character"])
    g.shuffle(g.s.decks["advantage"])
    # S4: as many Regions as players, each with a face-down Preliminary Encounter.
    for _ in g.s.seats:
        region = g.s.decks["region"].pop()
        encounter = g.s.decks["encounter"].pop()
        g.s.regions.append(Region(card=region, preliminary=encounter, revealed=False))
    names = ", ".join(g.db[r.card].name for r in g.s.regions)
    g.emit("regions", f"The first Regions are laid out: {names}.")
    g.s.stack[-1] = Frame(kind="turn", stage="start")


@responds("start_choice")
def start_choice_answer(g: Game, frame: Frame, player: str, action: Action) -> None:
    p = g.player(player)
    assert action.arg is not None
    if action.type == "keep":
        p.offered_characters.remove(action.arg)
        p.party = [Character(card=action.arg)]
        g.emit("start_character", f"{player} chooses a leader.", player=player)
        g.emit("start_character_private", f"You lead with {g.db[action.arg].name}.", to=[player])
        _ask_advantage(g, p)
    else:
        p.offered_advantages.remove(action.arg)
        p.hand = list(p.offered_advantages)
        p.offered_advantages = [action.arg]
        g.emit("start_advantages", f"{player} keeps three Advantages.", player=player)
