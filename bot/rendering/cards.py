"""Cards on Discord: one card's line in a list, a hand's card as ``/anima play`` suggests it,
and the ``/anima card`` embed, in the current language (:func:`words.speaking`).

The words of a card (its name and text in the language, its kind, objective, rewards, the
marks beside it) are :mod:`wording.cards`', shared with the terminal; this module lists what
the rest of the bot uses of them and draws them within Discord's limits.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

import words
from bot.rendering.messages import counted, msg, say
from bot.rendering.text import (
    ARCANE_MARK,
    COLOR,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FOOTER_LIMIT,
    GUARD_MARK,
    OPTION_LABEL_LIMIT,
    clip,
    clip_lines,
    fit,
)
from engine import (
    AdvantageCard,
    CardDB,
    CharacterCard,
    EncounterCard,
    FinalMissionCard,
    MissionCard,
    RegionCard,
)
from wording import cards as worded
from wording.cards import (
    ADVANTAGE_RULE_MARKS,
    SET_NAMES,
    STAND_IN_MARK,
    TRANSLATED_MARK,
    advantage_rule,
    any_translated,
    card_kind,
    card_marks,
    card_name,
    card_text,
    card_type,
    exploration_row,
    keyword,
    objective_text,
    printed,
    reward_text,
    set_name,
    skill_name,
    stand_in_legend,
    translated_legend,
)

__all__ = [
    "ADVANTAGE_RULE_MARKS",
    "SET_NAMES",
    "STAND_IN_MARK",
    "TRANSLATED_MARK",
    "advantage_rule",
    "any_translated",
    "card_embed",
    "card_kind",
    "card_line",
    "card_marks",
    "card_name",
    "card_text",
    "guard_text",
    "hand_choice_label",
    "keyword",
    "printed",
    "reward_text",
    "set_name",
    "sets_text",
    "skill_name",
    "stand_in_legend",
    "translated_legend",
]


def card_line(db: CardDB, card_id: str, *, text: bool = True) -> str:
    """One line about a card: name (bold), marks, type, numbers and (optionally) its text."""
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
    type_, kind = card_type(db[card_id])
    label = "card.play_label.playable" if playable else "card.play_label"
    said = say(msg(label, card=card_name(db, card_id), kind=kind or type_))
    return clip(said, OPTION_LABEL_LIMIT)


def guard_text(region: RegionCard) -> str:
    """A guarded Region's guard as its card prints it (TotG), within a field's limit."""
    return clip(worded.guard_text(region), FIELD_LIMIT)


def _exploration(card: RegionCard) -> str:
    return "\n".join(f"🎲 {i}: {exploration_row(card, i)}" for i in range(1, 7))


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
        _field(embed, "card.field.objective", objective_text(card.objective, db, card_id))
    elif isinstance(card, FinalMissionCard):
        _field(embed, "card.field.quest", objective_text(card.quest, db, card_id))
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


def sets_text(codes: Sequence[str]) -> str:
    """The card sets of a game, in the order chosen, for a title ("Shadow of Omega + Twilight
    of the Gods"; the base game alone when none is given)."""
    return " + ".join(set_name(c) for c in codes or ("shadow_of_omega",))
