"""Turn order (T2, T3): highest party Speed first, ties broken by dice.

Used at the start of every turn (:mod:`engine.rules.turn`) and for the order of the Crisis
challenge (:mod:`engine.rules.crisis`), so it sits below both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.party import speed

if TYPE_CHECKING:
    from engine.game import Game


def turn_order(g: Game) -> list[str]:
    """T2: highest Speed first; equal Speed broken by die rolls, higher first, again on ties."""
    players = [p for p in g.s.seats if not g.s.players[p].lost]
    by_speed: dict[int, list[str]] = {}
    for name in players:
        by_speed.setdefault(speed(g, g.player(name)), []).append(name)
    order: list[str] = []
    for value in sorted(by_speed, reverse=True):
        order.extend(_break_tie(g, by_speed[value]))
    return order


def _break_tie(g: Game, tied: list[str]) -> list[str]:
    if len(tied) == 1:
        return tied
    rolls: dict[int, list[str]] = {}
    for name in tied:
        rolls.setdefault(g.die(), []).append(name)
    g.emit(
        "tie_roll",
        "Equal Speed: "
        + ", ".join(f"{n} rolls {r}" for r, names in rolls.items() for n in names)
        + ".",
        rolls={n: r for r, names in rolls.items() for n in names},
    )
    order: list[str] = []
    for value in sorted(rolls, reverse=True):
        order.extend(_break_tie(g, rolls[value]))
    return order
