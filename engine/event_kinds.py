"""The payload of every event kind: one table, kind -> the fields of ``Event.data`` (the
shapes: :mod:`engine.event_payloads`).

Front ends render from these fields instead of parsing the text back; a test checks that every
event emitted in simulated games carries exactly its kind's declared fields, with their types.
Seat ids (``player``, ``other``, ``winner``...) are the engine's player names; ``card``,
``region`` and ``encounter`` are card ids.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from engine import event_payloads as p
from engine.events import Event

#: Every event kind the engine emits, with the type of its ``data``.
EVENT_PAYLOADS: dict[str, type[Any]] = {
    "ability": p.WhoCard,
    "arrive": p.WhoRegion,
    "attack": p.TwoParties,
    "battle": p.Battle,
    "battle_cancelled": p.Nothing,
    "battle_result": p.BattleResult,
    "battle_roll": p.BattleRoll,
    "block": p.WhoRegion,
    "cancel": p.Cancel,
    "choose": p.Chosen,
    "crisis": p.Nothing,
    "crisis_attempt": p.Roll,
    "crisis_challenge": p.CrisisChallenge,
    "crisis_countdown": p.Countdown,
    "crisis_lost": p.Who,
    "death": p.WhoCard,
    "deliver": p.Who,
    "discard": p.Discard,
    "dismiss": p.WhoCard,
    "draw": p.Draw,
    "draw_private": p.DrawPrivate,
    "encounter": p.WhoCard,
    "expelled": p.WhoRegion,
    "explore_new": p.ExploreNew,
    "explore_nothing": p.Nothing,
    "explore_result": p.ExploreResult,
    "explore_roll": p.Die,
    "false_alarm": p.CardAt,
    "final_completed": p.Who,
    "final_revealed": p.FinalRevealed,
    "game_over": p.GameOver,
    "hire": p.WhoCard,
    "incapacitate": p.WhoCard,
    "leave": p.WhoCard,
    "leave_region": p.WhoRegion,
    "lose_next_turn": p.Who,
    "mission_attempt": p.MissionAttempt,
    "mission_completed": p.WhoCard,
    "mission_failed": p.MissionFailed,
    "mission_started": p.WhoCard,
    "modify": p.Modify,
    "move": p.WhoRegion,
    "move_cancelled": p.Who,
    "new_party": p.WhoCard,
    "no_removal": p.Nothing,
    "offer": p.TwoParties,
    "play": p.WhoCard,
    "redirect": p.WhoRegion,
    "region_removed": p.RegionOnly,
    "regions": p.Regions,
    "reroll": p.Who,
    "reshuffle": p.Reshuffle,
    "resist": p.Resist,
    "rest": p.Who,
    "reward": p.Reward,
    "rivals": p.Rivals,
    "roll": p.EffectRoll,
    "scout": p.WhoRegion,
    "scout_private": p.ScoutPrivate,
    "setup": p.Setup,
    "speed_check": p.SpeedCheck,
    "spoils": p.TwoParties,
    "spoils_private": p.TwoPartiesCard,
    "start_advantages": p.Who,
    "start_character": p.Who,
    "start_character_private": p.CardOnly,
    "steal": p.Steal,
    "take_character": p.TakeCharacter,
    "steal_private": p.StealPrivate,
    "take": p.Take,
    "tap": p.Tap,
    "tie": p.Tie,
    "tie_roll": p.TieRoll,
    "timeout": p.TimeoutNote,
    # A player took his last decision back (issue 25, engine.undo).
    "undone": p.Who,
    "timeout_private": p.TimeoutPrivate,
    "trade": p.TwoParties,
    "trade_declined": p.Who,
    "trade_offer": p.TwoParties,
    "trade_offer_private": p.Offer,
    "trade_private": p.Offer,
    "trade_withdrawn": p.Who,
    "turn": p.Turn,
    "turn_over": p.Who,
    "untap": p.Who,
    "flee": p.Flee,
    "exchange_arcane": p.ExchangeArcane,
    "exchange_advantage": p.Steal,
    "exchange_advantage_private": p.ExchangeAdvantagePrivate,
    "explore_new_regions": p.ExploreNewRegions,
    "trap_set": p.WhoRegion,
    "trap_set_private": p.CardOnly,
    "trap_revealed": p.WhoRegionCard,
    "region_level": p.RegionLevel,
    "guard": p.WhoRegion,
    "guard_check": p.GuardCheck,
    "guard_beaten": p.WhoRegion,
    "incident_over": p.WhoCard,
    "discredit": p.TwoParties,
    "spoils_artifact": p.TwoPartiesCard,
}

_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def payload_errors(event: Event) -> str | None:
    """Why ``event``'s data does not match its kind's declared payload (None: it does)."""
    payload = EVENT_PAYLOADS.get(event.kind)
    if payload is None:
        return f"event kind {event.kind!r} has no declared payload"
    adapter = _ADAPTERS.get(payload)
    if adapter is None:
        adapter = _ADAPTERS[payload] = TypeAdapter(payload)
    try:
        adapter.validate_python(event.data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"]))
        return f"{event.kind} event: {where}: {first['msg']}"
    return None


__all__ = ["EVENT_PAYLOADS", "payload_errors"]
