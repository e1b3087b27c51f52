"""The simulation report: ``anima simulate --report DIR`` writes ``DIR/index.html`` with plots.

The page shows how long games last (turns), the win rate of each seat position and of each
AI level (with 95% Wilson intervals), how games end, and per card how often a seat put it to
use and how often that seat won the game. It needs matplotlib (``pip install
'anima-bot[report]'``), imported only when a report is written.

A card is *used* when a seat plays it (an Advantage: the ``play`` event), uses its ability (a
character: ``ability``) or hires it (a character: ``hire``); its *holder* is that seat. A card
used by two seats in one game counts for both; used twice by one seat, once for the game.
The holder's win rate is read against the fair share (1 / players): a card whose holders win
much more often than that helps, or is played by the seats that are winning anyway.
"""

from __future__ import annotations

import html
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from engine.cards import CardDB, default_cards
from engine.endings import ENDINGS
from engine.events import Event
from engine.game import Game
from engine.tools.simulate import GameResult, Summary, seat_names, wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The events in which a seat puts a card to use, and how the report names each.
USE_KINDS: dict[str, str] = {"play": "played", "ability": "ability used", "hire": "hired"}

#: The plots' size (inches) and resolution: small PNGs, readable on a page.
FIGSIZE = (6.4, 3.6)
DPI = 80


class ReportError(Exception):
    """The report cannot be written (matplotlib missing, a folder that cannot be made)."""


@dataclass
class CardUse:
    """One card over a run: times used, games in which it was used, and its holders' wins."""

    uses: int = 0
    games: int = 0
    #: (game, seat) pairs in which the seat used the card, and how many of them it won.
    holders: int = 0
    holder_wins: int = 0


@dataclass
class CardUses:
    """Counts the cards the seats use, game by game (``watch`` gives the simulator an
    observer for a game; ``finish`` adds the game once its winner is known)."""

    cards: dict[str, CardUse] = field(default_factory=lambda: defaultdict(CardUse))
    #: Per game being played (by seed): card -> the seats that used it, and the use count.
    _games: dict[int, tuple[dict[str, set[str]], Counter[str]]] = field(default_factory=dict)

    def watch(self, seed: int) -> Callable[[Game, list[Event]], None]:
        """An observer of game ``seed`` for :func:`engine.tools.simulate.play_game`."""
        holders: dict[str, set[str]] = defaultdict(set)
        uses: Counter[str] = Counter()
        self._games[seed] = (holders, uses)

        def observe(game: Game, events: list[Event]) -> None:
            for event in events:
                if event.kind in USE_KINDS:
                    card, seat = event.data.get("card"), event.data.get("player")
                    if card and seat:
                        holders[card].add(seat)
                        uses[card] += 1

        return observe

    def finish(self, result: GameResult) -> None:
        """Count game ``result.seed`` (a game the engine failed is left out)."""
        holders, uses = self._games.pop(result.seed, ({}, Counter()))
        if result.error is not None:
            return
        winner = f"P{result.winner_seat}" if result.winner_seat is not None else None
        for card, seats in holders.items():
            entry = self.cards[card]
            entry.uses += uses[card]
            entry.games += 1
            entry.holders += len(seats)
            entry.holder_wins += winner in seats


def _pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend, or a clear :class:`ReportError`."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise ReportError(
            "the report needs matplotlib: pip install 'anima-bot[report]' "
            "(or .venv/bin/pip install matplotlib)"
        ) from None
    return plt


def _save(fig: Figure, folder: Path, name: str) -> str:
    fig.tight_layout()
    # No creation date or software version in the file: the same run gives the same bytes.
    fig.savefig(folder / name, dpi=DPI, metadata={"Software": None})
    return name


def _rate_bars(
    plt: Any, labels: Sequence[str], wins: Sequence[int], trials: Sequence[int], fair: float
) -> Figure:
    """Win rates with their 95% intervals, and the fair share as a line."""
    fig, ax = plt.subplots(figsize=FIGSIZE)
    rates = [w / t if t else 0.0 for w, t in zip(wins, trials, strict=True)]
    bounds = [wilson(w, t) for w, t in zip(wins, trials, strict=True)]
    below = [max(0.0, r - lo) for r, (lo, _) in zip(rates, bounds, strict=True)]
    above = [max(0.0, hi - r) for r, (_, hi) in zip(rates, bounds, strict=True)]
    ax.bar(labels, [100 * r for r in rates], color="#4c72b0")
    ax.errorbar(
        labels,
        [100 * r for r in rates],
        yerr=[[100 * b for b in below], [100 * a for a in above]],
        fmt="none",
        ecolor="black",
        capsize=4,
    )
    ax.axhline(100 * fair, color="#c44e52", linestyle="--", label=f"fair share {fair:.0%}")
    ax.set_ylabel("games won (%)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right")
    return cast("Figure", fig)


def write_report(summary: Summary, uses: CardUses, folder: Path, command: str = "") -> Path:
    """Write the report of ``summary`` (and the card counts of ``uses``) into ``folder``;
    returns the page. Raises :class:`ReportError` when it cannot."""
    plt = _pyplot()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot make the folder {folder}: {exc}") from None
    db = default_cards()
    d = summary.deterministic()
    finished = [r for r in summary.results if r.error is None]
    games = len(finished)
    players = summary.players
    fair = 1 / players
    images: list[tuple[str, str]] = []

    # Game length.
    fig, ax = plt.subplots(figsize=FIGSIZE)
    turns = [r.turns for r in finished]
    if turns:
        ax.hist(turns, bins=range(min(turns), max(turns) + 2), color="#4c72b0", align="left")
        median = statistics.median(turns)
        ax.axvline(median, color="#c44e52", linestyle="--", label=f"median {median:g}")
        ax.legend(loc="upper right")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    images.append(("How long games last", _save(fig, folder, "game_length.png")))
    plt.close(fig)

    # Win rate per seat position, and per AI level.
    seats = d["wins_per_seat"]
    names = seat_names(players)
    fig = _rate_bars(
        plt,
        [f"{n} ({seats[n]['level']})" for n in names],
        [seats[n]["wins"] for n in names],
        [seats[n]["of"] for n in names],
        fair,
    )
    images.append(("Win rate per seat position", _save(fig, folder, "wins_per_seat.png")))
    plt.close(fig)
    levels = d["wins_per_level"]
    fig = _rate_bars(
        plt,
        list(levels),
        [e["wins"] for e in levels.values()],
        [e["of"] for e in levels.values()],
        fair,
    )
    images.append(("Win rate per AI level", _save(fig, folder, "wins_per_level.png")))
    plt.close(fig)

    # How games end.
    fig, ax = plt.subplots(figsize=FIGSIZE)
    labels = list(ENDINGS.values())
    counts = [d["endings"][key] for key in ENDINGS]
    ax.barh(labels[::-1], counts[::-1], color="#55a868")
    ax.set_xlabel("games")
    images.append(("How games end", _save(fig, folder, "endings.png")))
    plt.close(fig)

    # Per card: how often used, how often its holder wins.
    rows = _card_rows(uses, db, games, summary.all_cards)
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], FIGSIZE[1] * 1.3))
    used = [r for r in rows if r["holders"]]
    colours = {"advantage": "#4c72b0", "character": "#dd8452"}
    for kind in sorted({r["type"] for r in used}):
        mine = [r for r in used if r["type"] == kind]
        ax.scatter(
            [r["per_game"] for r in mine],
            [100 * r["holder_rate"] for r in mine],
            s=[12 + 2 * r["holders"] ** 0.5 for r in mine],
            alpha=0.7,
            label=kind,
            color=colours.get(kind, "#8172b3"),
        )
    ax.axhline(100 * fair, color="#c44e52", linestyle="--", label=f"fair share {fair:.0%}")
    ax.set_xlabel("uses per game")
    ax.set_ylabel("holder won the game (%)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right", fontsize="small")
    images.append(
        ("Cards: how often used, how often the holder wins", _save(fig, folder, "cards.png"))
    )
    plt.close(fig)

    page = folder / "index.html"
    page.write_text(_html(summary, d, images, rows, command), encoding="utf-8")
    return page


def _card_rows(
    uses: CardUses, db: CardDB, games: int, all_cards: Sequence[str]
) -> list[dict[str, Any]]:
    """One row per card of the run's sets that can be used (Advantages and characters),
    most used first."""
    rows: list[dict[str, Any]] = []
    for card_id in all_cards:
        card = db[card_id]
        if card.type not in ("advantage", "character"):
            continue
        entry = uses.cards.get(card_id, CardUse())
        low, high = wilson(entry.holder_wins, entry.holders)
        rows.append(
            {
                "id": card_id,
                "name": card.name,
                "type": card.type,
                "set": card.set,
                "source": card.source,
                "uses": entry.uses,
                "per_game": entry.uses / games if games else 0.0,
                "games": entry.games,
                "holders": entry.holders,
                "holder_wins": entry.holder_wins,
                "holder_rate": entry.holder_wins / entry.holders if entry.holders else 0.0,
                "ci95": (low, high),
            }
        )
    rows.sort(key=lambda r: (-r["uses"], r["name"]))
    return rows


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; }
table { border-collapse: collapse; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: right; }
th:first-child, td:first-child, td.text { text-align: left; }
figure { margin: 1.5rem 0; }
figcaption { font-weight: bold; margin-bottom: 0.3rem; }
.low { color: #999; }
"""


def _html(
    summary: Summary,
    d: dict[str, Any],
    images: list[tuple[str, str]],
    rows: list[dict[str, Any]],
    command: str,
) -> str:
    esc = html.escape
    t = d["turns"]
    finished = summary.games - d["errors"]
    facts = [
        ("games", f"{d['games']} (seeds {d['seeds'][0]}-{d['seeds'][1]}), {d['errors']} errors"),
        (
            "players",
            f"{d['players']}: " + ", ".join(f"{s} {lv}" for s, lv in d["seat_levels"].items()),
        ),
        ("sets", ", ".join(d["sets"])),
        ("turn limit", str(d["turn_cap"] or "none")),
        ("turns", f"min {t['min']}, median {t['median']}, max {t['max']}"),
    ]
    endings = [
        (label, d["endings"][key], d["endings"][key] / finished if finished else 0.0)
        for key, label in ENDINGS.items()
    ]
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>Anima simulation report</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>Anima simulation report</h1>",
    ]
    if command:
        out.append(f"<p>Made with <code>{esc(command)}</code>.</p>")
    out.append("<table>")
    out.extend(f"<tr><th>{esc(k)}</th><td class='text'>{esc(v)}</td></tr>" for k, v in facts)
    out.append("</table>")
    out.append("<h2>How games end</h2><table><tr><th>ending</th><th>games</th><th>share</th></tr>")
    out.extend(
        f"<tr><td>{esc(label)}</td><td>{n}</td><td>{share:.0%}</td></tr>"
        for label, n, share in endings
    )
    out.append("</table>")
    out.append("<h2>Wins</h2><table><tr><th>seat</th><th>level</th><th>won</th><th>rate</th>")
    out.append("<th>95% interval</th></tr>")
    for seat, e in d["wins_per_seat"].items():
        out.append(
            f"<tr><td>{esc(seat)}</td><td class='text'>{esc(e['level'])}</td>"
            f"<td>{e['wins']}/{e['of']}</td><td>{e['rate']:.1%}</td>"
            f"<td>{e['ci95'][0]:.1%}-{e['ci95'][1]:.1%}</td></tr>"
        )
    out.append(f"<tr><td>nobody</td><td></td><td>{d['wins']['nobody']}</td><td></td><td></td></tr>")
    out.append("</table>")
    for caption, name in images:
        out.append(
            f'<figure><figcaption>{esc(caption)}</figcaption><img src="{esc(name)}" '
            f'alt="{esc(caption)}"></figure>'
        )
    out.append("<h2>Cards</h2>")
    out.append(
        "<p>Used: played (an Advantage), ability used or hired (a character). Holder won: "
        "of the (game, seat) pairs in which the seat used the card, the share the seat won "
        f"(fair share {1 / summary.players:.0%}). Grey: fewer than 20 holders, too few to "
        "read.</p>"
    )
    out.append(
        "<table><tr><th>card</th><th>type</th><th>set</th><th>source</th><th>uses</th>"
        "<th>per game</th><th>games</th><th>holder won</th><th>95% interval</th></tr>"
    )
    for r in rows:
        low = " class='low'" if r["holders"] < 20 else ""
        rate = f"{r['holder_rate']:.0%}" if r["holders"] else "-"
        interval = f"{r['ci95'][0]:.0%}-{r['ci95'][1]:.0%}" if r["holders"] else "-"
        out.append(
            f"<tr{low}><td>{esc(r['name'])}</td><td class='text'>{esc(r['type'])}</td>"
            f"<td class='text'>{esc(r['set'])}</td><td class='text'>{esc(r['source'])}</td>"
            f"<td>{r['uses']}</td><td>{r['per_game']:.2f}</td><td>{r['games']}</td>"
            f"<td>{r['holder_wins']}/{r['holders']} ({rate})</td><td>{interval}</td></tr>"
        )
    out.append("</table></body></html>")
    return "\n".join(out) + "\n"


__all__ = ["USE_KINDS", "CardUse", "CardUses", "ReportError", "write_report"]
