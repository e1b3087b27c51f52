"""The *normal* AI level: a heuristic player that plays like a reasonable person.

It decides from its seat's :class:`~engine.views.SeatView` and the open prompt only (never the
:class:`~engine.game.Game`): the public table, its own hand and secret missions, the cards it
scouted, and the sealed table (the game with every card it cannot see replaced by a
placeholder), from which it reads the step under way (the battle or Encounter being
resolved). The card texts it reasons about come from the card database, which is public.

Its plan, each turn: go where the best reward waits, weighing what it brings against the risk
of the Region's Preliminary Encounter and exploration (battle odds are exact for two dice):

- the Final mission when it may attempt it and its odds are fair, else a Basic mission it can
  complete now (a fight it is likely to win, a Speed check it is likely to pass, characters it
  has gathered, Advantages it can deliver, a Resistance it can hold);
- otherwise what makes it stronger: a hire while the party is small, Advantages while the hand
  has room; a new Region when none of its missions' Regions is on the table;
- a rest when every move is too dangerous for its Strength.

It plays Battle cards when a battle it fights is in doubt, Interrupts that cancel an Encounter
or a battle it would likely lose, and Plot/Skill cards and abilities in their phase when they
help it; it attacks a party only when its odds are good, reveals the Final mission only when
that helps it (:mod:`engine.agents.reveal`), never dismisses or discards by choice, and never
gives away its only character. It keeps no memory between decisions: its own seeded generator
breaks ties only.

The cards whose worth depends on a plan (Speed before a check, scouting, flights, thefts,
Traps, Interrupts against a rival's move or exploration) are played by
:mod:`engine.agents.normal_cards`; trades (a Skill card it cannot use for a card of the
partner's choice, and the answers to offers) by :mod:`engine.agents.normal_trade`.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine.agents import choice_actions, normal_cards, normal_trade
from engine.agents.reveal import should_reveal
from engine.cards import (
    AdvantageCard,
    CardDB,
    CharacterCard,
    EncounterCard,
    FinalMissionCard,
    MissionCard,
    Objective,
    RegionCard,
    default_cards,
)
from engine.cards import effects as fx

if TYPE_CHECKING:
    from engine.prompts import Prompt
    from engine.views import PartyView, PromptView, RegionView, SeatView

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


def _effect_value(op: fx.Operation, in_battle: bool = False) -> float:
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
        good = sum(_effect_value(o) for o in op.success)
        bad = sum(_effect_value(o) for o in op.failure)
        chance = p_check(0, op.at_least) if op.check == "plain" else 0.5
        return chance * good + (1 - chance) * bad
    if isinstance(op, fx.Fight):
        return 0.5 * sum(_effect_value(o) for o in op.win) + 0.5 * sum(
            _effect_value(o) for o in op.lose
        )
    if isinstance(op, fx.Choose):
        return max(sum(_effect_value(o) for o in opt.effects) for opt in op.options)
    if kind in ("incapacitate", "tap", "discard_faction"):
        return 0.5
    if kind == "untap":
        return 0.2
    # move, redirect_move, cancel, modify_region, exchanges: it depends on the moment.
    return 0.0


def _effects_value(effects: list[fx.Operation], in_battle: bool = False) -> float:
    return sum(_effect_value(op, in_battle) for op in effects)


class NormalAgent:
    """The heuristic player (see the module docstring)."""

    def __init__(self, seed: int | str | None = None, cards: CardDB | None = None) -> None:
        self.rng = random.Random(seed)
        self.db = cards if cards is not None else default_cards()
        #: Per set combination: the Encounters in the deck (what a face-down card may be).
        self._encounters: dict[tuple[str, ...], list[EncounterCard]] = {}

    # ------------------------------------------------------------------ the entry point

    def choose(self, view: SeatView, prompt: Prompt | PromptView) -> str:
        """One of ``prompt``'s choices, from ``view`` only."""
        actions = choice_actions(prompt)
        if len(actions) == 1:
            return actions[0]
        handler = getattr(self, f"_on_{prompt.kind}", None)
        choice: str | None = None
        if handler is not None:
            choice = handler(_Seat(self, view), actions)
        if choice is None or choice not in actions:
            choice = prompt.default if prompt.default in actions else actions[0]
        return choice

    # ------------------------------------------------------------------ knowledge

    def encounters(self, sets: tuple[str, ...]) -> list[EncounterCard]:
        """The Encounters dealt with ``sets`` (what a face-down Encounter may be)."""
        found = self._encounters.get(sets)
        if found is None:
            found = [c for c in self.db if isinstance(c, EncounterCard) and c.set in sets]
            self._encounters[sets] = found
        return found

    # ------------------------------------------------------------------ start (S3), V1

    def _on_start_character(self, me: _Seat, actions: list[str]) -> str:
        return max(actions, key=lambda a: self.character_worth(_arg(a)))

    def _on_start_advantage(self, me: _Seat, actions: list[str]) -> str:
        return min(actions, key=lambda a: me.card_worth(_arg(a)))

    def _on_reveal_final(self, me: _Seat, actions: list[str]) -> str:
        # Revealing starts the Crisis! clock (F5): only when this seat is the best placed to
        # win by it; otherwise it keeps building (engine.agents.reveal).
        return "reveal_final" if should_reveal(me.view, self.db) else "pass"

    def character_worth(self, card_id: str) -> float:
        c = self.db[card_id]
        if not isinstance(c, CharacterCard):
            return 0.0
        return c.strength + 0.6 * c.speed + 0.3 * len(c.skills) + 0.5 * bool(c.abilities)

    # ------------------------------------------------------------------ own steps (T4)

    def _on_reset(self, me: _Seat, actions: list[str]) -> str | None:
        return normal_cards.planned_play(me, actions, "reset") or me.best_play(actions, "reset")

    def _on_interaction(self, me: _Seat, actions: list[str]) -> str | None:
        play = normal_cards.planned_play(me, actions, "interaction")
        play = play or me.best_play(actions, "interaction")
        if play is not None:
            return play
        best, odds = None, 0.0
        for a in actions:
            if a.startswith("attack "):
                target = me.party(_arg(a))
                p = p_beat_party(me.strength, target.strength or 0)
                worth = p
                if target.hand_count == 0 or len(me.view.hand) >= 5:
                    worth -= 0.15  # nothing to win but the other's lost turn (I4, R4)
                if target.completed and me.table.final_mission:
                    worth += 0.1  # slow down a party that may go for the Final mission
                if target.resisting:
                    worth += 0.1  # a defeated Resistance starts over (F2)
                worth += 0.001 * self.rng.random()  # equal odds: no seat preferred
                if worth > odds:
                    best, odds = a, worth
        if best is not None and odds >= 0.72:
            return best
        return normal_trade.offer_choice(me, actions) or "done"

    def _on_movement(self, me: _Seat, actions: list[str]) -> str | None:
        play = normal_cards.planned_play(me, actions, "movement")
        play = play or me.best_play(actions, "movement")
        if play is not None:
            return play
        scores = {a: me.move_score(a) for a in actions if a.split(" ")[0] in MOVES}
        if not scores:
            return None
        return max(scores, key=lambda a: (scores[a], -actions.index(a)))

    def _on_exploration(self, me: _Seat, actions: list[str]) -> str | None:
        play = normal_cards.planned_play(me, actions, "exploration")
        play = play or me.best_play(actions, "exploration")
        if play is not None:
            return play
        if "explore" not in actions:
            return None
        region = me.region_card()
        if region is None:
            return "explore"
        if me.resisting_here():
            return "skip"  # a Resistance goes on by itself; a defeat would start it over
        value = me.best_reward_value(region)
        ok = me.p_explore_ok(region)
        risk = (1 - ok) * LOSS_COST + me.death_risk(region)
        return "explore" if ok * value > risk else "skip"

    def _on_reward(self, me: _Seat, actions: list[str]) -> str | None:
        region = me.region_card()
        if region is None:
            return None
        return max(actions, key=lambda a: me.reward_choice_value(region, a))

    def _on_remote_mission(self, me: _Seat, actions: list[str]) -> str:
        return max(actions, key=lambda a: me.mission_value(_arg(a)))

    # ------------------------------------------------------------------ windows (T4, B4)

    def _on_window(self, me: _Seat, actions: list[str]) -> str:
        return me.window_choice(actions)

    def _on_block_removal(self, me: _Seat, actions: list[str]) -> str:
        return "pass"

    def _on_remove_region(self, me: _Seat, actions: list[str]) -> str:
        return min(actions, key=lambda a: me.region_interest(_arg(a)))

    def _on_new_region(self, me: _Seat, actions: list[str]) -> str:
        return max(actions, key=lambda a: me.region_interest(_arg(a)))

    # ------------------------------------------------------------------ battles (B3, E7)

    def _on_flee(self, me: _Seat, actions: list[str]) -> str:
        monster = me.stack_frame("encounter")
        card = self.db.by_id.get(str(monster.get("card"))) if monster else None
        if not isinstance(card, EncounterCard) or card.strength is None:
            return "fight"
        theirs = card.strength
        win = p_beat_monster(me.strength + me.battle_bonus(), theirs)
        flee = p_check(me.speed, theirs + 2)
        return "flee" if win < 0.5 and flee > win else "fight"

    def _on_casualty(self, me: _Seat, actions: list[str]) -> str:
        return min(actions, key=lambda a: self.character_worth(_arg(a)))

    def _on_skill_choice(self, me: _Seat, actions: list[str]) -> str:
        # Every character counts in battle turned or not (C3): turn the one whose ability
        # matters least.
        return min(actions, key=lambda a: self.character_worth(_arg(a)))

    # ------------------------------------------------------------------ cards given away

    def _on_deliver(self, me: _Seat, actions: list[str]) -> str:
        return min(actions, key=lambda a: me.card_worth(_arg(a)))

    def _on_trade_pay(self, me: _Seat, actions: list[str]) -> str:
        return min(actions, key=lambda a: me.card_worth(_arg(a)))

    def _on_trade_offer(self, me: _Seat, actions: list[str]) -> str:
        return normal_trade.build_offer(me, actions)

    def _on_trade_answer(self, me: _Seat, actions: list[str]) -> str:
        return normal_trade.answer_offer(me, actions)

    def _on_pickup(self, me: _Seat, actions: list[str]) -> str:
        takes = [a for a in actions if a.startswith("take ")]
        if not takes:
            return "pass"
        return max(takes, key=lambda a: me.card_worth(_arg(a)))

    def _on_spoils(self, me: _Seat, actions: list[str]) -> str:
        return next((a for a in actions if a.startswith("take ")), "pass")

    def _on_trap_region(self, me: _Seat, actions: list[str]) -> str:
        return normal_cards.trap_region(me, actions)

    def _on_discredit(self, me: _Seat, actions: list[str]) -> str:
        return self._on_pick(me, actions)

    def _on_pick(self, me: _Seat, actions: list[str]) -> str:
        return me.pick(actions)


#: Operations whose worth depends on a plan the heuristic does not make (where to move,
#: what to cancel): it does not play such cards in its own steps.
_PLANNED = frozenset({"move", "redirect_move", "cancel", "exchange_arcane"})

#: Movement choices (the others are plays and abilities).
MOVES = frozenset({"go", "explore_new", "rest"})


def _arg(action: str) -> str:
    return action.partition(" ")[2]


class _Seat:
    """One decision's reading of the seat view: the party, its odds, and the values."""

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
            objective = self._objective(mission)
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
                            best = max(best, round(_effects_value(ability.effects, True)))
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
            worth += max(0.0, _effects_value(ability.effects, ability.timing == "battle"))
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
                value += max(1.0, 3 * _effects_value(ability.effects, True))  # in play for good
            elif ability.timing == "play" and (ability.phase in (None, phase)):
                ops = ability.effects
                if any(op.op in _PLANNED for op in ops):
                    return 0.0  # depends on a plan the heuristic does not make
                value += _effects_value(ops)
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

    def _objective(self, card_id: str) -> Objective | None:
        card = self.db.by_id.get(card_id)
        if isinstance(card, MissionCard):
            return card.objective
        if isinstance(card, FinalMissionCard):
            return card.quest
        return None

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

    # ------------------------------------------------------------------ values

    def objective_odds(self, card_id: str) -> float:
        """The chance an attempt at mission ``card_id`` succeeds now."""
        objective = self._objective(card_id)
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

    def mission_value(self, card_id: str) -> float:
        """The expected worth of attempting mission ``card_id`` now, its risk deducted."""
        card = self.db.by_id.get(card_id)
        odds = self.objective_odds(card_id)
        if isinstance(card, FinalMissionCard):
            worth = FINAL_VALUE
        elif not self.me.completed:
            worth = FIRST_MISSION_VALUE
        else:
            worth = OTHER_MISSION_VALUE
            if isinstance(card, MissionCard):
                worth += max(0.0, _effects_value(card.reward))
        objective = self._objective(card_id)
        cost = 0.0
        if objective is not None and objective.kind == "fight":
            theirs = objective.strength if objective.strength is not None else 3
            mine = self.strength + self.battle_bonus()
            cost = p_lose_by_five(mine, theirs) * DEATH_COST.get(self.size, 4.0)
        if objective is not None and objective.kind == "deliver":
            cost = 0.6 * (objective.advantages or 1)
        return odds * worth - cost

    def hire_value(self) -> float:
        return HIRE_VALUE.get(self.size, 0.0)

    def reward_value(self, region: RegionCard, index: int) -> float:
        reward = region.rewards[index]
        room = 5 - len(self.view.hand)
        if reward.kind == "advantage":
            return 1.1 * min(room, self.level(region.id))
        if reward.kind == "hire":
            return self.hire_value() if self.size < 4 else 0.0
        if reward.kind == "remote_mission":
            return max((self.mission_value(m) for m in self.remote_candidates()), default=0.0)
        if reward.kind == "discredit":
            return 0.5
        value = _effects_value(reward.effects)
        if any(op.op == "kill" for op in reward.effects) and self.size <= 2:
            return -10.0  # never trade a needed character (the only one, above all)
        if any(op.op == "lose_next_turn" for op in reward.effects):
            value -= 1.0
        return max(value, 0.0) + (SPECIAL_VALUE if value > 0 else 0.0)

    def remote_candidates(self) -> list[str]:
        found = []
        for m in self.my_missions():
            objective = self._objective(m)
            if objective is not None and objective.region in self.on_table:
                found.append(m)
        return found

    def attemptable_here(self, region: str) -> list[str]:
        """Missions this seat could attempt at ``region`` (and the Final mission)."""
        found = []
        level = self.level(region)
        candidates = self.my_missions()
        if self.final_eligible() and self.table.final_mission:
            candidates.append(self.table.final_mission)
        for m in candidates:
            objective = self._objective(m)
            if objective is None:
                continue
            if objective.region is not None and objective.region != region:
                continue
            if objective.region_level is not None and level < objective.region_level:
                continue
            if objective.kind == "resist" and any(m == name for name, _ in self.view.resisting):
                continue
            found.append(m)
        return found

    def best_reward_value(self, region: RegionCard) -> float:
        best = max(self.reward_value(region, i) for i in range(len(region.rewards)))
        for m in self.attemptable_here(region.id):
            best = max(best, self.mission_value(m))
        return best

    def reward_choice_value(self, region: RegionCard, action: str) -> float:
        kind, _, arg = action.partition(" ")
        if kind == "reward" and arg.isdigit():
            return self.reward_value(region, int(arg))
        if kind == "mission":
            return self.mission_value(arg)
        if kind == "hire_arcane":
            return self.hire_value() + 1.0 - self.card_worth(arg) * 0.5
        return 0.0

    def region_interest(self, region: str) -> float:
        """How much this seat cares that ``region`` stays on the table."""
        card = self.region_card(region)
        if card is None:
            return 0.0
        value = self.level(region) * 0.5
        for m in self.attemptable_here(region):
            value += 5 + max(0.0, self.mission_value(m))
        if self.seat in (self.on_table[region].parties if region in self.on_table else ()):
            value += 1
        return value

    def move_score(self, action: str) -> float:
        """What a movement choice is worth (M1): the reward waiting at the destination times
        the odds of getting there and exploring it, less the risks."""
        kind, _, arg = action.partition(" ")
        if kind == "rest":
            # M6: +2/+2 next turn; staying keeps a Resistance going (F2).
            # A rest is no stay for a Resistance (X1: no Exploration step, so no turn held,
            # F2): "go" to the Region it stands in is.
            value = 0.8 + (1.0 if self.size <= 1 else 0.0)
            return value + self.crisis_rest_gain()
        if kind == "explore_new":
            return self.explore_new_score(arg or None)
        region = self.region_card(arg)
        if region is None:
            return 0.0
        if arg == self.me.region and self.resisting_here():
            return 20.5  # hold the Region, the Resistance goes on (F2)
        through, death = self.arrival(arg)
        explore = self.p_explore_ok(region) * (1 - self.attack_risk(region))
        value = self.best_reward_value(region)
        risk = (1 - through) * LOSS_COST + death
        risk += through * ((1 - explore) * 0.5 * LOSS_COST + self.death_risk(region) * 0.5)
        # Moving costs nothing but a small preference to stay where a hire is not possible.
        return through * explore * value - risk

    def attack_risk(self, region: RegionCard) -> float:
        """The chance a party standing in ``region`` attacks this one there and wins (I2,
        I4: the loser leaves the Region without exploring): the strongest rival that may."""
        r = self.on_table.get(region.id)
        if r is None or not region.fighting:
            return 0.0
        worst = 0.0
        for seat in r.parties:
            if seat == self.seat:
                continue
            other = self.party(seat)
            if abs(len(other.characters) - self.size) > 1:
                continue  # I2: character counts too far apart to attack
            odds = p_beat_party(other.strength or 0, self.strength)
            if odds >= 0.6:
                worst = max(worst, odds)
        return worst

    def crisis_rest_gain(self) -> float:
        """F5, F6: when the Crisis! comes at the end of next turn, a rest now (+2 Strength,
        +2 Speed next turn, M6) raises the odds of this party's attempt at its challenge."""
        final = self.table.final_mission
        if self.table.crisis != 2 or final is None or not self.me.completed:
            return 0.0
        card = self.db.by_id.get(final)
        if not isinstance(card, FinalMissionCard):
            return 0.0
        challenge = card.crisis.challenge
        if challenge.kind == "fight":
            theirs = challenge.strength if challenge.strength is not None else card.level
            gain = p_beat_monster(self.strength + 2, theirs) - p_beat_monster(self.strength, theirs)
        elif challenge.kind == "speed_check":
            need = challenge.difficulty or 0
            gain = p_check(self.speed + 2, need) - p_check(self.speed, need)
        else:
            return 0.0
        # Others may succeed first: half the game's worth is a fair weight.
        return gain * FINAL_VALUE * 0.5

    def explore_new_score(self, region_id: str | None) -> float:
        """M4: a new Region (from the deck, unknown, or a known one from the discard pile),
        met through a face-up Encounter of unknown level."""
        if region_id is not None:
            region = self.region_card(region_id)
            if region is None:
                return 0.0
            lose, death = self.monster_loss(region.level)
            return (1 - lose) * self.p_explore_ok(region) * self.best_reward_value(
                region
            ) - lose * LOSS_COST
        lose, death = self.monster_loss(2)
        wanted = 0
        for m in self.my_missions():
            objective = self._objective(m)
            if objective is not None and objective.region and objective.region not in self.on_table:
                wanted += 1
        final = self.table.final_mission
        if final and self.final_eligible():
            quest = self._objective(final)
            if quest is not None and quest.region and quest.region not in self.on_table:
                wanted += 2
        decks = dict(self.table.decks)
        left = max(1, decks.get("region", 0))
        if decks.get("region", 0) == 0:
            return -5.0
        hope = min(1.0, wanted / left) * FIRST_MISSION_VALUE * 0.5
        base = 0.7 * (2.5 + (self.hire_value() if self.size < 4 else 0) * 0.5)
        return (1 - lose) * (base + hope) - lose * LOSS_COST - death * 3

    # ------------------------------------------------------------------ windows

    def window_choice(self, actions: list[str]) -> str:
        plays = [a for a in actions if a != "pass"]
        if not plays:
            return "pass"
        prompt = self.view.prompt
        when = prompt.window_kind if prompt is not None else None
        about = prompt.window_about if prompt is not None else ()
        if when == "battle_start" and self.seat in about:
            return self.battle_window(plays, about)
        if when == "encounter_revealed" and about and about[0] == self.seat:
            return self.encounter_window(plays)
        if when == "move_declared":
            return normal_cards.move_window(self, plays)
        if when == "exploration_roll" and about:
            return normal_cards.exploration_roll_window(self, plays, about[0])
        return "pass"

    def _card_effects(self, action: str, timing: str) -> list[fx.Operation]:
        card = self.db.by_id.get(_arg(action))
        if card is None:
            return []
        ops: list[fx.Operation] = []
        for ability in card.abilities:
            if ability.timing in (timing, "battle", "interrupt"):
                ops.extend(ability.effects)
        return ops

    def battle_window(self, plays: list[str], about: tuple[str, ...]) -> str:
        frame = self.stack_frame("battle")
        if frame is None:
            return "pass"
        attacker = frame.get("player") == self.seat
        other = frame.get("other") if attacker else frame.get("player")
        bonus = int(frame.get("data", {}).get("monster_bonus", 0))
        stakes = 1.0
        if other:
            theirs = self.party(str(other)).strength or 0
            odds = p_beat_party(self.strength, theirs)
        else:
            card = self.db.by_id.get(str(frame.get("card")))
            if isinstance(card, EncounterCard) and card.strength is not None:
                theirs = card.strength
            else:
                theirs = int(frame.get("data", {}).get("strength", 0))
            theirs += bonus
            odds = p_beat_monster(self.strength, theirs)
            if self.table.phase == "crisis" or (
                self.table.final_mission is not None
                and frame.get("data", {}).get("name")
                == getattr(self._objective(self.table.final_mission), "opponent", None)
            ):
                stakes = 3.0  # the game is on this roll
        if not DOUBT[0] * (1 / stakes) <= odds <= DOUBT[1]:
            return "pass"
        best, gain = "pass", 0.0
        for a in plays:
            ops = self._card_effects(a, "battle")
            if any(op.op == "cancel" for op in ops):
                v = 1.0 if odds < 0.3 and stakes == 1.0 else -1.0
            else:
                v = sum(
                    _effect_value(op, True)
                    for op in ops
                    if not (isinstance(op, fx.Modify) and op.target == "declaring_party")
                    or attacker
                )
            if v > gain:
                best, gain = a, v
        return best

    def encounter_window(self, plays: list[str]) -> str:
        frame = self.stack_frame("encounter")
        card = self.db.by_id.get(str(frame.get("card"))) if frame else None
        if not isinstance(card, EncounterCard):
            return "pass"
        if card.kind != "monster" or card.strength is None:
            if not normal_cards.bad_event(self, card):
                return "pass"
        elif p_beat_monster(self.strength + self.battle_bonus(), card.strength) >= 0.35:
            return "pass"
        for a in plays:
            if any(op.op == "cancel" for op in self._card_effects(a, "interrupt")):
                return a
        return "pass"

    # ------------------------------------------------------------------ picks

    def pick(self, actions: list[str]) -> str:
        planned = normal_cards.pick_for_card(self, actions)
        if planned is not None:
            return planned
        args = [_arg(a) for a in actions]
        seats = set(self.table.seats)
        if all(a in seats for a in args):
            others = [a for a in args if a != self.seat]
            target = self.leader(others) if others else args[0]
            return f"pick {target}"
        mine = {c.card for c in self.me.characters}
        if all(a in self.on_table for a in args):
            return "pick " + max(args, key=self.region_interest)
        if all(a in mine for a in args):
            return "pick " + min(args, key=self.agent.character_worth)
        if all(isinstance(self.db.by_id.get(a), CharacterCard) for a in args):
            return "pick " + max(args, key=self.agent.character_worth)
        hand = set(self.view.hand)
        if all(a in hand for a in args):
            return "pick " + min(args, key=self.card_worth)
        return actions[int(self.agent.rng.random() * len(actions))]
