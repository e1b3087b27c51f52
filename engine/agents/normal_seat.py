"""The normal AI's picture of the table: one decision's reading of its seat's view, and the
odds it reads there (a battle, a Region's Encounters, a mission's objective).

A :class:`Seat` is built afresh for every decision from the :class:`~engine.views.SeatView`
only (never the :class:`~engine.game.Game`); it keeps what it computes for that decision
alone. What a move, a reward or a mission is worth is :mod:`engine.agents.normal_moves`'s.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from engine.agents.normal_values import (
    DEATH_COST,
    effects_value,
    p_beat_monster,
    p_check,
    p_lose_by_five,
)
from engine.cards import (
    AdvantageCard,
    CharacterCard,
    EncounterCard,
    FinalMissionCard,
    MissionCard,
    Objective,
    RegionCard,
)
from engine.cards import effects as fx

if TYPE_CHECKING:
    from engine.agents.normal import NormalAgent
    from engine.views import PartyView, RegionView, SeatView

#: Operations whose worth depends on a plan the heuristic does not make (where to move,
#: what to cancel): it does not play such cards in its own steps.
_PLANNED = frozenset({"move", "redirect_move", "cancel", "exchange_arcane"})


def arg(action: str) -> str:
    """The argument of a choice (``"go r_forest"`` -> ``"r_forest"``)."""
    return action.partition(" ")[2]


class Seat:
    """One decision's reading of the seat view: the party, its cards and its odds."""

    def __init__(self, agent: NormalAgent, view: SeatView) -> None:
        self.agent = agent
        self.db = agent.db
        self.view = view
        self.table = view.table
        self.seat = view.seat
        self.me = self.table.party(view.seat)
        self.strength = self.me.strength or 0
        self.speed = self.me.speed or 0
        self.size = len(self.me.characters)
        self.on_table: dict[str, RegionView] = {r.card: r for r in self.table.regions}
        self._sealed: dict[str, Any] | None = None
        self._bonus: int | None = None
        #: :meth:`monster_loss` by level, once computed.
        self._losses: dict[int, tuple[float, float]] = {}
        #: The best movement and its score, once computed (engine.agents.normal_cards).
        self._best_move: tuple[str | None, float] | None = None

    # ------------------------------------------------------------------ reading the view

    def party(self, seat: str) -> PartyView:
        return self.table.party(seat)

    @property
    def sealed(self) -> dict[str, Any]:
        """The game as this seat knows it (hidden cards are placeholders)."""
        if self._sealed is None:
            self._sealed = json.loads(self.view.sealed_table().state)
        return self._sealed

    def sets(self) -> tuple[str, ...]:
        # The public table's: reading them from the sealed table would build it for every
        # movement and exploration (a quarter of the time of a simulated game).
        return self.table.sets

    def stack_frame(self, kind: str) -> dict[str, Any] | None:
        """The topmost step of ``kind`` under way (a battle, an Encounter)."""
        for frame in reversed(self.sealed["stack"]):
            if frame["kind"] == kind:
                frame_data: dict[str, Any] = frame
                return frame_data
        return None

    def region_card(self, region: str | None = None) -> RegionCard | None:
        region = region if region is not None else self.me.region
        card = self.db.by_id.get(region or "")
        return card if isinstance(card, RegionCard) else None

    def level(self, region: str) -> int:
        r = self.on_table.get(region)
        if r is not None:
            return r.level
        card = self.region_card(region)
        return card.level if card is not None else 1

    def my_missions(self) -> list[str]:
        return [*self.view.missions, *self.me.started]

    def final_eligible(self) -> bool:
        return self.table.final_mission is not None and len(self.me.completed) >= 1

    def resisting_here(self) -> bool:
        for mission, _ in self.view.resisting:
            objective = self.objective(mission)
            if objective is not None and objective.region in (None, self.me.region):
                return True
        return False

    def rivals_in(self, region: str) -> int:
        r = self.on_table.get(region)
        if r is None:
            return 0
        if self.seat in r.parties:
            return -1
        return len(r.parties)

    def leader(self, among: list[str]) -> str:
        """The most dangerous of ``among`` (other seats first)."""

        # Equal threats are told apart by the agent's own generator, not by seat order:
        # the first seat would otherwise be everybody's target.
        draw = self.agent.rng.random

        def threat(seat: str) -> tuple[int, int, int, float]:
            if seat == self.seat or seat not in self.table.seats:
                return (-1, 0, 0, 0.0)
            p = self.party(seat)
            return (len(p.completed), (p.strength or 0) + (p.speed or 0), p.hand_count, draw())

        return max(among, key=threat)

    # ------------------------------------------------------------------ cards

    def battle_bonus(self) -> int:
        """What the Battle cards in hand could add to a battle (the best one)."""
        if self._bonus is None:
            best = 0
            for card_id in self.view.hand:
                card = self.db.by_id.get(card_id)
                if isinstance(card, AdvantageCard) and card.kind in ("battle", "skill"):
                    for ability in card.abilities:
                        if ability.timing == "battle":
                            best = max(best, round(effects_value(ability.effects, True)))
            self._bonus = best
        return self._bonus

    def card_worth(self, card_id: str) -> float:
        """How much a card in hand (or a character) is worth keeping."""
        card = self.db.by_id.get(card_id)
        if isinstance(card, CharacterCard):
            return 5 + self.agent.character_worth(card_id)
        if not isinstance(card, AdvantageCard):
            return 0.0
        worth = 1.0
        for ability in card.abilities:
            worth += max(0.0, effects_value(ability.effects, ability.timing == "battle"))
            if ability.timing == "static":
                worth += 0.5
        if card.kind in ("battle", "interrupt"):
            worth += 0.5
        if card.skill is not None and not self.has_skill(card.skill):
            worth -= 1.0
        return worth

    def has_skill(self, skill: str) -> bool:
        for c in self.me.characters:
            card = self.db.by_id.get(c.card)
            if isinstance(card, CharacterCard) and skill in card.skills:
                return True
        return False

    def play_value(self, action: str, phase: str) -> float:
        """What playing a card or using an ability in one's own ``phase`` step brings."""
        kind, _, card_id = action.partition(" ")
        card = self.db.by_id.get(card_id)
        if card is None:
            return 0.0
        value = 0.0
        for ability in card.abilities:
            if ability.timing == "static" and kind == "play":
                value += max(1.0, 3 * effects_value(ability.effects, True))  # in play for good
            elif ability.timing == "play" and (ability.phase in (None, phase)):
                ops = ability.effects
                if any(op.op in _PLANNED for op in ops):
                    return 0.0  # depends on a plan the heuristic does not make
                value += effects_value(ops)
                if any(isinstance(op, fx.Modify) and op.duration == "turn" for op in ops):
                    value *= 0.5 if phase != "exploration" else 1.0
        if kind == "play" and isinstance(card, AdvantageCard):
            value -= 0.8  # the card itself is spent
        return value

    def best_play(self, actions: list[str], phase: str) -> str | None:
        """The most useful card or ability of the step, if it is worth its cost."""
        best, value = None, 0.6
        for a in actions:
            if a.startswith(("play ", "ability ")):
                v = self.play_value(a, phase)
                if v > value:
                    best, value = a, v
        return best

    # ------------------------------------------------------------------ odds of a Region

    def objective(self, card_id: str) -> Objective | None:
        """The objective of mission ``card_id`` (a Final mission's quest), if it is one."""
        card = self.db.by_id.get(card_id)
        if isinstance(card, MissionCard):
            return card.objective
        if isinstance(card, FinalMissionCard):
            return card.quest
        return None

    def mission_region(self, card_id: str) -> str | None:
        """The Region where mission ``card_id`` (a Final mission's quest) is attempted, if
        its objective names one."""
        objective = self.objective(card_id)
        return objective.region if objective is not None else None

    def monster_loss(self, level: int) -> tuple[float, float]:
        """For one unknown Encounter at a Region of ``level``: the chance it beats the party,
        and the chance it kills a character (M8: a higher level is a false alarm).

        Kept per level for the decision: a movement scores every Region, most of them at
        the same few levels."""
        known = self._losses.get(level)
        if known is not None:
            return known
        pool = self.agent.encounters(self.sets())
        if not pool:
            return 0.0, 0.0
        lose = death = 0.0
        mine = self.strength + self.battle_bonus() // 2
        for e in pool:
            if e.level > level:
                continue
            if e.kind == "monster" and e.strength is not None:
                lose += 1 - p_beat_monster(mine, e.strength)
                death += p_lose_by_five(mine, e.strength)
            else:
                lose += 0.12  # some events end the turn
        self._losses[level] = known = (lose / len(pool), death / len(pool))
        return known

    def p_explore_ok(self, region: RegionCard) -> float:
        """The chance an exploration of ``region`` ends with a reward (E2, E3)."""
        level = self.level(region.id)
        lose, _ = self.monster_loss(level)
        total = 0.0
        for face in region.exploration:
            if face.result == "encounters":
                total += (1 - lose) ** face.count
            elif face.result == "special":
                total += 0.7
            else:
                total += 1.0
        return total / 6

    def death_risk(self, region: RegionCard) -> float:
        """The expected cost of a character killed exploring ``region``."""
        level = self.level(region.id)
        _, death = self.monster_loss(level)
        count = sum(f.count for f in region.exploration if f.result == "encounters") / 6
        return death * count * DEATH_COST.get(self.size, 4.0)

    def arrival(self, region: str) -> tuple[float, float]:
        """Entering ``region``: the chance to get through its Preliminary Encounter, and the
        expected cost of a death there (M2)."""
        if region == self.me.region:
            return 1.0, 0.0  # X1: staying meets nothing
        r = self.on_table.get(region)
        if r is None or r.preliminary_state == "none":
            return 1.0, 0.0
        mine = self.strength + self.battle_bonus()
        if r.preliminary is not None:
            card = self.db.by_id.get(r.preliminary)
            if not isinstance(card, EncounterCard) or card.level > r.level:
                return 1.0, 0.0
            if card.kind != "monster" or card.strength is None:
                return 0.9, 0.0
            death = p_lose_by_five(mine, card.strength) * DEATH_COST.get(self.size, 4.0)
            return p_beat_monster(mine, card.strength), death
        lose, death = self.monster_loss(r.level)
        return 1 - lose, death * DEATH_COST.get(self.size, 4.0)

    # ------------------------------------------------------------------ odds of a mission

    def objective_odds(self, card_id: str) -> float:
        """The chance an attempt at mission ``card_id`` succeeds now."""
        objective = self.objective(card_id)
        if objective is None:
            return 0.0
        card = self.db[card_id]
        if objective.kind == "fight":
            level = card.level if isinstance(card, MissionCard | FinalMissionCard) else 1
            theirs = objective.strength if objective.strength is not None else level
            return p_beat_monster(self.strength + self.battle_bonus(), theirs)
        if objective.kind == "speed_check":
            return p_check(self.speed, objective.difficulty or 0)
        if objective.kind == "resist" and objective.strength is not None:
            # Enemies that fight on every turn held out (F2): every one of those battles won.
            win = p_beat_monster(self.strength + self.battle_bonus(), objective.strength)
            return float(win ** (objective.turns or 1))
        if objective.kind == "resist":
            return 0.75 ** max(0, (objective.turns or 1) - 1)
        if objective.kind == "encounters":
            # Encounters in a row, the Region counting as ``region_counts_as`` while they last.
            here = self.level(self.me.region) if self.me.region else 1
            level = objective.region_counts_as or here
            lose, _ = self.monster_loss(level)
            return float((1 - lose) ** (objective.encounters or 1))
        if objective.kind == "deliver":
            return 1.0 if len(self.view.hand) >= (objective.advantages or 1) else 0.0
        return 1.0 if self.gathered(objective) else 0.0

    def gathered(self, objective: Objective) -> bool:
        chars = [self.db.by_id.get(c.card) for c in self.me.characters if not c.incapacitated]
        party = [c for c in chars if isinstance(c, CharacterCard)]
        if objective.characters is not None and len(party) < objective.characters:
            return False
        if any(not any(s in c.skills for c in party) for s in objective.skills):
            return False
        return all(any(c.gender == g for c in party) for g in objective.genders)
