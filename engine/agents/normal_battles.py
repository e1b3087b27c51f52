"""The normal AI's battles and reactions (T4, B3, B4, E7, I2): when to attack a party, when to
flee a monster, and which card to play in a reaction window.

It plays Battle cards when a battle it fights is in doubt and Interrupts that cancel an
Encounter or a battle it would likely lose; the windows whose cards need a plan (a rival's
move, an exploration roll) are :mod:`engine.agents.normal_windows`'s.
"""

from __future__ import annotations

from engine.agents import normal_windows
from engine.agents.normal_seat import Seat, arg
from engine.agents.normal_values import DOUBT, effect_value, p_beat_monster, p_beat_party, p_check
from engine.cards import EncounterCard
from engine.cards import effects as fx


def window_choice(me: Seat, actions: list[str]) -> str:
    """The answer to a reaction window: a card or an ability, or ``"pass"``."""
    plays = [a for a in actions if a != "pass"]
    if not plays:
        return "pass"
    prompt = me.view.prompt
    when = prompt.window_kind if prompt is not None else None
    about = prompt.window_about if prompt is not None else ()
    if when == "battle_start" and me.seat in about:
        return battle_window(me, plays, about)
    if when == "encounter_revealed" and about and about[0] == me.seat:
        return encounter_window(me, plays)
    if when == "move_declared":
        return normal_windows.move_window(me, plays)
    if when == "exploration_roll" and about:
        return normal_windows.exploration_roll_window(me, plays, about[0])
    return "pass"


def _card_effects(me: Seat, action: str, timing: str) -> list[fx.Operation]:
    """The operations the card of ``action`` has at ``timing`` (or in a battle, as an Interrupt)."""
    card = me.db.by_id.get(arg(action))
    if card is None:
        return []
    ops: list[fx.Operation] = []
    for ability in card.abilities:
        if ability.timing in (timing, "battle", "interrupt"):
            ops.extend(ability.effects)
    return ops


def battle_window(me: Seat, plays: list[str], about: tuple[str, ...]) -> str:
    """A battle this seat fights is starting: the card that helps most while the battle is in
    doubt (B4), else ``"pass"``."""
    frame = me.stack_frame("battle")
    if frame is None:
        return "pass"
    attacker = frame.get("player") == me.seat
    other = frame.get("other") if attacker else frame.get("player")
    bonus = int(frame.get("data", {}).get("monster_bonus", 0))
    stakes = 1.0
    if other:
        theirs = me.party(str(other)).strength or 0
        odds = p_beat_party(me.strength, theirs)
    else:
        card = me.db.by_id.get(str(frame.get("card")))
        if isinstance(card, EncounterCard) and card.strength is not None:
            theirs = card.strength
        else:
            theirs = int(frame.get("data", {}).get("strength", 0))
        theirs += bonus
        odds = p_beat_monster(me.strength, theirs)
        if me.table.phase == "crisis" or (
            me.table.final_mission is not None
            and frame.get("data", {}).get("name")
            == getattr(me.objective(me.table.final_mission), "opponent", None)
        ):
            stakes = 3.0  # the game is on this roll
    if not DOUBT[0] * (1 / stakes) <= odds <= DOUBT[1]:
        return "pass"
    best, gain = "pass", 0.0
    for a in plays:
        ops = _card_effects(me, a, "battle")
        if any(op.op == "cancel" for op in ops):
            v = 1.0 if odds < 0.3 and stakes == 1.0 else -1.0
        else:
            v = sum(
                effect_value(op, True)
                for op in ops
                if not (isinstance(op, fx.Modify) and op.target == "declaring_party") or attacker
            )
        if v > gain:
            best, gain = a, v
    return best


def encounter_window(me: Seat, plays: list[str]) -> str:
    """An Encounter met by this seat is revealed: an Interrupt that cancels it when it is a
    monster the party would likely lose to, or a bad event."""
    frame = me.stack_frame("encounter")
    card = me.db.by_id.get(str(frame.get("card"))) if frame else None
    if not isinstance(card, EncounterCard):
        return "pass"
    if card.kind != "monster" or card.strength is None:
        if not normal_windows.bad_event(me, card):
            return "pass"
    elif p_beat_monster(me.strength + me.battle_bonus(), card.strength) >= 0.35:
        return "pass"
    for a in plays:
        if any(op.op == "cancel" for op in _card_effects(me, a, "interrupt")):
            return a
    return "pass"


def flee_choice(me: Seat) -> str:
    """E7: flee a monster only when the battle is likely lost and the flight likelier won."""
    monster = me.stack_frame("encounter")
    card = me.db.by_id.get(str(monster.get("card"))) if monster else None
    if not isinstance(card, EncounterCard) or card.strength is None:
        return "fight"
    theirs = card.strength
    win = p_beat_monster(me.strength + me.battle_bonus(), theirs)
    flee = p_check(me.speed, theirs + 2)
    return "flee" if win < 0.5 and flee > win else "fight"


def attack_choice(me: Seat, actions: list[str]) -> str | None:
    """I2, I4: the attack on a party with the best odds, when they are good, else None."""
    best, odds = None, 0.0
    for a in actions:
        if a.startswith("attack "):
            target = me.party(arg(a))
            p = p_beat_party(me.strength, target.strength or 0)
            worth = p
            if target.hand_count == 0 or len(me.view.hand) >= 5:
                worth -= 0.15  # nothing to win but the other's lost turn (I4, R4)
            if target.completed and me.table.final_mission:
                worth += 0.1  # slow down a party that may go for the Final mission
            if target.resisting:
                worth += 0.1  # a defeated Resistance starts over (F2)
            worth += 0.001 * me.agent.rng.random()  # equal odds: no seat preferred
            if worth > odds:
                best, odds = a, worth
    return best if best is not None and odds >= 0.72 else None
