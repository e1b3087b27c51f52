"""The bot sees games only through the engine's views, prompts and events (issue 7): no bot
module reads a game's state (``game.s``), and the lobby's option codes are one table."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

from bot.lobby_options import (
    EDITION_OPTIONS,
    OPTION_CODES,
    OPTIONAL_RULES,
    choose_codes,
    offered_codes,
    selected_codes,
)
from engine.options import Options

BOT = Path(__file__).resolve().parents[2] / "bot"


def state_reads(path: Path) -> list[str]:
    """Every ``<x>.s`` attribute read in a module (the Game's state is its ``s``)."""
    tree = ast.parse(path.read_text(), str(path))
    return [
        f"{path.name}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "s"
    ]


def test_no_bot_module_reads_a_games_state() -> None:
    modules = sorted(BOT.glob("*.py"))
    assert len(modules) > 5
    reads = [hit for path in modules for hit in state_reads(path)]
    assert not reads, reads


def test_the_state_read_check_finds_a_read(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("def f(game):\n    return game.s.players\n")
    assert state_reads(module) == ["bad.py:2: game.s"]


@pytest.mark.parametrize("group", ["rules", "edition"])
def test_lobby_codes_read_back_as_chosen(group: str) -> None:
    table = OPTIONAL_RULES if group == "rules" else EDITION_OPTIONS
    # Twilight of the Gods combined: every code is offered, S5 included.
    combined = {"sets": ["shadow_of_omega", "twilight_of_the_gods"]}
    for n in range(len(table) + 1):
        for chosen in itertools.combinations(table, n):
            options = Options.model_validate(choose_codes(combined, group, list(chosen)))
            o, v = selected_codes(options)
            assert (o if group == "rules" else v) == list(chosen)


def test_lobby_codes_keep_the_tree_reading() -> None:
    bge = choose_codes({}, "edition", ["V4"])
    assert bge["tree_of_regions"] == "bge"  # V4 switches the Tree of Regions on
    assert selected_codes(Options.model_validate(bge)) == (["O1"], ["V4"])
    assert choose_codes(bge, "rules", ["O1"])["tree_of_regions"] == "bge"
    assert choose_codes(bge, "edition", [])["tree_of_regions"] == "soo"
    assert choose_codes(bge, "rules", [])["tree_of_regions"] == "off"
    assert [c.code for c in OPTION_CODES] == ["O1", "O2", "O3", "V1", "V2", "V3", "V4", "S5"]


def test_S5_is_offered_only_when_twilight_is_combined() -> None:
    totg = "twilight_of_the_gods"
    for sets in (["shadow_of_omega"], [totg]):
        options = Options(sets=sets, combined_missions="older")
        assert "S5" not in offered_codes(options, "edition")
        assert selected_codes(options) == ([], [])
        # Not offered: an edition change leaves it as it was.
        kept = choose_codes(options.model_dump(), "edition", ["V2"])
        assert kept["combined_missions"] == "older"
    combined = Options(sets=["beyond_good_and_evil", totg])
    assert "S5" in offered_codes(combined, "edition")
    older = choose_codes(combined.model_dump(), "edition", ["S5"])
    assert older["combined_missions"] == "older"
    assert choose_codes(older, "edition", [])["combined_missions"] == "twilight"
