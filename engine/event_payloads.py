"""The payloads of the engine's events: the fields of ``Event.data`` a kind carries, one
``TypedDict`` per shape (several kinds share one). :mod:`engine.event_kinds` maps each kind
to its shape. Seat ids (``player``, ``other``, ``winner``...) are the engine's player names;
``card``, ``region`` and ``encounter`` are card ids."""

from __future__ import annotations

from typing import NotRequired

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

_STRICT = ConfigDict(extra="forbid", strict=True)


@with_config(_STRICT)
class Nothing(TypedDict):
    """No fields: the text says it all (a tie, the Crisis! begins...)."""


@with_config(_STRICT)
class Who(TypedDict):
    """Something one party did or underwent."""

    player: str


@with_config(_STRICT)
class WhoCard(TypedDict):
    """A party and a card (played, discarded, hired, killed...)."""

    player: str
    card: str


@with_config(_STRICT)
class WhoRegion(TypedDict):
    """A party and a Region (moves, arrivals, scouting)."""

    player: str
    region: str


@with_config(_STRICT)
class TwoParties(TypedDict):
    """A party acting on another (attack, trade offer, spoils)."""

    player: str
    other: str


@with_config(_STRICT)
class CardOnly(TypedDict):
    """A card told to its owner alone, or revealed for nobody in particular."""

    card: str


@with_config(_STRICT)
class Setup(TypedDict):
    players: list[str]


@with_config(_STRICT)
class Turn(TypedDict):
    """A new turn (T1) and its order (T2, T3)."""

    turn: int
    order: list[str]


@with_config(_STRICT)
class Battle(TypedDict):
    """A battle starts: a party against another (``other``) or a monster (``card``);
    ``opponent`` names the other side (a seat id, or the monster's name)."""

    player: str
    other: str | None
    card: str | None
    opponent: str


@with_config(_STRICT)
class WhoRegionCard(TypedDict):
    """A card at a Region with the party it concerns (a Trap revealed: who laid it)."""

    player: str
    region: str
    card: str


@with_config(_STRICT)
class TwoPartiesCard(TypedDict):
    """A card taken by one party from another (an Artifact as spoils, I4)."""

    player: str
    other: str
    card: str


@with_config(_STRICT)
class RegionLevel(TypedDict):
    """A Region's level changed until the end of the turn: by how much, and the level now."""

    region: str
    amount: int
    level: int


@with_config(_STRICT)
class GuardCheck(TypedDict):
    """A party's check against a Region's trap guard (TotG)."""

    player: str
    region: str
    die: int
    total: int
    at_least: int
    success: bool


@with_config(_STRICT)
class BattleRoll(TypedDict):
    """Both sides' dice (``shown``: as rolled, e.g. "6+2" with open rolls), Strengths and
    totals; index 0 is the attacker, 1 the other party or the monster (``other`` None);
    ``opponent`` names the other side (a seat id, or the monster's name)."""

    player: str
    other: str | None
    opponent: str
    dice: list[int]
    shown: list[str]
    strengths: list[int]
    totals: list[int]


@with_config(_STRICT)
class BattleResult(TypedDict):
    """Who won (a seat id, or a monster's name) and by how much."""

    winner: str
    margin: int


@with_config(_STRICT)
class GameOver(TypedDict):
    """How the game ended; at the turn limit also the tie-break (engine.endings.TIEBREAKS):
    the criterion that decided, every player's scores and the dice of a final roll. The
    finishing order the game decided (``ranking``: groups of seats, best first, the players
    of a group tied; absent from games ended before it was given)."""

    winner: str | None
    ending: str
    tiebreak: NotRequired[str]
    scores: NotRequired[dict[str, dict[str, int]]]
    rolls: NotRequired[dict[str, list[int]]]
    ranking: NotRequired[list[list[str]]]


@with_config(_STRICT)
class Cancel(TypedDict):
    when: str


@with_config(_STRICT)
class Countdown(TypedDict):
    turns: int


@with_config(_STRICT)
class Draw(TypedDict):
    player: str
    n: int


@with_config(_STRICT)
class DrawPrivate(TypedDict):
    cards: list[str]


@with_config(_STRICT)
class ExploreNew(TypedDict):
    player: str
    region: str
    encounter: str | None


@with_config(_STRICT)
class ExploreResult(TypedDict):
    """What the exploration table says: ``count`` Encounters (0: nothing), ``in_a_row`` for a
    mission's Encounters (the Region ``region`` then maybe counting as level ``counts_as``),
    or the Region's special row (``region`` and its ``row`` index, without ``count``)."""

    player: str
    count: NotRequired[int]
    in_a_row: NotRequired[bool]
    counts_as: NotRequired[int]
    region: NotRequired[str]
    row: NotRequired[int]


@with_config(_STRICT)
class Die(TypedDict):
    """An exploration roll: the party, its die and the Region explored."""

    player: str
    die: int
    region: str


@with_config(_STRICT)
class MissionAttempt(TypedDict):
    player: str
    #: Absent in the public line of a secret mission (F1).
    card: NotRequired[str]


@with_config(_STRICT)
class MissionFailed(TypedDict):
    player: str
    #: Absent when the mission is secret (F1).
    card: NotRequired[str]


@with_config(_STRICT)
class Modify(TypedDict):
    """A Strength or Speed change: of a party (player, stat, duration) or of the monster."""

    amount: int
    player: NotRequired[str]
    stat: NotRequired[str]
    duration: NotRequired[str]


@with_config(_STRICT)
class RegionOnly(TypedDict):
    region: str


@with_config(_STRICT)
class Reshuffle(TypedDict):
    deck: str


@with_config(_STRICT)
class Roll(TypedDict):
    """A check: the die, the total and the difficulty."""

    player: str
    die: int
    total: int
    at_least: int
    success: bool


@with_config(_STRICT)
class EffectRoll(TypedDict):
    """A card's roll; ``check`` the stat added to the die (``speed``, ``strength``, None)."""

    player: str
    check: str | None
    die: int
    total: int
    at_least: int
    success: bool


@with_config(_STRICT)
class Flee(TypedDict):
    """E7: a party's Speed check to flee the monster ``card``."""

    player: str
    card: str
    die: int
    total: int
    at_least: int
    success: bool


@with_config(_STRICT)
class ExchangeArcane(TypedDict):
    """C7 (Ascension): the normal character ``card`` leaves the party for ``arcane``."""

    player: str
    card: str
    arcane: str


@with_config(_STRICT)
class ExploreNewRegions(TypedDict):
    """M10: the Regions an explorer reveals with two or three sets combined."""

    player: str
    regions: list[str]


@with_config(_STRICT)
class SpeedCheck(TypedDict):
    player: str
    die: int
    total: int
    at_least: int
    success: bool


@with_config(_STRICT)
class ScoutPrivate(TypedDict):
    region: str
    card: str


@with_config(_STRICT)
class Steal(TypedDict):
    player: str
    victim: str


@with_config(_STRICT)
class ExchangeAdvantagePrivate(TypedDict):
    """The Agent's exchange, told to both players alone: ``given`` went from ``player`` to
    ``victim``, ``taken`` the other way."""

    player: str
    victim: str
    given: str
    taken: str


@with_config(_STRICT)
class TakeCharacter(TypedDict):
    """A character taken from another party (Betrayal): ``card`` joins ``player``'s party."""

    player: str
    victim: str
    card: str


@with_config(_STRICT)
class Discard(TypedDict):
    """A party's card discarded; ``why`` when it is not a plain discard: ``arcane`` (paid to
    hire an Arcane character, C7), ``lost`` (the party lost every character), ``faction``
    (a discredited Faction, E6)."""

    player: str
    card: str
    why: NotRequired[str]


@with_config(_STRICT)
class Take(TypedDict):
    """A card taken into the hand; ``source`` ``discard`` when from the discard pile."""

    player: str
    card: str
    source: NotRequired[str]


@with_config(_STRICT)
class Tap(TypedDict):
    """A character turned (``card``); ``used`` the card it turned to use, if any."""

    player: str
    card: str
    used: NotRequired[str]


@with_config(_STRICT)
class CardAt(TypedDict):
    """An Encounter too strong for its Region: a false alarm (M8), the level it met."""

    card: str
    region: str
    level: int


@with_config(_STRICT)
class Regions(TypedDict):
    """The first Regions laid out (S4)."""

    regions: list[str]


@with_config(_STRICT)
class Reward(TypedDict):
    """A Region's reward taken: the ``index`` of its reward on the Region's card."""

    player: str
    region: str
    index: int


@with_config(_STRICT)
class Resist(TypedDict):
    """A Resistance mission (F2): a turn held (``turns`` of ``of``), or the party standing
    its ground for the mission ``card`` (absent when the mission is secret)."""

    player: str
    turns: NotRequired[int]
    of: NotRequired[int]
    card: NotRequired[str]


@with_config(_STRICT)
class FinalRevealed(TypedDict):
    """The Final mission revealed; ``crisis`` the turns until the Crisis! (None without it)."""

    player: str
    card: str
    crisis: int | None


@with_config(_STRICT)
class CrisisChallenge(TypedDict):
    """The Crisis! challenge of the Final mission ``card``, and the order of the attempts."""

    card: str
    order: list[str]


@with_config(_STRICT)
class Chosen(TypedDict):
    """A card's option chosen: its label as the card prints it."""

    player: str | None
    label: str


@with_config(_STRICT)
class TieRoll(TypedDict):
    """Equal Speed (T2): every tied player's die."""

    rolls: dict[str, int]


@with_config(_STRICT)
class Tie(TypedDict):
    """A battle tied: ``goes_on`` when the dice are rolled again (V2)."""

    goes_on: bool


@with_config(_STRICT)
class Offer(TypedDict):
    """A trade offer, told to its two players alone: ``player`` gives ``give`` (card ids) to
    ``other`` for ``ask`` and ``ask_hand`` Advantages of the other's choice."""

    player: str
    other: str
    give: list[str]
    ask: list[str]
    ask_hand: int


@with_config(_STRICT)
class TimeoutNote(TypedDict):
    """A decision's time ran out (X6); told to everybody."""

    player: str


@with_config(_STRICT)
class TimeoutPrivate(TypedDict):
    """The default action taken for the player (it may name a hidden card: his alone)."""

    action: str


@with_config(_STRICT)
class Rivals(TypedDict):
    """Two parties that must fight (I3): ``rivalry`` ``organizations`` or ``factions``."""

    player: str
    other: str
    rivalry: str


@with_config(_STRICT)
class StealPrivate(TypedDict):
    """The card stolen, told to the thief (``player``) and the victim alone."""

    player: str
    victim: str
    card: str
