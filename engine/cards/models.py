"""Card data: the pydantic models of every card type (the database that holds them and its
loading are :mod:`engine.cards.database`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.cards.effects import Ability, Operation, Skill

SetName = Literal["shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods"]
Level = Annotated[int, Field(ge=1, le=3)]
#: Where a card's data comes from (docs/cards.md, "Printed cards and stand-ins"):
#: ``printed``: its name and every fact the engine uses are confirmed by the rulebooks'
#: examples or the publisher's preview; ``stand-in``: our own design for a printed card whose
#: text we cannot read.
Source = Literal["printed", "stand-in"]

#: What a stand-in card says under its text (the bot shows it in a footer).
STAND_IN_NOTE = (
    "Stand-in text: our own design for this printed card, whose text is not available to us. "
    "A group with the card can replace it in cards.json."
)

#: The one card database. ``cards.json`` lives at the top of the repository; this package
#: holds a symlink to it (``engine/cards/cards.json -> ../../cards.json``) declared as package
#: data in pyproject.toml. In a checkout (and an editable install) the link reads the top-level
#: file; when a wheel is built, setuptools copies the file the link points to, so an installed
#: package carries the same bytes without a second copy in the repository.
DEFAULT_CARDS_PATH = Path(__file__).resolve().parent / "cards.json"


class _Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9]+(_[a-z0-9]+)*$")
    name: str = Field(min_length=1)
    set: SetName
    #: Required: no card is silently taken for a printed one.
    source: Source
    text: str = ""
    abilities: list[Ability] = Field(default_factory=list)

    @property
    def is_stand_in(self) -> bool:
        """True when the card's text and numbers are our own design (``source: stand-in``)."""
        return self.source == "stand-in"

    @property
    def source_note(self) -> str:
        """The line to show under the card's text: :data:`STAND_IN_NOTE` for a stand-in,
        ``""`` for a printed card."""
        return STAND_IN_NOTE if self.is_stand_in else ""


class CharacterCard(_Card):
    """A hero who can join a party (C1, C2)."""

    type: Literal["character"]
    gender: Literal["male", "female"]
    strength: int = Field(ge=0, le=10)
    speed: int = Field(ge=0, le=10)
    skills: list[Skill] = Field(default_factory=list)
    #: C7 (Beyond Good and Evil, Twilight of the Gods): an Arcane (Secret) character, with its
    #: own deck; hired only by a party of three normal characters, never dismissed.
    arcane: bool = False


class ExplorationResult(BaseModel):
    """One line of a Region's exploration table (E2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    result: Literal["nothing", "encounters", "special"]
    count: int = Field(default=0, ge=0, le=3)
    text: str = ""
    effects: list[Operation] = Field(default_factory=list)


class Reward(BaseModel):
    """One of a Region's three rewards (E6).

    ``advantage``: draw as many Advantages as the Region's level; ``hire``: draw a Character;
    ``remote_mission``: attempt one of your missions whose Region is active, as if your party
    were there; ``discredit`` (BGE): discard an Advantage to make another player discard his
    Faction; ``special``: the listed effects.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["advantage", "hire", "remote_mission", "special", "discredit"]
    name: str = ""
    text: str = ""
    effects: list[Operation] = Field(default_factory=list)


class Guard(BaseModel):
    """What guards a Region (TotG) from the moment it is laid out until a party beats it.

    ``monster``: every party entering the Region fights it (``strength``, ``keywords``) after
    the Preliminary Encounter; a party that loses does not arrive (M2) and undergoes
    ``effects``. ``trap``: at the end of the Movement phase, after the played Traps (M9), each
    party standing in the Region makes a ``check`` (die + Speed or Strength) against
    ``difficulty``; a party that fails undergoes ``effects``. Either way a party that wins
    beats the guard for good (``reward``: its effects for that party) until the Region leaves
    play; laid out again, it is guarded again.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["monster", "trap"]
    name: str = Field(min_length=1)
    text: str = ""
    strength: int | None = Field(default=None, ge=0, le=30)
    keywords: list[str] = Field(default_factory=list)
    check: Literal["speed", "strength"] = "speed"
    difficulty: int | None = Field(default=None, ge=1, le=30)
    effects: list[Operation] = Field(default_factory=list)
    reward: list[Operation] = Field(default_factory=list)


class RegionCard(_Card):
    """A territory parties move to and explore (M, E)."""

    type: Literal["region"]
    level: Level
    trade: bool = False
    fighting: bool = True
    exploration: list[ExplorationResult] = Field(min_length=6, max_length=6)
    rewards: list[Reward] = Field(min_length=3, max_length=3)
    #: TotG guarded Regions: a monster or a trap that stays until beaten.
    guard: Guard | None = None


class EncounterCard(_Card):
    """A monster or an event met while entering or exploring a Region."""

    type: Literal["encounter"]
    level: Level
    kind: Literal["monster", "event"]
    strength: int | None = Field(default=None, ge=0, le=30)
    keywords: list[str] = Field(default_factory=list)


class Objective(BaseModel):
    """What a mission asks (F1, F2, B5, B6).

    ``fight``: beat ``opponent`` of ``strength`` (default: the mission's level); ``speed_check``:
    die + Speed >= ``difficulty``; ``resist``: stay ``turns`` Exploration phases in the Region,
    and, if ``strength`` is given, beat ``opponent`` (``keywords``) of that Strength on each of
    those turns (F2: "defeated ... by enemies from the mission"); ``gather``: have the listed
    party (``characters``, ``skills``, ``genders``); ``deliver``: discard ``advantages`` cards
    from hand there; ``encounters``: come through ``encounters`` Encounter cards in a row, the
    Region counting as level ``region_counts_as`` (if given) while they last.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["fight", "speed_check", "resist", "gather", "deliver", "encounters"]
    region: str | None = None
    region_level: int | None = Field(default=None, ge=1, le=3)
    opponent: str = ""
    strength: int | None = Field(default=None, ge=0, le=30)
    keywords: list[str] = Field(default_factory=list)
    difficulty: int | None = Field(default=None, ge=1, le=30)
    turns: int | None = Field(default=None, ge=1, le=5)
    characters: int | None = Field(default=None, ge=1, le=4)
    skills: list[Skill] = Field(default_factory=list)
    genders: list[Literal["male", "female"]] = Field(default_factory=list)
    advantages: int | None = Field(default=None, ge=1, le=5)
    #: ``encounters``: how many Encounter cards the party faces, one after another.
    encounters: int | None = Field(default=None, ge=1, le=10)
    #: ``encounters``: the level the Region counts as while they last (M8/E5 false alarms
    #: and every rule reading the Region's level); ``None``: its own level.
    region_counts_as: int | None = Field(default=None, ge=1, le=3)

    @property
    def fights_each_turn(self) -> bool:
        """A Resistance objective whose party fights the mission's enemies on every turn it
        holds out (F2)."""
        return self.kind == "resist" and self.strength is not None


class MissionCard(_Card):
    """A Basic mission (F1, F2)."""

    type: Literal["mission"]
    level: Level
    objective: Objective
    reward: list[Operation] = Field(min_length=1)
    #: Secret missions are not announced when started (F1: "unless the card says otherwise").
    secret: bool = False


class Crisis(BaseModel):
    """A Final mission's Crisis! section (F5, F6)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    limit: int = Field(ge=1, le=10)
    text: str = ""
    challenge: Objective


class FinalMissionCard(_Card):
    """A Final mission: its Quest wins the game; its Crisis ends it (F3-F7)."""

    type: Literal["final_mission"]
    level: Level = 3
    quest: Objective
    crisis: Crisis


#: The kinds of Advantage: Skill cards (A1), Plot cards (A2) and their special kinds:
#: Organizations (A3), Incidents (A4), Traps (A5), Factions (A6), Artifacts (A7).
AdvantageKind = Literal[
    "skill",
    "plot",
    "organization",
    "interrupt",
    "battle",
    "incident",
    "trap",
    "faction",
    "artifact",
]


class AdvantageCard(_Card):
    """A Skill or Plot card held in hand (A1-A7)."""

    type: Literal["advantage"]
    kind: AdvantageKind
    #: For Skill cards: the skill a character must have to use it (C4).
    skill: Skill | None = None
    #: Stays in play in front of its owner after it is played (A2: Magic Object).
    persistent: bool = False
    #: For Organizations: the ids of rival Organizations (A3, I3); for Factions: the ids of
    #: enemy Factions (A6, I3).
    rivals: list[str] = Field(default_factory=list)


Card = Annotated[
    CharacterCard | RegionCard | EncounterCard | MissionCard | FinalMissionCard | AdvantageCard,
    Field(discriminator="type"),
]
#: G3: the five card types, with the Final missions apart (their own deck, S1).
CARD_TYPES = ("character", "region", "encounter", "mission", "final_mission", "advantage")


def deck_of(card: Card) -> str:
    """The deck (and discard pile) a card belongs to: its type, except an Arcane character,
    which has a deck of its own (C7, S1)."""
    if isinstance(card, CharacterCard) and card.arcane:
        return "arcane"
    return card.type
