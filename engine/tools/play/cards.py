"""What a card says, in plain lines for the terminal (``?N``, ``card NAME``, ``hand``), in the
session's language.

A new player cannot choose without a card's numbers: a character's Strength, Speed and
skills, a Region's exploration table, rewards and icons, a mission's objective. Everything
here comes from the card database, which is public (every player may read any card): it
says nothing about where a card is in the game. The card's own words (name, text, what its
rules print) are its translation in the language (:mod:`wording.cards`), marked as ours
(``🌐``), as a stand-in text is (``◇``): the legend is printed with the help.
"""

from __future__ import annotations

from engine.cards import (
    AdvantageCard,
    Card,
    CardDB,
    CharacterCard,
    EncounterCard,
    FinalMissionCard,
    MissionCard,
    RegionCard,
)
from wording.cards import (
    ARCANE_MARK,
    GUARD_MARK,
    advantage_rule,
    card_kind,
    card_marks,
    card_name,
    card_text,
    guard_text,
    keyword,
    objective_text,
    printed,
    skill_name,
    stand_in_legend,
    translated_legend,
)
from words import SOURCE, current
from words.plain import count, line, plain

#: The kinds of Advantage the terminal explains in its own words (A1-A3 and the reactions);
#: the expansions' kinds (A4-A7) say their rule as the bot's cards do.
EXPLAINED = frozenset({"skill", "plot", "organization", "interrupt", "battle"})


def legend() -> str:
    """What the marks beside a card's name mean (our translation only in a language that
    has one)."""
    marks = [stand_in_legend()]
    if current() != SOURCE:
        marks.append(translated_legend())
    return " · ".join(marks)


def exploration_text(region: RegionCard, roll: int) -> str:
    """What the die ``roll`` (1-6) gives on the Region's exploration table (E2)."""
    row = region.exploration[roll - 1]
    if row.result == "nothing":
        return line("terminal.explore.nothing")
    if row.result == "encounters":
        return count("terminal.explore.encounters", row.count)
    return printed(region.id, row.text) if row.text else line("terminal.explore.special")


def reward_text(region: RegionCard, index: int) -> tuple[str, str]:
    """A Region's ``index``-th reward (E6): its name, and what it does (the name printed on
    the Region alone, "Relic Market", does not say it)."""
    reward = region.rewards[index]
    if reward.kind == "advantage":
        return count("reward.advantage", region.level), line("terminal.reward.advantage")
    if reward.kind == "hire":
        return line("reward.hire"), line("terminal.reward.hire")
    if reward.kind == "discredit":
        name = printed(region.id, reward.name) if reward.name else line("reward.discredit")
        return name, line("terminal.reward.discredit")
    name = printed(region.id, reward.name) if reward.name else line("reward.special")
    return name, printed(region.id, reward.text)


def icons(region: RegionCard) -> str:
    """A Region's icons: trade allowed, fighting forbidden (I1, I2)."""
    marks = [line("terminal.card.trade" if region.trade else "terminal.card.no_trade")]
    if not region.fighting:
        marks.append(line("terminal.card.no_fighting"))
    return "; ".join(marks)


def _character(card: CharacterCard) -> list[str]:
    skills = ", ".join(skill_name(s) for s in card.skills) or line("card.none")
    gender = line(f"card.gender.{card.gender}")
    lines = [
        line(
            "terminal.card.character",
            strength=card.strength,
            speed=card.speed,
            skills=skills,
            gender=gender,
        )
    ]
    if card.arcane:
        lines.append(f"{line('card.field.arcane', mark=ARCANE_MARK)}: {line('card.arcane_rule')}")
    return lines


def _region(card: RegionCard) -> list[str]:
    lines = [line("terminal.card.level", level=card.level), icons(card)]
    lines.append(line("terminal.card.exploration"))
    lines.extend(f"  {i}: {exploration_text(card, i)}" for i in range(1, 7))
    lines.append(line("terminal.card.rewards"))
    for i in range(len(card.rewards)):
        name, does = reward_text(card, i)
        lines.append(f"  - {name}" + (f": {does}" if does else ""))
    if card.guard is not None:
        lines.append(f"{line('card.field.guard', mark=GUARD_MARK)}: {plain(guard_text(card))}")
    return lines


def _encounter(card: EncounterCard) -> list[str]:
    head = line("terminal.card.encounter", level=card.level, kind=line(f"card.kind.{card.kind}"))
    if card.strength is not None:
        head += " " + line("card.line.strength", strength=card.strength)
    return [", ".join([head, *(keyword(k) for k in card.keywords)])]


def _advantage(db: CardDB, card: AdvantageCard) -> list[str]:
    if card.kind in EXPLAINED:
        skill = skill_name(card.skill) if card.skill else line("terminal.advantage.the_skill")
        lines = [line(f"terminal.advantage.{card.kind}", skill=skill)]
    else:
        lines = [advantage_rule(card.kind) or card_kind(card)]
    if card.rivals:
        field = line("card.field.enemy_factions" if card.kind == "faction" else "card.field.rivals")
        lines.append(f"{field}: " + ", ".join(card_name(db, r) for r in card.rivals))
    return lines


def describe(db: CardDB, card_id: str) -> str:
    """Everything printed on a card, as a few lines: name and type, numbers, text."""
    card: Card | None = db.by_id.get(card_id)
    if card is None:
        return line("terminal.card.unknown", card=card_id)
    lines = [f"{card_name(db, card_id)}{card_marks(card)} ({card_kind(card)})"]
    body: list[str] = []
    if isinstance(card, CharacterCard):
        body = _character(card)
    elif isinstance(card, RegionCard):
        body = _region(card)
    elif isinstance(card, EncounterCard):
        body = _encounter(card)
    elif isinstance(card, MissionCard):
        level = "terminal.card.mission.secret" if card.secret else "terminal.card.mission"
        objective = objective_text(card.objective, db, card_id)
        body = [line(level, level=card.level, objective=objective)]
    elif isinstance(card, FinalMissionCard):
        challenge = objective_text(card.crisis.challenge, db, card_id)
        body = [
            line("terminal.card.quest", objective=objective_text(card.quest, db, card_id)),
            count("terminal.card.crisis", card.crisis.limit, challenge=challenge),
        ]
    elif isinstance(card, AdvantageCard):
        body = _advantage(db, card)
    text = card_text(db, card_id)
    lines.extend(f"  {b}" for b in [*body, *([text] if text else [])])
    return "\n".join(lines)


def find(db: CardDB, name: str, sets: tuple[str, ...] = ()) -> list[str]:
    """The ids of the cards (of ``sets``, when given) whose name (in the session's language,
    or printed) is ``name``, or, failing that, starts with it or contains it
    (case-insensitive)."""
    wanted = name.strip().lower()
    cards = [c for c in db.by_id.values() if not sets or c.set in sets]
    named = {c.id: {card_name(db, c.id).lower(), c.name.lower()} for c in cards}
    for match in (
        lambda n: n == wanted,
        lambda n: n.startswith(wanted),
        lambda n: wanted in n,
    ):
        found = sorted(cid for cid, names in named.items() if any(match(n) for n in names))
        if found:
            # Several copies of one card are one card to read.
            by_name: dict[str, str] = {}
            for cid in found:
                by_name.setdefault(card_name(db, cid), cid)
            return list(by_name.values())
    return []
