"""Cards in words: names, kinds, objectives, rewards and the words printed inside their rules,
in the current language (:func:`words.speaking`), and the marks shown beside them.

A card's name, text and the words printed inside its rules (a reward's name, a guard, an
option) are its own: English is ``cards.json`` (printed names untouched), any other language
our translation (:mod:`words.cards`), which a front end marks as ours wherever a card is shown
(:data:`TRANSLATED_MARK`), as a stand-in is marked as ours in every language
(:data:`STAND_IN_MARK`). Everything else (kinds, objectives, rewards by kind) is the catalog's.
"""

from __future__ import annotations

from collections.abc import Iterable

import words
from engine import (
    AdvantageCard,
    Card,
    CardDB,
    CharacterCard,
    EncounterCard,
    FinalMissionCard,
    MissionCard,
    Objective,
    RegionCard,
)
from words import Message, counted, msg, say
from words.cards import any_card_words

#: The marks of the expansions' elements on a board (a legend says them).
ARCANE_MARK = "✦"
TRAP_MARK = "🪤"
GUARD_MARK = "🛡"
BEATEN_MARK = "🏳"
#: Cards in play in front of a party, by kind: a Faction, an Artifact, an Incident (until the
#: end of the turn), anything else (Organizations, Magic Objects).
IN_PLAY_MARKS = {"faction": "🚩", "artifact": "🏺", "incident": "🌀"}
IN_PLAY_MARK = "🏛"
#: Marks a card whose text is our stand-in (engine.cards: ``source``), in lists of cards.
STAND_IN_MARK = "◇"
#: Marks a card shown in our translation (any language but English), in lists of cards.
TRANSLATED_MARK = "🌐"

#: The sets' codes, in the order a new game offers them, and their English names (the
#: catalog's ``card.set.<code>``: :func:`set_name` says them in the current language).
SET_NAMES = {
    code: say(msg(f"card.set.{code}"), words.SOURCE)
    for code in ("shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods")
}


def set_name(code: str) -> str:
    """A set's name in the current language (an unknown code as it reads)."""
    if words.known(f"card.set.{code}"):
        return say(msg(f"card.set.{code}"))
    return code.replace("_", " ").title()


def card_name(db: CardDB, card_id: str) -> str:
    """A card's name in the current language (its id if it is not in the database)."""
    card = db.by_id.get(card_id)
    return words.card_name(card_id, card.name) if card else card_id


def card_text(db: CardDB, card_id: str) -> str:
    """A card's text in the current language ("" for none, or an unknown card)."""
    card = db.by_id.get(card_id)
    if card is None or not card.text:
        return ""
    return words.card_text(card_id, card.text)


def printed(card_id: str | None, english: str) -> str:
    """Words printed inside a card's rules (a reward's name, a guard, an option's label) in
    the current language: found on ``card_id`` when it is known, else on any card."""
    if not english:
        return english
    if card_id:
        return words.card_words(card_id, english)
    return any_card_words(english)


def stand_in_legend() -> str:
    """The legend of :data:`STAND_IN_MARK` (a footer, the end of a list)."""
    return say(msg("card.stand_in", mark=STAND_IN_MARK))


def translated_legend() -> str:
    """The legend of :data:`TRANSLATED_MARK` (a footer, the end of a list)."""
    return say(msg("card.our_translation", mark=TRANSLATED_MARK))


def any_translated(card_ids: Iterable[str | None]) -> bool:
    """Whether any of these cards is shown in our translation (then a legend says so)."""
    return any(c and words.is_translated(c) for c in card_ids)


def card_marks(card: Card) -> str:
    """The marks after a card's name in a list: stand-in, our translation."""
    marks = ""
    if card.is_stand_in:
        marks += f" {STAND_IN_MARK}"
    if words.is_translated(card.id):
        marks += f" {TRANSLATED_MARK}"
    return marks


def skill_name(skill: str) -> str:
    """A skill (ki, magic, trickery) as a word."""
    return say(msg(f"card.skill.{skill}"))


def keyword(word: str) -> str:
    """A monster's keyword (``undead``, ``dragon``) as a word (an unknown one as it reads)."""
    id = f"card.keyword.{word}"
    return say(msg(id)) if words.known(id) else word


def card_type(card: Card) -> tuple[Message, Message | None]:
    """A card's type and, when it has one, its kind within the type."""
    if isinstance(card, CharacterCard):
        return msg("card.type.character"), msg("card.kind.arcane") if card.arcane else None
    if isinstance(card, AdvantageCard):
        return msg("card.type.advantage"), msg(f"card.kind.{card.kind}")
    if isinstance(card, EncounterCard):
        return msg("card.type.encounter"), msg(f"card.kind.{card.kind}")
    if isinstance(card, FinalMissionCard):
        return msg("card.type.final_mission"), None
    if isinstance(card, MissionCard):
        return msg("card.type.mission"), None
    return msg("card.type.region"), None


def card_kind(card: Card) -> str:
    """ "Advantage · Plot", "Character · Arcane", "Basic mission"."""
    type_, kind = card_type(card)
    if kind is None:
        return say(type_)
    return f"{say(type_)} · {say(kind)}"


def _where(o: Objective, db: CardDB) -> Message | str:
    """Where an objective is met, as the end of its sentence ("" for anywhere)."""
    if o.region:
        return (
            msg("card.objective.at", region=card_name(db, o.region)) if o.region in db.by_id else ""
        )
    if o.region_level:
        return msg("card.objective.in_level", level=o.region_level)
    return ""


def objective_text(o: Objective, db: CardDB, card_id: str) -> str:
    """A mission's objective in plain words ("Fight Tiamat (Strength 10) at the Pit of Hell",
    "Hold out 2 turns at ..., beating ... on each"); ``card_id`` prints its opponent."""
    where = _where(o, db)
    opponent = printed(card_id, o.opponent)
    if o.kind == "fight":
        strength = o.strength if o.strength is not None else msg("card.objective.strength_level")
        return say(
            msg(
                "card.objective.fight",
                opponent=opponent or msg("card.objective.an_opponent"),
                strength=strength,
                where=where,
            )
        )
    if o.kind == "speed_check":
        return say(msg("card.objective.speed_check", difficulty=o.difficulty, where=where))
    if o.kind == "resist" and o.strength is not None:
        return say(
            counted(
                "card.objective.resist.fight",
                o.turns or 0,
                where=where,
                opponent=opponent or msg("card.objective.the_enemies"),
                strength=o.strength,
            )
        )
    if o.kind == "resist":
        return say(counted("card.objective.resist", o.turns or 0, where=where))
    if o.kind == "gather":
        return say(msg("card.objective.gather", where=where))
    if o.kind == "encounters":
        level: Message | str = ""
        if o.region_counts_as is not None:
            level = msg("card.objective.counts_as", level=o.region_counts_as)
        return say(
            counted(
                "card.objective.encounters",
                o.encounters or 0,
                where=where or msg("card.objective.anywhere"),
                level=level,
            )
        )
    return say(counted("card.objective.deliver", o.advantages or 0, where=where))


#: The marks in the rules of the expansions' kinds of Advantage (A4-A7).
ADVANTAGE_RULE_MARKS = {
    "incident": IN_PLAY_MARKS["incident"],
    "trap": TRAP_MARK,
    "faction": IN_PLAY_MARKS["faction"],
    "artifact": IN_PLAY_MARKS["artifact"],
}


def advantage_rule(kind: str) -> str | None:
    """How an expansion's kind of Advantage is played (A4-A7), or None for the others."""
    mark = ADVANTAGE_RULE_MARKS.get(kind)
    return say(msg(f"card.rule.{kind}", mark=mark)) if mark else None


def guard_text(region: RegionCard) -> str:
    """A guarded Region's guard as its card prints it (TotG): who (in bold), and how it is
    beaten."""
    guard = region.guard
    if guard is None:
        return say(msg("card.none"))
    if guard.kind == "monster":
        how = msg("card.guard.monster", strength=guard.strength)
    else:
        how = msg("card.guard.trap", stat=msg(f"stat.{guard.check}"), difficulty=guard.difficulty)
    name = f"**{printed(region.id, guard.name)}**"
    said = say(msg("card.guard", guard=name, how=how))
    if guard.text:
        said = say(msg("card.with_text", head=said, text=printed(region.id, guard.text)))
    return said


def reward_text(region: RegionCard, index: int) -> str:
    """A Region's ``index``-th reward (E6) as the card names it, or by its kind."""
    reward = region.rewards[index]
    if reward.kind == "advantage":
        return say(counted("reward.advantage", region.level))
    if reward.kind == "hire":
        return say(msg("reward.hire"))
    if reward.name or (reward.text and reward.kind not in ("remote_mission", "discredit")):
        return printed(region.id, reward.name or reward.text)
    if reward.kind in ("remote_mission", "discredit"):
        return say(msg(f"reward.{reward.kind}"))
    return say(msg("reward.special"))


def exploration_row(card: RegionCard, roll: int) -> str:
    """What the die ``roll`` (1-6) gives on a Region's exploration table (E2), in a few
    words: nothing, Encounters, or the special result as the card prints it."""
    row = card.exploration[roll - 1]
    if row.result == "nothing":
        return say(msg("word.nothing"))
    if row.result == "encounters":
        return say(counted("card.exploration.encounters", row.count))
    return printed(card.id, row.text) if row.text else say(msg("card.exploration.special"))
