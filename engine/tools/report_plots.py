"""The plots of the simulation report (:mod:`engine.tools.report`), one function per figure.

Each function takes matplotlib's pyplot (imported by the report only when one is written)
and plain figures (the summary's dictionary, the finished games, the card rows) and returns
a Figure, or None when the run has nothing to show in it (then the page leaves it out).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from engine.cards import CardDB
from engine.endings import ENDINGS
from engine.tools.simulate import GameResult, wilson

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: The plots' size (inches) and resolution: small PNGs, readable on a page.
FIGSIZE = (6.4, 3.6)
DPI = 80
#: Holders below this are too few to read a win rate from (grey rows, unlabelled points).
MIN_HOLDERS = 20
#: The per-game pace figures (:class:`engine.tools.pace.GamePace`, each GameResult's ``pace``),
#: and how the report names each and its axis.
PACE_FIELDS: dict[str, tuple[str, str]] = {
    "first_basic_mission_turn": ("First Basic mission completed", "turn"),
    "final_revealed_turn": ("Final mission revealed", "turn"),
    "crisis_countdown": ("Crisis! countdown set to", "turns left"),
}
_BLUE, _RED, _GREEN, _ORANGE, _GREY = "#4c72b0", "#c44e52", "#55a868", "#dd8452", "#8c8c8c"
_ENDING_COLOURS = ("#4c72b0", "#55a868", "#c44e52", "#8172b3", "#937860")


def pace_values(results: Sequence[GameResult], name: str) -> list[float]:
    """The games' values of the per-game pace figure ``name`` (a game in which it did not
    happen gives none)."""
    values = (getattr(r.pace, name, None) for r in results)
    return [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]


def game_length(plt: Any, finished: Sequence[GameResult], turns: dict[str, Any]) -> Figure:
    """Turns per game, with the median and, when the summary has them, the quartiles."""
    fig, ax = plt.subplots(figsize=FIGSIZE)
    lengths = [r.turns for r in finished]
    if lengths:
        ax.hist(lengths, bins=range(min(lengths), max(lengths) + 2), color=_BLUE, align="left")
        median = statistics.median(lengths)
        ax.axvline(median, color=_RED, linestyle="--", label=f"median {median:g}")
        if "p25" in turns and "p75" in turns:
            for key, style in (("p25", ":"), ("p75", ":")):
                ax.axvline(turns[key], color=_GREY, linestyle=style)
            ax.axvspan(
                turns["p25"],
                turns["p75"],
                color=_GREY,
                alpha=0.15,
                label=f"middle half {turns['p25']:g}-{turns['p75']:g}",
            )
        ax.legend(loc="upper right")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    return cast("Figure", fig)


def endings_per_turn(plt: Any, finished: Sequence[GameResult]) -> Figure | None:
    """On which turn games end, and how: one stacked bar per turn, by ending."""
    if not finished:
        return None
    counts = Counter((r.turns, r.ending) for r in finished)
    turns = list(range(min(r.turns for r in finished), max(r.turns for r in finished) + 1))
    fig, ax = plt.subplots(figsize=(FIGSIZE[0] * 1.4, FIGSIZE[1]))
    bottom = [0] * len(turns)
    for (key, label), colour in zip(ENDINGS.items(), _ENDING_COLOURS, strict=False):
        heights = [counts[(t, key)] for t in turns]
        if any(heights):
            ax.bar(turns, heights, bottom=bottom, color=colour, label=label)
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    ax.set_xlabel("turn the game ended")
    ax.set_ylabel("games")
    # Beside the bars: the busiest turns are in the middle, where a legend inside would sit.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    return cast("Figure", fig)


def pace(plt: Any, finished: Sequence[GameResult]) -> Figure | None:
    """One histogram per pace figure the games record (first Basic mission, Final mission
    revealed, the Crisis! countdown), each with its median and how many games had it."""
    shown = {k: v for k in PACE_FIELDS if (v := pace_values(finished, k))}
    if not shown:
        return None
    fig, axes = plt.subplots(1, len(shown), figsize=(FIGSIZE[0] * 1.4, FIGSIZE[1]), squeeze=False)
    for ax, (name, values) in zip(axes[0], shown.items(), strict=True):
        title, unit = PACE_FIELDS[name]
        # One bar per whole turn (or countdown value), centred on it.
        bins = range(math.floor(min(values)), math.ceil(max(values)) + 2)
        ax.hist(values, bins=bins, color=_GREEN, edgecolor="white", align="left")
        median = statistics.median(values)
        ax.axvline(median, color=_RED, linestyle="--", label=f"median {median:g}")
        ax.set_title(f"{title}\n({len(values)} of {len(finished)} games)", fontsize="small")
        ax.set_xlabel(unit)
        ax.legend(loc="upper right", fontsize="x-small")
    axes[0][0].set_ylabel("games")
    return cast("Figure", fig)


def rate_bars(
    plt: Any, labels: Sequence[str], wins: Sequence[int], trials: Sequence[int], fair: float
) -> Figure:
    """Win rates with their 95% intervals, and the fair share as a line."""
    fig, ax = plt.subplots(figsize=FIGSIZE)
    rates = [w / t if t else 0.0 for w, t in zip(wins, trials, strict=True)]
    _rates_with_intervals(ax, labels, rates, wins, trials, vertical=True)
    ax.axhline(100 * fair, color=_RED, linestyle="--", label=f"fair share {fair:.0%}")
    ax.set_ylabel("games won (%)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right")
    return cast("Figure", fig)


def _rates_with_intervals(
    ax: Axes,
    labels: Sequence[str],
    rates: Sequence[float],
    wins: Sequence[int],
    trials: Sequence[int],
    vertical: bool,
) -> None:
    bounds = [wilson(w, t) for w, t in zip(wins, trials, strict=True)]
    below = [100 * max(0.0, r - lo) for r, (lo, _) in zip(rates, bounds, strict=True)]
    above = [100 * max(0.0, hi - r) for r, (_, hi) in zip(rates, bounds, strict=True)]
    values = [100 * r for r in rates]
    if vertical:
        ax.bar(labels, values, color=_BLUE)
        ax.errorbar(labels, values, yerr=[below, above], fmt="none", ecolor="black", capsize=4)
    else:
        ax.barh(labels, values, color=_BLUE)
        ax.errorbar(values, labels, xerr=[below, above], fmt="none", ecolor="black", capsize=3)


def endings(plt: Any, counts: dict[str, int]) -> Figure:
    """How many games ended each way (engine.endings.ENDINGS)."""
    fig, ax = plt.subplots(figsize=FIGSIZE)
    labels = list(ENDINGS.values())
    values = [counts[key] for key in ENDINGS]
    ax.barh(labels[::-1], values[::-1], color=_GREEN)
    ax.set_xlabel("games")
    return cast("Figure", fig)


def cards(
    plt: Any, rows: Sequence[dict[str, Any]], x: str, xlabel: str, fair: float, colour: str
) -> Figure | None:
    """Cards as points: ``row[x]`` (uses per game) against the share of holders that won,
    each point with enough holders labelled with the card's name. Two lines to read them
    against: the fair share, and the rate of all these cards' holders together (a holder is
    more often a winner than the fair share says: see the report's note)."""
    used = [r for r in rows if r["holders"]]
    if not used:
        return None
    fig, ax = plt.subplots(figsize=(FIGSIZE[0] * 1.35, FIGSIZE[1] * 1.6))
    ax.scatter(
        [r[x] for r in used],
        [100 * r["holder_rate"] for r in used],
        s=[12 + 2 * r["holders"] ** 0.5 for r in used],
        alpha=0.7,
        color=[colour if r["holders"] >= MIN_HOLDERS else _GREY for r in used],
    )
    labelled = [r for r in used if r["holders"] >= MIN_HOLDERS]
    right = max(r[x] for r in used) or 1.0
    ax.set_xlim(-0.03 * right, 1.2 * right)  # room for the rightmost names
    # Up to 50% at least, else the next ten above the highest point: room for the names.
    top = min(100, max(50, 10 * math.ceil(max(100 * r["holder_rate"] for r in used) / 10 + 0.5)))
    ax.set_ylim(0, top)
    points = [(r[x] / (1.23 * right), 100 * r["holder_rate"] / top) for r in labelled]
    spots = _label_spots(points, [len(r["name"]) for r in labelled])
    for r, (px, py), (lx, ly) in zip(labelled, points, spots, strict=True):
        moved = abs(ly - py - _LABEL_RISE) > 1e-9
        ax.annotate(
            r["name"],
            (r[x], 100 * r["holder_rate"]),
            xytext=(r[x] + (lx - px) * 1.23 * right, top * ly),
            fontsize=6.5,
            va="bottom",
            arrowprops={"arrowstyle": "-", "color": _GREY, "lw": 0.5} if moved else None,
        )
    pooled = sum(r["holder_wins"] for r in used) / sum(r["holders"] for r in used)
    ax.axhline(100 * fair, color=_RED, linestyle="--", label=f"fair share {fair:.0%}")
    ax.axhline(100 * pooled, color=_GREY, linestyle=":", label=f"all their holders {pooled:.0%}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("holder won the game (%)")
    ax.legend(loc="upper right", fontsize="small")
    return cast("Figure", fig)


#: A card name's box on the cards' plot, in axes fractions: width per letter, height, and how
#: far right of and above its point a label starts.
_LABEL_CHAR, _LABEL_HEIGHT, _LABEL_GAP, _LABEL_RISE = 0.0072, 0.026, 0.006, 0.004


def _label_spots(
    points: Sequence[tuple[float, float]], lengths: Sequence[int]
) -> list[tuple[float, float]]:
    """Where to write each point's name (axes fractions, lower left corner) so that no two
    names overlap: beside its point if there is room, else the nearest free place above or
    below (names close together are the usual case: cards used as often, won as often)."""
    placed: list[tuple[float, float, float]] = []  # x, y, width
    spots = [(0.0, 0.0)] * len(points)
    for i in sorted(range(len(points)), key=lambda i: -points[i][1]):
        px, py = points[i]
        x, width = px + _LABEL_GAP, _LABEL_CHAR * lengths[i]
        for step in (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6):
            y = py + _LABEL_RISE + step * _LABEL_HEIGHT
            if not any(
                x < ox + ow and ox < x + width and abs(y - oy) < _LABEL_HEIGHT
                for ox, oy, ow in placed
            ):
                break
        placed.append((x, y, width))
        spots[i] = (x, y)
    return spots


def regions(plt: Any, figures: dict[str, dict[str, int]], games: int, db: CardDB) -> Figure | None:
    """Per Region: arrivals and fights per game, those against its Encounters and, stacked
    after them, those against a mission's or the Crisis!'s foe."""
    if not figures or not games:
        return None
    # Most visited on top (barh draws the first bar at the bottom).
    order = sorted(figures, key=lambda r: (figures[r]["visits"], figures[r]["fights"]))
    names = [db[r].name for r in order]
    visits = [figures[r]["visits"] / games for r in order]
    fights = [(figures[r]["fights"] - figures[r]["mission_fights"]) / games for r in order]
    missions = [figures[r]["mission_fights"] / games for r in order]
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], 0.9 + 0.28 * len(names)))
    ys = range(len(names))
    ax.barh([y + 0.2 for y in ys], visits, height=0.4, color=_BLUE, label="arrivals")
    low = [y - 0.2 for y in ys]
    ax.barh(low, fights, height=0.4, color=_ORANGE, label="fights with its Encounters")
    ax.barh(low, missions, height=0.4, left=fights, color=_GREEN, label="with missions' foes")
    ax.set_yticks(list(ys), names, fontsize="small")
    ax.set_xlabel("per game")
    ax.legend(loc="lower right", fontsize="small")
    return cast("Figure", fig)


def monsters(plt: Any, figures: dict[str, dict[str, Any]], db: CardDB) -> Figure | None:
    """Per monster fought: the share of battles the party won, with its 95% interval."""
    fought = [(c, e) for c, e in figures.items() if e["fights"]]
    if not fought:
        return None
    # Ascending: barh draws the first bar at the bottom, so the easiest monster is on top.
    fought.sort(key=lambda ce: (ce[1]["wins"] / ce[1]["fights"], db[ce[0]].name))
    labels = [f"{db[c].name} ({e['fights']})" for c, e in fought]
    wins = [e["wins"] for _, e in fought]
    trials = [e["fights"] for _, e in fought]
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], 0.9 + 0.28 * len(fought)))
    rates = [w / t for w, t in zip(wins, trials, strict=True)]
    _rates_with_intervals(ax, labels, rates, wins, trials, vertical=False)
    ax.set_xlim(0, 100)
    ax.set_xlabel("battles the party won (%)")
    ax.tick_params(axis="y", labelsize="small")
    return cast("Figure", fig)


__all__ = [
    "DPI",
    "FIGSIZE",
    "MIN_HOLDERS",
    "PACE_FIELDS",
    "cards",
    "endings",
    "endings_per_turn",
    "game_length",
    "monsters",
    "pace",
    "pace_values",
    "rate_bars",
    "regions",
]
