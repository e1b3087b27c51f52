"""``anima simulate --report DIR``: the HTML page and its plots, from a tiny run; the cards'
counts; the progress bar only on a terminal."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engine.cards import default_cards
from engine.events import Event
from engine.tools import cli
from engine.tools.report import CardUses
from engine.tools.simulate import GameResult

PLOTS = ("game_length.png", "wins_per_seat.png", "wins_per_level.png", "endings.png", "cards.png")


def test_a_tiny_run_writes_the_report(tmp_path: Path, capsys: Any) -> None:
    folder = tmp_path / "report"
    code = cli.main(
        ["simulate", "--games", "3", "--seats", "normal,random,random", "--report", str(folder)]
    )
    assert code == 0
    out = capsys.readouterr()
    assert f"report: {folder / 'index.html'}" in out.err
    page = (folder / "index.html").read_text(encoding="utf-8")
    for plot in PLOTS:
        assert (folder / plot).read_bytes().startswith(b"\x89PNG"), plot
        assert f'src="{plot}"' in page
    assert "anima simulate --games 3 --players 3 --seed 0" in page
    assert "P1 normal, P2 random, P3 random" in page
    for section in ("How games end", "Win rate per seat position", "Win rate per AI level"):
        assert section in page
    # Every Advantage and character of the base set has its row; some were used.
    db = default_cards()
    names = {
        c.name for c in db if c.set == "shadow_of_omega" and c.type in ("advantage", "character")
    }
    rows = re.findall(
        r"<tr(?: class='low')?><td>([^<]+)</td><td class='text'>(?:advantage|character)<", page
    )
    assert {n.replace("&#x27;", "'") for n in rows} == names
    uses = [
        int(u)
        for u in re.findall(r"<td class='text'>(?:stand-in|printed)</td><td>(\d+)</td>", page)
    ]
    assert sum(uses) > 0


def test_the_report_counts_the_holders_of_a_card() -> None:
    uses = CardUses()
    observe = uses.watch(7)
    observe(None, [Event("play", "", data={"player": "P1", "card": "fireball"})])  # type: ignore[arg-type]
    observe(None, [Event("play", "", data={"player": "P1", "card": "fireball"})])  # type: ignore[arg-type]
    observe(None, [Event("play", "", data={"player": "P2", "card": "fireball"})])  # type: ignore[arg-type]
    observe(None, [Event("hire", "", data={"player": "P2", "card": "monk"})])  # type: ignore[arg-type]
    observe(None, [Event("discard", "", data={"player": "P3", "card": "scrying"})])  # type: ignore[arg-type]
    uses.finish(GameResult(seed=7, players=3, winner_seat=2))
    fireball, monk = uses.cards["fireball"], uses.cards["monk"]
    assert (fireball.uses, fireball.games, fireball.holders, fireball.holder_wins) == (3, 1, 2, 1)
    assert (monk.uses, monk.holders, monk.holder_wins) == (1, 1, 1)
    assert "scrying" not in uses.cards  # a discard is no use

    # A game the engine failed counts for nothing.
    uses.watch(8)(None, [Event("play", "", data={"player": "P1", "card": "fireball"})])  # type: ignore[arg-type]
    uses.finish(GameResult(seed=8, players=3, winner_seat=1, error="boom"))
    assert uses.cards["fireball"].uses == 3


def test_no_progress_bar_off_a_terminal_nor_with_json(capsys: Any) -> None:
    # Under pytest stdout is not a terminal: nothing but the summary is printed.
    assert cli.main(["simulate", "--games", "2", "--players", "2"]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert cli.main(["simulate", "--games", "2", "--players", "2", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["games"] == 2
    assert out.err == ""


def test_a_report_in_a_folder_that_cannot_be_made(tmp_path: Path, capsys: Any) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code = cli.main(["simulate", "--games", "1", "--players", "2", "--report", str(blocker / "r")])
    assert code == 2
    assert "cannot make the folder" in capsys.readouterr().err


def test_the_report_of_a_run_without_seats_names_random_everywhere(tmp_path: Path) -> None:
    assert cli.main(["simulate", "--games", "1", "--players", "2", "--report", str(tmp_path)]) == 0
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "2: P1 random, P2 random" in page
