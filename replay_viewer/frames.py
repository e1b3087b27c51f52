"""A record replayed into the page's data: every step's board in every view, and its lines.

The record is replayed once (:func:`engine.tools.replay.replay_steps`); after each step the
public table and each seat's view are drawn as blocks (:mod:`.board`). The data is kept small
for a long game (2,000 steps, six views):

- every distinct string (a block, an event's line, a heading) is kept once, in ``strings``,
  and named by its index;
- a view's board at a step is the list of its blocks' indexes, written only as what changed
  since that view's previous step: ``0`` (nothing), ``[i, ...]`` (the whole list, when it is
  shorter) or ``{"n": length, "d": [position, index, ...]}``;
- a step's lines are their indexes, a line told to some seats alone ``[index, seats]`` (a bit
  per seat), which the page shows in those seats' views only.

A block is drawn once per distinct input (the same party, Region or hand at another step is
the same string: :class:`Blocks` keeps them), so drawing a long game costs about as much as
replaying it a few times.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import CardDB, ChoiceView, Event, Game, GameRecord, SeatView, TableView, replay_steps
from replay_viewer import board
from replay_viewer.markup import HtmlNames, fill, html_of
from wording import card_text, choice_words, event_words, option_card
from words import msg, say

#: A view's board as the data writes it (see the module's docstring).
Frame = int | list[int] | dict[str, Any]


@dataclass
class Strings:
    """Every distinct string of the page, once: ``index(text)`` is its place."""

    texts: list[str] = field(default_factory=list)
    _places: dict[str, int] = field(default_factory=dict)

    def index(self, text: str) -> int:
        """The place of ``text`` in :attr:`texts` (added at the end the first time)."""
        place = self._places.get(text)
        if place is None:
            place = self._places[text] = len(self.texts)
            self.texts.append(text)
        return place


@dataclass
class Blocks:
    """The board's blocks, each drawn once per distinct input and kept as its string index."""

    names: HtmlNames
    db: CardDB
    strings: Strings
    _drawn: dict[Hashable, int] = field(default_factory=dict)

    def _block(self, key: Hashable, draw: Any, *args: Any) -> int:
        found = self._drawn.get(key)
        if found is None:
            found = self._drawn[key] = self.strings.index(draw(*args))
        return found

    def board(self, table: TableView, view: SeatView | None) -> list[int]:
        """The board of ``table`` (a seat's own table for ``view``), as block indexes."""
        names, db = self.names, self.db
        head = (
            "head",
            table.turn,
            table.phase,
            table.order,
            table.final_mission,
            table.final_deck,
            table.crisis,
            table.over,
            table.winner,
            table.ending,
        )
        blocks = [self._block(head, board.head_block, table, names, db)]
        for party in table.parties:
            own = view is not None and party.seat == view.seat
            resisting = view.resisting if view is not None and own else party.resisting
            key = ("party", party, resisting)
            blocks.append(self._block(key, board.party_block, party, names, db, resisting))
        for region in table.regions:
            row = ("region", region, view is not None)
            blocks.append(self._block(row, board.region_block, view, region, names, db))
        foot = ("foot", table.decks, table.discards)
        blocks.append(self._block(foot, board.foot_block, table, db))
        if view is not None:
            own_key = (
                "own",
                view.seat,
                view.hand,
                view.missions,
                view.offered_characters,
                view.offered_advantages,
                view.scouted,
            )
            blocks.append(self._block(own_key, board.own_block, view, names, db))
        return blocks


def _frame(before: list[int] | None, now: list[int]) -> Frame:
    """``now`` written as what changed since ``before`` (the module's docstring)."""
    if before == now:
        return 0
    if before is None or len(before) != len(now):
        return now
    diff = [x for i, (a, b) in enumerate(zip(before, now, strict=True)) if a != b for x in (i, b)]
    return {"n": len(now), "d": diff} if len(diff) < len(now) else now


def _chosen(view: SeatView | None, action: str, names: HtmlNames, db: CardDB) -> str | None:
    """The words of ``action`` as the seat's decision offered it (None if it did not)."""
    prompt = view.prompt if view is not None else None
    if prompt is None:
        return None
    choice: ChoiceView | None = next((c for c in prompt.choices if c.action == action), None)
    if choice is None:
        return None
    region = view.table.party(view.seat).region if view is not None else None
    return names.text(choice_words(choice, db, option_card(choice, prompt, region)))


def _line(event: Event, names: HtmlNames, db: CardDB) -> str:
    """An event's line as HTML (worded from its kind and payload)."""
    worded = event_words(event.kind, event.data, names, db, bool(event.to))
    return html_of(worded if worded is not None else names.text(event.text), names)


def page_data(record: GameRecord, names: Mapping[str, str], cards: CardDB | None) -> dict[str, Any]:
    """The page's data for ``record`` (the module's docstring), said in the current language;
    ``names``: each seat's display name (a seat left out is named by its id)."""
    seats = tuple(record.players)
    html_names = HtmlNames(seats, dict(names))
    strings = Strings()
    steps: list[list[Any]] = []
    previous: list[list[int] | None] = [None] * (len(seats) + 1)
    views: list[SeatView | None] = [None] * len(seats)
    game: Game | None = None
    blocks: Blocks | None = None
    for game, step in replay_steps(record, cards=cards):
        db = game.db
        if blocks is None:
            blocks = Blocks(html_names, db, strings)
        actor = seats.index(step.player) if step.player in seats else -1
        chosen = None
        if step.player is not None and step.action is not None:
            if step.timeout:
                chosen = html_of(say(msg("replay.timeout")), html_names)
            else:
                words = _chosen(views[actor], step.action, html_names, db)
                chosen = fill(
                    html_names, "replay.chose", choice=html_of(words or step.action, html_names)
                )
        table = game.table_view()
        seen = [game.seat_view(s, sealed=False, table=table) for s in seats]
        views = list(seen)
        boards = [blocks.board(table, None)] + [blocks.board(v.table, v) for v in seen]
        frames = [_frame(before, now) for before, now in zip(previous, boards, strict=True)]
        previous = list(boards)
        lines: list[int | list[int]] = []
        for event in step.events:
            place = strings.index(_line(event, html_names, db))
            if event.to is None:
                lines.append(place)
            else:
                mask = sum(1 << seats.index(s) for s in event.to if s in seats)
                lines.append([place, mask])
        steps.append([actor, -1 if chosen is None else strings.index(chosen), lines, frames])
    assert game is not None  # the setup is always a step
    card_texts = _card_texts(strings.texts, game.db)
    return {
        "seats": [html_names.seat_html(s) for s in seats],
        "labels": [html_names.label(s) for s in seats],
        "strings": strings.texts,
        "steps": steps,
        "cards": card_texts,
    }


def _card_texts(texts: list[str], db: CardDB) -> dict[str, str]:
    """Each card named on the page: its text in the current language (shown on hover)."""
    shown = {c for t in texts for c in _card_ids(t)}
    return {c: card_text(db, c) for c in sorted(shown) if c in db.by_id}


def _card_ids(text: str) -> list[str]:
    marker = 'data-c="'
    out = []
    start = text.find(marker)
    while start >= 0:
        end = text.find('"', start + len(marker))
        out.append(text[start + len(marker) : end])
        start = text.find(marker, end)
    return out
