"""When the normal AI reveals the Final mission (F3, V1), and when it keeps building.

Revealing starts the Crisis! countdown (F5). At 0 every party without a completed Basic
mission loses and the others face the challenge in Speed order (F6); before that, anyone with
a completed mission may attempt the Quest (F4). So the reveal helps the player who is best
placed to win either way, and a player who is behind only hands the race to a rival: the
rulebook's players "often prefer to complete both of their Basic missions before attempting
the Final one".

The normal AI therefore reveals only when

- it has no Basic mission left to complete (building further brings no more rewards), or
- its odds at the Final mission (its Quest or, failing that, its Crisis! challenge) are
  good, and at least as good as those of every rival that could face it, or
- the game runs long (:data:`LATE_TURN`): a countdown ends it before the turn limit does.

The Final mission is face down: its odds are averaged over the Final missions it may be
(those of the sets in play whose missions this player holds, S5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import CardDB, FinalMissionCard, Objective

if TYPE_CHECKING:
    from engine.views import PartyView, SeatView

#: Odds (0-1) at the Final mission a party with a Basic mission still to complete needs
#: before it reveals it: it gives up the reward of that mission for a head start.
READY = 0.7
#: From this turn on, a player who may reveal the Final mission does: the countdown then ends
#: the game as designed (F5, F6) rather than the turn limit and its tie-breaks.
LATE_TURN = 15


def _beat(mine: int, theirs: int) -> float:
    """P(die + mine >= die + theirs) (B2: a tie goes to the party)."""
    need = theirs - mine
    return sum(6 - abs(d) for d in range(-5, 6) if d >= need) / 36


def _check(value: int, difficulty: int) -> float:
    """P(die + value >= difficulty) (B6)."""
    return min(1.0, max(0.0, (7 - (difficulty - value)) / 6))


def objective_odds(objective: Objective, level: int, strength: int, speed: int) -> float:
    """The odds of a party of ``strength`` and ``speed`` at a fight or a Speed check; a
    Resistance (or any other kind) counts as even."""
    if objective.kind == "fight":
        return _beat(strength, objective.strength if objective.strength is not None else level)
    if objective.kind == "speed_check":
        return _check(speed, objective.difficulty or 0)
    return 0.5


def final_odds(card: FinalMissionCard, party: PartyView) -> float:
    """A party's odds of winning by ``card``: its Quest, else its Crisis! challenge."""
    strength, speed = party.strength or 0, party.speed or 0
    quest = objective_odds(card.quest, card.level, strength, speed)
    crisis = objective_odds(card.crisis.challenge, card.level, strength, speed)
    return 1 - (1 - quest) * (1 - crisis)


def possible_finals(view: SeatView, db: CardDB) -> list[FinalMissionCard]:
    """The Final missions the face-down deck may hold: those of the sets whose Basic
    missions are in play (S5: with Twilight of the Gods combined, one family of missions)."""
    me = view.table.party(view.seat)
    mine = [*view.missions, *me.started, *me.completed]
    mission_sets = {db[m].set for m in mine if m in db.by_id}
    return [
        c
        for c in db
        if isinstance(c, FinalMissionCard)
        and c.set in view.table.sets
        and (not mission_sets or c.set in mission_sets)
    ]


def mean_final_odds(view: SeatView, db: CardDB, party: PartyView) -> float:
    finals = possible_finals(view, db)
    if not finals:
        return 0.0
    return sum(final_odds(c, party) for c in finals) / len(finals)


def should_reveal(view: SeatView, db: CardDB) -> bool:
    """Whether revealing the Final mission now helps this seat (see the module docstring)."""
    table = view.table
    me = table.party(view.seat)
    if not view.missions and not me.started:
        return True  # every Basic mission done: nothing left to build towards
    if table.turn >= LATE_TURN:
        return True
    mine = mean_final_odds(view, db, me)
    if mine < READY:
        return False
    rivals = [
        mean_final_odds(view, db, p)
        for p in table.parties
        if p.seat != view.seat and p.completed and not p.lost
    ]
    return all(mine >= theirs for theirs in rivals)
