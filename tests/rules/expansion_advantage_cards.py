"""Stand-in expansion cards for the rule tests of Incidents, Traps, Factions, Artifacts and
guarded Regions (A4-A7, E6, M9, TotG), until the sets' own cards come: each a few fields, in
the sets they belong to, ``source: stand-in``. docs/cards.md's examples of these kinds are
among them (tests/test_cards.py checks that)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from engine.cards import DEFAULT_CARDS_PATH, CardDB, parse_cards

BGE, TOTG = "beyond_good_and_evil", "twilight_of_the_gods"
ALL_SETS = ["shadow_of_omega", BGE, TOTG]


def _advantage(id_: str, name: str, set_: str, kind: str, text: str, **rest: Any) -> Any:
    return {"id": id_, "name": name, "type": "advantage", "set": set_, "source": "stand-in",
            "kind": kind, "text": text, **rest}  # fmt: skip


def _region(id_: str, name: str, set_: str, level: int, table: list[Any], **rest: Any) -> Any:
    rewards = rest.pop("rewards", [{"kind": "advantage"}, {"kind": "hire"}, {"kind": "discredit"}])
    return {"id": id_, "name": name, "type": "region", "set": set_, "source": "stand-in",
            "level": level, "exploration": table, "rewards": rewards, **rest}  # fmt: skip


NOTHING = {"result": "nothing"}
SPEED_1 = [{"timing": "static", "effects": [{"op": "modify", "stat": "speed", "amount": 1}]}]
ONE = {"result": "encounters", "count": 1}
TWO = {"result": "encounters", "count": 2}

EXPANSION_TEST_CARDS: list[dict[str, Any]] = [
    _advantage(
        "unleashed_danger", "Unleashed Danger", BGE, "trap",
        "Trap: the Region's level +1 until the end of the turn.",
        abilities=[{"timing": "on_reveal", "effects": [{"op": "modify_region", "amount": 1}]}],
    ),
    _advantage(
        "pitfall", "Pitfall", BGE, "trap",
        "Trap: every party in the Region gets -2 Strength until the end of the turn.",
        abilities=[{"timing": "on_reveal", "effects": [
            {"op": "modify", "stat": "strength", "amount": -2, "target": "parties_in_region",
             "duration": "turn"}]}],
    ),
    _advantage(
        "hidden_cache", "Hidden Cache", BGE, "trap",
        "Trap: whoever laid it draws an Advantage.",
        abilities=[{"timing": "on_reveal", "effects": [{"op": "draw", "count": 1}]}],
    ),
    _advantage(
        "blood_moon", "Blood Moon", BGE, "incident",
        "Incident: +1 Strength this turn; at the end of the Movement phase, draw an Advantage.",
        abilities=[
            {"timing": "static", "effects": [{"op": "modify", "stat": "strength", "amount": 1}]},
            {"timing": "movement_end", "effects": [{"op": "draw", "count": 1}]},
        ],
    ),
    _advantage(
        "fair_winds", "Fair Winds", BGE, "incident", "Incident: +2 Speed this turn.",
        abilities=[{"timing": "play", "phase": "reset", "effects": [
            {"op": "modify", "stat": "speed", "amount": 2, "duration": "turn"}]}],
    ),
    _advantage(
        "abel", "Abel", BGE, "faction", "Faction: +1 Strength. Enemy of the Disciples of Cain.",
        rivals=["disciples_of_cain"],
        abilities=[{"timing": "static", "effects": [
            {"op": "modify", "stat": "strength", "amount": 1}]}],
    ),
    _advantage(
        "disciples_of_cain", "Disciples of Cain", BGE, "faction", "Faction: +1 Speed.",
        abilities=SPEED_1,
    ),
    _advantage(
        "smear_campaign", "Smear Campaign", BGE, "plot",
        "Exploration phase: a player of your choice discards his Faction.",
        abilities=[{"timing": "play", "phase": "exploration", "effects": [
            {"op": "discard_faction", "target": "chosen_player"}]}],
    ),
    _advantage(
        "crumbling_bridge", "Crumbling Bridge", BGE, "plot",
        "Exploration phase: the level of your Region -1 until the end of the turn.",
        abilities=[{"timing": "play", "phase": "exploration", "effects": [
            {"op": "modify_region", "amount": -1}]}],
    ),
    _advantage(
        "spear_of_twilight", "Spear of Twilight", TOTG, "artifact", "Artifact: +2 Strength.",
        abilities=[{"timing": "static", "effects": [
            {"op": "modify", "stat": "strength", "amount": 2}]}],
    ),
    _advantage(
        "horn_of_the_last_dawn", "Horn of the Last Dawn", TOTG, "artifact",
        "Artifact: +1 Speed.",
        abilities=SPEED_1,
    ),
    _region("maisen", "Maisen", BGE, 2, [NOTHING, NOTHING, ONE, NOTHING, ONE, TWO]),
    _region("albidion", "Albidion", BGE, 2, [NOTHING, NOTHING, ONE, NOTHING, ONE, TWO]),
    _region(
        "hall_of_the_fallen_god", "Hall of the Fallen God", TOTG, 2,
        [NOTHING, NOTHING, ONE, NOTHING, ONE, TWO],
        guard={"kind": "monster", "name": "Einherjar", "strength": 6,
               "text": "A dead god's last warrior bars the way.",
               "effects": [{"op": "lose_next_turn"}],
               "reward": [{"op": "draw", "count": 1}]},
    ),
    _region(
        "gate_of_ashes", "Gate of Ashes", TOTG, 1, [NOTHING, NOTHING, ONE, NOTHING, ONE, ONE],
        guard={"kind": "trap", "name": "Rune Ward", "check": "speed", "difficulty": 9,
               "text": "Speed 9 or the runes burn.",
               "effects": [{"op": "modify", "stat": "strength", "amount": -2,
                            "duration": "turn"}]},
    ),
    {"id": "amenhotep", "name": "Amenhotep", "type": "encounter", "set": BGE,
     "source": "stand-in", "level": 3, "kind": "monster", "strength": 8},
]  # fmt: skip


@cache
def expansion_db() -> CardDB:
    """The base set's cards (cards.json; the expansions' own cards there are left out) with
    the stand-in expansion cards above."""
    raw = json.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))
    base = raw["cards"] if isinstance(raw, dict) else raw
    # The expansions' own cards stay out: the stand-ins above have some of their ids.
    return parse_cards([c for c in base if c["set"] == "shadow_of_omega"] + EXPANSION_TEST_CARDS)
