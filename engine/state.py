"""The game state: one serializable record holding everything, the RNG included.

Nothing here knows the rules; the rule modules read and change these models. Cards are
referred to by id: every card is in exactly one place (a deck, a discard pile, a hand, a
party, a Region, a mission row, the Final mission slot, or set aside).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import TypeAdapter

from engine.cards.effects import Duration, Stat
from engine.options import Options
from engine.plain import Plain
from engine.prompts import Prompt

PhaseName = Literal["setup", "reset", "movement", "interaction", "exploration", "crisis", "over"]
DeckName = Literal["character", "region", "encounter", "advantage", "arcane"]


@dataclass(slots=True, kw_only=True)
class Character(Plain):
    """A character card in a party (C2, C3, C6)."""

    card: str
    tapped: bool = False
    incapacitated: bool = False


@dataclass(slots=True, kw_only=True)
class Modifier(Plain):
    """A Strength or Speed change with its duration (M6, F1, cards)."""

    stat: Stat
    amount: int
    duration: Duration
    #: The turn it was made; ``next_turn`` modifiers count only in turn ``turn + 1``.
    turn: int
    source: str = ""


@dataclass(slots=True, kw_only=True)
class Player(Plain):
    """One seat: a party, a hand, missions and the per-turn bookkeeping."""

    name: str
    party: list[Character] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    #: Basic missions not yet started (secret), started (announced), completed.
    missions: list[str] = field(default_factory=list)
    started: list[str] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)
    #: Advantages in play in front of the player (Organization, persistent Plot cards).
    in_play: list[str] = field(default_factory=list)
    #: The Region the party is in; None until the first Movement phase places it (X2).
    region: str | None = None
    modifiers: list[Modifier] = field(default_factory=list)
    #: The party lost its turn (B7): it does nothing more this turn.
    turn_over: bool = False
    #: The party sits out the next turn too (lose_next_turn).
    skip_next_turn: bool = False
    #: The party reached its Region this turn and was not expelled (E1).
    arrived: bool = False
    #: Region id and turn of the last hire (E6: not in the same Region two turns in a row).
    last_hire: tuple[str, int] | None = None
    #: Resistance missions (F2): mission id -> Exploration phases stayed so far.
    resisting: dict[str, int] = field(default_factory=dict)
    #: Players fought and traded with this turn (I5, X3).
    fought: list[str] = field(default_factory=list)
    traded: list[str] = field(default_factory=list)
    #: O1 Tree of Regions: the level the party stands on, None when outside the tree.
    tree_level: int | None = None
    #: Dice for the next battle are rolled twice, the higher kept (reroll).
    reroll: bool = False
    #: Start choice (S3): the cards offered, until the player has chosen.
    offered_characters: list[str] = field(default_factory=list)
    offered_advantages: list[str] = field(default_factory=list)
    #: The player has been told they may not interrupt (F7) etc. -- seat is out of the game.
    lost: bool = False


@dataclass(slots=True, kw_only=True)
class Trap(Plain):
    """A Trap laid face down on a Region (A5): only its owner knows the card (M9)."""

    card: str
    owner: str


@dataclass(slots=True, kw_only=True)
class Region(Plain):
    """An active Region and its Preliminary Encounter (S4, M2, M7)."""

    card: str
    preliminary: str | None = None
    #: A face-down Preliminary Encounter is secret until a party enters (S4).
    revealed: bool = False
    #: Players who peeked at the face-down Preliminary Encounter (reveal op).
    peeked: list[str] = field(default_factory=list)
    #: Traps laid on the Region (A5, M9), in the order they were laid.
    traps: list[Trap] = field(default_factory=list)
    #: The level's change until the end of the turn (a Trap such as Unleashed Danger).
    level_bonus: int = 0
    #: TotG: the Region's printed guard still stands (it stays until beaten).
    guarded: bool = False


@dataclass(slots=True)  # not kw_only: Game.push builds it positionally (see there)
class Frame(Plain):
    """One step of resolution on the stack: game flow as data.

    ``kind`` names the handler; ``stage`` is its progress; the other fields are its
    arguments. The stack makes every pending decision storable: a game can be saved between
    any two actions and resumed.
    """

    kind: str
    stage: str = ""
    player: str | None = None
    other: str | None = None
    card: str | None = None
    region: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class Dice(Plain):
    """The seeds and position of the keyed stream (engine.rng, docs/fair_dice.md).

    The server seed is secret until the game is over (the views show its SHA-256 until then);
    a state without ``dice`` draws from SplitMix64 (``GameState.rng``), as games did before."""

    scheme: Literal["blake2b-ctr-1"] = "blake2b-ctr-1"
    #: 256 bits, as 64 hex digits.
    server_seed: str
    #: One seed per human seat (seat -> seed), fixed when the game was created.
    seat_seeds: dict[str, str] = field(default_factory=dict)
    #: Bytes of the stream used so far: the stream goes on from here.
    drawn: int = 0


@dataclass(slots=True, kw_only=True)
class GameState(Plain):
    """Everything about one game."""

    version: int = 1
    options: Options = field(default_factory=Options)
    seed: int = 0
    #: SplitMix64's state: the generator of a game without ``dice`` (engine.rng).
    rng: int = 0
    #: The keyed stream (every game created since it exists); None: SplitMix64.
    dice: Dice | None = None
    #: Die results to use before the generator (scenarios).
    rigged: list[int] = field(default_factory=list)
    players: dict[str, Player] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    decks: dict[str, list[str]] = field(default_factory=dict)
    discards: dict[str, list[str]] = field(default_factory=dict)
    regions: list[Region] = field(default_factory=list)
    #: Basic missions set aside unseen (S2).
    set_aside: list[str] = field(default_factory=list)
    final_deck: list[str] = field(default_factory=list)
    final_mission: str | None = None
    #: The Crisis! countdown (F5); None until the Final mission is revealed or when V3 is off.
    crisis: int | None = None
    turn: int = 0
    phase: PhaseName = "setup"
    #: Turn order fixed at the start of the Reset phase (T2, T3).
    order: list[str] = field(default_factory=list)
    #: Only one player per turn may explore a new Region (M1).
    explored_new: bool = False
    #: Characters dismissed and Advantages discarded this turn (card -> by whom), for the
    #: pick-up (R5).
    dismissed: dict[str, str] = field(default_factory=dict)
    discarded_by: dict[str, str] = field(default_factory=dict)
    stack: list[Frame] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    #: What the last finished frame reported to its parent (e.g. a battle's outcome).
    result: dict[str, Any] = field(default_factory=dict)
    winner: str | None = None
    #: How the game ended: final_mission, crisis_won, crisis_lost, last_player, turn_cap.
    ending: str | None = None
    #: Number of actions applied so far (the state version the bot puts in buttons).
    actions: int = 0

    def to_json(self) -> str:
        """The stored form: JSON without the fields that hold their default."""
        return _STORED.dump_json(self, exclude_defaults=True).decode()

    @classmethod
    def from_json(cls, text: str | bytes) -> GameState:
        """A state from its stored form, validated field by field (pydantic): malformed data
        raises ``pydantic.ValidationError``."""
        return _STORED.validate_json(text)

    def to_data(self) -> dict[str, Any]:
        """The whole state as JSON-compatible Python data (every field, defaults included)."""
        data: dict[str, Any] = _STORED.dump_python(self, mode="json")
        return data

    @classmethod
    def from_data(cls, data: Any) -> GameState:
        """A state from :meth:`to_data`'s form, validated like :meth:`from_json`."""
        return _STORED.validate_python(data)


#: Where pydantic checks the state: loading and storing a game, never during play.
_STORED: TypeAdapter[GameState] = TypeAdapter(GameState)
