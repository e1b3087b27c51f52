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

This module holds the agent, which answers each prompt kind; the rest is in its siblings:

- :mod:`engine.agents.normal_values`: the dice odds and what things are worth;
- :mod:`engine.agents.normal_seat`: one decision's picture of the table and its odds;
- :mod:`engine.agents.normal_moves`: what each move, reward and mission is worth;
- :mod:`engine.agents.normal_battles`: attacks, flights and the reaction windows;
- :mod:`engine.agents.normal_cards`: the cards whose worth depends on a plan (Speed before a
  check, scouting, flights, thefts, Traps, Interrupts against a rival's move or exploration);
- :mod:`engine.agents.normal_trade`: trades (a Skill card it cannot use for a card of the
  partner's choice, and the answers to offers).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.agents import (
    choice_actions,
    normal_battles,
    normal_cards,
    normal_moves,
    normal_trade,
)
from engine.agents.normal_seat import Seat, arg
from engine.agents.normal_values import LOSS_COST
from engine.agents.reveal import should_reveal
from engine.cards import CardDB, CharacterCard, EncounterCard, default_cards

if TYPE_CHECKING:
    from engine.prompts import Prompt
    from engine.views import PromptView, SeatView


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
            choice = handler(Seat(self, view), actions)
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

    def _on_start_character(self, me: Seat, actions: list[str]) -> str:
        return max(actions, key=lambda a: self.character_worth(arg(a)))

    def _on_reveal_final(self, me: Seat, actions: list[str]) -> str:
        # Revealing starts the Crisis! clock (F5): only when this seat is the best placed to
        # win by it; otherwise it keeps building (engine.agents.reveal).
        return "reveal_final" if should_reveal(me.view, self.db) else "pass"

    def character_worth(self, card_id: str) -> float:
        c = self.db[card_id]
        if not isinstance(c, CharacterCard):
            return 0.0
        return c.strength + 0.6 * c.speed + 0.3 * len(c.skills) + 0.5 * bool(c.abilities)

    # ------------------------------------------------------------------ own steps (T4)

    def _on_reset(self, me: Seat, actions: list[str]) -> str | None:
        return _step_play(me, actions, "reset")

    def _on_interaction(self, me: Seat, actions: list[str]) -> str | None:
        return (
            _step_play(me, actions, "interaction")
            or normal_battles.attack_choice(me, actions)
            or normal_trade.offer_choice(me, actions)
            or "done"
        )

    def _on_movement(self, me: Seat, actions: list[str]) -> str | None:
        # The best movement is normal_cards.best_move's: the cards of the step weigh
        # themselves against it, and it is kept for the decision.
        return _step_play(me, actions, "movement") or normal_cards.best_move(me, actions)[0]

    def _on_exploration(self, me: Seat, actions: list[str]) -> str | None:
        play = _step_play(me, actions, "exploration")
        if play is not None:
            return play
        if "explore" not in actions:
            return None
        region = me.region_card()
        if region is None:
            return "explore"
        if me.resisting_here():
            return "skip"  # a Resistance goes on by itself; a defeat would start it over
        value = normal_moves.best_reward_value(me, region)
        ok = me.p_explore_ok(region)
        risk = (1 - ok) * LOSS_COST + me.death_risk(region)
        return "explore" if ok * value > risk else "skip"

    def _on_reward(self, me: Seat, actions: list[str]) -> str | None:
        region = me.region_card()
        if region is None:
            return None
        return max(actions, key=lambda a: normal_moves.reward_choice_value(me, region, a))

    def _on_remote_mission(self, me: Seat, actions: list[str]) -> str:
        return max(actions, key=lambda a: normal_moves.mission_value(me, arg(a)))

    # ------------------------------------------------------------------ windows (T4, B4)

    def _on_window(self, me: Seat, actions: list[str]) -> str:
        return normal_battles.window_choice(me, actions)

    def _on_block_removal(self, me: Seat, actions: list[str]) -> str:
        return "pass"

    def _on_remove_region(self, me: Seat, actions: list[str]) -> str:
        return min(actions, key=lambda a: normal_moves.region_interest(me, arg(a)))

    def _on_new_region(self, me: Seat, actions: list[str]) -> str:
        return max(actions, key=lambda a: normal_moves.region_interest(me, arg(a)))

    # ------------------------------------------------------------------ battles (B3, E7)

    def _on_flee(self, me: Seat, actions: list[str]) -> str:
        return normal_battles.flee_choice(me)

    def _on_casualty(self, me: Seat, actions: list[str]) -> str:
        return min(actions, key=lambda a: self.character_worth(arg(a)))

    # Every character counts in battle turned or not (C3): turn the one whose ability matters
    # least, as a casualty is.
    _on_skill_choice = _on_casualty

    # ------------------------------------------------------------------ cards given away

    def _on_deliver(self, me: Seat, actions: list[str]) -> str:
        # What is given away is the card worth least, whatever asks for it: a delivery, a
        # trade's payment, the starting Advantage that is not kept (S3).
        return min(actions, key=lambda a: me.card_worth(arg(a)))

    _on_trade_pay = _on_start_advantage = _on_deliver

    def _on_trade_offer(self, me: Seat, actions: list[str]) -> str:
        return normal_trade.build_offer(me, actions)

    def _on_trade_answer(self, me: Seat, actions: list[str]) -> str:
        return normal_trade.answer_offer(me, actions)

    def _on_pickup(self, me: Seat, actions: list[str]) -> str:
        takes = [a for a in actions if a.startswith("take ")]
        if not takes:
            return "pass"
        return max(takes, key=lambda a: me.card_worth(arg(a)))

    def _on_spoils(self, me: Seat, actions: list[str]) -> str:
        return next((a for a in actions if a.startswith("take ")), "pass")

    def _on_trap_region(self, me: Seat, actions: list[str]) -> str:
        return normal_cards.trap_region(me, actions)

    def _on_pick(self, me: Seat, actions: list[str]) -> str:
        planned = normal_cards.pick_for_card(me, actions)
        if planned is not None:
            return planned
        args = [arg(a) for a in actions]
        seats = set(me.table.seats)
        if all(a in seats for a in args):
            others = [a for a in args if a != me.seat]
            target = me.leader(others) if others else args[0]
            return f"pick {target}"
        mine = {c.card for c in me.me.characters}
        if all(a in me.on_table for a in args):
            return "pick " + max(args, key=lambda r: normal_moves.region_interest(me, r))
        if all(a in mine for a in args):
            return "pick " + min(args, key=self.character_worth)
        if all(isinstance(self.db.by_id.get(a), CharacterCard) for a in args):
            return "pick " + max(args, key=self.character_worth)
        hand = set(me.view.hand)
        if all(a in hand for a in args):
            return "pick " + min(args, key=me.card_worth)
        return actions[int(self.rng.random() * len(actions))]

    _on_discredit = _on_pick


def _step_play(me: Seat, actions: list[str], phase: str) -> str | None:
    """The card or ability to play in one's own ``phase`` step: one that needs a plan
    (:mod:`engine.agents.normal_cards`), else the most useful by its effects, if any."""
    return normal_cards.planned_play(me, actions, phase) or me.best_play(actions, phase)
