"""The normal AI's arithmetic: the dice odds (exact for two dice) and what things are worth.

The values are in "Advantage cards" worth, rough and hand tuned; :mod:`engine.agents.normal`
and its sibling modules weigh every choice with them.
"""

from __future__ import annotations

from functools import lru_cache

from engine.cards import effects as fx

# ---------------------------------------------------------------------- odds (B1, B2, B6)

#: How many of the 36 rolls of two dice give each difference (first die - second die).
_DIFFS = {d: 6 - abs(d) for d in range(-5, 6)}


@lru_cache(maxsize=256)
def _p_diff_at_least(x: int) -> float:
    """P(d1 - d2 >= x) for two six-sided dice."""
    return sum(n for d, n in _DIFFS.items() if d >= x) / 36


def p_beat_monster(mine: int, theirs: int) -> float:
    """The chance a party of Strength ``mine`` beats a monster of Strength ``theirs``: a tie
    goes to the party (B2)."""
    return _p_diff_at_least(theirs - mine)


def p_beat_party(mine: int, theirs: int) -> float:
    """The chance of winning a battle between parties (ties are rolled again, V2 default)."""
    win = _p_diff_at_least(theirs - mine + 1)
    lose = 1 - _p_diff_at_least(theirs - mine)
    return win / (win + lose) if win + lose else 0.5


def p_lose_by_five(mine: int, theirs: int) -> float:
    """The chance of losing by 5 or more, which costs a character (B3)."""
    return 1 - _p_diff_at_least(theirs - mine - 4)


def p_check(value: int, difficulty: int) -> float:
    """A check: die + ``value`` >= ``difficulty`` (B6)."""
    need = difficulty - value
    return min(1.0, max(0.0, (7 - need) / 6))


# ---------------------------------------------------------------------- values

#: What the AI gets out of things, in "Advantage cards" worth (rough, hand tuned).
FINAL_VALUE = 40.0
FIRST_MISSION_VALUE = 14.0
#: The second Basic mission, besides its reward: what it brings is that reward, which readies
#: the party for the Final mission and the Crisis! challenge (F6).
OTHER_MISSION_VALUE = 6.0
HIRE_VALUE = {0: 8.0, 1: 7.0, 2: 4.5, 3: 2.5}
SPECIAL_VALUE = 1.5
#: What a lost battle or a lost turn costs (the move and the exploration are wasted).
LOSS_COST = 2.5
#: What a dead character costs, by party size before the death.
DEATH_COST = {1: 4.0, 2: 6.0, 3: 5.0, 4: 4.0}
#: A battle is worth a card when the odds are in this band (else it is won or lost anyway).
DOUBT = (0.12, 0.9)


def effect_value(op: fx.Operation, in_battle: bool = False) -> float:
    """How much an operation of a card helps its user, roughly (positive: good)."""
    kind = op.op
    if isinstance(op, fx.Modify):
        sign = 1 if op.target in ("self", "declaring_party") else -1
        if op.target == "parties_in_region":
            sign = 0
        weight = 1.0 if op.stat == "strength" else 0.6
        if op.duration == "permanent":
            weight *= 3
        elif op.duration == "battle" and not in_battle:
            weight *= 0.3
        return sign * op.amount * weight
    if isinstance(op, fx.Draw):
        if op.target != "self":
            return -0.3 * op.count
        return (3.5 if op.deck == "character" else 1.0) * op.count
    if isinstance(op, fx.Discard):
        return -op.count if op.target == "self" else 0.6 * op.count
    if kind in ("take_discarded", "steal"):
        return 1.0
    if kind in ("hire_from_discard", "take_character"):
        return 3.0
    if kind == "kill":
        return -5.0 if getattr(op, "target", "self") == "self" else 2.0
    if kind in ("end_turn", "lose_next_turn"):
        return -2.0 if getattr(op, "target", "self") == "self" else 1.0
    if kind == "reroll":
        return 1.2
    if kind == "reveal":
        return 0.3
    if isinstance(op, fx.Roll):
        good = sum(effect_value(o) for o in op.success)
        bad = sum(effect_value(o) for o in op.failure)
        chance = p_check(0, op.at_least) if op.check == "plain" else 0.5
        return chance * good + (1 - chance) * bad
    if isinstance(op, fx.Fight):
        return 0.5 * sum(effect_value(o) for o in op.win) + 0.5 * sum(
            effect_value(o) for o in op.lose
        )
    if isinstance(op, fx.Choose):
        return max(sum(effect_value(o) for o in opt.effects) for opt in op.options)
    if kind in ("incapacitate", "tap", "discard_faction"):
        return 0.5
    if kind == "untap":
        return 0.2
    # move, redirect_move, cancel, modify_region, exchanges: it depends on the moment.
    return 0.0


def effects_value(effects: list[fx.Operation], in_battle: bool = False) -> float:
    """How much a list of operations helps its user, roughly (:func:`effect_value`)."""
    return sum(effect_value(op, in_battle) for op in effects)
