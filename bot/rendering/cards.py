"""Cards: names, kinds, one-line summaries and the ``/anima card`` embed, in the current
language (:func:`words.speaking`).

A card's name, text and the words printed inside its rules (a reward's name, a guard, an
option) are its own: English is ``cards.json`` (printed names untouched), any other language
our translation (:mod:`words.cards`), which is marked as ours wherever a card is shown
(:data:`TRANSLATED_MARK`), as a stand-in is marked as ours in every language
(:data:`STAND_IN_MARK`). Everything else (kinds, field names, objectives) is the catalog's.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

import words
from bot.rendering.messages import Message, counted, msg, say
from bot.rendering.text import (
    ARCANE_MARK,
    COLOR,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FOOTER_LIMIT,
    GUARD_MARK,
    IN_PLAY_MARKS,
    OPTION_LABEL_LIMIT,
    TRAP_MARK,
    clip,
    clip_lines,
    fit,
)
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
from words.cards import any_card_words

#: The sets' codes, in the order the lobby offers them, and their English names (the
#: catalog's ``card.set.<code>``: :func:`set_name` says them in the current language).
SET_NAMES = {
    code: say(msg(f"card.set.{code}"), words.SOURCE)
    for code in ("shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods")
}


def set_name(code: str) -> str:
    """A set's name in the current language (an unknown code as it reads)."""
    if f"card.set.{code}" in words.catalog(words.SOURCE):
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


#: Marks a card whose text is our stand-in (engine.cards: ``source``), in lists of cards.
STAND_IN_MARK = "◇"
#: Marks a card shown in our translation (any language but English), in lists of cards.
TRANSLATED_MARK = "🌐"


def stand_in_legend() -> str:
    """The legend of :data:`STAND_IN_MARK` (a footer)."""
    return say(msg("card.stand_in", mark=STAND_IN_MARK))


def translated_legend() -> str:
    """The legend of :data:`TRANSLATED_MARK` (a footer)."""
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


def _kind(card: Card) -> tuple[Message, Message | None]:
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
    type_, kind = _kind(card)
    if kind is None:
        return say(type_)
    return f"{say(type_)} · {say(kind)}"


def card_line(db: CardDB, card_id: str, *, text: bool = True) -> str:
    """One line about a card: name, type, numbers and (optionally) its text."""
    card = db.by_id.get(card_id)
    if card is None:
        return card_id
    extra = ""
    if isinstance(card, CharacterCard):
        extra = f" ({card.strength}/{card.speed})" + (f" {ARCANE_MARK}" if card.arcane else "")
    elif isinstance(card, EncounterCard) and card.strength is not None:
        extra = " " + say(msg("card.line.strength", strength=card.strength))
    head = f"**{card_name(db, card_id)}**{card_marks(card)} · {card_kind(card)}{extra}"
    words_ = card_text(db, card_id)
    return f"{head} — {words_}" if text and words_ else head


def hand_choice_label(db: CardDB, card_id: str, playable: bool) -> str:
    """A card of the user's hand as ``/anima play`` suggests it (only he sees it)."""
    type_, kind = _kind(db[card_id])
    label = "card.play_label.playable" if playable else "card.play_label"
    said = say(msg(label, card=card_name(db, card_id), kind=kind or type_))
    return clip(said, OPTION_LABEL_LIMIT)


def _where(o: Objective, db: CardDB) -> Message | str:
    """Where an objective is met, as the end of its sentence ("" for anywhere)."""
    if o.region:
        return (
            msg("card.objective.at", region=card_name(db, o.region)) if o.region in db.by_id else ""
        )
    if o.region_level:
        return msg("card.objective.in_level", level=o.region_level)
    return ""


def _objective_text(o: Objective, db: CardDB, card_id: str) -> str:
    """A mission's objective in plain words, for ``/anima card`` ("Fight Tiamat (Strength 10)
    at the Pit of Hell", "Hold out 2 turns at ..., beating ... on each")."""
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


#: The marks in the rules of the expansions' kinds of Advantage (A4-A7), for ``/anima card``.
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
    """A guarded Region's guard as its card prints it (TotG): who, and how it is beaten."""
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
    return clip(said, FIELD_LIMIT)


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


def _exploration(card: RegionCard) -> str:
    rows = []
    for i, row in enumerate(card.exploration, start=1):
        if row.result == "nothing":
            what = say(msg("word.nothing"))
        elif row.result == "encounters":
            what = say(counted("card.exploration.encounters", row.count))
        else:
            what = printed(card.id, row.text) if row.text else say(msg("card.exploration.special"))
        rows.append(f"🎲 {i}: {what}")
    return "\n".join(rows)


def _field(embed: discord.Embed, id: str, value: str, inline: bool = True, **args: object) -> None:
    """A field named by the catalog's ``id``, its value clipped to Discord's limit."""
    name = clip(say(msg(id, **args)), FIELD_NAME_LIMIT)
    embed.add_field(name=name, value=clip_lines(value, FIELD_LIMIT), inline=inline)


def card_embed(db: CardDB, card_id: str) -> discord.Embed:
    """The ``/anima card`` answer."""
    card = db[card_id]
    embed = discord.Embed(
        title=clip(card_name(db, card_id), EMBED_TITLE_LIMIT),
        description=clip(card_text(db, card_id), EMBED_DESCRIPTION_LIMIT) or None,
        colour=COLOR,
    )
    _field(embed, "card.field.type", card_kind(card))
    _field(embed, "card.field.set", set_name(card.set))
    if isinstance(card, CharacterCard):
        _field(embed, "card.field.strength_speed", f"{card.strength} / {card.speed}")
        _field(embed, "card.field.gender", say(msg(f"card.gender.{card.gender}")))
        skills = ", ".join(skill_name(s) for s in card.skills) or say(msg("card.none"))
        _field(embed, "card.field.skills", skills)
        if card.arcane:
            _field(
                embed, "card.field.arcane", say(msg("card.arcane_rule")), False, mark=ARCANE_MARK
            )
    elif isinstance(card, RegionCard):
        marks = []
        if card.trade:
            marks.append(f"🤝 {say(msg('card.mark.trade'))}")
        if not card.fighting:
            marks.append(f"☮ {say(msg('card.mark.no_fighting'))}")
        _field(embed, "card.field.level", str(card.level))
        _field(embed, "card.field.marks", ", ".join(marks) or "—")
        _field(embed, "card.field.exploration", _exploration(card), False)
        rewards = "\n".join(reward_text(card, i) for i in range(len(card.rewards)))
        _field(embed, "card.field.rewards", rewards, False)
        if card.guard is not None:
            _field(embed, "card.field.guard", guard_text(card), False, mark=GUARD_MARK)
    elif isinstance(card, EncounterCard):
        _field(embed, "card.field.level", str(card.level))
        if card.strength is not None:
            _field(embed, "card.field.strength", str(card.strength))
        if card.keywords:
            keywords = ", ".join(keyword(k) for k in card.keywords)
            _field(embed, "card.field.keywords", keywords)
    elif isinstance(card, MissionCard):
        _field(embed, "card.field.level", str(card.level))
        _field(embed, "card.field.objective", _objective_text(card.objective, db, card_id))
    elif isinstance(card, FinalMissionCard):
        _field(embed, "card.field.quest", _objective_text(card.quest, db, card_id))
        _field(embed, "card.field.crisis_limit", say(counted("card.turns", card.crisis.limit)))
        if card.crisis.text:
            _field(embed, "card.field.crisis", printed(card_id, card.crisis.text), False)
    elif isinstance(card, AdvantageCard):
        if card.skill:
            _field(embed, "card.field.needs", skill_name(card.skill))
        rule = advantage_rule(card.kind)
        if rule:
            _field(embed, "card.field.rule", rule, False)
        if card.rivals:
            rivals = ", ".join(card_name(db, r) for r in card.rivals)
            enemy = "card.field.enemy_factions" if card.kind == "faction" else "card.field.rivals"
            _field(embed, enemy, rivals, False)
    footer = [say(msg("card.note.stand_in" if card.is_stand_in else "card.note.printed"))]
    if words.is_translated(card_id):
        footer.append(translated_legend())
    embed.set_footer(text=clip("\n".join(footer), FOOTER_LIMIT))
    return fit(embed)


def keyword(word: str) -> str:
    """A monster's keyword (``undead``, ``dragon``) as a word (an unknown one as it reads)."""
    id = f"card.keyword.{word}"
    return say(msg(id)) if id in words.catalog(words.SOURCE) else word
