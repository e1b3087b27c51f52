"""Cards: names, kinds, one-line summaries and the ``/anima card`` embed."""

from __future__ import annotations

import discord

from bot.rendering.text import (
    ARCANE_MARK,
    COLOR,
    FIELD_LIMIT,
    GUARD_MARK,
    IN_PLAY_MARKS,
    OPTION_LABEL_LIMIT,
    TRAP_MARK,
    clip,
    plural,
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
    reward_label,
)

ADVANTAGE_KINDS = {
    "skill": "Skill",
    "plot": "Plot",
    "organization": "Organization",
    "interrupt": "Interrupt",
    "battle": "Battle",
    "incident": "Incident",
    "trap": "Trap",
    "faction": "Faction",
    "artifact": "Artifact",
}


SET_NAMES = {
    "shadow_of_omega": "Shadow of Omega",
    "beyond_good_and_evil": "Beyond Good and Evil",
    "twilight_of_the_gods": "Twilight of the Gods",
}


def card_name(db: CardDB, card_id: str) -> str:
    card = db.by_id.get(card_id)
    return card.name if card else card_id


def card_kind(card: Card) -> str:
    if isinstance(card, CharacterCard) and card.arcane:
        return "Character · Arcane"
    if isinstance(card, AdvantageCard):
        return f"Advantage · {ADVANTAGE_KINDS[card.kind]}"
    if isinstance(card, EncounterCard):
        return f"Encounter · {card.kind.capitalize()}"
    if isinstance(card, FinalMissionCard):
        return "Final mission"
    if isinstance(card, MissionCard):
        return "Basic mission"
    if isinstance(card, CharacterCard) and card.arcane:
        return "Character · Arcane"  # C7: its own deck
    return card.type.capitalize()


#: Marks a card whose text is our stand-in (engine.cards: ``source``), in lists of cards.
STAND_IN_MARK = "◇"
STAND_IN_LEGEND = (
    f"{STAND_IN_MARK} stand-in text: our own design, the printed text is not available"
)


def card_line(db: CardDB, card_id: str, *, text: bool = True) -> str:
    """One line about a card: name, type, numbers and (optionally) its text."""
    card = db.by_id.get(card_id)
    if card is None:
        return card_id
    extra = ""
    if isinstance(card, CharacterCard):
        extra = f" ({card.strength}/{card.speed})" + (f" {ARCANE_MARK}" if card.arcane else "")
    elif isinstance(card, EncounterCard) and card.strength is not None:
        extra = f" (Strength {card.strength})"
    mark = f" {STAND_IN_MARK}" if card.is_stand_in else ""
    head = f"**{card.name}**{mark} · {card_kind(card)}{extra}"
    return f"{head} — {card.text}" if text and card.text else head


def hand_choice_label(db: CardDB, card_id: str, playable: bool) -> str:
    """A card of the user's hand as ``/anima play`` suggests it (only he sees it)."""
    kind = card_kind(db[card_id]).split(" · ")[-1]
    now = " · playable now" if playable else ""
    return clip(f"{card_name(db, card_id)} ({kind}){now}", OPTION_LABEL_LIMIT)


def _objective_text(o: Objective, db: CardDB) -> str:
    """A mission's objective in plain words, for ``/anima card`` ("Fight Tiamat (Strength 10)
    at the Pit of Hell", "Hold out 2 turns at ..., beating ... on each")."""
    where = ""
    if o.region:
        where = f" at {db.by_id[o.region].name}" if o.region in db.by_id else ""
    elif o.region_level:
        where = f" in a Region of level {o.region_level}+"
    if o.kind == "fight":
        return f"Fight {o.opponent or 'an opponent'} (Strength {o.strength or '= level'}){where}"
    if o.kind == "speed_check":
        return f"Speed check {o.difficulty}+{where}"
    if o.kind == "resist" and o.strength is not None:
        return (
            f"Hold out {plural(o.turns or 0, 'turn')}{where}, beating "
            f"{o.opponent or 'the enemies'} (Strength {o.strength}) on each; beaten, the party "
            "is driven out and starts over"
        )
    if o.kind == "resist":
        return f"Stay {plural(o.turns or 0, 'turn')}{where}"
    if o.kind == "gather":
        return f"Gather a party{where}"
    if o.kind == "encounters":
        place = where or " in any Region"
        level = (
            f", the Region counting as level {o.region_counts_as} until they are over"
            if o.region_counts_as is not None
            else ""
        )
        return (
            f"Come through {plural(o.encounters or 0, 'Encounter')} in a row{place}{level}; "
            "a defeat drives the party out"
        )
    return f"Deliver {plural(o.advantages or 0, 'Advantage')}{where}"


#: How the expansions' kinds of Advantage are played (A4-A7), for ``/anima card``.
ADVANTAGE_RULES = {
    "incident": "🌀 Incident: it lasts until the end of the turn (A4).",
    "trap": f"{TRAP_MARK} Trap: laid face down on a Region in the Reset phase; only its owner "
    "knows it; it springs at the end of the Movement phase where a party stands (A5, M9).",
    "faction": f"{IN_PLAY_MARKS['faction']} Faction: one at a time; enemy Factions must fight "
    "(A6).",
    "artifact": f"{IN_PLAY_MARKS['artifact']} Artifact: one at a time, replaced in the Reset "
    "phase; a battle's winner may take it as spoils (A7).",
}


def guard_text(region: RegionCard) -> str:
    """A guarded Region's guard as its card prints it (TotG): who, and how it is beaten."""
    guard = region.guard
    if guard is None:
        return "none"
    if guard.kind == "monster":
        how = f"monster, Strength {guard.strength}: every party entering fights it"
    else:
        how = (
            f"trap: at the end of the Movement phase a party here makes a "
            f"{guard.check.capitalize()} check, {guard.difficulty}+"
        )
    text = f" — {guard.text}" if guard.text else ""
    return clip(f"**{guard.name}** ({how}; it stays until beaten){text}", FIELD_LIMIT)


def card_embed(db: CardDB, card_id: str) -> discord.Embed:
    """The ``/anima card`` answer."""
    card = db[card_id]
    embed = discord.Embed(title=card.name, description=card.text or None, colour=COLOR)
    embed.add_field(name="Type", value=card_kind(card))
    embed.add_field(name="Set", value=SET_NAMES.get(card.set, card.set.replace("_", " ").title()))
    if isinstance(card, CharacterCard):
        embed.add_field(name="Strength / Speed", value=f"{card.strength} / {card.speed}")
        embed.add_field(name="Gender", value=card.gender)
        skills = ", ".join(s.capitalize() for s in card.skills) or "none"
        embed.add_field(name="Skills", value=skills)
        if card.arcane:
            embed.add_field(
                name=f"{ARCANE_MARK} Arcane",
                value="Own deck; hired with three characters at a Region with Hire, for one "
                "discarded Advantage; never dismissed.",
                inline=False,
            )
    elif isinstance(card, RegionCard):
        marks = []
        if card.trade:
            marks.append("🤝 trade")
        if not card.fighting:
            marks.append("☮ no fighting")
        embed.add_field(name="Level", value=str(card.level))
        embed.add_field(name="Marks", value=", ".join(marks) or "—")
        rows = []
        for i, row in enumerate(card.exploration, start=1):
            what = {"nothing": "nothing", "encounters": plural(row.count, "Encounter")}.get(
                row.result, row.text or "special"
            )
            rows.append(f"🎲 {i}: {what}")
        embed.add_field(name="Exploration", value="\n".join(rows), inline=False)
        embed.add_field(
            name="Rewards",
            value="\n".join(reward_label(card, i) for i in range(len(card.rewards))),
            inline=False,
        )
        if card.guard is not None:
            embed.add_field(name=f"{GUARD_MARK} Guard", value=guard_text(card), inline=False)
    elif isinstance(card, EncounterCard):
        embed.add_field(name="Level", value=str(card.level))
        if card.strength is not None:
            embed.add_field(name="Strength", value=str(card.strength))
        if card.keywords:
            embed.add_field(name="Keywords", value=", ".join(card.keywords))
    elif isinstance(card, MissionCard):
        embed.add_field(name="Level", value=str(card.level))
        embed.add_field(name="Objective", value=_objective_text(card.objective, db))
    elif isinstance(card, FinalMissionCard):
        embed.add_field(name="Quest", value=_objective_text(card.quest, db))
        embed.add_field(name="Crisis! limit", value=plural(card.crisis.limit, "turn"))
        if card.crisis.text:
            embed.add_field(name="Crisis!", value=clip(card.crisis.text, FIELD_LIMIT), inline=False)
    elif isinstance(card, AdvantageCard):
        if card.skill:
            embed.add_field(name="Needs", value=card.skill.capitalize())
        if card.kind in ADVANTAGE_RULES:
            embed.add_field(name="Rule", value=ADVANTAGE_RULES[card.kind], inline=False)
        if card.rivals:
            rivals = ", ".join(card_name(db, r) for r in card.rivals)
            enemy = "Enemy Factions" if card.kind == "faction" else "Rivals"
            embed.add_field(name=enemy, value=clip(rivals, FIELD_LIMIT), inline=False)
    embed.set_footer(text=card.source_note or "Printed card: name and facts as published.")
    return embed
