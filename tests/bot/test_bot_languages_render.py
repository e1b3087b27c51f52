"""Every word of the board, the private panels, the cards, the choices, the events and the
notices comes from the catalogs, and each message is said in its reader's language (issue 22).

The proof is pseudo-localization: with the words of every template of the catalogs wrapped
in ⟦…⟧ (not its arguments) and every card's own words (name, text, printed words) in ⟪…⟫,
whatever the renderer and the publisher send holds no letter outside them but the players'
names. A word written in the
code (English left behind) would show outside. The languages themselves are tried with small
fake catalogs: a member's DM in his language while the board is in the game's, and a card in
our translation marked as such.
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
from anima_sim import World, board_text, components, start_game
from discord import ui
from fake_discord import FakeChannel, FakeStorage, publisher
from replay_pages import unpack
from test_bot_event_messages import SAMPLES
from test_bot_render import check_embed, check_view, table_for
from test_bot_render_expansions import DB as EXPANSION_DB
from test_bot_render_expansions import ROW as EXPANSION_ROW
from test_bot_render_expansions import table as expansion_table
from test_replay import simulated

import bot.rendering.cards as rendering_cards
import wording.cards
import words
import words.cards
from bot import history, rendering
from bot.components.answers import error_text
from bot.components.choices import AutoPassSelect, ChoiceSelect
from bot.components.end import end_view
from bot.components.game_views import (
    autopass_options,
    board_view,
    private_view,
    reclaim_view,
    refresh_view,
)
from bot.panels import outdated_text, stopped_text
from bot.rendering.events import EVENT_MESSAGES
from bot.storage import EventRow, SeatRow
from bot.table import no_game
from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.tools.replay import record_from
from engine.tools.simulate import play_game
from engine.views import SeatView
from replay_viewer import replay_page
from wording.event_context import Context
from words import Message, catalog, speaking
from words.catalogs import Catalog

DB = default_cards()
ALL_SETS = ["shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods"]
#: The players' display names (table_for names a seat "Player <seat> xxx…"), and the card
#: id of the event samples' card that is in no database (said as its id).
NAMES = re.compile(r"Player P[0-9] x+|Alice|Bob|no_such_card")
#: Discord's markup: times, mentions, channels.
MARKUP = re.compile(r"<t:[0-9]+(?::[a-zA-Z])?>|<@!?[0-9]+>|<#[0-9]+>")
#: A template (or a card's words) with no other inside, closed or cut at a line's end.
WRAPPED = re.compile(r"⟦[^⟦⟧]*(?:⟧|$)|⟪[^⟪⟫]*(?:⟫|$)", re.M)


# ---------------------------------------------------------------------- pseudo-localization


def test_a_word_outside_the_catalogs_is_found() -> None:
    assert leftover("⟦Decks: ⟦x⟧⟧ 3 · ⟪Acrobat⟫ **Alice** <t:12:R> 🎲") == []
    assert leftover("⟦Reaction window⟧ Waiting for **Bob**.") == ["Waiting", "for"]
    assert leftover("⟦A long template cut…") == []  # clipped inside a template


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every template's words said in ⟦…⟧ (its arguments left outside, where an argument in
    words would show), every card's own words in ⟪…⟫."""
    form = Catalog.form

    def wrapped(self: Catalog, id: str, n: int | None) -> str:
        out = []
        for literal, field, spec, conversion in string.Formatter().parse(form(self, id, n)):
            if literal:
                out.append("⟦" + literal.replace("{", "{{").replace("}", "}}") + "⟧")
            if field is not None:
                out.append("{" + field + (f"!{conversion}" if conversion else ""))
                out.append((f":{spec}" if spec else "") + "}")
        return "".join(out)

    def card(english: str) -> str:
        return f"⟪{english}⟫" if english else english

    monkeypatch.setattr(Catalog, "form", wrapped)
    monkeypatch.setattr(words, "card_name", lambda _id, english, language=None: card(english))
    monkeypatch.setattr(words, "card_text", lambda _id, english, language=None: card(english))
    monkeypatch.setattr(words, "card_words", lambda _id, english, language=None: card(english))
    monkeypatch.setattr(wording.cards, "any_card_words", lambda english: card(english))


def leftover(*texts: str) -> list[str]:
    """The words of ``texts`` outside every template and card's words, names and markup."""
    found = []
    for text in texts:
        text = MARKUP.sub(" ", NAMES.sub(" ", text))
        while True:
            shorter = WRAPPED.sub(" ", text)
            if shorter == text:
                break
            text = shorter
        found += re.findall(r"[^\W\d_]{2,}", text)
    return found


def embed_texts(embed: discord.Embed) -> list[str]:
    texts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for f in embed.fields:
        texts += [f.name or "", f.value or ""]
    return texts


def view_texts(view: discord.ui.View | discord.ui.LayoutView | None) -> list[str]:
    """Every label, placeholder, option, text and alt text a view shows (components V2's
    nested ones too)."""
    if view is None:
        return []
    texts: list[str] = []

    def read(components: list[dict[str, Any]]) -> None:
        for c in components:
            texts.extend([c.get("label") or "", c.get("placeholder") or ""])
            texts.append(c.get("content") or "")  # a text display (components V2)
            for o in c.get("options", []):
                texts.extend([o["label"], o.get("description") or ""])
            texts.extend(item.get("description") or "" for item in c.get("items", []))
            read(c.get("components") or [])

    read(view.to_components())
    return texts


def assert_all_said(texts: list[str]) -> None:
    assert any("⟦" in t for t in texts), "the catalogs were not asked"
    left = leftover(*texts)
    assert not left, (left[:10], [t for t in texts if leftover(t)][:3])


def events_of(game: Game, events: list[Event], first_id: int = 1) -> list[EventRow]:
    return [
        EventRow(first_id + i, 42, game.version, e.kind, e.text, e.to, dict(e.data))
        for i, e in enumerate(events)
    ]


def check_state(game: Game, events: list[Event]) -> None:
    """The board, its buttons, every panel and every line of the batch, said by the catalog."""
    table = table_for(game, ai={game.s.seats[-1]})
    names = table.names
    view = game.table_view()
    texts = embed_texts(rendering.board_embed(view, game.db, table.row, table.seats))
    texts += view_texts(board_view(table))
    rows = events_of(game, events)
    for seat in table.seats.values():
        autopass = frozenset({"move_declared", "reset"})
        private = [r for r in rows if r.recipients and seat.seat in r.recipients]
        hand = rendering.hand_embed(
            game.seat_view(seat.seat), game.db, table.row, seat, names, private, autopass=autopass
        )
        texts += embed_texts(hand) + view_texts(private_view(table, seat, autopass))
    texts += [rendering.event_line(e, names, game.db) for e in rows]
    assert_all_said(texts)


@pytest.mark.usefixtures("pseudo")
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    "options",
    [{"open_rolls": True, "tree_of_regions": "soo"}, {"sets": ALL_SETS}],
    ids=["first set", "three sets"],
)
async def test_boards_panels_buttons_and_events_say_only_the_catalogs_words(
    options: dict[str, Any], seed: int
) -> None:
    players = 3 + seed
    result = play_game(seed, players=players, turn_cap=4, options=options, observe=check_state)
    assert result.error is None, result.traceback


@pytest.mark.usefixtures("pseudo")
def test_the_expansions_marks_and_every_card_say_only_the_catalogs_words() -> None:
    seats = {
        "p1": SeatRow(42, "p1", 0, 100, "Alice", ai=True),  # taken over by the AI
        "p2": SeatRow(42, "p2", 1, 101, "Bob"),
    }
    names = rendering.Names(seats)
    view = expansion_table(("unleashed_danger",))
    texts = embed_texts(rendering.board_embed(view, EXPANSION_DB, EXPANSION_ROW, seats))
    seat_view = SeatView(seat="p1", table=view, hand=("abel",), missions=())
    hand = rendering.hand_embed(seat_view, EXPANSION_DB, EXPANSION_ROW, seats["p1"], names)
    texts += embed_texts(hand)
    for db in (DB, EXPANSION_DB):
        for card in db:
            texts += embed_texts(rendering.card_embed(db, card.id))
            texts.append(rendering.card_kind(card))
        for card in db.advantages:
            texts.append(rendering.hand_choice_label(db, card.id, True))
    assert_all_said(texts)


@pytest.mark.usefixtures("pseudo")
def test_every_event_kinds_line_says_only_the_catalogs_words() -> None:
    names = rendering.Names(
        {"p1": SeatRow(1, "p1", 1, 101, "Alice"), "p2": SeatRow(1, "p2", 2, 102, "Bob")}
    )
    lines = []
    samples = {
        **SAMPLES,
        "timeout": [*SAMPLES["timeout"], {"player": "p1", "choice": "Rest", "action": "rest"}],
    }
    for kind, payloads in samples.items():
        for data in payloads:
            if kind == "timeout" and data.get("choice") and "action" not in data:
                # The public time-out's label, stored in English by bot.games.turns without
                # its action: the one line the renderer cannot word again.
                continue
            for private in (False, True):
                line = EVENT_MESSAGES[kind](data, Context(names, DB, kind, private))
                lines.append(words.say(line) if isinstance(line, Message) else line)
    assert_all_said(lines)


@pytest.mark.usefixtures("pseudo")
async def test_the_end_the_log_the_history_and_the_components_say_only_the_catalogs_words() -> None:
    states: list[tuple[Game, list[Event]]] = []

    def keep(game: Game, events: list[Event]) -> None:
        states.append((game.clone(), list(events)))

    result = play_game(5, players=3, turn_cap=2, observe=keep)
    assert result.error is None, result.traceback
    game = states[-1][0]
    assert game.over
    table = table_for(game)
    table.row.status = "over"
    rows = [r for g, e in states for r in events_of(g, e)]
    secrets = history.secrets(game, [])
    scores = {s: {"completed_missions": 1} for s in game.s.seats}
    over = {"tiebreak": "die_roll", "scores": scores, "rolls": {game.s.seats[0]: [3, 5]}}
    texts = embed_texts(
        rendering.summary_embed(game.table_view(), DB, table.row, table.seats, secrets, over)
    )
    texts += embed_texts(rendering.log_embed(42, rows, table.names, DB, game.s.seats[0]))
    texts += embed_texts(rendering.log_embed(42, [], table.names, DB, None))
    texts.append(history.log_markdown(table.row, list(table.seats.values()), rows, secrets, game))
    texts += [outdated_text(), stopped_text(), error_text(), no_game()]
    texts += view_texts(end_view(42)) + view_texts(refresh_view(42)) + view_texts(reclaim_view(42))
    texts += view_texts(_holding(ChoiceSelect(42, 1, 0, [discord.SelectOption(label="0")])))
    texts += view_texts(_holding(AutoPassSelect(42, autopass_options(frozenset()))))
    texts += view_texts(_holding(AutoPassSelect(42, autopass_options(frozenset({"reset"})))))
    texts += [rendering.ai_away(), rendering.paused_text(), rendering.Names({}).label(None)]
    assert_all_said(texts)


@pytest.mark.usefixtures("pseudo")
def test_the_replay_page_says_only_the_catalogs_words() -> None:
    game, log = simulated(5, 3, 2)
    page = replay_page(record_from(game, log), {"P1": "Alice", "P2": "Bob"})
    data = unpack(page)
    # What the page shows: its text outside the style, the script and the data; each string
    # of the data (a board's block, a line) without its tags; the labels; the cards' texts.
    static = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    # A label's {places} are the script's to fill, with a step's number or a seat's name.
    labels = [re.sub(r"\{\w+\}", " ", str(v)) for v in data["labels"].values()]
    texts = [static, *data["strings"], *labels, *data["cards"].values()]
    shown = [html.unescape(re.sub(r"<[^>]+>", " ", str(t))) for t in texts]
    assert_all_said(shown)


def _holding(item: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View()
    view.add_item(item)
    return view


# ---------------------------------------------------------------------- the publisher's notices


def sent_texts(channel: FakeChannel) -> list[str]:
    texts = []
    for fields in channel.sent:
        texts.append(fields.get("content") or "")
        for embed in [fields.get("embed"), *(fields.get("embeds") or [])]:
            if embed is not None:
                texts += embed_texts(embed)
        texts += view_texts(fields.get("view"))
    return texts


def states_with_private_events(seed: int = 1) -> Iterator[tuple[Game, list[Event]]]:
    """Copies of a game after each action that told somebody something privately, or
    opened decisions for several seats (the secret start, a reaction window)."""
    kept: list[tuple[Game, list[Event]]] = []

    def keep(game: Game, events: list[Event]) -> None:
        if any(e.to for e in events) or len(game.pending()) > 1:
            kept.append((game.clone(), list(events)))

    result = play_game(seed, players=3, turn_cap=2, options={"sets": ALL_SETS}, observe=keep)
    assert result.error is None, result.traceback
    yield from kept[:: max(1, len(kept) // 25)]


@pytest.mark.usefixtures("pseudo")
async def test_the_publishers_lines_dms_and_notices_say_only_the_catalogs_words() -> None:
    texts: list[str] = []
    for game, events in states_with_private_events():
        p, client = publisher()
        table = table_for(game)
        table.row.published_version = -1  # every open decision is new: its line is posted
        p.track(42)
        p.queue(42, events_of(game, events))
        await p.publish(table, actor=None)
        await p.post_pings(table, list(table.seats.values()))
        await p._tell_closed_dms(table, next(iter(table.seats.values())))
        await p.send_starts(table)
        texts += sent_texts(client.channel)
        for dm in client.dms.values():
            texts += sent_texts(dm)
    p, client = publisher()
    await p.report_broken(table.row, words.msg("notice.reason.event", event=12))
    await p.announce_end(table.row, 100)
    texts += sent_texts(client.channel)
    assert len(texts) > 100
    assert_all_said(texts)


# ---------------------------------------------------------------------- the languages


FAKE = {
    "es": {
        "board.title": "Anima · partida n.º {game}",
        "notice.game": "Partida n.º {game}",
        "hand.title": "Tu mano · partida n.º {game}",
        "button.hand": "Mi mano",
        "card.our_translation": "{mark} nuestra traducción de la carta",
    },
    "ru": {"notice.game": "Игра №{game}", "hand.title": "Твои карты · игра №{game}"},
}
FAKE_CARDS = {"es": {"acrobat.name": "Acróbata", "acrobat.text": "Una acróbata que corre."}}


@pytest.fixture
def fake_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    """A few words in Spanish and Russian (the real catalogs are the translators')."""
    real = catalog

    def fake(language: str, cards: bool = False) -> Catalog:
        table = (FAKE_CARDS if cards else FAKE).get(language)
        if table is None:
            return real(language, cards)
        return Catalog(language, dict(table), "(n != 1)")

    monkeypatch.setattr(words, "catalog", fake)
    monkeypatch.setattr(words.cards, "catalog", fake)


def test_an_unknown_language_is_said_in_english() -> None:
    game = Game.new(["P1", "P2", "P3"], seed=2)
    table = table_for(game)
    seat = table.seats["P1"]

    def drawn() -> list[Any]:
        view = game.table_view()
        hand = rendering.hand_embed(game.seat_view("P1"), DB, table.row, seat, table.names)
        return [
            rendering.board_embed(view, DB, table.row, table.seats).to_dict(),
            {**hand.to_dict(), "timestamp": None},
            rendering.card_embed(DB, "acrobat").to_dict(),
            view_texts(private_view(table, seat)),
            view_texts(board_view(table)),
        ]

    english = drawn()
    with speaking("xx"):
        assert drawn() == english


@pytest.mark.usefixtures("fake_languages")
def test_a_card_in_our_translation_is_marked_and_a_stand_in_stays_marked() -> None:
    acrobat = DB["acrobat"]
    assert acrobat.is_stand_in
    english = rendering.card_embed(DB, "acrobat")
    with speaking("es"):
        spanish = rendering.card_embed(DB, "acrobat")
        line = rendering_cards.card_line(DB, "acrobat")
        other = rendering.card_embed(DB, "sorcerer")  # not translated: English, unmarked
    assert english.title == "Acrobat" and "🌐" not in (english.footer.text or "")
    assert spanish.title == "Acróbata" and spanish.description == "Una acróbata que corre."
    assert "🌐 nuestra traducción de la carta" in (spanish.footer.text or "")
    # The stand-in's note stays in every language (English where Spanish lacks it).
    assert (spanish.footer.text or "").startswith("Stand-in text")
    assert line.startswith("**Acróbata** ◇ 🌐 · ")
    assert other.title == "Sorcerer" and "🌐" not in (other.footer.text or "")


@pytest.mark.usefixtures("fake_languages")
async def test_the_board_is_in_the_games_language_and_each_dm_in_its_readers() -> None:
    kept = [(g, e) for g, e in states_with_private_events(2) if any(x.to for x in e)]
    game, events = kept[0]
    p, client = publisher(languages={100: "ru", 101: "es", 102: "en"})
    table = table_for(game)
    table.row.language = "es"
    told = {r for e in events if e.to for r in e.to}
    p.track(42)
    p.queue(42, events_of(game, events))
    await p.publish(table, actor=None)
    board = next(f for f in client.channel.sent if isinstance(f.get("view"), ui.LayoutView))
    said = view_texts(board["view"])
    assert any(t.startswith("### Anima · partida n.º 42 · ") for t in said)
    assert "Mi mano" in said
    headers = {user: dm.sent[0]["content"].split("\n")[0] for user, dm in client.dms.items()}
    want = {100: "**Игра №42**", 101: "**Partida n.º 42**", 102: "**Game #42**"}
    assert headers == {table.seats[s].user_id: want[table.seats[s].user_id or 0] for s in told}
    # A panel is in its owner's language, whoever renders it.
    for seat, title in (("P1", "Твои карты"), ("P2", "Tu mano"), ("P3", "Your hand")):
        embed, _ = await p.panels.parts(table, table.seats[seat])
        assert (embed.title or "").startswith(title)


async def test_a_click_is_answered_in_the_clickers_language(
    monkeypatch: pytest.MonkeyPatch, fake_languages: None
) -> None:
    from bot.components import answers

    said: list[str] = []

    async def work() -> None:
        said.append(rendering.Names({}).label(None) + "|" + words.current())

    storage = FakeStorage({7: "ru"})
    interaction = SimpleNamespace(
        client=SimpleNamespace(storage=storage), user=SimpleNamespace(id=7), locale="es-ES"
    )
    await answers.guarded(interaction, work)  # type: ignore[arg-type]
    interaction.user.id = 8  # no choice of his own: his Discord locale decides
    await answers.guarded(interaction, work)  # type: ignore[arg-type]
    assert [s.split("|")[1] for s in said] == ["ru", "es"]


async def test_through_the_bot_the_table_reads_the_games_language_and_each_member_his_own(
    w: World, simcord_env: simcord.Env, fake_languages: None
) -> None:
    """A game in Spanish: alice reads Russian (her choice), bob English (his Discord locale);
    the board a click posts is in Spanish."""
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    bot = simcord_env.bot
    await bot.storage.set_member_language(w.alice.id, "ru")  # type: ignore[attr-defined]
    table = await bot.games.load(game_id)  # type: ignore[attr-defined]
    table.row.language = "es"  # the lobby's option (the game is in memory)
    board = next(m for m in reversed(w.table.history()) if any(c.label for c in components(m)))
    mine = await w.alice.click(board, custom_id=f"anima:{game_id}:hand")
    assert mine.response is not None and mine.response.embeds
    assert (mine.response.embeds[0].title or "").startswith("Твои карты · игра №")
    theirs = await w.bob.click(board, custom_id=f"anima:{game_id}:hand")
    assert theirs.response is not None
    assert (theirs.response.embeds[0].title or "").startswith("Your hand · game #")
    # Alice takes her start from her panel: the board posted or edited after it is Spanish.
    choice = next(c for c in components(mine.response) if c.custom_id.count(":") == 3)
    await w.alice.click(mine.response, custom_id=choice.custom_id)
    titles = [board_text(m).removeprefix("### ") for m in w.table.history() if board_text(m)]
    assert titles[-1].startswith(f"Anima · partida n.º {game_id} · "), titles[-3:]
    assert "Mi mano" in {c.label for c in components(w.table.history()[-1])}


# ---------------------------------------------------------------------- Discord's limits


@pytest.fixture
def verbose(monkeypatch: pytest.MonkeyPatch) -> None:
    """A language three times as wordy as English, whose cards' words are twice as long."""
    form = Catalog.form

    def longer(self: Catalog, id: str, n: int | None) -> str:
        out = []
        for literal, field, _spec, _conversion in string.Formatter().parse(form(self, id, n)):
            out.append(literal.replace("{", "{{").replace("}", "}}") * 3)
            if field is not None:
                out.append("{" + field + "}")
        return "".join(out)

    def card(english: str) -> str:
        return f"{english} {english}" if english else english

    monkeypatch.setattr(Catalog, "form", longer)
    monkeypatch.setattr(words, "card_name", lambda _id, english, language=None: card(english))
    monkeypatch.setattr(words, "card_text", lambda _id, english, language=None: card(english))
    monkeypatch.setattr(words, "card_words", lambda _id, english, language=None: card(english))
    monkeypatch.setattr(wording.cards, "any_card_words", lambda english: card(english))


def check_limits(game: Game, _events: list[Event]) -> None:
    table = table_for(game, ai={game.s.seats[-1]})
    check_embed(rendering.board_embed(game.table_view(), game.db, table.row, table.seats))
    views = [board_view(table)]
    for seat in table.seats.values():
        autopass = frozenset({"move_declared", "battle_start", "interaction"})
        hand = rendering.hand_embed(
            game.seat_view(seat.seat), game.db, table.row, seat, table.names, autopass=autopass
        )
        check_embed(hand)
        views.append(private_view(table, seat, autopass))
    for view in views:
        check_view(view)
        for row in view.to_components() if view is not None else []:
            for c in row["components"]:
                assert len(c.get("placeholder") or "") <= 150
                assert all(len(o.get("description") or "") <= 100 for o in c.get("options", []))


@pytest.mark.usefixtures("verbose")
async def test_a_wordier_language_keeps_within_discords_limits() -> None:
    result = play_game(4, players=5, turn_cap=3, options={"sets": ALL_SETS}, observe=check_limits)
    assert result.error is None, result.traceback
    for card in DB:
        check_embed(rendering.card_embed(DB, card.id))
        assert len(rendering.hand_choice_label(DB, card.id, True)) <= 100
