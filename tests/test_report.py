"""``anima simulate --report DIR``: the HTML page and its plots, from a tiny run; the cards'
counts; the progress bar only on a terminal."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engine.cards import default_cards
from engine.events import Event
from engine.tools import cli, report
from engine.tools import report_plots as plots
from engine.tools.report import CardUses
from engine.tools.simulate import GameResult, Summary

PLOTS = (
    "game_length.png",
    "endings_per_turn.png",
    "wins_per_seat.png",
    "wins_per_level.png",
    "endings.png",
    "regions.png",
    "monsters.png",
    "cards.png",
    "abilities.png",
)


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
    for section in (
        "How games end",
        "On which turn games end, and how",
        "Win rate per seat position",
        "Win rate per AI level",
        "<h2>Regions</h2>",
        "<h2>Encounters</h2>",
        "Advantages: one card, one use",
        "Characters: hired, and abilities used turn after turn",
        "favours the cards that winners use more",
    ):
        assert section in page, section
    assert "<h2>Pace</h2>" in page  # the simulator records the pace of each game
    # Every Region and Encounter of the base set has its row.
    db = default_cards()
    base = [c for c in db if c.set == "shadow_of_omega"]
    regions = re.findall(r"<tr><td>([^<]+)</td><td class='text'>shadow_of_omega</td><td>", page)
    assert {n.replace("&#x27;", "'") for n in regions} == {
        c.name for c in base if c.type == "region"
    }
    encounters = re.findall(r"<tr><td>([^<]+)</td><td class='text'>(?:monster|event)</td>", page)
    assert {n.replace("&#x27;", "'") for n in encounters} == {
        c.name for c in base if c.type == "encounter"
    }
    # Every Advantage and character of the base set has its row; some were used.
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
    observe(None, [Event("ability", "", data={"player": "P1", "card": "wizard"})])  # type: ignore[arg-type]
    observe(None, [Event("ability", "", data={"player": "P1", "card": "wizard"})])  # type: ignore[arg-type]
    observe(None, [Event("discard", "", data={"player": "P3", "card": "scrying"})])  # type: ignore[arg-type]
    uses.finish(GameResult(seed=7, players=3, winner_seat=2))
    fireball, monk = uses.cards["fireball"], uses.cards["monk"]
    assert (fireball.uses, fireball.games, fireball.holders, fireball.holder_wins) == (3, 1, 2, 1)
    assert (monk.uses, monk.holders, monk.holder_wins) == (1, 1, 1)
    # One-shot plays and repeatable abilities are counted apart.
    assert (fireball.plays, fireball.abilities, fireball.hires) == (3, 0, 0)
    assert (monk.plays, monk.abilities, monk.hires) == (0, 0, 1)
    wizard = uses.cards["wizard"]
    assert (wizard.uses, wizard.plays, wizard.abilities, wizard.holders) == (2, 0, 2, 1)
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


# ------------------------------------------------------------------ a hand-made summary

#: Per game of the hand-made run: turns, ending, winner, and the pace figures a simulator
#: that records them sets on each GameResult (None: it never happened in that game).
_GAMES = [
    (9, "final_mission", 1, {"first_basic_mission_turn": 3, "final_revealed_turn": 6}),
    (12, "crisis_won", 2, {"first_basic_mission_turn": 5, "final_revealed_turn": 8}),
    (12, "crisis_won", 2, {"first_basic_mission_turn": 4, "crisis_countdown": 7}),
    (15, "crisis_lost", None, {"first_basic_mission_turn": None, "final_revealed_turn": None}),
]


def _hand_made(pace: bool, levels: list[str]) -> Summary:
    results = []
    for i, (turns, ending, winner, figures) in enumerate(_GAMES):
        result = GameResult(seed=i + 1, players=2, turns=turns, ending=ending, winner_seat=winner)
        if pace:
            for name, value in figures.items():
                setattr(result.pace, name, value)
        results.append(result)
    all_cards = [c.id for c in default_cards() if c.set == "shadow_of_omega"]
    return Summary(len(results), 2, 1, 60, results, all_cards, levels=levels)


class _WithPace(Summary):
    """The summary of a simulator that reports the pace figures (``turns`` quartiles and the
    ``pace`` key): the page shows them as it finds them."""

    def deterministic(self) -> dict[str, Any]:
        d = super().deterministic()
        d["turns"] = {**d["turns"], "p25": 11.25, "p75": 12.75}
        d["pace"] = {
            "first_basic_mission_turn_median": 4,
            "final_revealed_turn_median": 7.0,
            "crisis_countdown_median": 7,
            "winners_with_two_basic_missions": 0.6667,
        }
        return d


def test_the_pace_plot_reads_the_games_pace_figures() -> None:
    plt = report._pyplot()
    summary = _hand_made(pace=True, levels=["normal", "normal"])
    fig = plots.pace(plt, summary.results)
    assert fig is not None
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == [
        "First Basic mission completed\n(3 of 4 games)",
        "Final mission revealed\n(2 of 4 games)",
        "Crisis! countdown set to\n(1 of 4 games)",
    ]
    medians = [ax.get_legend().get_texts()[0].get_text() for ax in fig.axes]
    assert medians == ["median 4", "median 7", "median 7"]
    plt.close(fig)
    assert plots.pace(plt, _hand_made(pace=False, levels=[]).results) is None
    assert plots.pace_values(summary.results, "final_revealed_turn") == [6, 8]


def test_a_report_with_pace_figures_and_one_ai_level(tmp_path: Path) -> None:
    (tmp_path / "wins_per_level.png").write_bytes(b"an earlier run's plot")
    plain = _hand_made(pace=True, levels=["normal", "normal"])
    summary = _WithPace(**{f: getattr(plain, f) for f in plain.__dataclass_fields__})
    page = report.write_report(summary, CardUses(), tmp_path).read_text(encoding="utf-8")
    assert (tmp_path / "pace.png").read_bytes().startswith(b"\x89PNG")
    assert 'src="pace.png"' in page
    assert "<h2>Pace</h2>" in page
    assert "<tr><td>first Basic mission completed (median turn)</td><td>4</td></tr>" in page
    assert "<tr><td>Final mission revealed (median turn)</td><td>7</td></tr>" in page
    assert "<td>winners who had completed both Basic missions</td><td>67%</td>" in page
    assert "min 9, median 12.0, max 15; middle half 11.25-12.75" in page
    # Every seat at one level: the per-level plot would only repeat the fair share.
    assert not (tmp_path / "wins_per_level.png").exists()
    assert 'src="wins_per_level.png"' not in page
    assert "Every seat plays at one AI level: no plot per level." in page
    # The note on "holder won": 3 wins in 4 games of 2 seats, 3 of 8 seat-games.
    assert "than a seat does on average (38% here" in page
    # Endings per turn: a bar per turn from the first game's end to the last.
    assert (tmp_path / "endings_per_turn.png").exists()


def test_a_report_without_pace_figures_leaves_the_section_out(tmp_path: Path) -> None:
    summary = _hand_made(pace=False, levels=["normal", "random"])
    page = report.write_report(summary, CardUses(), tmp_path).read_text(encoding="utf-8")
    assert "<h2>Pace</h2>" not in page
    assert not (tmp_path / "pace.png").exists()
    assert (tmp_path / "wins_per_level.png").exists()
    # No card was used: no card plot, the tables still list every card.
    assert not (tmp_path / "cards.png").exists()
    assert "<td>Magic Object</td>" in page


def test_the_usage_plot_labels_the_cards_with_enough_holders() -> None:
    plt = report._pyplot()

    def row(name: str, per_game: float, wins: int, holders: int) -> dict[str, Any]:
        rate = wins / holders
        return {
            "name": name,
            "plays_per_game": per_game,
            "holders": holders,
            "holder_wins": wins,
            "holder_rate": rate,
        }

    rows = [
        row("Magic Object", 0.8, 40, 100),
        row("Reinforcements", 1.2, 27, 100),  # just below Meditation: its label must move
        row("Meditation", 1.17, 28, 100),
        row("Scrying", 0.1, 1, 3),  # too few holders: a grey, unnamed point
    ]
    fig = plots.cards(plt, rows, "plays_per_game", "plays per game", 0.25, "#4c72b0")
    assert fig is not None
    ax = fig.axes[0]
    assert sorted(t.get_text() for t in ax.texts) == [
        "Magic Object",
        "Meditation",
        "Reinforcements",
    ]
    moved = {t.get_text() for t in ax.texts if getattr(t, "arrow_patch", None) is not None}
    assert moved == {"Reinforcements"}  # a line joins a moved name to its point
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["fair share 25%", "all their holders 32%"]  # 96 of 303 holders
    plt.close(fig)
    assert (
        plots.cards(
            plt, [row("Scrying", 0.1, 1, 3) | {"holders": 0}], "plays_per_game", "", 0.25, ""
        )
        is None
    )


def test_card_names_never_overlap_on_the_plot() -> None:
    points = [(0.5, 0.3), (0.51, 0.3), (0.52, 0.301), (0.9, 0.3), (0.5, 0.6)]
    spots = plots._label_spots(points, [12, 12, 12, 8, 5])
    boxes = [
        (x, y, plots._LABEL_CHAR * n) for (x, y), n in zip(spots, [12, 12, 12, 8, 5], strict=True)
    ]
    for i, (x, y, w) in enumerate(boxes):
        for ox, oy, ow in boxes[i + 1 :]:
            assert not (x < ox + ow and ox < x + w and abs(y - oy) < plots._LABEL_HEIGHT)
    # A name with room beside its point stays there.
    assert spots[3] == (0.9 + plots._LABEL_GAP, 0.3 + plots._LABEL_RISE)
    assert spots[4] == (0.5 + plots._LABEL_GAP, 0.6 + plots._LABEL_RISE)
