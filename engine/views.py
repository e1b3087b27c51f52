"""What each seat may see: typed, frozen views of the public table and of one seat.

The engine alone decides what is public. A :class:`TableView` holds what the board shows to
everybody; a :class:`SeatView` adds what one seat alone knows (its hand, its secret
missions, its start offers, the Encounters it scouted, its open prompt). Hidden cards of
others appear only as counts. Each decision is a :class:`PromptView` whose choices carry a
neutral English label (:data:`ACTION_LABELS`) and say whether they may be shown on the
public board; the engine knows where every card is, so nobody has to guess it from text.

A seat view also carries a :class:`SealedTable`: the game with every card this seat cannot
see replaced by a placeholder (``?advantage:3``), from which :mod:`engine.determinize`
deals a consistent hidden position. It costs about twice as much as the rest of the view and only
agents read it: a front end that renders asks for a view without it
(``seat_view(g, seat, sealed=False)``). Seat ids in labels and texts are the engine's player
names; a front end replaces them by display names.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Container
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from engine.actions import Action, offered_action
from engine.cards import CardDB, RegionCard, deck_of
from engine.cards import effects as fx
from engine.errors import IllegalAction
from engine.prompts import PRIVATE_KINDS, Prompt, kind_text
from engine.rules.missions import is_secret
from engine.rules.party import speed, strength
from engine.rules.regions import region_level
from engine.state import Frame, Player, Region
from engine.zones import piles, seen_by_all, visibility

if TYPE_CHECKING:
    from engine.game import Game


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


class ChoiceView(_View):
    """One choice of a prompt: the action string, a neutral label, and whether it may be
    shown on the public board (it names no card hidden from the table)."""

    index: int
    action: str
    label: str
    public: bool


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


class PublicChoice(_View):
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


# ---------------------------------------------------------------------- labels

#: The neutral label of each action type; ``{card}`` is the card's name, ``{seat}`` the
#: seat id, ``{region}`` a Region's name, ``{reward}``/``{option}`` the engine's text.
ACTION_LABELS: dict[str, str] = {
    "go": "Go to {card}",
    "explore_new": "Explore a new Region",
    "rest": "Rest (+2/+2 next turn)",
    "play": "Play {card}",
    "ability": "Use {card}'s ability",
    "discard": "Discard {card}",
    "dismiss": "Dismiss {card}",
    "leave": "Leave {card}",
    "keep": "Lead with {card}",
    "drop": "Give back {card}",
    "take": "Take {card}",
    "remove": "Remove {card}",
    "block": "Discard {card} to block",
    "attack": "Attack {seat}",
    "offer": "Offer a trade to {seat}",
    "give": "Offer {card}",
    "ask": "Ask for {card}",
    "reward": "Reward: {reward}",
    "mission": "Attempt {card}",
    "pick": "{option}",
    "reveal_final": "Reveal the Final mission",
    "pass": "Pass",
    "done": "Done",
    "explore": "Explore",
    "skip": "Skip",
    "send": "Send the offer",
    "withdraw": "Withdraw",
    "accept": "Accept",
    "decline": "Decline",
    "hire_arcane": "Hire an Arcane character, discarding {card}",
    "fight": "Fight",
    "flee": "Flee (Speed check)",
    "yes": "Yes",
    "no": "No",
}

#: Labels for an argument that is not a card.
_SPECIAL_LABELS: dict[tuple[str, str], str] = {
    ("ask", "hand"): "Ask for an Advantage",
}


def reward_label(region: RegionCard, index: int) -> str:
    """The label of a Region's ``index``-th reward (E6)."""
    reward = region.rewards[index]
    if reward.kind == "advantage":
        return f"Draw {region.level} Advantage" + ("s" if region.level != 1 else "")
    if reward.kind == "hire":
        return "Hire a character"
    if reward.kind == "remote_mission":
        return reward.name or "Attempt a mission from afar"
    if reward.kind == "discredit":
        return reward.name or "Discredit"
    return reward.name or reward.text or "Special reward"


def choose_options(g: Game) -> list[str] | None:
    """The option labels of the ``choose`` effect being resolved, from the card's data."""
    frame = g.s.stack[-1] if g.s.stack else None
    if frame is None or frame.kind != "effects" or frame.card is None:
        return None
    obj: Any = g.db[frame.card]
    for key in frame.data.get("path", []):
        obj = obj[key] if isinstance(key, int) else getattr(obj, key)
    i = frame.data.get("i", 0)
    if not isinstance(obj, list) or i >= len(obj) or not isinstance(obj[i], fx.Choose):
        return None
    # The interpreter's labels, once it asked: an option of a forced choice that would change
    # nothing says so (engine.rules.interpreter.op_choose).
    asked: dict[str, str] = frame.data.get("op", {}).get("labels", {})
    return [asked.get(str(k), o.label) for k, o in enumerate(obj[i].options)]


def _label(
    db: CardDB,
    action: Action,
    region: str | None,
    options: list[str] | None,
) -> str:
    arg = action.arg or ""
    special = _SPECIAL_LABELS.get((action.type, arg))
    if special is not None:
        return special
    if action.type == "explore_new" and arg:
        return f"Explore {db[arg].name} (discard pile)"
    card = db.by_id.get(arg)
    reward = f"reward {arg}"
    if action.type == "reward" and region is not None and arg.isdigit():
        rewards = db.region(region).rewards
        if int(arg) < len(rewards):
            reward = reward_label(db.region(region), int(arg))
    option = card.name if card is not None else arg
    if action.type == "pick" and arg.isdigit() and options is not None and int(arg) < len(options):
        option = options[int(arg)]
    template = ACTION_LABELS.get(action.type, str(action))
    return template.format(
        card=card.name if card is not None else arg, seat=arg, reward=reward, option=option
    )


def choice_views(g: Game, prompt: Prompt, public: Container[str]) -> tuple[ChoiceView, ...]:
    """The choices of ``prompt``, labelled, with their publicity (``public``: the cards the
    table sees, :func:`public_cards`)."""
    region = g.s.players[prompt.player].region if prompt.player in g.s.players else None
    options = choose_options(g) if prompt.kind == "pick" else None
    private = prompt.kind in PRIVATE_KINDS
    out = []
    for i, choice in enumerate(prompt.choices):
        # The engine offered the choice, so it is well formed: the cached parse, unchecked.
        action = offered_action(choice)
        arg = action.arg
        shown = not private and (
            # A window's plays come from the hand: only "pass" is for the board.
            not arg if prompt.window else (arg not in g.db.by_id or arg in public)
        )
        if shown and action.type == "reward" and region is not None and arg:
            # A mission from afar is offered only to a party with a mission it can attempt:
            # showing the choice would tell the table about its secret missions.
            rewards = g.db.region(region).rewards
            shown = not (int(arg) < len(rewards) and rewards[int(arg)].kind == "remote_mission")
        out.append(
            _typed(
                ChoiceView,
                index=i,
                action=choice,
                label=_label(g.db, action, region, options),
                public=shown,
            )
        )
    return tuple(out)


def public_prompt_text(g: Game, prompt: Prompt, public: Container[str]) -> str:
    """What the table may read about ``prompt``: its text, unless the kind is private or the
    card whose effect asks (the top frame's) is hidden from the table."""
    if prompt.kind in PRIVATE_KINDS:
        return kind_text(prompt.kind)
    frame = g.s.stack[-1] if g.s.stack else None
    if frame is not None and frame.card is not None and frame.card not in public:
        return kind_text(prompt.kind)
    return prompt.text


def _window_frame(g: Game, prompt: Prompt) -> Frame | None:
    """The reaction window ``prompt`` answers: a ``window`` prompt is always asked by the
    window frame on top of the stack."""
    if prompt.kind != "window" or not g.s.stack or g.s.stack[-1].kind != "window":
        return None
    return g.s.stack[-1]


def window_kind(g: Game, prompt: Prompt) -> str | None:
    """The moment of the reaction window ``prompt`` answers (T4), or None."""
    frame = _window_frame(g, prompt)
    return str(frame.data["when"]) if frame is not None else None


def window_about(g: Game, prompt: Prompt) -> tuple[str, ...]:
    """The seats whose action opened the window ``prompt`` answers (public)."""
    frame = _window_frame(g, prompt)
    if frame is None:
        return ()
    return tuple(n for n in (frame.player, frame.other) if n)


def prompt_view(g: Game, prompt: Prompt, public: Container[str] | None = None) -> PromptView:
    """``prompt`` as its player sees it (``public``: the cards the table sees, when the caller
    has them)."""
    public = public if public is not None else _TableCards(g)
    return _typed(
        PromptView,
        player=prompt.player,
        kind=prompt.kind,
        text=prompt.text,
        public_text=public_prompt_text(g, prompt, public),
        window=prompt.window,
        window_kind=window_kind(g, prompt),
        window_about=window_about(g, prompt),
        default=prompt.default,
        choices=choice_views(g, prompt, public),
    )


# ---------------------------------------------------------------------- building views

M = TypeVar("M", bound=BaseModel)

_set = object.__setattr__
#: Set the slots of pydantic's bookkeeping directly (cheaper than ``_set`` by name).
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_source = BaseModel.__dict__["__pydantic_private__"].__set__


def _typed(model: type[M], **fields: Any) -> M:
    """A view of ``model`` from ``fields``, every one given, each already of its field's
    type (tuples, not lists), without pydantic's validation.

    Views are built from the engine's own typed state, so validating them again checks
    nothing, and it is a fifth of what a view costs (``BaseModel.model_construct`` is slower
    still). The result is what validation would give: a test compares the two over games."""
    view = object.__new__(model)
    _set(view, "__dict__", fields)
    _set_fields_set(view, set(fields))
    _set_extra(view, None)
    _set_source(view, None)
    return view


def public_cards(g: Game) -> frozenset[str]:
    """Every card the table sees face up now (the zones everybody may see)."""
    return frozenset(seen_by_all(g.s))


class _TableCards(Container[str]):
    """:func:`public_cards` of a game, found on the first question.

    Finding them walks the zones map, the largest part of a prompt's view; many decisions
    never ask (a reaction window shows only "pass", a private choice nothing, most choices
    name no card), and a view build shares one among its parts."""

    __slots__ = ("_cards", "_g")

    def __init__(self, g: Game) -> None:
        self._g = g
        self._cards: frozenset[str] | None = None

    def __contains__(self, card: object) -> bool:
        if self._cards is None:
            self._cards = public_cards(self._g)
        return card in self._cards


def _party(g: Game, p: Player, hidden: bool) -> PartyView:
    return _typed(
        PartyView,
        seat=p.name,
        hidden=hidden,
        characters=()
        if hidden
        else tuple(
            _typed(
                CharacterView,
                card=c.card,
                tapped=c.tapped,
                incapacitated=c.incapacitated,
                arcane=g.db.character(c.card).arcane,
            )
            for c in p.party
        ),
        strength=None if hidden else strength(g, p),
        speed=None if hidden else speed(g, p),
        region=p.region,
        hand_count=len(p.hand),
        secret_missions=len(p.missions),
        started=tuple(p.started),
        completed=tuple(p.completed),
        in_play=tuple(p.in_play),
        turn_over=p.turn_over,
        resting=any(m.source == "rest" for m in p.modifiers),
        # The seat's own secret missions are named in its SeatView, not on the table.
        resisting=tuple((("secret" if is_secret(g, m) else m), n) for m, n in p.resisting.items()),
        lost=p.lost,
    )


def _region_view(g: Game, r: Region, viewer: str | None) -> RegionView:
    s = g.s
    state: PreliminaryState = "none"
    shown: str | None = None
    if r.preliminary:
        if r.revealed:
            state, shown = "revealed", r.preliminary
        elif viewer is not None and viewer in r.peeked:
            state, shown = "known", r.preliminary
        else:
            state = "face_down"
    printed = g.db.region(r.card)
    return _typed(
        RegionView,
        card=r.card,
        level=region_level(g, r.card),
        printed_level=printed.level,
        preliminary_state=state,
        preliminary=shown,
        parties=tuple(n for n in s.seats if s.players[n].region == r.card),
        traps=len(r.traps),
        own_traps=tuple(t.card for t in r.traps if t.owner == viewer),
        guard="none" if printed.guard is None else "standing" if r.guarded else "beaten",
    )


def _public_table(g: Game, public: Container[str]) -> TableView:
    """The public table; ``public``: the cards the table sees (:func:`public_cards`)."""
    s = g.s
    setup = s.phase == "setup"
    waiting = []
    for prompt in s.prompts:
        choices = choice_views(g, prompt, public)
        waiting.append(
            _typed(
                WaitingView,
                player=prompt.player,
                kind=prompt.kind,
                window=prompt.window,
                window_kind=window_kind(g, prompt),
                window_about=window_about(g, prompt),
                text=public_prompt_text(g, prompt, public),
                choices=tuple(
                    _typed(PublicChoice, action=c.action, label=c.label)
                    for c in choices
                    if c.public
                ),
            )
        )
    return _typed(
        TableView,
        turn=s.turn,
        phase=s.phase,
        sets=tuple(s.options.sets),
        order=tuple(s.order),
        seats=tuple(s.seats),
        parties=tuple(_party(g, s.players[n], setup) for n in s.seats),
        regions=tuple(_region_view(g, r, None) for r in s.regions),
        final_mission=s.final_mission,
        final_deck=len(s.final_deck),
        crisis=s.crisis,
        decks=tuple((k, len(v)) for k, v in s.decks.items()),
        discards=tuple((k, tuple(v)) for k, v in s.discards.items()),
        set_aside=len(s.set_aside),
        waiting=tuple(waiting),
        winner=s.winner,
        ending=s.ending,
        over=s.phase == "over",
        version=s.actions,
    )


def _seen_by(g: Game, table: TableView, viewer: str) -> TableView:
    """The public ``table`` as ``viewer`` sees it.

    A seat sees more than the table in three places only: its own party during the setup
    (S3), the face-down Preliminary Encounters it scouted, and its own Traps (A5). Everything
    else is the public table's, shared (the views are frozen): a front end that renders the
    board and several seats' panels of one state builds the public part once."""
    s = g.s
    parties = table.parties
    if s.phase == "setup" and viewer in s.players:
        parties = tuple(
            _party(g, s.players[viewer], False) if p.seat == viewer else p for p in parties
        )
    regions = table.regions
    more = [_sees_more(r, viewer) for r in s.regions]
    if any(more):
        regions = tuple(
            _region_view(g, r, viewer) if sees else shown
            for r, shown, sees in zip(s.regions, table.regions, more, strict=True)
        )
    if parties is table.parties and regions is table.regions:
        return table
    return table.model_copy(update={"parties": parties, "regions": regions})


def _sees_more(r: Region, viewer: str) -> bool:
    """Whether ``viewer`` sees more of Region ``r`` than the table: a face-down Preliminary
    Encounter it scouted, or a Trap of its own."""
    if r.preliminary and not r.revealed and viewer in r.peeked:
        return True
    return bool(r.traps) and any(t.owner == viewer for t in r.traps)


def _check_public(g: Game, table: TableView) -> None:
    """``table`` must be the public table of ``g`` now: a seat's table (another seat's
    party in the setup, its scouting, its Traps) would show that seat's secrets."""
    if table.version != g.s.actions:
        raise ValueError(
            f"the table given is of version {table.version}, the game is at {g.s.actions}"
        )
    if (
        (table.phase == "setup" and not all(p.hidden for p in table.parties))
        or any(r.own_traps or r.preliminary_state == "known" for r in table.regions)
        or len(table.regions) != len(g.s.regions)
    ):
        raise ValueError("the table given is a seat's table, not the public table")


def table_view(g: Game, viewer: str | None = None) -> TableView:
    """The table as ``viewer`` sees it (``None``: the public table)."""
    table = _public_table(g, _TableCards(g))
    return table if viewer is None else _seen_by(g, table, viewer)


def seat_view(
    g: Game, seat: str, *, sealed: bool = True, table: TableView | None = None
) -> SeatView:
    """What ``seat`` may see; with ``sealed`` (the default), its :class:`SealedTable` too.

    The sealed table is what an agent deals a hidden position from, and it costs about twice
    as much as the rest of the view: a front end that only renders the view asks for it
    without (``sealed=False``: :attr:`SeatView.sealed` is None).

    ``table``: the public table of the game as it is now (``table_view(g)``), when the caller
    has built it (a front end rendering the board and several panels of one state): the
    seat's table is then derived from it instead of being built again. A table of another
    version, or a seat's table, is a ValueError."""
    if seat not in g.s.players:
        raise IllegalAction(f"{seat!r} is not in this game")
    s = g.s
    p = s.players[seat]
    # At most one walk over the zones for the whole view: the table and the prompt share it.
    public = _TableCards(g)
    if table is None:
        table = _public_table(g, public)
    else:
        _check_public(g, table)
    prompt = g.prompt_for(seat)
    return _typed(
        SeatView,
        seat=seat,
        table=_seen_by(g, table, seat),
        hand=tuple(p.hand),
        missions=tuple(p.missions),
        offered_characters=tuple(p.offered_characters),
        offered_advantages=tuple(p.offered_advantages),
        scouted=tuple(
            (r.card, r.preliminary)
            for r in s.regions
            if r.preliminary and not r.revealed and seat in r.peeked
        ),
        resisting=tuple(p.resisting.items()),
        prompt=prompt_view(g, prompt, public) if prompt is not None else None,
        sealed=_sealed_table(g, seat) if sealed else None,
    )


def plain_view(g: Game, viewer: str | None) -> dict[str, Any]:
    """The view of ``viewer`` (``None``: the public table) as plain data, the form scenario
    files and tools name paths in (``view.players.A.started``)."""
    table = table_view(g, viewer)
    mine = g.s.players[viewer] if viewer is not None else None
    players: dict[str, Any] = {}
    for p in table.parties:
        entry: dict[str, Any] = {
            "party": [c.model_dump() for c in p.characters],
            "strength": p.strength,
            "speed": p.speed,
            "hand_count": p.hand_count,
            "secret_missions": p.secret_missions,
            "started": list(p.started),
            "completed": list(p.completed),
            "in_play": list(p.in_play),
            "region": p.region,
            "turn_over": p.turn_over,
            "resting": p.resting,
            "resisting": dict(mine.resisting) if mine and p.seat == viewer else dict(p.resisting),
            "lost": p.lost,
        }
        if mine is not None and p.seat == viewer:
            entry["hand"] = list(mine.hand)
            entry["missions"] = list(mine.missions)
            entry["offered_characters"] = list(mine.offered_characters)
            entry["offered_advantages"] = list(mine.offered_advantages)
        players[p.seat] = entry
    view: dict[str, Any] = {
        "viewer": viewer,
        "turn": table.turn,
        "phase": table.phase,
        "order": list(table.order),
        "seats": list(table.seats),
        "players": players,
        "regions": [
            {
                "card": r.card,
                "level": r.level,
                "preliminary": None
                if r.preliminary_state == "none"
                else (r.preliminary or "face_down"),
                **({"traps": r.traps} if r.traps else {}),
                **({"own_traps": list(r.own_traps)} if r.own_traps else {}),
                **({"guard": r.guard} if r.guard != "none" else {}),
            }
            for r in table.regions
        ],
        "final_mission": table.final_mission,
        "crisis": table.crisis,
        "decks": dict(table.decks),
        "discards": {k: list(v) for k, v in table.discards},
        "set_aside": table.set_aside,
        "final_deck": table.final_deck,
        "waiting_for": [{"player": w.player, "kind": w.kind} for w in table.waiting],
        "winner": table.winner,
        "ending": table.ending,
        "version": table.version,
    }
    prompt = g.prompt_for(viewer) if viewer is not None else None
    if prompt is not None:
        view["prompt"] = prompt.to_dict()
    return view


# ---------------------------------------------------------------------- the sealed table


def hidden_cards(g: Game, seat: str) -> list[str]:
    """Every card ``seat`` cannot see, in the map's fixed order of places (never by card id)."""
    s = g.s
    return [
        card for zone, cards in piles(s) if not visibility(zone, s).allows(seat) for card in cards
    ]


def _replace(obj: Any, swap: Callable[[str], str]) -> Any:
    if isinstance(obj, str):
        return swap(obj)
    if isinstance(obj, list):
        return [_replace(x, swap) for x in obj]
    if isinstance(obj, dict):
        return {swap(k): _replace(v, swap) for k, v in obj.items()}
    return obj


#: The parts of a stored game that hold card ids (the options name card sets, which may share
#: a card's id).
CARD_SECTIONS = (
    "players",
    "decks",
    "discards",
    "regions",
    "set_aside",
    "final_deck",
    "final_mission",
    "dismissed",
    "discarded_by",
    "stack",
    "prompts",
    "result",
)

#: Prompts whose choices are exactly some hidden zone of their player, so that the sealed
#: table may keep them with placeholders (S3: the start offers).
#: The pick-up (R5) offers only public discards: it is kept as it is.
OPEN_KINDS = frozenset({"start_character", "start_advantage", "pickup"})


def _sealed_table(g: Game, seat: str) -> SealedTable:
    """The game as ``seat`` knows it (:func:`seal`), as a :class:`SealedTable`."""
    return SealedTable(seat=seat, state=json.dumps(seal(g, seat)))


def seal(g: Game, seat: str) -> dict[str, Any]:
    """The game state as ``seat`` knows it (see :class:`SealedTable`)."""
    hidden = hidden_cards(g, seat)
    # A hidden Trap on a Region is a Trap (A5): its placeholder says so, so that determinize
    # deals a Trap there, not any Advantage.
    traps = {t.card for r in g.s.regions for t in r.traps}
    placeholders = {
        c: f"?{'trap' if c in traps else deck_of(g.db[c])}:{i}" for i, c in enumerate(hidden)
    }
    data = g.s.to_data()
    # Another seat's open prompt would tell which of its hidden cards it may play now: the
    # sealed table keeps only who and what kind (determinize asks it again), except the start
    # choices, whose choices are all the offered cards (placeholders, as many as everybody
    # knows).
    data["prompts"] = [
        p
        if p["player"] == seat or p["kind"] in OPEN_KINDS
        else {"player": p["player"], "kind": p["kind"], "window": p["window"]}
        for p in data["prompts"]
    ]
    data["rng"], data["seed"], data["rigged"] = 0, 0, []
    get = placeholders.get

    def swap(card: str) -> str:
        return get(card, card)

    # The zones that hold hidden cards, directly (the generic walk costs twice as much)...
    for p in data["players"].values():
        for zone in ("hand", "missions", "offered_characters", "offered_advantages"):
            p[zone] = [swap(c) for c in p[zone]]
        for c in p["party"]:
            c["card"] = swap(c["card"])
        p["resisting"] = {swap(m): n for m, n in p["resisting"].items()}
        # A modifier names the card that made it, and the last hire its Region: a card seen
        # then, and hidden since (a discard pile reshuffled into its deck), is hidden here too.
        p["modifiers"] = _replace(p["modifiers"], swap)
        p["last_hire"] = _replace(p["last_hire"], swap)
    data["decks"] = {k: [swap(c) for c in v] for k, v in data["decks"].items()}
    data["set_aside"] = [swap(c) for c in data["set_aside"]]
    data["final_deck"] = [swap(c) for c in data["final_deck"]]
    for r in data["regions"]:
        r["preliminary"] = r["preliminary"] and swap(r["preliminary"])
        for trap in r["traps"]:
            trap["card"] = swap(trap["card"])
    # ... and whatever else names a card: the steps under way (a trade's offer, a pick),
    # and this turn's let-go cards (R5), which a pick-up or a reshuffle may have hidden since.
    for key in ("stack", "prompts", "result", "dismissed", "discarded_by"):
        data[key] = _replace(data[key], swap)
    # Another seat's start choices name its offered cards inside action strings ("keep
    # monk"): their argument becomes the placeholder too ("keep ?character:80").
    for prompt in data["prompts"]:
        if prompt["player"] != seat and "choices" in prompt:
            prompt["choices"] = [swap_action(c, swap) for c in prompt["choices"]]
            prompt["default"] = swap_action(prompt["default"], swap)
    return data


def swap_action(action: str, swap: Callable[[str], str]) -> str:
    """``action`` (an action string, ``type`` or ``type arg``) with its argument swapped."""
    kind, _, arg = action.partition(" ")
    return f"{kind} {swap(arg)}" if arg else action


__all__ = [
    "ACTION_LABELS",
    "CARD_SECTIONS",
    "CharacterView",
    "ChoiceView",
    "PartyView",
    "PromptView",
    "PublicChoice",
    "RegionView",
    "SealedTable",
    "SeatView",
    "TableView",
    "WaitingView",
    "choose_options",
    "lazy_seat_view",
    "plain_view",
    "prompt_view",
    "public_cards",
    "reward_label",
    "seat_view",
    "swap_action",
    "table_view",
    "window_about",
    "window_kind",
]


class _LazySeatView(SeatView):
    """A :class:`SeatView` built on its first read (see :func:`lazy_seat_view`), in two
    parts: the view itself, then its sealed table when that is read; once both are built it
    becomes a plain :class:`SeatView`."""

    def _fill(self, sealed: bool = True) -> SeatView:
        g, seat, version = object.__getattribute__(self, "__pydantic_private__")
        if g.s.actions != version:
            raise RuntimeError("a lazy seat view was read after the game moved on")
        fields = self.__dict__
        if "seat" not in fields:
            part = seat_view(g, seat, sealed=False)
            # Without its sealed table: reading that field still comes here.
            fields.update((k, v) for k, v in part.__dict__.items() if k != "sealed")
        if not sealed:
            return self
        fields["sealed"] = _sealed_table(g, seat)
        _set(self, "__pydantic_fields_set__", set(fields))
        _set(self, "__pydantic_extra__", None)
        _set(self, "__pydantic_private__", None)
        _set(self, "__class__", SeatView)
        return self

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name not in SeatView.model_fields:
            raise AttributeError(name)
        return self._fill(sealed=name == "sealed").__dict__[name]

    def __eq__(self, other: object) -> bool:
        return self._fill() == other

    def __hash__(self) -> int:
        return hash(self._fill())

    def __repr__(self) -> str:
        return repr(self._fill())

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        return self._fill().model_dump(**kwargs)

    def model_dump_json(self, **kwargs: Any) -> str:
        return self._fill().model_dump_json(**kwargs)


def lazy_seat_view(g: Game, seat: str) -> SeatView:
    """The view of ``seat``, built only when an agent first reads it, and its sealed table
    only when the agent reads that (most decisions of the normal AI never do).

    Building a view costs about as much as applying ten actions (its sealed table as much
    again); a random agent never reads it, and the simulator asks millions of decisions. The
    view must be read before the game moves on (it would describe a later state): reading it
    later raises ``RuntimeError``.
    """
    view = object.__new__(_LazySeatView)
    # Until it is built, the slot of pydantic's private attributes holds where it comes from
    # (a tuple, not a dict: this runs for every decision of the simulator).
    _set_source(view, (g, seat, g.s.actions))
    return view
