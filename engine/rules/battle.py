"""Battles and checks (B1-B7, I5/V2, O3).

A ``battle`` frame: ``player`` is the party that fights; ``other`` its opponent party, or
None for a monster (``card``: the Encounter) or an ad-hoc opponent (a mission's or a card's
``data["name"]``/``data["strength"]``). It reports ``won`` (for ``player``), ``tie``,
``cancelled`` and ``margin`` to the frame below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.flow import handles, responds
from engine.rules.interpreter import run_effects
from engine.rules.party import Versus, kill, monster_strength, static_bonus, strength
from engine.rules.windows import open_window
from engine.state import Frame, Player

if TYPE_CHECKING:
    from engine.game import Game

CASUALTY_MARGIN = 5  # B3


def battle_die(g: Game, p: Player | None) -> tuple[int, str]:
    """One side's die (O3 open rolls: a 6 is rolled again and added; ``reroll``: twice, best)."""
    value = g.die()
    shown = str(value)
    if p is not None and p.reroll:
        second = g.die()
        shown = f"{value}/{second}"
        value = max(value, second)
        p.reroll = False
    if g.s.options.open_rolls:
        last = value
        while last == 6:
            last = g.die()
            value += last
            shown += f"+{last}"
    return value, shown


def _opponent_name(g: Game, frame: Frame) -> str:
    if frame.other is not None:
        return frame.other
    if frame.card is not None:
        return g.db[frame.card].name
    return str(frame.data.get("name", "the opponent"))


@handles("battle")
def run_battle(g: Game, frame: Frame) -> None:
    a = g.player(frame.player or "")
    if frame.stage == "":
        if frame.card is not None:
            monster = g.db.encounter(frame.card)
            frame.data.setdefault("keywords", list(monster.keywords))
        g.emit(
            "battle",
            f"⚔️ {a.name}'s party fights {_opponent_name(g, frame)}.",
            player=a.name,
            other=frame.other,
            opponent=_opponent_name(g, frame),
            card=frame.card,
        )
        frame.stage = "window"
        open_window(g, "battle_start", a.name, frame.other)  # B4/T4: before the rolls
        return
    if frame.stage == "window":
        if g.s.result.get("cancelled"):
            g.emit("battle_cancelled", "The battle is called off.")
            _finish(g, frame, won=None, cancelled=True)
            return
        frame.stage = "roll"
        return
    if frame.stage == "roll":
        _roll(g, frame, a)
        return
    if frame.stage == "after":
        _finish(g, frame, won=frame.data["won"], margin=frame.data["margin"])


def _roll(g: Game, frame: Frame, a: Player) -> None:
    b = g.player(frame.other) if frame.other else None
    vs_a = Versus("party") if b else Versus("monster", frame.data.get("keywords", []))
    str_a = strength(g, a, vs_a)
    if b is not None:
        str_b = strength(g, b, Versus("party"))
        str_a -= static_bonus(g, b, "strength", "opponent", Versus("party"))
        str_b -= static_bonus(g, a, "strength", "opponent", Versus("party"))
    elif frame.card is not None:
        str_b = monster_strength(g, g.db.encounter(frame.card), a)
    else:
        str_b = int(frame.data.get("strength", 0))
    if b is None:
        str_b += frame.data.get("monster_bonus", 0) + static_bonus(
            g, a, "strength", "opponent", vs_a
        )
    die_a, shown_a = battle_die(g, a)
    # X4: a monster's (or a mission opponent's) die is rolled here by the engine, and both
    # dice are in the public ``battle_roll`` event below, so every player sees them.
    die_b, shown_b = battle_die(g, b)
    total_a, total_b = die_a + str_a, die_b + str_b
    text = f"🎲 {shown_a} + Strength {str_a} = {total_a} vs 🎲 {shown_b} + {str_b} = {total_b}"
    g.emit(
        "battle_roll",
        text,
        player=a.name,
        other=frame.other,
        opponent=_opponent_name(g, frame),
        totals=[total_a, total_b],
        dice=[die_a, die_b],
        strengths=[str_a, str_b],
        shown=[shown_a, shown_b],
    )
    if total_a == total_b:
        if b is None:
            won = True  # B2: against a monster a tie goes to the party
        elif g.s.options.party_tie == "reroll":
            g.emit("tie", "A tie: the battle goes on (V2).", goes_on=True)
            return  # I5/V2 default: roll again until one loses
        else:
            g.emit("tie", "A tie: nothing happens (V2, BGE reading).", goes_on=False)
            _finish(g, frame, won=None, tie=True)
            return
    else:
        won = total_a > total_b
    margin = abs(total_a - total_b)
    frame.data.update(won=won, margin=margin)
    frame.stage = "after"
    winner = a.name if won else (b.name if b else _opponent_name(g, frame))
    text = f"{winner} wins by {margin}." if margin else f"A tie: {winner} wins (B2)."
    g.emit("battle_result", text, winner=winner, margin=margin)
    loser = a if not won else b
    # Monster abilities on the result (on_win: it beat the party; on_lose: it was beaten).
    if frame.card is not None:
        timing = "on_lose" if won else "on_win"
        for i, ability in enumerate(g.db[frame.card].abilities):
            if ability.timing == timing and ability.effects:
                run_effects(g, a.name, frame.card, ["abilities", i, "effects"])
    if loser is not None and margin >= CASUALTY_MARGIN:
        g.push("casualty", player=loser.name)  # B3


def _finish(g: Game, frame: Frame, **result: object) -> None:
    for name in (frame.player, frame.other):
        if name:
            p = g.player(name)
            p.modifiers = [m for m in p.modifiers if m.duration != "battle"]
            p.reroll = False
    g.pop(**result)


@handles("casualty")
def run_casualty(g: Game, frame: Frame) -> None:
    """B3: the loser by 5 or more loses one character of his choice."""
    p = g.player(frame.player or "")
    if len(p.party) <= 1:
        if p.party:
            kill(g, p, p.party[0].card)
        g.pop()
        return
    g.ask(
        p.name,
        "casualty",
        "You lost by 5 or more: choose the character who dies (B3).",
        [f"pick {c.card}" for c in p.party],
    )


@responds("casualty")
def answer_casualty(g: Game, frame: Frame, player: str, action: Action) -> None:
    assert action.arg is not None
    kill(g, g.player(player), action.arg)
    g.pop()
