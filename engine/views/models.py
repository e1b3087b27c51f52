"""The views' models: what a seat, the table and a decision look like to their reader."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    pass


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class CharacterView(_View):
    """A character on the table (C2, C3, C6)."""

    card: str
    tapped: bool = False
    incapacitated: bool = False
    #: An Arcane character (C7): its own deck, never dismissed.
    arcane: bool = False


class PartyView(_View):
    """One seat's party as the board shows it."""

    seat: str
    #: During setup nobody sees another's leader (S3): ``hidden`` and no characters.
    hidden: bool = False
    characters: tuple[CharacterView, ...] = ()
    #: Totals computed by the rules (C1); None while hidden.
    strength: int | None = None
    speed: int | None = None
    region: str | None = None
    hand_count: int = 0
    secret_missions: int = 0
    started: tuple[str, ...] = ()
    completed: tuple[str, ...] = ()
    in_play: tuple[str, ...] = ()
    turn_over: bool = False
    resting: bool = False
    #: Resistance missions under way (F2): mission -> turns held; a secret one is "secret".
    resisting: tuple[tuple[str, int], ...] = ()
    lost: bool = False


PreliminaryState = Literal["none", "face_down", "revealed", "known"]


GuardState = Literal["none", "standing", "beaten"]


class RegionView(_View):
    """An active Region and its Preliminary Encounter as one viewer sees it (S4), with the
    Traps on it (A5: face down, their number public) and its guard (TotG)."""

    card: str
    #: The level now (a Trap may change it until the end of the turn); ``printed_level``: as
    #: the card prints it.
    level: int
    printed_level: int = 0
    #: none, face_down (hidden from this viewer), revealed (to all), known (scouted by
    #: this viewer, still face down for the others).
    preliminary_state: PreliminaryState = "none"
    #: The Encounter's id when this viewer may see it.
    preliminary: str | None = None
    #: Seats whose party stands in this Region.
    parties: tuple[str, ...] = ()
    #: Face-down Traps on the Region (A5): how many, everybody sees; which, only their owner.
    traps: int = 0
    #: The viewer's own Traps here (card ids).
    own_traps: tuple[str, ...] = ()
    #: TotG: the printed guard, standing or beaten (none: the Region has no guard).
    guard: GuardState = "none"


class ChoiceData(_View):
    """What a front end needs to word a choice beyond its action string (``type arg``):
    data, never words of the engine (the card's own printed text aside)."""

    #: A card's option (``pick``): the option as printed on the card; a Region's named
    #: reward (``reward``): its name, else its text, as printed.
    option: str | None = None
    #: A ``pick`` option that would change nothing now (engine.rules.ops_flow.op_choose).
    idle: bool = False
    #: A ``reward``'s kind (``advantage``, ``hire``, ``remote_mission``, ``discredit``...).
    reward: str | None = None
    #: The Region's level, for a reward that draws that many Advantages.
    level: int | None = None


class ChoiceView(ChoiceData):
    """One choice of a prompt: the action string, a neutral label (the engine's English, for
    the terminal), and whether it may be shown on the public board (it names no card hidden
    from the table)."""

    index: int
    action: str
    label: str
    public: bool


class PromptData(_View):
    """What a decision is worded from besides its kind (``engine.prompts.Prompt.data``):
    seat ids, card and Region ids, numbers; never words (a card's printed option aside)."""

    #: How the kind asks, when it asks in several ways (a window's moment, what a card's
    #: effect asks for: ``move``, ``character``, ``choose``...).
    variant: str | None = None
    #: Seats: whose action it is about (the mover, the offerer...), and the other side.
    player: str | None = None
    other: str | None = None
    #: The card that asks or is named (a monster, a Trap, an Artifact), and a Region.
    card: str | None = None
    region: str | None = None
    #: Numbers: Advantages left to deliver, a monster's Strength and the flee margin.
    left: int | None = None
    strength: int | None = None
    margin: int | None = None
    #: A trade offer: the cards given and asked for, Advantages of the partner's choice.
    give: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()
    ask_hand: int | None = None
    #: A card's options (``choose``): index, the option as printed, whether it would change
    #: nothing now.
    options: tuple[tuple[str, str, bool], ...] = ()


class PromptView(_View):
    """A decision as its player sees it (every choice), with what the table may read."""

    player: str
    kind: str
    text: str
    #: What the table may read: the text when it names nothing hidden, else a neutral line.
    public_text: str
    window: bool = False
    #: The moment of a reaction window (T4: ``move_declared``, ``encounter_revealed``,
    #: ``exploration_roll``, ``battle_start``); None for any other decision. Public: the
    #: window's text names it too.
    window_kind: str | None = None
    #: The seats whose action opened that window (the mover; both sides of a battle).
    window_about: tuple[str, ...] = ()
    default: str
    choices: tuple[ChoiceView, ...] = ()
    #: The table may not read the text (a private kind, or a hidden card asks): a front end
    #: words the decision from its kind alone (``engine.prompts.PROMPT_KINDS``).
    withheld: bool = False
    #: What the decision is worded from, with its kind (``engine.prompts.Prompt.data``).
    data: PromptData = PromptData()


class PublicChoice(ChoiceData):
    """A choice the table may see (its place among the hidden ones is not shown: it would
    tell how many hidden cards the player may use)."""

    action: str
    label: str


class WaitingView(_View):
    """A decision the table waits for: who, what kind, and only its public choices."""

    player: str
    kind: str
    window: bool = False
    #: As :attr:`PromptView.window_kind` and :attr:`PromptView.window_about`: the same for
    #: every player of the window.
    window_kind: str | None = None
    window_about: tuple[str, ...] = ()
    text: str
    choices: tuple[PublicChoice, ...] = ()
    #: As :attr:`PromptView.withheld`: the text is the kind's neutral description.
    withheld: bool = False
    #: As :attr:`PromptView.data`; empty when the text is withheld.
    data: PromptData = PromptData()


class TableView(_View):
    """The public table: what everybody at the table may see."""

    turn: int
    phase: str
    #: The card sets in play (G1), as the lobby showed them.
    sets: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    seats: tuple[str, ...] = ()
    parties: tuple[PartyView, ...] = ()
    regions: tuple[RegionView, ...] = ()
    final_mission: str | None = None
    #: Face-down Final missions left (V1).
    final_deck: int = 0
    crisis: int | None = None
    decks: tuple[tuple[str, int], ...] = ()
    discards: tuple[tuple[str, tuple[str, ...]], ...] = ()
    set_aside: int = 0
    waiting: tuple[WaitingView, ...] = ()
    winner: str | None = None
    ending: str | None = None
    over: bool = False
    #: Actions applied so far (the state version).
    version: int = 0
    #: SHA-256 of the dice's server seed (hex), to post when the game starts; None for a
    #: game of the old generator (docs/fair_dice.md).
    dice_commitment: str | None = None
    #: The server seed itself (hex): only once the game is over, for ``anima verify``.
    dice_server_seed: str | None = None

    def party(self, seat: str) -> PartyView:
        """The party of ``seat``."""
        for p in self.parties:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    def public_cards(self) -> frozenset[str]:
        """Every card id this view shows face up."""
        ids: set[str] = set()
        for p in self.parties:
            ids.update(c.card for c in p.characters)
            ids.update(p.started)
            ids.update(p.completed)
            ids.update(p.in_play)
            ids.update(m for m, _ in p.resisting if m != "secret")
        for r in self.regions:
            ids.add(r.card)
            if r.preliminary_state == "revealed" and r.preliminary:
                ids.add(r.preliminary)
        if self.final_mission:
            ids.add(self.final_mission)
        for _, pile in self.discards:
            ids.update(pile)
        return frozenset(ids)


class SealedTable(_View):
    """The game as one seat knows it, as opaque JSON: every card the seat cannot see is a
    placeholder ``?<type>:<n>``, the generator is unknown, and the other seats' open prompts
    keep only who and what kind (their choices would tell which hidden cards are playable).
    :func:`engine.determinize.determinize` rebuilds a game from it."""

    seat: str
    state: str


class SeatView(_View):
    """What one seat may see: the table plus its own hidden cards and its open prompt."""

    seat: str
    table: TableView
    hand: tuple[str, ...] = ()
    missions: tuple[str, ...] = ()
    offered_characters: tuple[str, ...] = ()
    offered_advantages: tuple[str, ...] = ()
    #: Face-down Preliminary Encounters this seat peeked at: (Region, Encounter).
    scouted: tuple[tuple[str, str], ...] = ()
    #: This seat's Resistance missions with their real names (the table sees "secret").
    resisting: tuple[tuple[str, int], ...] = ()
    prompt: PromptView | None = None
    #: The game as this seat knows it, for agents (:func:`engine.determinize.determinize`);
    #: None in a view built without it (``seat_view(g, seat, sealed=False)``: the bot's
    #: panels, which only render). :func:`lazy_seat_view` and the default build include it.
    sealed: SealedTable | None = None

    @property
    def version(self) -> int:
        return self.table.version

    def sealed_table(self) -> SealedTable:
        """The sealed table, which agents read; a view built without it (``sealed=False``)
        cannot serve an agent: ValueError."""
        if self.sealed is None:
            raise ValueError(
                f"the view of {self.seat!r} was built without its sealed table "
                "(seat_view(..., sealed=False)); an agent needs the full view"
            )
        return self.sealed


M = TypeVar("M", bound=BaseModel)

set_attribute = object.__setattr__
#: Set the slots of pydantic's bookkeeping directly (cheaper than ``set_attribute`` by name).
set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def typed(model: type[M], **fields: Any) -> M:
    """A view of ``model`` from ``fields``, every one given, each already of its field's
    type (tuples, not lists), without pydantic's validation.

    Views are built from the engine's own typed state, so validating them again checks
    nothing, and it is a fifth of what a view costs (``BaseModel.model_construct`` is slower
    still). The result is what validation would give: a test compares the two over games."""
    view = object.__new__(model)
    set_attribute(view, "__dict__", fields)
    set_fields_set(view, set(fields))
    set_extra(view, None)
    set_private(view, None)
    return view
