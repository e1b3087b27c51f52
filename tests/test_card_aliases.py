"""Stored games written before a card was renamed or replaced still load and play
(``engine.cards.aliases``, applied by ``Game.from_json``)."""

from __future__ import annotations

import json

import pytest

from engine.cards import default_cards
from engine.cards.aliases import (
    CARD_ID_ALIASES,
    RENAMED,
    REPLACED,
    RETURNED,
    upgrade_stored_game,
)
from engine.errors import GameDataError
from engine.game import Game
from engine.tools.scenario import build_game, parse

#: A table at the Movement phase where every renamed or replaced card is somewhere.
SETUP = {
    "players": {
        "A": {
            "party": ["acrobat", "exorcist"],
            "hand": ["zeppelin_voyage", "betrayal"],
            "missions": ["supplies_for_the_village_of_cornes"],
            "region": "village_of_cornes",
        },
        "B": {"party": ["templar"], "hand": [], "region": "tower_at_the_end_of_the_world"},
    },
    "regions": [
        {"card": "village_of_cornes"},
        {"card": "tower_at_the_end_of_the_world", "preliminary": "the_inn"},
    ],
    "phase": "movement",
}


def _new_game() -> Game:
    return build_game(parse({"players": ["A", "B"], "seed": 3, "setup": SETUP}))


def _as_stored_before(text: str) -> str:
    """The same game as an earlier version stored it: today's ids written the old way."""
    for old, new in CARD_ID_ALIASES.items():
        text = text.replace(f'"{new}"', f'"{old}"').replace(f" {new}", f" {old}")
    return text


def test_aliases_name_cards_of_today() -> None:
    cards = default_cards()
    assert set(CARD_ID_ALIASES.values()) <= set(cards.by_id)
    # An old id is never reused, but by the card of a later set it belongs to (the Priestess).
    assert set(CARD_ID_ALIASES) & set(cards.by_id) == set(RETURNED)
    for old, set_id in RETURNED.items():
        assert cards[old].set == set_id != cards[CARD_ID_ALIASES[old]].set
    assert RENAMED["zeppelin_trip"] == "zeppelin_voyage"
    assert RENAMED["corns_village"] == "village_of_cornes"
    assert RENAMED["tower_at_the_edge_of_the_world"] == "tower_at_the_end_of_the_world"
    assert REPLACED["priestess"] == "exorcist"


def test_printed_english_names() -> None:
    cards = default_cards()
    assert cards["village_of_cornes"].name == "Village of Cornes"
    assert cards["tower_at_the_end_of_the_world"].name == "Tower at the End of the World"
    assert cards["zeppelin_voyage"].name == "Zeppelin Voyage"


def test_a_game_stored_with_old_ids_loads_as_today() -> None:
    game = _new_game()
    today = game.to_json()
    old = _as_stored_before(today)
    for old_id in ("corns_village", "zeppelin_trip", "priestess", "tower_at_the_edge_of_the_world"):
        assert old_id in old
    assert "play zeppelin_trip" in old  # the open prompt names it too
    loaded = Game.from_json(old)
    assert loaded.to_json() == today
    assert Game.from_json(old.encode("utf-8")).to_json() == today


def test_a_game_stored_with_old_ids_plays_on() -> None:
    game = Game.from_json(_as_stored_before(_new_game().to_json()))
    game.apply("A", "play zeppelin_voyage")
    assert game.prompt_for("A") is not None
    for _ in range(400):
        if game.over:
            break
        prompt = game.pending()[0]
        game.apply(prompt.player, prompt.default)
    assert game.s.turn >= 2
    assert "zeppelin_voyage" in game.s.discards["advantage"]


def test_loading_a_game_without_old_ids_leaves_the_text_alone() -> None:
    text = _new_game().to_json()
    assert upgrade_stored_game(text) is text


def test_a_game_with_beyond_good_and_evil_keeps_its_priestess() -> None:
    """The Priestess took her id back: in a game with her set, ``priestess`` is her."""
    setup = {"players": {"A": {"party": ["priestess", "samurai"]}}}
    options = {"sets": ["beyond_good_and_evil"]}
    game = build_game(parse({"players": ["A", "B"], "seed": 3, "options": options, "setup": setup}))
    text = game.to_json()
    assert upgrade_stored_game(text) is text
    loaded = Game.from_json(text)
    assert [c.card for c in loaded.s.players["A"].party] == ["priestess", "samurai"]


def test_a_base_game_naming_the_old_priestess_gets_the_exorcist() -> None:
    data = json.loads(_new_game().to_json())
    assert "options" not in data  # default options (the base set alone) are not written
    stored = json.dumps(data).replace('"exorcist"', '"priestess"')
    upgraded = upgrade_stored_game(stored)
    assert '"priestess"' not in upgraded and '"exorcist"' in upgraded


def test_player_names_are_never_renamed() -> None:
    data = parse({"players": ["priestess", "B"], "seed": 3})
    game = build_game(data)
    loaded = Game.from_json(game.to_json())
    assert loaded.s.seats == ["priestess", "B"]
    assert loaded.to_json() == game.to_json()


def test_a_game_resolving_a_replaced_card_is_refused() -> None:
    data = json.loads(_new_game().to_json())
    # Lost Companion's effects half done: they point into data that no longer exists.
    frame = {"kind": "effects", "player": "A", "card": "lost_companion", "data": {"i": 0}}
    data["stack"].append(frame)
    stored = json.dumps(data)
    with pytest.raises(GameDataError, match="'lost_companion', which is no longer in the base set"):
        Game.from_json(stored)
