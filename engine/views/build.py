"""Building the views of the table and of one seat from the game's state."""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any

from engine.errors import IllegalAction, Refusal
from engine.rules.missions import is_secret
from engine.rules.party import speed, strength
from engine.rules.regions import region_level
from engine.state import Player, Region
from engine.views.labels import (
    EMPTY_DATA,
    TableCards,
    choice_views,
    prompt_data,
    prompt_view,
    public_prompt_text,
    text_withheld,
    window_about,
    window_kind,
)
from engine.views.models import (
    CharacterView,
    PartyView,
    PreliminaryState,
    PublicChoice,
    RegionView,
    SeatView,
    TableView,
    WaitingView,
    typed,
)
from engine.views.sealed import sealed_table

if TYPE_CHECKING:
    from engine.game import Game


def _party(g: Game, p: Player, hidden: bool) -> PartyView:
    return typed(
        PartyView,
        seat=p.name,
        hidden=hidden,
        characters=()
        if hidden
        else tuple(
            typed(
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
    return typed(
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
            typed(
                WaitingView,
                player=prompt.player,
                kind=prompt.kind,
                window=prompt.window,
                window_kind=window_kind(g, prompt),
                window_about=window_about(g, prompt),
                text=public_prompt_text(g, prompt, public),
                choices=tuple(
                    typed(
                        PublicChoice,
                        option=c.option,
                        idle=c.idle,
                        reward=c.reward,
                        level=c.level,
                        action=c.action,
                        label=c.label,
                    )
                    for c in choices
                    if c.public
                ),
                withheld=(withheld := text_withheld(g, prompt, public)),
                data=EMPTY_DATA if withheld else prompt_data(prompt.data),
            )
        )
    return typed(
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
        dice_commitment=g.dice_commitment,
        # The seed is revealed when nothing is left to draw: never while the game runs.
        dice_server_seed=s.dice.server_seed if s.dice is not None and s.phase == "over" else None,
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
    table = _public_table(g, TableCards(g))
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
        raise IllegalAction(Refusal.NOT_A_PLAYER, f"{seat!r} is not in this game", player=seat)
    s = g.s
    p = s.players[seat]
    # At most one walk over the zones for the whole view: the table and the prompt share it.
    public = TableCards(g)
    if table is None:
        table = _public_table(g, public)
    else:
        _check_public(g, table)
    prompt = g.prompt_for(seat)
    return typed(
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
        sealed=sealed_table(g, seat) if sealed else None,
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
        "dice_commitment": table.dice_commitment,
        "dice_server_seed": table.dice_server_seed,
    }
    prompt = g.prompt_for(viewer) if viewer is not None else None
    if prompt is not None:
        view["prompt"] = prompt.to_dict()
    return view
