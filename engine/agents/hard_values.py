"""The hard AI's judgement of a position (:mod:`engine.agents.hard`, step 4): a score per
party (completed missions first, then how ready the party is for a mission it holds and for
the Final mission's Quest, the party's size, Strength, Speed and hand), and this seat's
share of a softmax of the scores: a rough probability of winning from here."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.cards import FinalMissionCard, MissionCard, Objective
from engine.rules.missions import required_completed
from engine.rules.party import speed, strength

if TYPE_CHECKING:
    from engine.game import Game
    from engine.state import Player

#: Softmax temperature of :func:`evaluate`: a score lead of this much is a factor e.
TEMPERATURE = 8.0

# Weights of :func:`party_score`: what a position is worth to a party, in "points".
#: A completed Basic mission (the first ones needed for the Final mission, F4, O2).
W_COMPLETED = 30.0
#: A completed mission beyond those needed.
W_EXTRA_COMPLETED = 6.0
#: How ready the party is for its most promising Basic mission (0-1).
W_MISSION_READY = 12.0
#: How ready the party is for the Final mission's Quest (0-1), once it may attempt it.
W_FINAL_READY = 30.0
#: Per character in the party (C1: 1-4).
W_CHARACTER = 3.0
W_STRENGTH = 0.8
W_SPEED = 0.5
#: Per Advantage in hand (R4: at most 5) and per card in play.
W_HAND = 1.2
W_IN_PLAY = 1.5
#: With the Crisis! countdown running, a party with no completed mission loses at 0 (F6).
W_CRISIS_DANGER = 40.0

#: P(die A - die B >= k) for two six-sided dice, k from -5 to 6 (index k + 5).
_DIFF_AT_LEAST = [
    sum(1 for a in range(1, 7) for b in range(1, 7) if a - b >= k) / 36 for k in range(-5, 7)
]


def _beats(margin: int) -> float:
    """P(die + ours >= die + theirs) when ours - theirs == ``margin`` (a tie goes to the
    party, B2)."""
    k = -margin
    if k <= -5:
        return 1.0
    if k > 5:
        return 0.0
    return _DIFF_AT_LEAST[k + 5]


def _check(total: int, difficulty: int) -> float:
    """P(die + total >= difficulty) (B6)."""
    need = difficulty - total
    return min(1.0, max(0.0, (7 - need) / 6)) if need > 1 else 1.0


def objective_readiness(g: Game, p: Player, objective: Objective, level: int) -> float:
    """How likely ``p`` would complete ``objective`` if it attempted it now, wherever it is
    (0-1): a fight or a check by its odds, a gathering by the share of its conditions met, a
    delivery by the cards in hand, a Resistance mission by the turns already held."""
    kind = objective.kind
    if kind == "fight":
        return _beats(strength(g, p) - (objective.strength or level))
    if kind == "speed_check":
        return _check(speed(g, p), objective.difficulty or 0)
    if kind == "deliver":
        return min(1.0, len(p.hand) / (objective.advantages or 1))
    if kind == "gather":
        chars = [g.db.character(c.card) for c in p.party if not c.incapacitated]
        wanted = met = 0
        if objective.characters is not None:
            wanted += 1
            met += len(chars) >= objective.characters
        for skill in objective.skills:
            wanted += 1
            met += any(skill in c.skills for c in chars)
        for gender in objective.genders:
            wanted += 1
            met += any(c.gender == gender for c in chars)
        return met / wanted if wanted else 1.0
    # resist: the stay is the hard part (party_score counts the turns already held).
    return 0.5


def _place_factor(g: Game, p: Player, objective: Objective) -> float:
    """How close the party is to where ``objective`` is attempted: there (1), the Region is
    on the table (0.6), or it still has to be explored (0.25)."""
    if objective.region is None:
        if objective.region_level is None:
            return 1.0
        levels = {r.card: g.db.region(r.card).level for r in g.s.regions}
        if p.region is not None and levels.get(p.region, 0) >= objective.region_level:
            return 1.0
        return 0.6 if any(v >= objective.region_level for v in levels.values()) else 0.25
    if p.region == objective.region:
        return 1.0
    if any(r.card == objective.region for r in g.s.regions):
        return 0.6
    return 0.25


def party_score(g: Game, p: Player) -> float:
    """What the position is worth to ``p``, in points (see the ``W_`` weights)."""
    db = g.db
    completed = len(p.completed)
    needed = required_completed(g)
    score = W_COMPLETED * min(completed, needed) + W_EXTRA_COMPLETED * max(0, completed - needed)
    final = g.s.final_mission
    if final is not None and completed >= needed:
        card = db[final]
        assert isinstance(card, FinalMissionCard)
        quest = objective_readiness(g, p, card.quest, card.level) * _place_factor(g, p, card.quest)
        # F6: at the Crisis! the party faces its challenge wherever it is.
        crisis = objective_readiness(g, p, card.crisis.challenge, card.level)
        score += W_FINAL_READY * (1 - (1 - quest) * (1 - crisis))
    elif completed < needed:
        best = 0.0
        for mission in (*p.missions, *p.started):
            card = db[mission]
            if not isinstance(card, MissionCard):
                continue
            objective = card.objective
            if objective.kind == "resist":
                turns = objective.turns or 1
                held = p.resisting.get(mission)
                ready = 0.5 + 0.5 * held / turns if held is not None else 0.3
            else:
                ready = objective_readiness(g, p, objective, card.level)
            best = max(best, ready * _place_factor(g, p, objective))
        score += W_MISSION_READY * best
        if g.s.crisis is not None:
            # F6: at 0, a party with no completed mission loses; the nearer, the worse.
            score -= W_CRISIS_DANGER / max(1, g.s.crisis)
    score += W_CHARACTER * len(p.party)
    score += W_STRENGTH * strength(g, p) + W_SPEED * speed(g, p)
    score += W_HAND * len(p.hand) + W_IN_PLAY * len(p.in_play)
    return score


def evaluate(g: Game, seat: str) -> float:
    """The value of ``g`` for ``seat`` in [0, 1]: 1 or 0 once the game is over (won, or
    not), else ``seat``'s share of a softmax of every live party's :func:`party_score`."""
    s = g.s
    if s.phase == "over":
        return 1.0 if s.winner == seat else 0.0
    me = s.players[seat]
    if me.lost:
        return 0.0
    scores = {name: party_score(g, p) for name, p in s.players.items() if not p.lost}
    top = max(scores.values())
    weights = {name: math.exp((v - top) / TEMPERATURE) for name, v in scores.items()}
    return weights[seat] / sum(weights.values())


__all__ = ["evaluate", "objective_readiness", "party_score"]
