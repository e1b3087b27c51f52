"""Views (what each seat may see), choice labels, event payloads, agents, ``Game.clone`` and
``determinize`` (issue 7, section 1)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any, get_args

import pytest
from pydantic import BaseModel, ValidationError
from rules.expansion_advantage_cards import ALL_SETS
from rules.expansion_advantage_cards import expansion_db as advantage_db
from rules.expansion_cards import expansion_db as arcane_db

from engine.agents import Agent, RandomAgent
from engine.cards import effects as fx
from engine.determinize import determinize
from engine.errors import IllegalAction
from engine.event_kinds import EVENT_PAYLOADS, payload_errors
from engine.events import Event
from engine.game import Game
from engine.prompts import PLAY_KINDS, PRIVATE_KINDS, Prompt
from engine.state import Frame
from engine.tools.simulate import play_game
from engine.views import (
    CARD_SECTIONS,
    SeatView,
    TableView,
    choose_options,
    lazy_seat_view,
)

OPTIONS: list[dict[str, Any]] = [
    {},
    {"tree_of_regions": "soo", "open_rolls": True},
    {"tree_of_regions": "bge", "party_tie": "stands", "final_reveal": "immediate"},
    {"both_missions": True, "crisis": False},
]


def games(count: int, every: int = 5, turn_cap: int = 12) -> Iterator[Game]:
    """Random games, yielded every ``every`` actions (the same objects, moving on)."""
    for seed in range(count):
        game = Game.new(
            ["A", "B", "C", "D"][: 2 + seed % 3],
            {"turn_cap": turn_cap, **OPTIONS[seed % len(OPTIONS)]},
            seed=seed,
        )
        agent = RandomAgent(seed)
        step = 0
        while not game.over:
            if step % every == 0:
                yield game
            prompt = game.pending()[int(agent.random() * len(game.pending()))]
            game.apply(prompt.player, agent.choose(lazy_seat_view(game, prompt.player), prompt))
            step += 1
        yield game


def hidden_from(game: Game, seat: str | None) -> set[str]:
    """Card ids ``seat`` (None: the table) may not see."""
    s = game.s
    out: set[str] = set()
    for name, p in s.players.items():
        if name != seat:
            out.update(p.hand, p.missions, p.offered_characters, p.offered_advantages)
            out.update(m for m in p.resisting if m in p.missions)
            if s.phase == "setup":
                out.update(c.card for c in p.party)
    for pile in s.decks.values():
        out.update(pile)
    out.update(s.set_aside, s.final_deck)
    for r in s.regions:
        if r.preliminary and not r.revealed and (seat is None or seat not in r.peeked):
            out.add(r.preliminary)
    return out


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def card_places(game: Game) -> Counter[str]:
    """How many times each card sits in the state's card zones."""
    s = game.s
    places: Counter[str] = Counter()
    for pile in (*s.decks.values(), *s.discards.values(), s.set_aside, s.final_deck):
        places.update(pile)
    if s.final_mission:
        places[s.final_mission] += 1
    for r in s.regions:
        places[r.card] += 1
        if r.preliminary:
            places[r.preliminary] += 1
    for p in s.players.values():
        places.update(c.card for c in p.party)
        for zone in (p.hand, p.missions, p.started, p.completed, p.in_play):
            places.update(zone)
        places.update(p.offered_characters + p.offered_advantages)
    return places


# ------------------------------------------------------------------------------ views


def test_views_show_nobody_a_card_hidden_from_him() -> None:
    # The sets in play are named by their ids, and the Encounter "Shadow of Omega" has its
    # set's id: the field holds the options' sets (checked here), never a card.
    not_cards = {"sets": True}
    for game in games(6):
        table = game.table_view()
        assert table.sets == tuple(game.s.options.sets)
        leaked = hidden_from(game, None) & set(strings(table.model_dump(exclude=not_cards)))
        assert not leaked, f"the table view shows {sorted(leaked)}"
        for seat in game.s.seats:
            view = game.seat_view(seat)
            hidden = hidden_from(game, seat)
            shown = set(strings(view.model_dump(exclude={"sealed": True, "table": not_cards})))
            assert not hidden & shown, f"{seat}'s view shows {sorted(hidden & shown)}"
            sealed = json.loads(view.sealed.state)
            in_sealed = {x for key in CARD_SECTIONS for x in strings(sealed[key])}
            assert not hidden & in_sealed, f"{seat}'s sealed table holds {hidden & in_sealed}"
            assert sealed["rng"] == 0 and sealed["rigged"] == []


def test_S3_nobody_sees_another_leader_during_setup() -> None:
    game = Game.new(["A", "B"], seed=4)
    leader = game.prompt_for("A").choices[0]  # type: ignore[union-attr]
    game.apply("A", leader)
    assert game.seat_view("B").table.party("A").hidden
    assert game.seat_view("B").table.party("A").characters == ()
    assert game.table_view().party("A").strength is None
    mine = game.seat_view("A").table.party("A")
    assert not mine.hidden and mine.characters[0].card == leader.split()[1]


def test_F1_a_secret_resistance_mission_shows_as_secret() -> None:
    game = Game.new(["A", "B"], seed=4)
    secret, open_ = "courier_of_silver_harbor", "guard_the_lost_ruins"
    game.s.players["A"].missions = [secret]
    game.s.players["A"].resisting = {secret: 1, open_: 2}
    assert game.seat_view("B").table.party("A").resisting == (("secret", 1), (open_, 2))
    assert game.seat_view("A").resisting == ((secret, 1), (open_, 2))
    assert secret not in str(game.seat_view("B").model_dump(exclude={"sealed"}))


def test_the_table_view_says_what_the_board_shows() -> None:
    game = Game.new(["A", "B", "C"], seed=2)
    while game.table_view().phase == "setup":
        prompt = game.pending()[0]
        game.apply(prompt.player, prompt.default)
    view = game.table_view()
    assert isinstance(view, TableView) and view.version == game.version > 0
    assert [p.seat for p in view.parties] == ["A", "B", "C"]
    assert all(p.strength is not None and p.hand_count == 3 for p in view.parties)
    assert all(r.preliminary_state == "face_down" and r.preliminary is None for r in view.regions)
    assert [w.player for w in view.waiting] == [p.player for p in game.pending()]
    with pytest.raises(ValidationError):
        view.turn = 9  # type: ignore[misc]
    with pytest.raises(IllegalAction):
        game.seat_view("Z")


def test_choice_labels_and_publicity_come_from_the_engine() -> None:
    kinds: Counter[str] = Counter()
    for game in games(8, every=1, turn_cap=10):
        if game.over:
            continue
        public = game.table_view().public_cards()
        for prompt in game.pending():
            view = game.prompt_view(prompt.player)
            assert view is not None and [c.action for c in view.choices] == prompt.choices
            options = choose_options(game) if prompt.kind == "pick" else None
            for c in view.choices:
                head, _, arg = c.action.partition(" ")
                kinds[head] += 1
                assert c.label and c.label != c.action, c
                if head == "pick" and arg.isdigit() and options:
                    assert c.label == options[int(arg)]  # the choose effect's own labels
                if c.public:
                    assert prompt.kind not in PRIVATE_KINDS
                    assert arg not in game.db.by_id or arg in public
            if prompt.kind in PRIVATE_KINDS:
                assert view.public_text != prompt.text or not view.choices
    assert {"go", "play", "attack", "reward", "pass", "done"} <= set(kinds)


def test_the_choose_effect_labels_its_options_from_the_card() -> None:
    game = Game.new(["A", "B"], seed=1)
    wizard = game.db["wizard"]
    path: list[Any] = ["abilities", 0, "effects"]
    choose = wizard.abilities[0].effects[0]  # type: ignore[attr-defined]
    assert isinstance(choose, fx.Choose)
    game.s.stack.append(Frame(kind="effects", card="wizard", data={"path": path, "i": 0}))
    game.s.prompts = [
        Prompt(player="A", kind="pick", text="t", choices=["pick 0", "pick 1"], default="pick 0")
    ]
    labels = [o.label for o in choose.options]
    view = game.prompt_view("A")
    assert view is not None and [c.label for c in view.choices] == labels


# ------------------------------------------------------------------------------ events


def test_every_event_carries_its_kinds_declared_payload() -> None:
    seen: set[str] = set()
    errors: list[str] = []

    def check(events: list[Event]) -> None:
        for e in events:
            seen.add(e.kind)
            error = payload_errors(e)
            if error:
                errors.append(error)

    for seed in range(12):
        opts = OPTIONS[seed % len(OPTIONS)]
        result = play_game(seed, 2 + seed % 4, 40, opts, observe=lambda g, ev: check(ev))
        assert result.error is None, result.error
        check(Game.new(["A", "B"], opts, seed=seed).last_events)
    # The expansions' mechanics, with the rule tests' stand-in cards (Arcane characters,
    # Flee, M10; Traps, Incidents, Factions, Artifacts, guards).
    for db in (arcane_db(), advantage_db()):
        for seed in range(4):
            sets = {"sets": list(ALL_SETS)}
            result = play_game(seed, 3, 12, sets, cards=db, observe=lambda g, ev: check(ev))
            assert result.error is None, result.error
    game = Game.new(["A", "B"], seed=3)
    check(game.timeout("A"))
    assert not errors, errors[:5]
    assert len(seen) > 0.8 * len(EVENT_PAYLOADS)
    assert payload_errors(Event(kind="move", text="", data={"player": "A"})) is not None
    assert payload_errors(Event(kind="fly", text="")) is not None


# ------------------------------------------------------------------------------ agents


def test_an_agent_chooses_from_a_seat_view_and_a_prompt() -> None:
    game = Game.new(["A", "B"], seed=5)
    agent: Agent = RandomAgent(1)
    view = game.seat_view("A")
    assert view.prompt is not None
    assert agent.choose(view, view.prompt) in game.prompt_for("A").choices  # type: ignore[union-attr]


def test_a_lazy_seat_view_is_the_seat_view_and_goes_stale() -> None:
    game = Game.new(["A", "B"], seed=5)
    lazy = lazy_seat_view(game, "B")
    assert isinstance(lazy, SeatView)
    assert lazy.model_dump() == game.seat_view("B").model_dump()
    stale = lazy_seat_view(game, "A")
    game.apply("A", game.prompt_for("A").default)  # type: ignore[union-attr]
    with pytest.raises(RuntimeError):
        _ = stale.hand


def test_a_lazy_seat_view_builds_its_sealed_table_only_when_read() -> None:
    rng = random.Random(3)
    game = Game.new(["A", "B", "C"], seed=5)
    for _ in range(60):
        prompt = game.pending()[0]
        full = game.seat_view(prompt.player)
        lazy = lazy_seat_view(game, prompt.player)
        assert lazy.hand == full.hand and lazy.prompt == full.prompt
        assert "sealed" not in lazy.__dict__  # read the view: its sealed table waits
        assert lazy.sealed_table() == full.sealed
        assert type(lazy) is SeatView and lazy == full and hash(lazy) == hash(full)
        # Compared or dumped first, a lazy view is built whole.
        assert lazy_seat_view(game, prompt.player) == full
        game.apply(prompt.player, rng.choice(prompt.choices))
    stale = lazy_seat_view(game, game.pending()[0].player)
    _ = stale.hand
    prompt = game.pending()[0]
    game.apply(prompt.player, prompt.default)
    with pytest.raises(RuntimeError):  # its sealed table would be of a later state
        stale.sealed_table()


# ------------------------------------------------------------------------------ clone, determinize


def test_a_clone_is_independent() -> None:
    game = next(g for i, g in enumerate(games(1, every=40)) if i == 3)
    before = game.to_json()
    copy = game.clone()
    assert copy.to_json() == before and copy.s is not game.s
    prompt = copy.pending()[0]
    copy.apply(prompt.player, prompt.choices[-1])
    copy.s.players[prompt.player].hand.append("x")
    assert game.to_json() == before


def test_a_determinized_game_keeps_what_the_seat_sees_and_plays_to_the_end() -> None:
    rng = random.Random(7)
    checked = 0
    for game in games(6, every=23, turn_cap=10):
        if game.over:
            continue
        total = card_places(game)
        for seat in game.s.seats:
            view = game.seat_view(seat)
            dealt = determinize(view, rng)
            again = dealt.seat_view(seat)
            assert again.model_dump(exclude={"sealed"}) == view.model_dump(exclude={"sealed"})
            places = card_places(dealt)
            assert set(places.values()) == {1}, "a card is in two places"
            assert sorted(places) == sorted(total), "cards were lost or made up"
            checked += 1
    assert checked > 20
    game = next(g for i, g in enumerate(games(1, every=60)) if i == 2)
    view = game.seat_view("A")
    dealt = determinize(view, random.Random(1))
    agent = RandomAgent(2)
    while not dealt.over:
        prompt = dealt.pending()[0]
        dealt.apply(prompt.player, agent.choose(dealt.seat_view(prompt.player), prompt))
    assert dealt.table_view().ending is not None


def test_two_determinizations_deal_the_hidden_cards_differently() -> None:
    game = next(g for i, g in enumerate(games(1, every=50)) if i == 2)
    view = game.seat_view("A")
    one, two = determinize(view, random.Random(1)), determinize(view, random.Random(2))
    hands = [[g.s.players[n].hand for n in ("B",)] + [g.s.decks["advantage"]] for g in (one, two)]
    assert hands[0] != hands[1]
    assert one.s.players["A"].hand == two.s.players["A"].hand == game.s.players["A"].hand
    assert one.s.rng != two.s.rng


def test_T4_a_window_prompt_names_its_moment_for_every_player() -> None:
    """``window_kind`` says which reaction window a prompt answers (the bot's auto-pass is
    set per kind): the same moment for every player of the window, None for other prompts."""
    seen: set[str] = set()
    for game in games(6, every=1, turn_cap=4):
        frame = game.s.stack[-1] if game.s.stack else None
        table = game.table_view()
        for prompt in game.pending():
            view = game.prompt_view(prompt.player)
            assert view is not None
            waiting = next(w for w in table.waiting if w.player == prompt.player)
            assert waiting.window_kind == view.window_kind
            assert waiting.window_about == view.window_about
            if prompt.kind == "window":
                assert frame is not None and view.window_kind == frame.data["when"]
                assert view.window_about == tuple(n for n in (frame.player, frame.other) if n)
                seen.add(view.window_kind)
            else:
                assert view.window_kind is None and view.window_about == ()
    assert seen == set(get_args(fx.Window))


def test_T4_cards_are_played_in_own_steps_only_in_the_play_kinds() -> None:
    """``PLAY_KINDS`` (where a front end offers "Play a card…" whatever the hand holds)
    holds every kind of own-step decision that ever offers a card to play."""
    kinds_with_plays = set()
    for game in games(8, every=1, turn_cap=5):
        for prompt in game.pending():
            if not prompt.window and any(c.startswith("play ") for c in prompt.choices):
                kinds_with_plays.add(prompt.kind)
    assert kinds_with_plays == PLAY_KINDS


# ------------------------------------------- views for front ends that only render (issue 10)


def same_as_validated(view: BaseModel) -> None:
    """``view`` is what pydantic's validation makes of its own data: the engine builds views
    without validating them (``engine.views.models.typed``), from values of the fields' types."""
    again = type(view).model_validate(view.model_dump())
    assert again == view and repr(again) == repr(view)
    assert again.model_dump_json() == view.model_dump_json()
    assert again.model_fields_set == view.model_fields_set


def check_lean_views(game: Game, seen: Counter[str]) -> None:
    """Every seat's view without its sealed table is its full view but ``sealed``; a seat's
    table is the board but where the seat alone sees more."""
    board = game.table_view()
    same_as_validated(board)
    for seat in game.s.seats:
        full = game.seat_view(seat)
        lean = game.seat_view(seat, sealed=False)
        assert full.sealed is not None and lean.sealed is None
        assert lean == full.model_copy(update={"sealed": None})
        assert game.seat_view(seat, sealed=False, table=board) == lean
        same_as_validated(full)
        prompt = game.prompt_view(seat)
        assert prompt == lean.prompt
        table = lean.table
        if game.s.phase == "setup":
            assert not table.party(seat).hidden
            seen["setup"] += 1
        others = [p for p in board.parties if p.seat != seat]
        assert [p for p in table.parties if p.seat != seat] == others
        for mine, public, r in zip(table.regions, board.regions, game.s.regions, strict=True):
            scouted = bool(r.preliminary) and not r.revealed and seat in r.peeked
            assert mine.preliminary_state == ("known" if scouted else public.preliminary_state)
            assert mine.own_traps == tuple(t.card for t in r.traps if t.owner == seat)
            unseen = {"preliminary_state", "preliminary", "own_traps"}
            assert mine.model_dump(exclude=unseen) == public.model_dump(exclude=unseen)
            assert public.own_traps == () and public.preliminary_state != "known"
            seen["scouted"] += scouted
            seen["traps"] += bool(mine.own_traps)
        rest = {"parties", "regions"}
        assert table.model_dump(exclude=rest) == board.model_dump(exclude=rest)


def test_a_view_without_its_sealed_table_is_the_full_view_but_sealed() -> None:
    seen = Counter[str]()
    for game in games(4, every=4):
        check_lean_views(game, seen)

    def every_third(game: Game, _: list[Event]) -> None:
        seen["actions"] += 1
        if seen["actions"] % 3 == 0:
            check_lean_views(game, seen)

    # Traps (A5) come with the expansions: the rule tests' stand-in cards.
    db = advantage_db()
    for seed in range(2):
        result = play_game(seed, 3, 12, {"sets": list(ALL_SETS)}, cards=db, observe=every_third)
        assert result.error is None, result.error
    assert seen["setup"] and seen["scouted"] and seen["traps"], seen


def test_agents_read_the_sealed_table_and_refuse_a_view_without_it() -> None:
    game = Game.new(["A", "B", "C"], seed=3)
    for step in range(40):
        prompt = game.pending()[0]
        game.apply(prompt.player, RandomAgent(step).choose(game.seat_view(prompt.player), prompt))
    lazy = lazy_seat_view(game, "A")
    assert lazy.sealed is not None and lazy.sealed == game.seat_view("A").sealed
    assert lazy.sealed_table() is lazy.sealed
    assert determinize(game.seat_view("A"), random.Random(1)).seat_view("A", sealed=False) == (
        game.seat_view("A", sealed=False)
    )
    with pytest.raises(ValueError, match="without its sealed table"):
        determinize(game.seat_view("A", sealed=False), random.Random(1))


def test_a_seat_view_refuses_a_table_that_is_not_the_public_table_now() -> None:
    game = Game.new(["A", "B"], seed=4)
    # During the setup A's table shows A's leader offer: B's view must not be built on it.
    with pytest.raises(ValueError, match="a seat's table"):
        game.seat_view("B", sealed=False, table=game.seat_view("A").table)
    board = game.table_view()
    prompt = game.pending()[0]
    game.apply(prompt.player, prompt.choices[0])
    with pytest.raises(ValueError, match="version"):
        game.seat_view("B", table=board)
