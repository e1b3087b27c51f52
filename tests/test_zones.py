"""The map of zones (engine/zones.py): where a card can be, who may see it there, and the one
way it moves.

Three guards keep the map the only truth about places:

- every field of the state is either a zone of the map or declared to hold no card's place
  (a new field, e.g. the Traps of an expansion, fails here until it is a zone);
- no module of the engine moves a card behind the map's back: a static scan (AST) flags a
  mutation of a card pile (``.hand.append``, ``.decks[...].pop``, ``p.party = ...``,
  ``region.preliminary = ...``, a local alias of a pile changed...) outside engine/zones.py;
- at run time, tests/test_properties.py replays each action's recorded moves over the map
  before the action and finds the map after it (a change that bypassed the map would differ).
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from engine import visibility as sight
from engine import zones
from engine.game import Game
from engine.rules.sets import in_game
from engine.state import Frame, GameState, Player, Region, Trap
from engine.visibility import EVERYONE, NOBODY, Visibility
from engine.zones import ZONE_KINDS, Zone, ZoneError


def dealt_ids(game: Game) -> set[str]:
    """The ids of the cards of the game's sets (cards.json holds every set)."""
    return {c.id for c in game.db if in_game(c, game.s.options)}


ENGINE = Path(__file__).resolve().parent.parent / "engine"


def new_game(players: int = 3, seed: int = 7) -> Game:
    return Game.new([f"P{i + 1}" for i in range(players)], {}, seed)


def started_game() -> Game:
    """A game past the start choice (S3), everyone having taken the default."""
    game = new_game()
    while game.s.phase == "setup":
        prompt = game.pending()[0]
        game.apply(prompt.player, prompt.default)
    return game


# ---------------------------------------------------------------------- every field accounted for


def field_names(cls: type) -> set[str]:
    """The fields of a state class (a pydantic model or a dataclass)."""
    fields: dict[str, Any] | None = getattr(cls, "model_fields", None)
    if fields is not None:
        return set(fields)
    return {f.name for f in dataclasses.fields(cls)}


#: The fields that are zones of the map (read by ``zones.zones``), per state class.
ZONE_FIELDS = {
    GameState: {"decks", "discards", "regions", "set_aside", "final_deck", "final_mission"}
    | {"players", "stack"},
    Player: {"party", *zones.PLAYER_PILES},
    Region: {"card", "preliminary", "traps"},
    Trap: {"card"},
    Frame: {"card"},
}
#: The fields that are no card's place: they hold no card, or only name a card that is in a
#: zone (a player's Region, the Region of the last hire, the missions under way, the cards let
#: go this turn, the prompts' choices, a frame's data: see zones.FRAME_CARDS).
OTHER_FIELDS = {
    GameState: {"version", "options", "seed", "rng", "dice", "rigged", "seats", "crisis", "turn"}
    | {"phase", "order", "explored_new", "dismissed", "discarded_by", "prompts", "result"}
    | {"winner", "ending", "actions"},
    Player: {"name", "region", "modifiers", "turn_over", "skip_next_turn", "arrived"}
    | {"last_hire", "resisting", "fought", "traded", "tree_level", "reroll", "lost"},
    Region: {"revealed", "peeked", "level_bonus", "guarded"},
    Trap: {"owner"},
    Frame: {"kind", "stage", "player", "other", "region", "data"},
}


@pytest.mark.parametrize("cls", [GameState, Player, Region, Trap, Frame], ids=lambda c: c.__name__)
def test_D1_every_state_field_is_a_zone_or_holds_no_card(cls: type) -> None:
    known = ZONE_FIELDS[cls] | OTHER_FIELDS[cls]
    assert not ZONE_FIELDS[cls] & OTHER_FIELDS[cls]
    unknown = field_names(cls) - known
    assert not unknown, (
        f"{cls.__name__}.{sorted(unknown)}: a new field must be a zone of engine/zones.py "
        "(with its visibility) or be listed here as holding no card's place"
    )
    assert not known - field_names(cls), f"stale names: {sorted(known - field_names(cls))}"


def test_every_zone_kind_has_its_visibility() -> None:
    game = started_game()
    kinds = {zone.kind for zone, _ in zones.zones(game.s)}
    assert kinds <= set(ZONE_KINDS)
    assert {"deck", "discard", "hand", "party", "missions", "region", "preliminary"} <= kinds
    for zone, _ in zones.zones(game.s):
        assert isinstance(sight.visibility(zone, game.s), Visibility)


def test_a_frame_kind_the_map_does_not_know_fails_loudly() -> None:
    game = started_game()
    game.s.stack.append(Frame(kind="trap", card="fireball"))
    with pytest.raises(ZoneError, match="FRAME_CARDS"):
        zones.where(game.s)
    text = game.to_json()
    with pytest.raises(Exception, match="stored game is impossible"):
        Game.from_json(text)


# ---------------------------------------------------------------------- the map and visibility


def test_S1_to_S4_every_card_has_one_zone() -> None:
    game = new_game()
    at = zones.where(game.s)
    assert set(at) == dealt_ids(game)
    hand_of = {zone.key for zone in at.values() if zone.kind == "offered_advantages"}
    assert hand_of == {"P1", "P2", "P3"}
    card = game.s.players["P2"].missions[0]
    assert zones.locate(game.s, card) == Zone("missions", "P2")
    assert zones.cards_in(game.s, Zone("missions", "P2")) == game.s.players["P2"].missions


def test_visibility_of_each_kind() -> None:
    game = new_game()
    s = game.s
    assert sight.visibility(Zone("deck", "encounter"), s) == NOBODY
    assert sight.visibility(Zone("discard", "encounter"), s) == EVERYONE
    assert sight.visibility(Zone("hand", "P1"), s) == Visibility(players=frozenset({"P1"}))
    assert sight.visibility(Zone("set_aside"), s) == NOBODY
    assert sight.visibility(Zone("final_deck"), s) == NOBODY
    assert sight.visibility(Zone("final_mission"), s) == EVERYONE
    # S3: a party is its owner's secret until everyone has chosen.
    assert sight.visibility(Zone("party", "P1"), s) == Visibility(players=frozenset({"P1"}))
    s.phase = "reset"
    assert sight.visibility(Zone("party", "P1"), s) == EVERYONE


def test_S4_a_face_down_Preliminary_Encounter_is_seen_by_its_scouts_only() -> None:
    game = started_game()
    s = game.s
    region = s.regions[0]
    assert region.preliminary is not None and not region.revealed
    card = region.preliminary
    assert card in sight.hidden_from(s, None)
    assert not sight.is_visible_to(s, card, "P1")
    region.peeked.append("P1")
    assert sight.is_visible_to(s, card, "P1")
    assert not sight.is_visible_to(s, card, "P2")
    region.revealed = True
    assert sight.is_visible_to(s, card, None)


def test_hidden_from_a_player_is_everything_but_his_own_and_the_public() -> None:
    game = started_game()
    s = game.s
    hidden = sight.hidden_from(s, "P1")
    assert not hidden & set(s.players["P1"].hand)
    assert set(s.players["P2"].hand) <= hidden
    assert set(s.players["P2"].missions) <= hidden
    assert set(s.decks["advantage"]) <= hidden
    assert not hidden & {c.card for c in s.players["P2"].party}
    assert not hidden & {r.card for r in s.regions}
    public = sight.hidden_from(s, None)
    assert set(s.players["P1"].hand) <= public
    assert hidden < public


# ---------------------------------------------------------------------- moves


def test_move_takes_the_card_from_its_zone_and_puts_it_in_the_other() -> None:
    game = started_game()
    s = game.s
    card = s.players["P1"].hand[0]
    total = len(zones.all_cards(s))
    zones.move(s, card, Zone("hand", "P1"), Zone("discard", "advantage"))
    assert card not in s.players["P1"].hand and s.discards["advantage"][-1] == card
    zones.move(s, card, Zone("discard", "advantage"), Zone("deck", "advantage"), bottom=True)
    assert s.decks["advantage"][0] == card
    assert len(zones.all_cards(s)) == total


def test_a_move_from_the_wrong_zone_or_into_a_full_slot_changes_nothing() -> None:
    game = started_game()
    s = game.s
    before = game.to_json()
    card = s.players["P1"].hand[0]
    with pytest.raises(ZoneError, match="is not in hand:P2"):
        zones.move(s, card, Zone("hand", "P2"), Zone("discard", "advantage"))
    region = s.regions[0]
    assert region.preliminary is not None
    encounter = s.decks["encounter"][-1]
    with pytest.raises(ZoneError, match="already holds"):
        zones.move(s, encounter, Zone("deck", "encounter"), Zone("preliminary", region.card))
    with pytest.raises(ZoneError, match="no hand:nobody"):
        zones.move(s, card, Zone("hand", "P1"), Zone("hand", "nobody"))
    with pytest.raises(ZoneError, match="still holds its Preliminary"):
        zones.move(s, region.card, Zone("region"), Zone("discard", "region"))
    assert game.to_json() == before


def test_party_and_region_moves() -> None:
    game = started_game()
    s = game.s
    leader = s.players["P1"].party[0].card
    zones.move(s, leader, Zone("party", "P1"), Zone("party", "P2"))
    assert s.players["P2"].party[-1].card == leader and not s.players["P2"].party[-1].tapped
    region = s.regions[0]
    assert region.preliminary is not None
    zones.move(
        s, region.preliminary, Zone("preliminary", region.card), Zone("discard", "encounter")
    )
    zones.move(s, region.card, Zone("region"), Zone("discard", "region"))
    assert region.card not in {r.card for r in s.regions}
    zones.move(s, region.card, Zone("discard", "region"), Zone("region"))
    assert s.regions[-1].card == region.card and s.regions[-1].preliminary is None


def test_a_character_taken_as_it_lies_keeps_its_state() -> None:
    game = started_game()
    s = game.s
    leader = s.players["P1"].party[0]
    leader.tapped = True
    zones.move(s, leader.card, Zone("party", "P1"), Zone("party", "P2"), as_it_lies=True)
    assert s.players["P2"].party[-1].tapped
    zones.move(s, leader.card, Zone("party", "P2"), Zone("party", "P1"))  # a trade: untapped
    assert not s.players["P1"].party[-1].tapped


def test_E4_an_Encounter_met_is_held_by_its_frame_and_discarded_from_there() -> None:
    game = started_game()
    s = game.s
    s.stack.append(Frame(kind="encounter", player="P1", data={"context": "exploration"}))
    card = zones.draw_top(s, Zone("deck", "encounter"), Zone("stack", "encounter"))
    assert card is not None and s.stack[-1].card == card
    assert zones.locate(s, card) == Zone("stack", "encounter")
    assert sight.is_visible_to(s, card, None)
    zones.check_conservation(s, dealt_ids(game))
    zones.move(s, card, Zone("stack", "encounter"), Zone("discard", "encounter"))
    assert s.stack[-1].card is None
    zones.check_conservation(s, dealt_ids(game))


def test_M7_a_Preliminary_Encounter_met_stays_at_its_Region() -> None:
    game = started_game()
    s = game.s
    region = s.regions[0]
    s.stack.append(
        Frame(
            kind="encounter",
            card=region.preliminary,
            region=region.card,
            data={"context": "preliminary"},
        )
    )
    assert zones.locate(s, region.preliminary or "") == Zone("preliminary", region.card)
    zones.check_conservation(s, dealt_ids(game))
    with pytest.raises(ZoneError, match="top frame"):
        zones.draw_top(s, Zone("deck", "encounter"), Zone("stack", "encounter"))


def test_clear_stack_discards_an_Encounter_still_being_met() -> None:
    game = started_game()
    s = game.s
    s.stack.append(Frame(kind="encounter", player="P1", data={"context": "tree"}))
    card = zones.draw_top(s, Zone("deck", "encounter"), Zone("stack", "encounter"))
    zones.clear_stack(s)
    assert not s.stack and s.discards["encounter"][-1] == card
    zones.check_conservation(s, dealt_ids(game))


def test_move_all_keeps_the_order() -> None:
    game = started_game()
    s = game.s
    pile = list(s.decks["character"])
    zones.move_all(s, Zone("deck", "character"), Zone("discard", "character"))
    assert s.discards["character"][-len(pile) :] == pile and not s.decks["character"]


# ---------------------------------------------------------------------- no move behind the map

#: State fields that hold cards: changing them is a move (engine/zones.py's job).
PILES = {"hand", "missions", "started", "completed", "in_play", "party", "set_aside"}
PILES |= {"offered_characters", "offered_advantages", "final_deck", "regions", "traps"}
SLOTS = {"preliminary", "final_mission"}
KEYED = {"decks", "discards"}
MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse"}
MUTATORS |= {"__setitem__", "__delitem__", "update", "setdefault", "popitem"}
#: Where cards come into play (S1, S2): the deal builds the decks (docstring of setup.deal).
CREATION = {("engine/rules/setup.py", "deal")}


def _is_pile(node: ast.expr, aliases: set[str]) -> bool:
    """``x.hand``, ``x.decks[...]``, ``x.decks``, or a local name bound to one of them."""
    if isinstance(node, ast.Attribute):
        return node.attr in PILES | KEYED
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Attribute) and node.value.attr in KEYED
    return isinstance(node, ast.Name) and node.id in aliases


def moves_behind_the_map(tree: ast.AST, path: str) -> list[str]:
    """Every statement of ``tree`` that changes a card's place without engine.zones."""
    found: list[str] = []
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    for fn in functions:
        if (path, fn.name) in CREATION:
            continue
        aliases = {
            target.id
            for node in ast.walk(fn)
            if isinstance(node, ast.Assign) and _is_pile(node.value, set())
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(fn):
            where = f"{path}:{getattr(node, 'lineno', '?')} ({fn.name})"
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATORS
                and _is_pile(node.func.value, aliases)
            ):
                found.append(f"{where}: {ast.unparse(node)}")
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.Delete):
                targets = node.targets if isinstance(node, ast.Delete) else [node.target]
            for target in targets:
                named = isinstance(target, ast.Attribute) and target.attr in PILES | SLOTS | KEYED
                indexed = isinstance(target, ast.Subscript) and _is_pile(target.value, aliases)
                if named or indexed:
                    found.append(f"{where}: {ast.unparse(node)[:80]}")
    return sorted(set(found))


def test_D1_no_engine_module_moves_a_card_behind_the_maps_back() -> None:
    found: list[str] = []
    for file in sorted(ENGINE.rglob("*.py")):
        path = file.relative_to(ENGINE.parent).as_posix()
        if path == "engine/zones.py" or path.startswith("engine/cards/"):
            continue  # the map itself; the card database (no game state)
        found += moves_behind_the_map(ast.parse(file.read_text(encoding="utf-8")), path)
    assert not found, "card moves outside engine/zones.py:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "def f(p): p.hand.append('x')",
        "def f(g): g.s.decks['region'].pop()",
        "def f(g):\n    pile = g.s.discards['character']\n    pile.remove('x')",
        "def f(p): p.party = []",
        "def f(r): r.preliminary = None",
        "def f(g): g.s.final_mission = 'x'",
        "def f(g): g.s.regions.remove(g.s.regions[0])",
        "def f(p): p.hand[0] = 'x'",
        "def f(g): del g.s.set_aside[0]",
    ],
)
def test_the_scan_flags_each_way_of_moving_a_card(source: str) -> None:
    assert moves_behind_the_map(ast.parse(source), "engine/rules/example.py")


def test_the_scan_lets_reads_and_the_map_through() -> None:
    source = (
        "def f(g, p):\n"
        "    pile = g.s.discards['advantage']\n"
        "    under = [c for c in pile if c]\n"
        "    n = len(p.hand)\n"
        "    zones.move(g.s, under[-1], Zone('discard', 'advantage'), Zone('hand', p.name))\n"
        "    g.shuffle(g.s.decks['character'])\n"
    )
    assert not moves_behind_the_map(ast.parse(source), "engine/rules/example.py")
