"""A card database with stand-in cards for the two expansions, for the rule tests.

The expansions' own cards come in a later step (issue 9). Until then, each expansion gets a
playable copy of the base set's cards (ids and names marked with the set, ``source:
stand-in``), plus the cards its rules need: Arcane characters (C7) and an Ascension event.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from engine.cards import DEFAULT_CARDS_PATH, CardDB, parse_cards
from engine.rules.sets import BEYOND_GOOD_AND_EVIL, TWILIGHT_OF_THE_GODS

PREFIX = {BEYOND_GOOD_AND_EVIL: "bge", TWILIGHT_OF_THE_GODS: "totg"}


def base_cards() -> list[dict[str, Any]]:
    """The base set's cards of cards.json (the expansions' own cards there are left out: these
    tests build their expansions from copies of the base set)."""
    raw = json.loads(DEFAULT_CARDS_PATH.read_text(encoding="utf-8"))
    cards: list[dict[str, Any]] = raw["cards"] if isinstance(raw, dict) else raw
    # The expansions' own cards stay out: these decks are the stand-ins' (ids would clash).
    return [card for card in cards if card["set"] == "shadow_of_omega"]


def _copy(card: dict[str, Any], set_id: str) -> dict[str, Any]:
    """A stand-in of ``set_id`` made from a base card; its references follow it into the set."""
    prefix = PREFIX[set_id]
    new = copy.deepcopy(card)
    new.update(id=f"{prefix}_{card['id']}", name=f"{card['name']} ({prefix})")
    new.update(set=set_id, source="stand-in")
    for key in ("objective", "quest"):
        if new.get(key, {}).get("region"):
            new[key]["region"] = f"{prefix}_{new[key]['region']}"
    if new.get("crisis", {}).get("challenge", {}).get("region"):
        new["crisis"]["challenge"]["region"] = f"{prefix}_{new['crisis']['challenge']['region']}"
    if new.get("rivals"):
        new["rivals"] = [f"{prefix}_{r}" for r in new["rivals"]]
    return new


def arcane(set_id: str, number: int, strength: int = 6, speed: int = 5) -> dict[str, Any]:
    """An Arcane character (C7) of ``set_id``."""
    prefix = PREFIX[set_id]
    return {
        "id": f"{prefix}_arcane_{number}",
        "name": f"Arcane {number} ({prefix})",
        "type": "character",
        "set": set_id,
        "source": "stand-in",
        "text": "A stand-in Arcane character.",
        "gender": "female" if number % 2 else "male",
        "strength": strength,
        "speed": speed,
        "skills": ["magic"],
        "arcane": True,
    }


ASCENSION: dict[str, Any] = {
    "id": "ascension",
    "name": "Ascension",
    "type": "encounter",
    "set": BEYOND_GOOD_AND_EVIL,
    "source": "stand-in",
    "text": "You may exchange one of your normal characters for an Arcane character.",
    "level": 1,
    "kind": "event",
    "abilities": [
        {
            "timing": "on_reveal",
            "effects": [
                {
                    "op": "choose",
                    "options": [
                        {"label": "Ascend", "effects": [{"op": "exchange_arcane"}]},
                        {"label": "Stay as you are"},
                    ],
                }
            ],
        }
    ],
}


@cache
def expansion_db() -> CardDB:
    """The base set, a stand-in copy of it for each expansion, three Arcane characters per
    expansion, and Ascension (Beyond Good and Evil)."""
    base = base_cards()
    cards = list(base)
    for set_id in (BEYOND_GOOD_AND_EVIL, TWILIGHT_OF_THE_GODS):
        cards += [_copy(card, set_id) for card in base]
        cards += [arcane(set_id, n) for n in (1, 2, 3)]
    cards.append(ASCENSION)
    return parse_cards(cards)
