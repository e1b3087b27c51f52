"""The board's picture is drawn from the public table alone (issue 23): its signature takes a
:class:`engine.TableView` and nothing that holds a seat's secrets; drawn from any seat's own
table it is the same picture, byte for byte; the cards it reads and the words of its alt text
name nothing hidden from the table (``engine.visibility.hidden_from``); and it stays within
Discord's limits (≤ 250 KB, alt text ≤ 1,024 characters in the reader's language)."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from pictures.positions import BOARD_ACTION, NAMES, SEATS, SECRET_ACTIONS, position, positions

import words
from bot.pictures import ALT_LIMIT, BYTES_LIMIT, board_digest, draw_board
from bot.pictures.board_alt import board_alt
from engine import CardDB, SeatView, TableView, seat_view
from engine.cards import default_cards
from engine.game import Game
from engine.visibility import hidden_from
from wording.table import phase_text

DB = default_cards()


def test_the_board_takes_the_public_table_and_nothing_secret() -> None:
    hints = typing.get_type_hints(draw_board)
    params = list(inspect.signature(draw_board).parameters)
    assert params == ["view", "db", "names", "language"]
    assert hints["view"] is TableView
    secret = (SeatView, Game)
    for name in params:
        assert not any(t in secret for t in typing.get_args(hints[name]) or (hints[name],))


@pytest.mark.parametrize("at", [BOARD_ACTION, *SECRET_ACTIONS])
def test_every_seats_table_draws_the_public_board(at: int) -> None:
    game, _ = position(at=at)
    public = game.table_view()
    tables = [seat_view(game, s, sealed=False).table for s in SEATS]
    # The seats' own tables hold secrets here (their Traps, what they scouted): else this
    # test would prove nothing.
    assert any(t != public for t in tables)
    assert any(r.own_traps or r.preliminary_state == "known" for t in tables for r in t.regions)
    expected = draw_board(public, DB, NAMES, "en")
    for table in tables:
        drawn = draw_board(table, DB, NAMES, "en")
        assert drawn.png == expected.png
        assert drawn.alt == expected.alt
        assert board_digest(table, NAMES, "en") == board_digest(public, NAMES, "en")


class RecordingDB(CardDB):
    """The card database, recording every card the drawing looks up."""

    def __init__(self, db: CardDB) -> None:
        super().__init__(db)
        self.read: set[str] = set()
        self.by_id = _Recording(self.by_id, self.read)


class _Recording(dict[str, Any]):
    def __init__(self, cards: dict[str, Any], read: set[str]) -> None:
        super().__init__(cards)
        self.read = read

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)


def _positions() -> Iterator[Game]:
    yield from (game for game, _ in positions(4, (BOARD_ACTION, *SECRET_ACTIONS), 60).values())


def _names(card_ids: set[str], language: str) -> set[str]:
    return {words.card_name(c, DB[c].name, language) for c in card_ids} | {
        DB[c].name for c in card_ids
    }


def _masked(text: str, public: set[str]) -> str:
    """``text`` without the names of public cards (longest first: a hidden card's name
    inside a public one's is not that card)."""
    for name in sorted(public, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_board_reads_and_says_nothing_hidden(language: str) -> None:
    checked = 0
    for game in _positions():
        hidden = hidden_from(game.s, None)
        db = RecordingDB(DB)
        view = game.table_view()
        picture = draw_board(view, db, NAMES, language)
        assert not db.read & hidden, sorted(db.read & hidden)
        public = _names(set(DB.by_id) - hidden, language)
        # Words printed on the Regions shown (a guard's name) are public too.
        public |= {
            words.card_words(r.card, DB.region(r.card).guard.name, language)
            for r in view.regions
            if DB.region(r.card).guard is not None
        }
        said = _masked(picture.alt, public)
        leaked = [n for n in _names(hidden, language) if n in said]
        assert not leaked, leaked
        assert len(picture.png) <= BYTES_LIMIT
        assert len(picture.alt) <= ALT_LIMIT
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("language", ["en", "es", "ru", "it"])
def test_the_alt_text_is_in_the_readers_language(language: str) -> None:
    game, _ = position()
    view = game.table_view()
    with words.speaking(language):
        phase = phase_text(view.phase)
        alt = board_alt(view, DB, NAMES)
    picture = draw_board(view, DB, NAMES, language)
    assert picture.alt == alt
    assert picture.alt.startswith(phase)
    assert 0 < len(picture.alt) <= ALT_LIMIT
    cyrillic = sum("\u0400" <= ch <= "\u04ff" for ch in picture.alt.replace(NAMES["P2"], ""))
    assert (cyrillic > 20) == (language == "ru")


def test_the_digest_follows_what_is_drawn() -> None:
    game, _ = position()
    view = game.table_view()
    digest = board_digest(view, NAMES, "en")
    # Not drawn: the decks, the discard piles, the state's version.
    same = view.model_copy(update={"decks": (), "discards": (), "version": view.version + 5})
    assert board_digest(same, NAMES, "en") == digest
    # Drawn: the countdown, a name, the language.
    assert board_digest(view.model_copy(update={"crisis": 1}), NAMES, "en") != digest
    assert board_digest(view, {**NAMES, "P1": "Alicia"}, "en") != digest
    assert board_digest(view, NAMES, "es") != digest
