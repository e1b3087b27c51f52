"""The card database: :class:`CardDB` (every card by id, and by deck), and loading and
validating ``cards.json`` into it.

``load_cards`` returns a :class:`CardDB` or raises :class:`CardDataError` whose ``problems``
are one human-readable line each, naming the card id, the field and what is wrong.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from engine.cards.effects import Ability
from engine.cards.models import (
    CARD_TYPES,
    DEFAULT_CARDS_PATH,
    AdvantageCard,
    Card,
    CharacterCard,
    EncounterCard,
    FinalMissionCard,
    MissionCard,
    Objective,
    RegionCard,
)

_card_adapter: TypeAdapter[Card] = TypeAdapter(Card)


def _objective_problems(where: str, o: Objective) -> Iterator[str]:
    """The fields an objective's kind needs, and only those (beyond pydantic's checks)."""
    if o.kind == "encounters" and o.encounters is None:
        yield f"{where}.encounters: missing field (how many Encounters to face)"
    if o.kind != "encounters" and (o.encounters is not None or o.region_counts_as is not None):
        yield f"{where}: 'encounters' and 'region_counts_as' belong to an encounters objective"
    if o.kind == "resist" and o.turns is None:
        yield f"{where}.turns: missing field (how many turns to hold out, F2)"
    if o.kind == "resist" and o.strength is None and (o.opponent or o.keywords):
        yield f"{where}.strength: a resist objective with enemies gives their Strength"


class CardDataError(Exception):
    """A cards file that cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


_NO_CARDS: frozenset[str] = frozenset()


#: Advantage kinds played in the Reset phase (A3-A7), whatever their abilities say.
_RESET_PHASE_KINDS = frozenset({"organization", "incident", "trap", "faction", "artifact"})


class CardDB:
    """All cards by id, with per-type lists in file order."""

    def __init__(self, cards: Iterable[Card]) -> None:
        self.by_id: dict[str, Card] = {c.id: c for c in cards}
        self.characters = [c for c in self.by_id.values() if isinstance(c, CharacterCard)]
        self.regions = [c for c in self.by_id.values() if isinstance(c, RegionCard)]
        self.encounters = [c for c in self.by_id.values() if isinstance(c, EncounterCard)]
        self.missions = [c for c in self.by_id.values() if isinstance(c, MissionCard)]
        self.final_missions = [c for c in self.by_id.values() if isinstance(c, FinalMissionCard)]
        self.advantages = [c for c in self.by_id.values() if isinstance(c, AdvantageCard)]
        #: When each card can be used: ("play", phase), ("interrupt", window), ("battle", "").
        self.moments: dict[str, frozenset[tuple[str, str]]] = {
            c.id: frozenset((a.timing, a.phase or a.when or "") for a in c.abilities)
            for c in self.by_id.values()
        }
        #: Each card's static abilities (they work by being in play): party totals read them.
        self.statics: dict[str, tuple[Ability, ...]] = {
            c.id: tuple(a for a in c.abilities if a.timing == "static") for c in self.by_id.values()
        }
        #: Advantages the Reset phase may put into play (A2: persistent; A3: Organizations;
        #: A4-A7: Incidents, Traps (on a Region), Factions, Artifacts).
        self.stay_in_play = frozenset(
            c.id for c in self.advantages if c.persistent or c.kind in _RESET_PHASE_KINDS
        )
        # Which cards answer each moment, computed once (cards are frozen): most cards have
        # nothing for a given phase step or window, and the rules ask "what may be used now?"
        # for every card in every hand at every step, so they look only at these.
        self._used_at: dict[tuple[str, str], frozenset[str]] = {}
        for card_id, card_moments in self.moments.items():
            for moment in card_moments:
                self._used_at[moment] = self._used_at.get(moment, _NO_CARDS) | {card_id}

    def used_at(self, timing: str, moment: str = "") -> frozenset[str]:
        """Ids of the cards with an ability of ``timing`` for ``moment`` (see ``moments``):
        ``used_at("play", "movement")``, ``used_at("interrupt", "move_declared")``,
        ``used_at("battle")``."""
        return self._used_at.get((timing, moment), _NO_CARDS)

    def __getitem__(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def __iter__(self) -> Iterator[Card]:
        return iter(self.by_id.values())

    def __len__(self) -> int:
        return len(self.by_id)

    def character(self, card_id: str) -> CharacterCard:
        card = self.by_id[card_id]
        assert isinstance(card, CharacterCard)
        return card

    def region(self, card_id: str) -> RegionCard:
        card = self.by_id[card_id]
        assert isinstance(card, RegionCard)
        return card

    def encounter(self, card_id: str) -> EncounterCard:
        card = self.by_id[card_id]
        assert isinstance(card, EncounterCard)
        return card

    def mission(self, card_id: str) -> MissionCard:
        card = self.by_id[card_id]
        assert isinstance(card, MissionCard)
        return card

    def final_mission(self, card_id: str) -> FinalMissionCard:
        card = self.by_id[card_id]
        assert isinstance(card, FinalMissionCard)
        return card

    def advantage(self, card_id: str) -> AdvantageCard:
        card = self.by_id[card_id]
        assert isinstance(card, AdvantageCard)
        return card

    def composition(self) -> dict[str, Counter[str]]:
        """Count of cards per set: per type (advantages and encounters also per kind, as
        ``"advantage:plot"``) and per source (``"source:printed"``, ``"source:stand-in"``)."""
        result: dict[str, Counter[str]] = {}
        for card in self:
            counts = result.setdefault(card.set, Counter())
            counts[card.type] += 1
            if isinstance(card, CharacterCard) and card.arcane:
                counts["character:arcane"] += 1
            counts[f"source:{card.source}"] += 1
            if isinstance(card, AdvantageCard):
                counts[f"advantage:{card.kind}"] += 1
            if isinstance(card, EncounterCard):
                counts[f"encounter:{card.kind}"] += 1
        return result


def _loc(loc: tuple[int | str, ...]) -> str:
    """Pydantic error location -> dotted field path, without discriminator tags."""
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif item in CARD_TYPES or (re.fullmatch(r"[a-z_]+", item) and item in _OP_TAGS):
            continue  # the union tag pydantic inserts, not a field name
        else:
            parts.append(("." if parts else "") + item)
    return "".join(parts) or "(card)"


def _op_tags() -> frozenset[str]:
    from engine.cards.effects import OPERATIONS

    return OPERATIONS


_OP_TAGS = _op_tags()


def _explain(err: Any) -> str:
    if tuple(err["loc"][-1:]) == ("source",):
        if err["type"] == "missing":
            return "missing field (every card says 'printed' or 'stand-in')"
        return f"must be 'printed' or 'stand-in', not {err.get('input')!r}"
    if err["type"] == "union_tag_invalid":
        ctx = err.get("ctx", {})
        tag = ctx.get("tag")
        if ctx.get("discriminator") == "'op'":
            return f"unknown effect operation {tag!r}"
        if ctx.get("discriminator") == "'type'":
            return f"unknown card type {tag!r}"
    if err["type"] == "missing":
        return "missing field"
    return str(err["msg"])


def _references(card: Card) -> Iterator[tuple[str, str]]:
    """(field, referenced card id) pairs the card makes."""
    if isinstance(card, MissionCard) and card.objective.region:
        yield "objective.region", card.objective.region
    if isinstance(card, FinalMissionCard):
        if card.quest.region:
            yield "quest.region", card.quest.region
        if card.crisis.challenge.region:
            yield "crisis.challenge.region", card.crisis.challenge.region
    if isinstance(card, AdvantageCard):
        for i, rival in enumerate(card.rivals):
            yield f"rivals[{i}]", rival


def _semantic_problems(card: Card) -> Iterator[str]:
    """Per-type rules pydantic's field checks cannot express."""
    if isinstance(card, MissionCard):
        yield from _objective_problems("objective", card.objective)
    if isinstance(card, FinalMissionCard):
        yield from _objective_problems("quest", card.quest)
        if card.crisis.challenge.kind not in ("fight", "speed_check"):
            yield "crisis.challenge.kind: a Crisis challenge is a fight or a speed check (F6)"
    if isinstance(card, CharacterCard) and card.arcane and card.set == "shadow_of_omega":
        yield "arcane: Shadow of Omega has no Arcane characters (C7)"
    if isinstance(card, EncounterCard) and card.kind == "monster" and card.strength is None:
        yield "strength: missing field (a monster needs a Strength)"
    if isinstance(card, EncounterCard) and card.kind == "event" and not card.abilities:
        yield "abilities: an event needs an on_reveal ability"
    if isinstance(card, AdvantageCard):
        if card.kind == "skill" and card.skill is None:
            yield "skill: missing field (a Skill card names its skill)"
        if card.kind != "skill" and card.skill is not None:
            yield "skill: only Skill cards name a skill"
        if card.rivals and card.kind not in ("organization", "faction"):
            yield "rivals: only Organizations and Factions have rivals"
        if not card.abilities:
            yield "abilities: every Advantage needs at least one ability"
        if card.kind == "trap" and not any(a.timing == "on_reveal" for a in card.abilities):
            yield "abilities: a Trap needs an on_reveal ability (its effect when revealed, M9)"
        if card.kind != "trap" and any(a.timing == "on_reveal" for a in card.abilities):
            yield "abilities: among Advantages only Traps have on_reveal abilities"
        if card.kind != "incident" and any(a.timing == "movement_end" for a in card.abilities):
            yield "abilities: only Incidents have movement_end abilities"
    if isinstance(card, RegionCard):
        for i, row in enumerate(card.exploration):
            if row.result == "encounters" and row.count < 1:
                yield f"exploration[{i}].count: an encounters result draws at least 1"
            if row.result == "special" and not row.effects:
                yield f"exploration[{i}].effects: a special result needs effects"
        for i, reward in enumerate(card.rewards):
            if reward.kind == "special" and not reward.effects:
                yield f"rewards[{i}].effects: a special reward needs effects"
        guard = card.guard
        if guard is not None and guard.kind == "monster" and guard.strength is None:
            yield "guard.strength: missing field (a monster guard needs a Strength)"
        if guard is not None and guard.kind == "trap" and guard.difficulty is None:
            yield "guard.difficulty: missing field (a trap guard needs a difficulty)"
    for i, ability in enumerate(card.abilities):
        if ability.timing == "play" and ability.phase is None:
            yield f"abilities[{i}].phase: a 'play' ability names its phase"
        if ability.timing == "interrupt" and ability.when is None:
            yield f"abilities[{i}].when: an 'interrupt' ability names its window"
        if ability.timing == "static" and any(op.op != "modify" for op in ability.effects):
            yield f"abilities[{i}].effects: a 'static' ability holds only 'modify' operations"


def parse_cards(raw: Any) -> CardDB:
    """Validate raw JSON data (a list of cards, or ``{"cards": [...]}``) into a CardDB."""
    if isinstance(raw, dict) and "cards" in raw:
        raw = raw["cards"]
    if not isinstance(raw, list):
        raise CardDataError(['cards file: expected a list of cards (or {"cards": [...]})'])
    problems: list[str] = []
    cards: list[Card] = []
    seen: Counter[str] = Counter()
    for index, item in enumerate(raw):
        ident = item.get("id") if isinstance(item, dict) else None
        label = f"card {ident}" if isinstance(ident, str) and ident else f"card #{index}"
        if isinstance(ident, str):
            seen[ident] += 1
            if seen[ident] == 2:
                problems.append(f"{label}: id: duplicate id")
        try:
            card = _card_adapter.validate_python(item)
        except ValidationError as exc:
            for err in exc.errors():
                problems.append(f"{label}: {_loc(err['loc'])}: {_explain(err)}")
            continue
        problems.extend(f"{label}: {p}" for p in _semantic_problems(card))
        cards.append(card)
    ids = {c.id for c in cards} | set(seen)
    for card in cards:
        for field, ref in _references(card):
            if ref not in ids:
                problems.append(f"card {card.id}: {field}: refers to unknown card {ref!r}")
    if problems:
        raise CardDataError(problems)
    return CardDB(cards)


def load_cards(path: str | Path | None = None) -> CardDB:
    """Read and validate a cards file (default: the repository's ``cards.json``)."""
    path = Path(path) if path is not None else DEFAULT_CARDS_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CardDataError([f"{path}: cannot read: {exc.strerror}"]) from None
    except UnicodeDecodeError:  # a binary file (issue 24, fault 8: it was a traceback)
        raise CardDataError([f"{path}: cannot read: not UTF-8 text"]) from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError([f"{path}: not valid JSON: {exc.msg} (line {exc.lineno})"]) from None
    return parse_cards(raw)


@cache
def default_cards() -> CardDB:
    """The repository's cards, loaded once per process."""
    return load_cards()
