"""Card ids of earlier versions of ``cards.json``, so that stored games keep loading.

Ids are never reused for another card, with one exception: a stand-in that left the base set
because it is a card of a later set gives its id back to that set's card (``RETURNED``). Such
an alias holds only in stored games without that set: a game with the set names its card.
When a card is renamed (to its printed English name)
its old id maps to the new one; when a stand-in leaves the base set, its id maps to the card
that took its place in the same deck, so a stored game still holds every card exactly once.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Renamed to the names printed on the English cards: same card, same data.
RENAMED: dict[str, str] = {
    "corns_village": "village_of_cornes",
    "supplies_for_corns_village": "supplies_for_the_village_of_cornes",
    "tower_at_the_edge_of_the_world": "tower_at_the_end_of_the_world",
    "zeppelin_trip": "zeppelin_voyage",
}

#: Stand-ins that left the base set -> the card that took their place in the same deck.
REPLACED: dict[str, str] = {
    "priestess": "exorcist",  # a Beyond Good and Evil character; the Exorcist has her numbers
    "lost_companion": "the_inn",  # both level-1 events that bring a character to the party
    "poisoned_wine": "betrayal",  # both Interaction-phase Plot cards against a party's characters
}

#: Every old id -> its id today.
CARD_ID_ALIASES: dict[str, str] = {**RENAMED, **REPLACED}

#: Old ids that a later set's own card took back -> that set. The Priestess is a Beyond Good
#: and Evil character: a base-set game stored before names the Exorcist's place with her id,
#: while a game with Beyond Good and Evil means her.
RETURNED: dict[str, str] = {"priestess": "beyond_good_and_evil"}

_OLD_ID = re.compile(r"\b(" + "|".join(sorted(CARD_ID_ALIASES, key=len, reverse=True)) + r")\b")


def upgrade_stored_game(text: str | bytes) -> str | bytes:
    """A stored game's JSON with old card ids replaced by today's (``text`` itself when it
    names none, the usual case, so loading stays fast).

    Card ids appear as whole strings (``"hand": ["zeppelin_trip"]``), as dictionary keys, and
    as words of action strings (``"play zeppelin_trip"``); player names are never changed.
    Raises ``ValueError`` when the game is resolving a replaced card: its effects in progress
    point into data that no longer exists.
    """
    try:
        raw = text.decode("utf-8") if isinstance(text, bytes) else text
        if not _OLD_ID.search(raw):
            return text
        data = json.loads(raw)
    except ValueError:  # not UTF-8 or not JSON: loading it reports the problem
        return text
    if not isinstance(data, dict):
        return text  # not a game: loading it reports the problem
    aliases = _aliases_for(data)
    if not aliases.keys() & set(_words(data)):
        return text  # only ids a set in play took back (a game with the Priestess)
    names = set(data.get("seats", [])) | set(data.get("players", {}))
    replaced = set(REPLACED) & set(aliases)
    busy = ({w for frame in data.get("stack", []) for w in _words(frame)} - names) & replaced
    if busy:
        card = sorted(busy)[0]
        raise ValueError(f"it is resolving {card!r}, which is no longer in the base set")
    return json.dumps(_upgrade(data, names, aliases))


def _aliases_for(data: dict[str, Any]) -> dict[str, str]:
    """The aliases that hold in a stored game: all of them, but an id a set in play took back
    (``RETURNED``) names that set's card. A game stored without options is a base-set game."""
    options = data.get("options")
    sets = options.get("sets", []) if isinstance(options, dict) else []
    return {old: new for old, new in CARD_ID_ALIASES.items() if RETURNED.get(old) not in sets}


def _words(value: Any) -> list[str]:
    """Every space-separated word of every string (keys included) inside ``value``."""
    if isinstance(value, str):
        return value.split(" ")
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in (*_words(k), *_words(v))]
    if isinstance(value, list):
        return [w for item in value for w in _words(item)]
    return []


def _upgrade(value: Any, names: set[str], aliases: dict[str, str]) -> Any:
    if isinstance(value, str):
        return " ".join(w if w in names else aliases.get(w, w) for w in value.split(" "))
    if isinstance(value, dict):
        return {_upgrade(k, names, aliases): _upgrade(v, names, aliases) for k, v in value.items()}
    if isinstance(value, list):
        return [_upgrade(item, names, aliases) for item in value]
    return value
