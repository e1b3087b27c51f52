"""Properties of whole games under arbitrary play (hypothesis).

Each example draws a seed, a player count (2-5), the game options (O1-O3, V1-V3) and a
sequence of choice indices, then plays a game: every step takes the next index ``i`` and
answers the open prompt ``i mod (number of open prompts)`` with its choice
``(i // prompts) mod (number of choices)`` (the sequence is reused from its start when it runs
out). After *every* action the test checks its property:

- D1: every card of the game's sets is in exactly one place and the total never changes;
- R4/C1: hands hold at most 5 Advantages, parties 1-4 characters (once the start is over);
- hidden information: no view shows a player another player's hidden cards (hand, secret
  missions, start offers) or cards nobody may see (decks, face-down Preliminary Encounters he
  did not scout), and the public view shows none; no event a player may see names them when
  it is emitted, unless it was addressed to their owner too;
- X5: the stored JSON reloads to the same state (and play goes on from the reloaded game just
  as from the original), and replaying the seed and the actions gives the same state and the
  same events after every action;
- every game ends (the turn cap is on).

An Encounter drawn while exploring (or at a change of level of the Tree of Regions) sits on
the resolution stack, face up, until it is discarded: the stack's ``encounter`` frames are one
of D1's places.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.rules.party import HAND_LIMIT, PARTY_LIMIT

DB = default_cards()


def _card_phrases(value: Any, key: str = "") -> Iterator[str]:
    """The descriptive strings of a card's data (texts, labels, opponents), not its name."""
    if isinstance(value, str):
        if key not in ("id", "name", "set", "type") and " " in value:
            yield value
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from _card_phrases(item, k)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _card_phrases(item, key)


#: Texts that quote other cards' names (the Organizations' rivals, Lantern Market's Pickpocket)
#: or contain them ("Lich Lord"): cut out of an event's text before looking for names in it.
CARD_PHRASES = sorted(
    {phrase for card in DB for phrase in _card_phrases(card.model_dump())}, key=len, reverse=True
)
NAMES = {card.id: card.name for card in DB}
TOKEN = re.compile(r"[a-z0-9_]+")

#: Zones whose cards everybody may see (a revealed Preliminary Encounter included).
PUBLIC_ZONES = frozenset(
    {"discard", "party", "region", "preliminary", "started", "completed", "in_play"}
    | {"final_mission", "stack"}
)
#: A player's own hidden zones.
OWN_HIDDEN = frozenset({"hand", "missions", "offered"})


# ------------------------------------------------------------------------------ where cards are


@dataclass(frozen=True)
class Place:
    """One card's place: a zone, its owner (a player, a deck's name, a Region) if any."""

    zone: str
    owner: str = ""


def places(game: Game) -> list[tuple[str, Place]]:
    """Every (card, place) of the state: a card in two places appears twice."""
    s = game.s
    found: list[tuple[str, Place]] = []
    for deck, pile in s.decks.items():
        found += [(c, Place("deck", deck)) for c in pile]
    for deck, pile in s.discards.items():
        found += [(c, Place("discard", deck)) for c in pile]
    found += [(c, Place("set_aside")) for c in s.set_aside]
    found += [(c, Place("final_deck")) for c in s.final_deck]
    if s.final_mission:
        found.append((s.final_mission, Place("final_mission")))
    for region in s.regions:
        found.append((region.card, Place("region")))
        if region.preliminary:
            zone = "preliminary" if region.revealed else "face_down"
            found.append((region.preliminary, Place(zone, region.card)))
    for name, p in s.players.items():
        found += [(c.card, Place("party", name)) for c in p.party]
        found += [(c, Place("hand", name)) for c in p.hand]
        found += [(c, Place("missions", name)) for c in p.missions]
        found += [(c, Place("started", name)) for c in p.started]
        found += [(c, Place("completed", name)) for c in p.completed]
        found += [(c, Place("in_play", name)) for c in p.in_play]
        found += [(c, Place("offered", name)) for c in p.offered_characters]
        found += [(c, Place("offered", name)) for c in p.offered_advantages]
    for frame in s.stack:
        if frame.kind == "encounter" and frame.data.get("context") != "preliminary":
            assert frame.card is not None
            found.append((frame.card, Place("stack")))
    return found


def game_cards(game: Game) -> set[str]:
    sets = set(game.s.options.sets)
    return {card.id for card in DB if card.set in sets}


def where(game: Game) -> dict[str, Place]:
    return dict(places(game))


def secret_to(
    game: Game, viewer: str | None, at: dict[str, Place], unseen: bool = True
) -> set[str]:
    """Cards ``viewer`` (None: the public) may not see: other players' hidden cards and, with
    ``unseen``, the cards nobody sees (decks, set-aside missions, the Final deck) and the
    face-down Preliminary Encounters he did not scout."""
    peeked = {r.card: r.peeked for r in game.s.regions}
    hidden: set[str] = set()
    for card, place in at.items():
        if place.zone in OWN_HIDDEN:
            if place.owner != viewer:
                hidden.add(card)
        elif not unseen:
            continue
        elif place.zone == "face_down":
            if viewer is None or viewer not in peeked.get(place.owner, []):
                hidden.add(card)
        elif place.zone not in PUBLIC_ZONES:
            hidden.add(card)
    return hidden


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON-like value (dict keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def named_in(value: Any, cards: set[str]) -> set[str]:
    """The ``cards`` a view or event data names by id (a whole string or one of its words)."""
    found: set[str] = set()
    for text in strings(value):
        if text in cards:
            found.add(text)
        else:
            found |= cards.intersection(TOKEN.findall(text))
    return found


def named_in_text(text: str, cards: set[str]) -> set[str]:
    """The ``cards`` an event's text names (by name), card texts it quotes left aside."""
    hits = {c for c in cards if NAMES[c] in text}
    if hits:
        for quoted in CARD_PHRASES:
            text = text.replace(quoted, "")
        hits = {c for c in hits if NAMES[c] in text}
    return hits


# ------------------------------------------------------------------------------ the checks


def check_one_place(game: Game) -> None:
    """D1: every card in exactly one place; nothing appears from nowhere or vanishes."""
    counts = Counter(card for card, _ in places(game))
    twice = sorted(c for c, n in counts.items() if n > 1)
    assert not twice, f"cards in two places: {twice}"
    expected = game_cards(game)
    assert set(counts) == expected, (
        f"missing: {sorted(expected - set(counts))}, unknown: {sorted(set(counts) - expected)}"
    )
    assert counts.total() == len(expected)


def check_limits(game: Game) -> None:
    """R4, C1: at most 5 Advantages in hand; parties of 1-4 once the start choice is over."""
    for name, p in game.s.players.items():
        assert len(p.hand) <= HAND_LIMIT, f"{name} holds {len(p.hand)} Advantages"
        assert len(p.party) <= PARTY_LIMIT, f"{name} has {len(p.party)} characters"
        if game.s.phase != "setup":
            assert p.party, f"{name} has no character"


def check_views(game: Game) -> None:
    """Views show nobody another player's hidden cards; the public view shows none."""
    at = where(game)
    for viewer in [None, *game.s.seats]:
        leaked = named_in(game.view(viewer), secret_to(game, viewer, at))
        assert not leaked, f"view of {viewer or 'the public'} shows {sorted(leaked)}"


def public_cards(at: dict[str, Place]) -> set[str]:
    return {c for c, place in at.items() if place.zone in PUBLIC_ZONES}


def check_event(game: Game, event: Event, public_before: set[str]) -> None:
    """An event a player may see names no card secret to him *when it is emitted*, unless it
    was addressed to the card's owner too (a trade between the two, a steal) or the card was
    public before the action (a discarded card taken back, R5)."""
    now = where(game)
    for viewer in game.s.seats if event.to is None else event.to:
        secret = secret_to(game, viewer, now) - public_before
        if event.to is not None:  # addressed to the owner as well: the two share it
            secret = {c for c in secret if now[c].owner not in event.to}
        held = {c for c in secret if now[c].zone in OWN_HIDDEN}
        leaked = named_in(event.data, secret) | named_in_text(event.text, held)
        assert not leaked, f"{viewer} sees {sorted(leaked)} in {event!r}"


def watch_events(game: Game) -> Callable[[dict[str, Place]], None]:
    """Check every event of ``game`` as it is emitted, against the state at that moment (a card
    may be played, discarded, shuffled back and drawn by someone else in one action: only the
    moment of the event tells whether naming it was a leak). Returns the function that tells
    the watch an action is over (its argument: where the cards are now)."""
    public_before = public_cards(where(game))
    emit = game.emit

    def checked(kind: str, text: str, to: Any = None, **data: Any) -> None:
        emit(kind, text, to, **data)
        check_event(game, game._events[-1], public_before)

    def action_done(at: dict[str, Place]) -> None:
        nonlocal public_before
        public_before = public_cards(at)

    game.emit = checked  # type: ignore[method-assign]
    return action_done


# ------------------------------------------------------------------------------ playing


@dataclass
class Played:
    """A finished (or stopped) game and what was done in it."""

    game: Game
    players: list[str]
    options: dict[str, Any]
    seed: int
    actions: list[tuple[str, str]] = field(default_factory=list)
    #: With ``keep_states``: the state JSON before the first action and after each, and the
    #: events of each action.
    states: list[str] = field(default_factory=list)
    events: list[list[dict[str, Any]]] = field(default_factory=list)


Check = Callable[[Game, list[Event], dict[str, Place], dict[str, Place]], None]


def play(
    seed: int,
    players: int,
    options: dict[str, Any],
    choices: list[int],
    check: Check | None = None,
    keep_states: bool = False,
    max_actions: int = 5_000,
    prepare: Callable[[Game], Check] | None = None,
    reload: bool = False,
) -> Played:
    """Play a game with the drawn choices, calling ``check`` after every action (``prepare``
    makes the check from the new game instead). With ``reload``, the game is stored and
    reloaded after every action and play goes on with the reloaded game."""
    names = [f"P{i + 1}" for i in range(players)]
    game = Game.new(names, options, seed)
    played = Played(game, names, options, seed)
    if prepare is not None:
        check = prepare(game)
    if keep_states:
        played.states.append(game.to_json())
    before = where(game) if check else {}
    step = 0
    while not game.over:
        prompts = game.pending()
        assert prompts, "no prompt open, but the game is not over"
        i = choices[step % len(choices)]
        prompt = prompts[i % len(prompts)]
        action = prompt.choices[(i // len(prompts)) % len(prompt.choices)]
        events = game.apply(prompt.player, action)
        played.actions.append((prompt.player, action))
        step += 1
        if reload:
            text = game.to_json()
            game = played.game = Game.from_json(text)
            assert game.to_json() == text, f"reloading changes the state after action {step}"
        if keep_states:
            played.states.append(game.to_json())
            played.events.append([e.to_dict() for e in events])
        if check is not None:
            after = where(game)
            try:
                check(game, events, before, after)
            except AssertionError as exc:
                last = played.actions[-5:]
                at = f"after action {step} {last} (turn {game.s.turn})"
                raise AssertionError(f"{at}: {exc}") from exc
            before = after
        assert step < max_actions, f"no end after {step} actions"
    return played


OPTIONS = st.fixed_dictionaries(
    {
        "open_rolls": st.booleans(),
        "party_tie": st.sampled_from(["reroll", "stands"]),
        "final_reveal": st.sampled_from(["choose", "immediate"]),
        "crisis": st.booleans(),
        "tree_of_regions": st.sampled_from(["off", "soo", "bge"]),
        "both_missions": st.booleans(),
    }
)
SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.integers(2, 5)
CHOICES = st.lists(st.integers(0, 2**16), min_size=1, max_size=300)
#: Short games (their turn cap is drawn too) keep the heavy checks affordable.
SHORT_CAP = st.integers(1, 6)


def examples(n: int) -> settings:
    """``n`` games per property; the whole file runs in well under a minute."""
    return settings(
        max_examples=n,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _with_cap(options: dict[str, Any], cap: int) -> dict[str, Any]:
    return {**options, "turn_cap": cap}


@examples(80)
@given(SEEDS, PLAYERS, OPTIONS, SHORT_CAP, CHOICES)
def test_D1_every_card_in_one_place(
    seed: int, players: int, options: dict[str, Any], cap: int, choices: list[int]
) -> None:
    def prepare(game: Game) -> Check:
        check_one_place(game)  # S1-S4: the setup too
        return lambda game, *_: check_one_place(game)

    play(seed, players, _with_cap(options, cap), choices, prepare=prepare)


@examples(80)
@given(SEEDS, PLAYERS, OPTIONS, SHORT_CAP, CHOICES)
def test_R4_hand_and_party_limits(
    seed: int, players: int, options: dict[str, Any], cap: int, choices: list[int]
) -> None:
    play(seed, players, _with_cap(options, cap), choices, lambda g, *_: check_limits(g))


@examples(40)
@given(SEEDS, PLAYERS, OPTIONS, SHORT_CAP, CHOICES)
def test_views_never_show_hidden_cards(
    seed: int, players: int, options: dict[str, Any], cap: int, choices: list[int]
) -> None:
    play(seed, players, _with_cap(options, cap), choices, lambda g, *_: check_views(g))


@examples(60)
@given(SEEDS, PLAYERS, OPTIONS, SHORT_CAP, CHOICES)
def test_events_never_name_hidden_cards(
    seed: int, players: int, options: dict[str, Any], cap: int, choices: list[int]
) -> None:
    def prepare(game: Game) -> Check:
        action_done = watch_events(game)
        return lambda game, events, before, after: action_done(after)

    play(seed, players, _with_cap(options, cap), choices, prepare=prepare)


@examples(60)
@given(SEEDS, PLAYERS, OPTIONS, SHORT_CAP, CHOICES)
def test_X5_json_round_trip_is_identical(
    seed: int, players: int, options: dict[str, Any], cap: int, choices: list[int]
) -> None:
    """Store and reload after every action and play on with the reloaded game: the states are
    those of a game never stored."""
    reloaded = play(seed, players, _with_cap(options, cap), choices, keep_states=True, reload=True)
    plain = Game.new(reloaded.players, reloaded.options, seed)
    for step, (player, action) in enumerate(reloaded.actions, start=1):
        plain.apply(player, action)
        assert plain.to_json() == reloaded.states[step], f"states differ after action {step}"


@examples(60)
@given(SEEDS, PLAYERS, OPTIONS, SHORT_CAP, CHOICES)
def test_X5_replay_from_seed_is_identical(
    seed: int, players: int, options: dict[str, Any], cap: int, choices: list[int]
) -> None:
    played = play(seed, players, _with_cap(options, cap), choices, keep_states=True)
    replay = Game.new(played.players, played.options, seed)
    assert replay.to_json() == played.states[0]
    for step, (player, action) in enumerate(played.actions, start=1):
        events = replay.apply(player, action)
        assert replay.to_json() == played.states[step], f"replay differs after action {step}"
        assert [e.to_dict() for e in events] == played.events[step - 1]
    assert replay.over and replay.s.winner == played.game.s.winner


@examples(12)
@given(SEEDS, PLAYERS, OPTIONS, st.integers(10, 60), CHOICES)
@example(  # Scavenge took itself back from the discard pile: played again and again, forever
    seed=0,
    players=5,
    options={"crisis": False},
    cap=1,
    choices=[391],
)
@example(  # offering a trade and withdrawing it, again and again (X3)
    seed=0,
    players=2,
    options={"crisis": False},
    cap=3,
    choices=[2],
)
def test_every_game_ends_within_the_turn_cap(
    seed: int, players: int, options: dict[str, Any], cap: int, choices: list[int]
) -> None:
    """Long games (up to 60 turns) reach the late game: D1 and R4 still hold at every step."""

    def check(game: Game, *_: Any) -> None:
        check_one_place(game)
        check_limits(game)

    played = play(seed, players, _with_cap(options, cap), choices, check, max_actions=30_000)
    game = played.game
    assert game.over
    assert game.s.ending in {
        "final_mission",
        "crisis_won",
        "crisis_lost",
        "last_player",
        "turn_cap",
    }
    assert game.s.turn <= cap
    if game.s.ending == "turn_cap":  # the tie-break names a winner still in the game
        assert game.s.winner is not None and not game.s.players[game.s.winner].lost


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_S1_to_S4_setup_places_every_card_once(players: int) -> None:
    game = Game.new([f"P{i + 1}" for i in range(players)], {}, seed=players)
    check_one_place(game)
    check_views(game)
    for p in game.s.players.values():
        assert len(p.missions) == 2
        assert len(p.offered_characters) == 2
        assert len(p.offered_advantages) == 4
