"""The simulation report: ``anima simulate --report DIR`` writes ``DIR/index.html`` with plots.

The page shows how long games last and on which turn and how they end, the pace of a game
(when the simulator records it: the first Basic mission, the Final mission's reveal, the
Crisis! countdown), the win rate of each seat position and of each AI level (with 95% Wilson
intervals), per Region and per Encounter what happened there, and per card how often a seat put
it to use and how often that seat won the game. It needs matplotlib (``pip install
'anima-bot[report]'``), imported only when a report is written. The plots are
:mod:`engine.tools.report_plots`'s, the page :mod:`engine.tools.report_page`'s.

A card is *used* when a seat plays it (an Advantage: the ``play`` event), uses its ability (a
character: ``ability``) or hires it (a character: ``hire``); its *holder* is that seat. A card
used by two seats in one game counts for both; used twice by one seat, once for the game.
Advantages (one card, one use) and characters' abilities (used again turn after turn) are
shown apart: a use of each is not the same thing.
The holder's win rate is read against the fair share (1 / players) and against the rate of all
holders of such cards together: a seat that is winning uses more cards, so holders win more
often than the fair share even of a card that does nothing.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.cards import CardDB, default_cards
from engine.events import Event
from engine.game import Game
from engine.tools import report_plots as plots
from engine.tools.report_page import render_page
from engine.tools.simulate import GameResult, Summary, seat_names, wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The events in which a seat puts a card to use, and how the report names each.
USE_KINDS: dict[str, str] = {"play": "played", "ability": "ability used", "hire": "hired"}


class ReportError(Exception):
    """The report cannot be written (matplotlib missing, a folder that cannot be made)."""


@dataclass
class CardUse:
    """One card over a run: times used, games in which it was used, and its holders' wins."""

    uses: int = 0
    #: ``uses`` by kind: Advantages played, characters' abilities used, characters hired.
    plays: int = 0
    abilities: int = 0
    hires: int = 0
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
    _games: dict[int, tuple[dict[str, set[str]], Counter[tuple[str, str]]]] = field(
        default_factory=dict
    )

    def watch(self, seed: int) -> Callable[[Game, list[Event]], None]:
        """An observer of game ``seed`` for :func:`engine.tools.simulate.play_game`."""
        holders: dict[str, set[str]] = defaultdict(set)
        uses: Counter[tuple[str, str]] = Counter()  # (card, event kind) -> times
        self._games[seed] = (holders, uses)

        def observe(game: Game, events: list[Event]) -> None:
            for event in events:
                if event.kind in USE_KINDS:
                    card, seat = event.data.get("card"), event.data.get("player")
                    if card and seat:
                        holders[card].add(seat)
                        uses[(card, event.kind)] += 1

        return observe

    def finish(self, result: GameResult) -> None:
        """Count game ``result.seed`` (a game the engine failed is left out)."""
        holders, uses = self._games.pop(result.seed, ({}, Counter()))
        if result.error is not None:
            return
        winner = f"P{result.winner_seat}" if result.winner_seat is not None else None
        for card, seats in holders.items():
            entry = self.cards[card]
            entry.plays += uses[(card, "play")]
            entry.abilities += uses[(card, "ability")]
            entry.hires += uses[(card, "hire")]
            entry.uses = entry.plays + entry.abilities + entry.hires
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
    fair = 1 / summary.players
    rows = _card_rows(uses, db, games, summary.all_cards)
    seats = d["wins_per_seat"]
    names = seat_names(summary.players)
    levels = d["wins_per_level"]
    advantages = [r for r in rows if r["type"] == "advantage"]
    abilities = [r for r in rows if r["type"] == "character" and r["has_ability"]]
    # (section, caption, file name, the figure or None when the run has nothing to show).
    figures: list[tuple[str, str, str, Figure | None]] = [
        (
            "games",
            "How long games last",
            "game_length.png",
            plots.game_length(plt, finished, d["turns"]),
        ),
        (
            "games",
            "On which turn games end, and how",
            "endings_per_turn.png",
            plots.endings_per_turn(plt, finished),
        ),
        ("pace", "The pace of a game", "pace.png", plots.pace(plt, finished)),
        (
            "wins",
            "Win rate per seat position",
            "wins_per_seat.png",
            plots.rate_bars(
                plt,
                [f"{n} ({seats[n]['level']})" for n in names],
                [seats[n]["wins"] for n in names],
                [seats[n]["of"] for n in names],
                fair,
            ),
        ),
        (
            "wins",
            "Win rate per AI level",
            "wins_per_level.png",
            # One level in every seat: the plot would repeat the overall share, 1 / players.
            plots.rate_bars(
                plt,
                list(levels),
                [e["wins"] for e in levels.values()],
                [e["of"] for e in levels.values()],
                fair,
            )
            if len(levels) > 1
            else None,
        ),
        ("endings", "How games end", "endings.png", plots.endings(plt, d["endings"])),
        (
            "regions",
            "Regions: arrivals and fights per game",
            "regions.png",
            plots.regions(plt, d["regions"], games, db),
        ),
        (
            "encounters",
            "Monsters: battles the party won",
            "monsters.png",
            plots.monsters(plt, d["encounters"], db),
        ),
        (
            "advantages",
            "Advantages (one-shot): plays per game, and how often the holder won",
            "cards.png",
            plots.cards(plt, advantages, "plays_per_game", "plays per game", fair, "#4c72b0"),
        ),
        (
            "characters",
            "Characters' abilities (repeatable): uses per game, and how often the holder won",
            "abilities.png",
            plots.cards(
                plt, abilities, "abilities_per_game", "ability uses per game", fair, "#dd8452"
            ),
        ),
    ]
    images: list[tuple[str, str, str]] = []
    for section, caption, name, fig in figures:
        if fig is not None:
            images.append((section, caption, _save(fig, folder, name)))
            plt.close(fig)
        else:  # an earlier run's plot would be left in the folder, shown by no page
            (folder / name).unlink(missing_ok=True)
    page = folder / "index.html"
    page.write_text(render_page(summary, d, images, rows, command), encoding="utf-8")
    return page


def _save(fig: Figure, folder: Path, name: str) -> str:
    fig.tight_layout()
    # No creation date or software version in the file: the same run gives the same bytes.
    fig.savefig(folder / name, dpi=plots.DPI, metadata={"Software": None})
    return name


def _card_rows(
    uses: CardUses, db: CardDB, games: int, all_cards: Sequence[str]
) -> list[dict[str, Any]]:
    """One row per card of the run's sets that can be used (Advantages and characters),
    most used first. ``has_ability``: a character with an ability a party uses (repeatable);
    the others only fight, and are counted when hired."""
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
                "has_ability": card.type == "character"
                and any(a.timing == "play" for a in card.abilities),
                "uses": entry.uses,
                "plays": entry.plays,
                "abilities": entry.abilities,
                "hires": entry.hires,
                "per_game": entry.uses / games if games else 0.0,
                "plays_per_game": entry.plays / games if games else 0.0,
                "abilities_per_game": entry.abilities / games if games else 0.0,
                "games": entry.games,
                "holders": entry.holders,
                "holder_wins": entry.holder_wins,
                "holder_rate": entry.holder_wins / entry.holders if entry.holders else 0.0,
                "ci95": (low, high),
            }
        )
    rows.sort(key=lambda r: (-r["uses"], r["name"]))
    return rows


__all__ = ["USE_KINDS", "CardUse", "CardUses", "ReportError", "write_report"]
