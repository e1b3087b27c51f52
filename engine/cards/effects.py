"""The effect language: every card's rules as data.

A card's ``abilities`` is a list of :class:`Ability`. An ability says *when* it may be used or
fires (``timing``), under which *condition*, and which *operations* it performs (``effects``).
Operations are small, closed pydantic models discriminated by ``op``; an unknown ``op`` is a
validation error, so ``cards.json`` cannot name an operation the engine does not execute.
The language is documented with examples in ``docs/cards.md``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Skill = Literal["ki", "magic", "trickery"]
Stat = Literal["strength", "speed"]
Phase = Literal["reset", "movement", "interaction", "exploration"]

#: Who an operation acts on. ``self`` is the party of the card's user; ``opponent`` is the
#: other side of the current battle (a party or a monster); ``declaring_party`` is the party
#: whose action opened the current reaction window; ``chosen_player`` is a player picked by
#: the card's user (the choice is a prompt); ``parties_in_region`` every party in the user's
#: Region, the user's included.
PartyTarget = Literal[
    "self",
    "opponent",
    "declaring_party",
    "chosen_player",
    "chosen_player_in_region",
    "parties_in_region",
    "each_other_player",
]

#: Which character an operation acts on: one the owner of the party chooses, a random one, or
#: (for ``tap``/``untap`` of a character's own ability) the card's own character.
CharacterPick = Literal["owner_chooses", "user_chooses", "random", "this_character"]

#: How long a Strength/Speed modifier lasts. ``battle``: the current battle only; ``turn``: to
#: the end of this turn; ``next_turn``: during the whole next turn only; ``permanent``: for the
#: rest of the game (mission rewards).
Duration = Literal["battle", "turn", "next_turn", "permanent"]

#: Points of play at which every eligible player gets a reaction window (T4).
Window = Literal["move_declared", "battle_start", "encounter_revealed", "exploration_roll"]

Timing = Literal[
    "play",  # used by its holder in his own step of ``phase`` (Skill/Plot cards, abilities)
    "interrupt",  # played in a reaction window ``when`` (Interrupt cards)
    "battle",  # played at the start of a battle the user's party fights (Battle cards)
    "static",  # always on while the card is in play (characters, Organizations, Magic Object)
    "on_reveal",  # an Encounter event's effect when it is revealed to a party
    "on_win",  # an Encounter monster: when it beats the party
    "on_lose",  # an Encounter monster: when the party beats it
    "movement_end",  # an Incident in play: at the end of the Movement phase, after Traps (M9)
]


class Condition(BaseModel):
    """All given fields must hold. An empty condition always holds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: The opponent in the current battle is a monster with this keyword (e.g. ``darkness``).
    vs_keyword: str | None = None
    #: The opponent in the current battle is a monster (``monster``) or a party (``party``).
    vs: Literal["monster", "party"] | None = None
    #: The user's party is in a Region of at least this level.
    region_level_at_least: int | None = Field(default=None, ge=1, le=3)
    #: The user's party is in a Region with a trade icon.
    in_trade_region: bool | None = None
    #: The user's party has at most / at least this many characters.
    party_size_at_most: int | None = Field(default=None, ge=1, le=4)
    party_size_at_least: int | None = Field(default=None, ge=1, le=4)
    #: The user's party has an untapped, active character with this skill.
    has_skill: Skill | None = None
    #: The user's party has a female (``female``) or male (``male``) active character.
    has_gender: Literal["male", "female"] | None = None


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Draw(_Op):
    """Draw cards: Advantages into the hand (capped by the hand limit, R4) or Characters into
    the party (a hire, capped by the party limit)."""

    op: Literal["draw"]
    deck: Literal["advantage", "character"] = "advantage"
    count: int = Field(default=1, ge=1, le=5)
    target: PartyTarget = "self"


class Discard(_Op):
    """The target discards Advantages from hand, chosen by its owner or at random."""

    op: Literal["discard"]
    count: int = Field(default=1, ge=1, le=5)
    target: PartyTarget = "self"
    choice: Literal["owner", "random"] = "owner"


class Modify(_Op):
    """Change a party's (or the battle opponent monster's) Strength or Speed."""

    op: Literal["modify"]
    stat: Stat
    amount: int = Field(ge=-10, le=10)
    target: PartyTarget = "self"
    duration: Duration = "battle"


class Move(_Op):
    """Move the target party to an active Region it chooses (``to``: ``chosen_active``), meeting
    the Region's Preliminary Encounter as usual (M2), or to a new explored Region."""

    op: Literal["move"]
    target: PartyTarget = "self"
    to: Literal["chosen_active", "explore_new"] = "chosen_active"


class RedirectMove(_Op):
    """Change the destination of the move that opened the window to an active Region the card's
    user chooses (Wrong Road)."""

    op: Literal["redirect_move"]
    target: Literal["declaring_party"] = "declaring_party"


class Incapacitate(_Op):
    """Lay a character face down until the next Reset phase (C6)."""

    op: Literal["incapacitate"]
    target: PartyTarget = "opponent"
    pick: CharacterPick = "user_chooses"


class Tap(_Op):
    """Turn a character (C3)."""

    op: Literal["tap"]
    target: PartyTarget = "self"
    pick: CharacterPick = "this_character"


class Untap(_Op):
    """Straighten every turned character of the target party."""

    op: Literal["untap"]
    target: PartyTarget = "self"


class Steal(_Op):
    """Take Advantages at random from the target's hand into the user's hand."""

    op: Literal["steal"]
    target: PartyTarget = "chosen_player"
    count: int = Field(default=1, ge=1, le=3)


class Kill(_Op):
    """A character of the target party dies (C5)."""

    op: Literal["kill"]
    target: PartyTarget = "self"
    pick: CharacterPick = "owner_chooses"


class Reveal(_Op):
    """Look at a face-down Preliminary Encounter of an active Region the user chooses; only the
    user sees it."""

    op: Literal["reveal"]
    what: Literal["preliminary_encounter"] = "preliminary_encounter"


class Roll(_Op):
    """Roll a die (plus the target party's Speed for a Speed check, B6); ``at_least`` or more
    succeeds."""

    op: Literal["roll"]
    check: Literal["plain", "speed", "strength"] = "plain"
    at_least: int = Field(ge=1, le=30)
    target: PartyTarget = "self"
    #: A player chosen *before* the die is rolled (the Thief names his victim, then rolls);
    #: ``chosen_player`` in ``success``/``failure`` is that same player.
    against: Literal["chosen_player", "chosen_player_in_region"] | None = None
    success: list[Operation] = Field(default_factory=list)
    failure: list[Operation] = Field(default_factory=list)


class Fight(_Op):
    """The target party fights an opponent like a monster (B1, B5)."""

    op: Literal["fight"]
    opponent: str
    strength: int = Field(ge=0, le=30)
    keywords: list[str] = Field(default_factory=list)
    target: PartyTarget = "self"
    win: list[Operation] = Field(default_factory=list)
    lose: list[Operation] = Field(default_factory=list)


class EndTurn(_Op):
    """The target party's turn ends: it is expelled from where it was going or exploring (M2,
    E3), receives no reward and does nothing more this turn."""

    op: Literal["end_turn"]
    target: PartyTarget = "self"


class LoseNextTurn(_Op):
    """The target party also sits out the whole next turn (B7)."""

    op: Literal["lose_next_turn"]
    target: PartyTarget = "self"


class Cancel(_Op):
    """Cancel what opened the reaction window: the declared move (the party stays where it is),
    the battle (nobody wins or loses), the revealed Encounter (it is discarded unresolved) or the
    exploration roll (the exploration finds nothing)."""

    op: Literal["cancel"]


class Reroll(_Op):
    """The target party's next battle die is rolled twice and the higher result kept."""

    op: Literal["reroll"]
    target: PartyTarget = "self"


class Choose(_Op):
    """The user picks one of the listed effect sequences (each with a short label)."""

    op: Literal["choose"]
    options: list[ChoiceOption] = Field(min_length=2, max_length=4)


class Hire(_Op):
    """Take a Character from the Character discard pile (the user picks) into the party."""

    op: Literal["hire_from_discard"]
    target: PartyTarget = "self"


class TakeCharacter(_Op):
    """Take a character from another player's party into the user's party (Betrayal).

    The user picks the player (``target``: any other player, or one whose party is in the
    user's Region); only parties of at least 2 characters can be chosen, since a party is never
    left empty (C1, C5), and nothing is taken while the user's party has 4 (R4). ``pick`` says
    who chooses the character: the user, its owner, or chance. The character keeps its state
    (turned, face down) as it changes parties.
    """

    op: Literal["take_character"]
    target: Literal["chosen_player", "chosen_player_in_region"] = "chosen_player"
    pick: Literal["owner_chooses", "user_chooses", "random"] = "user_chooses"


class ModifyRegion(_Op):
    """Raise or lower a Region's level until the end of the turn (Unleashed Danger: +1). The
    Region is the one the effect happens at: a Trap's Region, else the user's party's. The
    level stays within 1-3 (M8, E6 read it)."""

    op: Literal["modify_region"]
    amount: int = Field(ge=-2, le=2)


class DiscardFaction(_Op):
    """The target party leaves its Faction: the card goes to the discard pile (A6, E6)."""

    op: Literal["discard_faction"]
    target: PartyTarget = "chosen_player"


class TakeDiscarded(_Op):
    """Take the top Advantage of the Advantage discard pile into the hand."""

    op: Literal["take_discarded"]
    target: PartyTarget = "self"


class ExchangeArcane(_Op):
    """C7 (Ascension): a normal character of the target party, chosen by its owner, goes to the
    Character discard pile and the top Arcane character joins the party in its place. Nothing
    happens to a party without a normal character, or when no Arcane character is left."""

    op: Literal["exchange_arcane"]
    target: PartyTarget = "self"


class ExchangeAdvantage(_Op):
    """The Agent: the user names a player (``target``) with an Advantage in hand, gives him one
    Advantage of his own hand (the user chooses it) and takes one of his at random, since hands
    are secret. Nothing happens when either hand is empty or no player qualifies."""

    op: Literal["exchange_advantage"]
    target: Literal["chosen_player", "chosen_player_in_region"] = "chosen_player"


Operation = Annotated[
    Draw
    | Discard
    | Modify
    | Move
    | RedirectMove
    | Incapacitate
    | Tap
    | Untap
    | Steal
    | Kill
    | Reveal
    | Roll
    | Fight
    | EndTurn
    | LoseNextTurn
    | Cancel
    | Reroll
    | Choose
    | Hire
    | TakeCharacter
    | TakeDiscarded
    | ExchangeArcane
    | ExchangeAdvantage
    | ModifyRegion
    | DiscardFaction,
    Field(discriminator="op"),
]


class ChoiceOption(BaseModel):
    """One branch of a :class:`Choose`. A branch without effects does nothing: it is how a
    card says "you may" (The Inn: hire a character, or nobody)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    label: str = Field(min_length=1, max_length=60)
    effects: list[Operation] = Field(default_factory=list)


class Ability(BaseModel):
    """When a card acts, under which condition, and what it does."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    timing: Timing
    #: For ``play``: the phase in which it may be used (T4).
    phase: Phase | None = None
    #: For ``interrupt``: the reaction window in which it may be played.
    when: Window | None = None
    condition: Condition = Field(default_factory=Condition)
    #: A character's own ability turns that character when used (C3).
    tap_self: bool = False
    effects: list[Operation] = Field(default_factory=list)


#: Every operation name the language knows; the engine must execute each of them.
OPERATIONS: frozenset[str] = frozenset(
    m.model_fields["op"].annotation.__args__[0]  # type: ignore[union-attr]
    for m in (
        Draw,
        Discard,
        Modify,
        Move,
        RedirectMove,
        Incapacitate,
        Tap,
        Untap,
        Steal,
        Kill,
        Reveal,
        Roll,
        Fight,
        EndTurn,
        LoseNextTurn,
        Cancel,
        Reroll,
        Choose,
        Hire,
        TakeCharacter,
        TakeDiscarded,
        ExchangeArcane,
        ExchangeAdvantage,
        ModifyRegion,
        DiscardFaction,
    )
)

TIMINGS: frozenset[str] = frozenset(Timing.__args__)  # type: ignore[attr-defined]

for _model in (Roll, Fight, Choose, ChoiceOption):
    _model.model_rebuild()
