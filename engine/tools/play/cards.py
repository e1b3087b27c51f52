"""What a card says, in plain lines for the terminal (``?N``, ``card NAME``, ``hand``).

A new player cannot choose without a card's numbers: a character's Strength, Speed and
skills, a Region's exploration table, rewards and icons, a mission's objective. Everything
here comes from the card database, which is public (every player may read any card): it
says nothing about where a card is in the game.
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
    Objective,
    RegionCard,
)

#: How the kinds of Advantage are played (A1-A7), in a few words.
ADVANTAGE_KINDS = {
    "skill": "Skill card: played in the phase it names by turning a character with the skill "
    "(A1, C4)",
    "plot": "Plot card: played in the phase it names, no character needed (A2, T4)",
    "organization": "Organization: joined in the Reset phase, it stays in play; rival "
    "Organizations must fight (A3)",
    "interrupt": "Interrupt: played in reply to another player's action",
    "battle": "Battle card: played when a battle starts",
    "incident": "Incident: it lasts until the end of the turn (A4)",
    "trap": "Trap: laid face down on a Region in the Reset phase; it springs at the end of "
    "the Movement phase on a party standing there (A5)",
    "faction": "Faction: one at a time; enemy Factions must fight (A6)",
    "artifact": "Artifact: one at a time; a battle's winner may take it as spoils (A7)",
}


def plural(n: int, one: str) -> str:
    """``1 Encounter``, ``2 Encounters``."""
    return f"{n} {one}" + ("" if n == 1 else "s")


def card_name(db: CardDB, card: str) -> str:
    """A card's printed name (an id the database does not know is shown as it is)."""
    found = db.by_id.get(card)
    return found.name if found is not None else card


def objective_text(o: Objective, db: CardDB) -> str:
    """A mission's objective in plain words ("Fight Tiamat (Strength 10) at Pit of Hell")."""
    where = ""
    if o.region:
        where = f" at {card_name(db, o.region)}"
    elif o.region_level:
        where = f" in a Region of level {o.region_level} or more"
    if o.kind == "fight":
        return f"fight {o.opponent or 'an opponent'} (Strength {o.strength or '= level'}){where}"
    if o.kind == "speed_check":
        return f"a Speed check: die + Speed {o.difficulty} or more{where}"
    if o.kind == "resist" and o.strength is not None:
        return (
            f"hold out {plural(o.turns or 0, 'turn')}{where}, beating {o.opponent or 'the enemies'}"
            f" (Strength {o.strength}) each turn; beaten, the party is driven out and starts over"
        )
    if o.kind == "resist":
        return f"stay {plural(o.turns or 0, 'turn')} in a row{where}"
    if o.kind == "gather":
        need = []
        if o.characters:
            need.append(plural(o.characters, "character"))
        if o.skills:
            need.append("skills " + ", ".join(s.capitalize() for s in o.skills))
        if o.genders:
            need.append(" and ".join(o.genders))
        return "gather a party" + (f" ({'; '.join(need)})" if need else "") + where
    if o.kind == "encounters":
        level = (
            f", the Region counting as level {o.region_counts_as}"
            if o.region_counts_as is not None
            else ""
        )
        return (
            f"come through {plural(o.encounters or 0, 'Encounter')} in a row{where or ' anywhere'}"
            f"{level}; a defeat drives the party out"
        )
    return f"deliver {plural(o.advantages or 0, 'Advantage')}{where}"


def reward_text(region: RegionCard, index: int) -> tuple[str, str]:
    """A Region's ``index``-th reward (E6): its name, and what it does (the name printed on
    the Region alone, "Relic Market", does not say it)."""
    reward = region.rewards[index]
    if reward.kind == "advantage":
        return (
            f"Draw {plural(region.level, 'Advantage')}",
            "as many as the Region's level, into your hand; not beyond 5 in hand",
        )
    if reward.kind == "hire":
        return (
            "Hire a character",
            "the top character of the deck joins your party; not with 4 characters, nor in "
            "the same Region two turns in a row",
        )
    if reward.kind == "discredit":
        return (
            reward.name or "Discredit",
            "discard an Advantage to make another player discard his Faction",
        )
    return reward.name or "Special reward", reward.text


def exploration_text(region: RegionCard, roll: int) -> str:
    """What the die ``roll`` (1-6) gives on the Region's exploration table (E2)."""
    row = region.exploration[roll - 1]
    if row.result == "nothing":
        return "nothing to meet: the exploration succeeds, take a reward"
    if row.result == "encounters":
        return f"{plural(row.count, 'Encounter')} to meet, then a reward"
    return row.text or "a special result"


def icons(region: RegionCard) -> str:
    """A Region's icons: trade allowed, fighting forbidden (I1, I2)."""
    marks = [
        "trade icon: a party here may trade with any party in a Region with a trade icon"
        if region.trade
        else "no trade icon"
    ]
    if not region.fighting:
        marks.append("no-fighting icon: no battles between parties here")
    return "; ".join(marks)


def describe(db: CardDB, card_id: str) -> str:
    """Everything printed on a card, as a few lines: name and type, numbers, text."""
    card: Card | None = db.by_id.get(card_id)
    if card is None:
        return f"{card_id}: no such card."
    lines = [f"{card.name} ({kind_of(card)})"]
    if isinstance(card, CharacterCard):
        skills = ", ".join(s.capitalize() for s in card.skills) or "none"
        lines.append(
            f"  Strength {card.strength}, Speed {card.speed}, skills: {skills}, {card.gender}"
        )
        if card.arcane:
            lines.append(
                "  Arcane: its own deck; hired with three characters, for one discarded "
                "Advantage; never dismissed (C7)"
            )
    elif isinstance(card, RegionCard):
        lines.append(f"  Level {card.level} (Encounters of a higher level do not happen here, M8)")
        lines.append(f"  {icons(card)}")
        lines.append("  Exploration (roll a die):")
        lines.extend(f"    {i}: {exploration_text(card, i)}" for i in range(1, 7))
        lines.append("  Rewards (one, after a successful exploration):")
        for i in range(len(card.rewards)):
            name, does = reward_text(card, i)
            lines.append(f"    - {name}" + (f": {does}" if does else ""))
        if card.guard is not None:
            g = card.guard
            how = (
                f"a monster, Strength {g.strength}: every party entering fights it"
                if g.kind == "monster"
                else f"a trap: a party here makes a {g.check.capitalize()} check, "
                f"{g.difficulty} or more"
            )
            lines.append(f"  Guard: {g.name}, {how}; it stays until beaten. {g.text}".rstrip())
    elif isinstance(card, EncounterCard):
        strength = f", Strength {card.strength}" if card.strength is not None else ""
        keywords = f", {', '.join(card.keywords)}" if card.keywords else ""
        lines.append(f"  Level {card.level}, {card.kind}{strength}{keywords}")
    elif isinstance(card, MissionCard):
        secret = ", secret" if card.secret else ""
        lines.append(
            f"  Mission level {card.level}{secret}; objective: {objective_text(card.objective, db)}"
        )
    elif isinstance(card, FinalMissionCard):
        lines.append(f"  Quest: {objective_text(card.quest, db)}")
        lines.append(
            f"  Crisis! in {plural(card.crisis.limit, 'turn')} after the reveal: "
            f"{objective_text(card.crisis.challenge, db)}"
        )
    elif isinstance(card, AdvantageCard):
        kind = ADVANTAGE_KINDS.get(card.kind, card.kind)
        if card.skill:
            kind = kind.replace("the skill", card.skill.capitalize())
        lines.append(f"  {kind}")
        if card.rivals:
            lines.append("  Rivals: " + ", ".join(card_name(db, r) for r in card.rivals))
    if card.text:
        lines.append(f"  {card.text}")
    return "\n".join(lines)


def kind_of(card: Card) -> str:
    """A card's type in words ("character", "Advantage: Battle", "Basic mission")."""
    if isinstance(card, AdvantageCard):
        return f"Advantage: {card.kind.capitalize()}"
    if isinstance(card, EncounterCard):
        return f"Encounter: {card.kind}"
    if isinstance(card, FinalMissionCard):
        return "Final mission"
    if isinstance(card, MissionCard):
        return "Basic mission"
    if isinstance(card, CharacterCard) and card.arcane:
        return "character, Arcane"
    return card.type


def find(db: CardDB, name: str, sets: tuple[str, ...] = ()) -> list[str]:
    """The ids of the cards (of ``sets``, when given) whose name is ``name``, or, failing
    that, starts with it or contains it (case-insensitive)."""
    wanted = name.strip().lower()
    cards = [c for c in db.by_id.values() if not sets or c.set in sets]
    for match in (
        lambda n: n == wanted,
        lambda n: n.startswith(wanted),
        lambda n: wanted in n,
    ):
        found = sorted({c.id for c in cards if match(c.name.lower())})
        if found:
            # Several copies of one card are one card to read.
            by_name: dict[str, str] = {}
            for cid in found:
                by_name.setdefault(card_name(db, cid), cid)
            return list(by_name.values())
    return []
