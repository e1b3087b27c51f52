"""Properties of whole games under arbitrary play (hypothesis).

Each example draws a seed, a player count (2-5), the game options (O1-O3, V1-V3) and a
sequence of choice indices, then plays a game: every step takes the next index ``i`` and
answers the open prompt ``i mod (number of open prompts)`` with its choice
``(i // prompts) mod (number of choices)`` (the sequence is reused from its start when it runs
out). After *every* action the test checks its property:

- D1: every card of the game's sets is in exactly one place and the total never changes, and
  every change of place is a move of the map (``engine.zones``: the moves recorded during an
  action, replayed over where the cards were, give where they are);
- R4/C1: hands hold at most 5 Advantages, parties 1-4 characters (once the start is over);
- hidden information: no view shows a player another player's hidden cards (hand, secret
  missions, start offers) or cards nobody may see (decks, face-down Preliminary Encounters he
  did not scout), and the public view shows none; no event a player may see names them when
  it is emitted, unless it was addressed to their owner too;
- X5: the stored JSON reloads to the same state (and play goes on from the reloaded game just
  as from the original), and replaying the seed and the actions gives the same state and the
  same events after every action;
- every game ends (the turn cap is on);
- no empty choices (issue 20): no applied action but a pass, done or decline changes nothing
  and tells nothing (``tests/empty_choices.py``), in random play and in the normal AI's games.

Where a card is and who may see it there is read from the one map, ``engine.zones``: D1 counts
its zones (an Encounter held by an ``encounter`` frame on the stack included), and the secrecy
checks take the cards a viewer may not see from ``sight.hidden_from``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from empty_choices import EmptyChoices
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import visibility as sight
from engine import zones
from engine.agents.normal import NormalAgent
from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.rules.party import HAND_LIMIT, PARTY_LIMIT
from engine.rules.sets import in_game
from engine.views import lazy_seat_view
from engine.views.sealed import offered_to
from engine.zones import ZONE_KINDS, Zone

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
#: Other cards' names that contain a card's name ("Sanctum of the Oracle" holds "Oracle"): a
#: text naming the longer one does not name the shorter one.
LONGER_NAMES = {
    card: sorted({n for n in NAMES.values() if name in n and n != name}, key=len, reverse=True)
    for card, name in NAMES.items()
}
TOKEN = re.compile(r"[a-z0-9_]+")

# ------------------------------------------------------------------------------ where cards are


def game_cards(game: Game) -> set[str]:
    """The cards the game deals: those of its sets, the missions as S5 says."""
    return {card.id for card in DB if in_game(card, game.s.options)}


def where(game: Game) -> dict[str, Zone]:
    """Card -> zone (a card in two places, which D1 rules out, keeps its last)."""
    return {card: zone for card, zone in zones.places(game.s)}


def owned(zone: Zone) -> bool:
    """A player's own zone (hand, secret missions, start offers, party): hidden cards there
    are his to name."""
    return ZONE_KINDS[zone.kind].key == "player"


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
        hits = {c for c in hits if NAMES[c] in _without(text, LONGER_NAMES[c])}
    return hits


def _without(text: str, phrases: list[str]) -> str:
    for phrase in phrases:
        text = text.replace(phrase, "")
    return text


# ------------------------------------------------------------------------------ the checks


def check_one_place(game: Game) -> None:
    """D1: every card in exactly one place; nothing appears from nowhere or vanishes."""
    try:
        zones.check_conservation(game.s, game_cards(game))
    except zones.ZoneError as exc:
        raise AssertionError(str(exc)) from None


@contextmanager
def recorded_moves() -> Iterator[list[tuple[str, Zone]]]:
    """Record every card ``engine.zones`` puts somewhere: its ``move`` and ``draw_top``, and
    the put behind every other change of place (a card recorded twice is harmless)."""
    moves: list[tuple[str, Zone]] = []
    move, draw_top, put = zones.move, zones.draw_top, zones._put

    def recording_move(state: Any, card: str, source: Zone, to: Zone, **how: Any) -> None:
        move(state, card, source, to, **how)
        moves.append((card, to))

    def recording_draw(state: Any, source: Zone, to: Zone) -> str | None:
        card = draw_top(state, source, to)
        if card is not None:
            moves.append((card, to))
        return card

    def recording_put(state: Any, card: str, zone: Zone, *how: Any, **how_named: Any) -> None:
        put(state, card, zone, *how, **how_named)
        moves.append((card, zone))

    zones.move, zones.draw_top, zones._put = recording_move, recording_draw, recording_put
    try:
        yield moves
    finally:
        zones.move, zones.draw_top, zones._put = move, draw_top, put


def check_moves(
    moves: list[tuple[str, Zone]], before: dict[str, Zone], after: dict[str, Zone]
) -> None:
    """Where the cards were, changed by the recorded moves only, is where they are."""
    replayed = dict(before)
    for card, zone in moves:
        replayed[card] = zone
    moves.clear()
    behind = {c: (before.get(c), after.get(c)) for c in before.keys() | after.keys()}
    behind = {c: seen for c, seen in behind.items() if replayed.get(c) != after.get(c)}
    assert not behind, f"cards moved behind the map's back (from, to): {behind}"


def check_limits(game: Game) -> None:
    """R4, C1: at most 5 Advantages in hand; parties of 1-4 once the start choice is over."""
    for name, p in game.s.players.items():
        assert len(p.hand) <= HAND_LIMIT, f"{name} holds {len(p.hand)} Advantages"
        assert len(p.party) <= PARTY_LIMIT, f"{name} has {len(p.party)} characters"
        if game.s.phase != "setup":
            assert p.party, f"{name} has no character"


def check_views(game: Game) -> None:
    """Views show nobody another player's hidden cards, but those a trade offer sent to him
    shows him (its prompt's data names them); the public view shows none."""
    for viewer in [None, *game.s.seats]:
        hidden = sight.hidden_from(game.s, viewer)
        if viewer is not None:
            hidden -= offered_to(game, viewer)
        leaked = named_in(game.view(viewer), hidden)
        assert not leaked, f"view of {viewer or 'the public'} shows {sorted(leaked)}"


def public_cards(game: Game) -> set[str]:
    return set(zones.all_cards(game.s)) - sight.hidden_from(game.s, None)


def check_event(game: Game, event: Event, public_before: set[str]) -> None:
    """An event a player may see names no card secret to him *when it is emitted*, unless it
    was addressed to the card's owner too (a trade between the two, a steal) or the card was
    public before the action or earlier in it (a discarded card taken back, R5)."""
    now = where(game)
    for viewer in game.s.seats if event.to is None else event.to:
        secret = sight.hidden_from(game.s, viewer) - public_before
        if event.to is not None:  # addressed to the owner as well: the two share it
            secret = {c for c in secret if now[c].key not in event.to}
        held = {c for c in secret if owned(now[c])}
        leaked = named_in(event.data, secret) | named_in_text(event.text, held)
        assert not leaked, f"{viewer} sees {sorted(leaked)} in {event!r}"


def watch_events(game: Game) -> Callable[[], None]:
    """Check every event of ``game`` as it is emitted, against the state at that moment (a card
    may be played, discarded, shuffled back and drawn by someone else in one action: only the
    moment of the event tells whether naming it was a leak). Returns the function that tells
    the watch an action is over)."""
    public_before = public_cards(game)
    emit = game.emit

    def checked(kind: str, text: str, to: Any = None, **data: Any) -> None:
        nonlocal public_before
        emit(kind, text, to, **data)
        check_event(game, game._events[-1], public_before)
        # A card the table saw during the action (a Trap sprung and discarded, then taken
        # back from the pile by a card) may be named by a later event of the same action.
        public_before = public_before | public_cards(game)

    def action_done() -> None:
        nonlocal public_before
        public_before = public_cards(game)

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


Check = Callable[[Game, list[Event], dict[str, Zone], dict[str, Zone]], None]


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
    if options.get("sets") == ["twilight_of_the_gods"]:
        players = min(players, 4)  # G1: Twilight of the Gods alone is for 2-4 players
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


SETS = ["shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods"]
SET_COMBINATIONS = [
    [s for i, s in enumerate(SETS) if mask >> i & 1] for mask in range(1, 2 ** len(SETS))
]
OPTIONS = st.fixed_dictionaries(
    {
        "open_rolls": st.booleans(),
        "party_tie": st.sampled_from(["reroll", "stands"]),
        "final_reveal": st.sampled_from(["choose", "immediate"]),
        "crisis": st.booleans(),
        "tree_of_regions": st.sampled_from(["off", "soo", "bge"]),
        "both_missions": st.booleans(),
        # Every non-empty combination of the three sets (G1, S5, M10).
        "sets": st.sampled_from(SET_COMBINATIONS),
        "combined_missions": st.sampled_from(["twilight", "older"]),
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
        # CI plays the same examples every run (a red run must mean a change broke something);
        # a developer's run draws new ones each time, to find what nobody thought of.
        derandomize=os.environ.get("CI") == "true",
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


@examples(40)
@given(SEEDS, PLAYERS, OPTIONS, SHORT_CAP, CHOICES)
def test_D1_every_change_of_place_is_a_move_of_the_map(
    seed: int, players: int, options: dict[str, Any], cap: int, choices: list[int]
) -> None:
    with recorded_moves() as moves:

        def prepare(game: Game) -> Check:
            moves.clear()  # the deal (S1-S3) made the cards; from now on they only move
            return lambda game, events, before, after: check_moves(moves, before, after)

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
        return lambda game, *_: action_done()

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


def watch_choices(game: Game) -> EmptyChoices:
    """Check every action applied to ``game`` from now on for an empty choice."""
    watch = EmptyChoices()
    apply = game.apply

    def watched(player: str, action: Any) -> list[Event]:
        watch.before(game)
        events = apply(player, action)
        watch.after(game, player, str(action), events)
        return events

    game.apply = watched  # type: ignore[method-assign]
    return watch


@examples(80)
@given(SEEDS, PLAYERS, OPTIONS, SHORT_CAP, CHOICES)
def test_no_empty_choices_in_random_play(
    seed: int, players: int, options: dict[str, Any], cap: int, choices: list[int]
) -> None:
    """Issue 20: a choice that would change nothing is not offered (Betrayal with no victim,
    Pickpocket alone in the Region, Valkyrie's hire from an empty discard pile...)."""

    def prepare(game: Game) -> Check:
        watch = watch_choices(game)

        def check(game: Game, *_: Any) -> None:
            assert not watch.found, watch.found

        return check

    play(seed, players, _with_cap(options, cap), choices, prepare=prepare)


@pytest.mark.parametrize("seed", range(28))
def test_no_empty_choices_in_normal_ai_games(seed: int) -> None:
    """Issue 20, the normal AI's way: every set combination four times, 2-5 seats, ten
    turns."""
    sets = SET_COMBINATIONS[seed % len(SET_COMBINATIONS)]
    players = 2 + seed % (3 if sets == ["twilight_of_the_gods"] else 4)
    names = [f"P{i + 1}" for i in range(players)]
    game = Game.new(names, {"sets": sets, "turn_cap": 10}, seed)
    agents = {name: NormalAgent(f"{seed}:{name}") for name in names}
    watch = watch_choices(game)
    while not game.over:
        prompt = game.s.prompts[seed % len(game.s.prompts)]
        game.apply(
            prompt.player, agents[prompt.player].choose(lazy_seat_view(game, prompt.player), prompt)
        )
        assert not watch.found, watch.found


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_S1_to_S4_setup_places_every_card_once(players: int) -> None:
    game = Game.new([f"P{i + 1}" for i in range(players)], {}, seed=players)
    check_one_place(game)
    check_views(game)
    for p in game.s.players.values():
        assert len(p.missions) == 2
        assert len(p.offered_characters) == 2
        assert len(p.offered_advantages) == 4


def test_D1_a_card_moved_behind_the_maps_back_is_caught() -> None:
    game = Game.new(["P1", "P2"], {}, seed=1)
    with recorded_moves() as moves:
        before = where(game)
        by_map = game.s.decks["advantage"][-1]
        zones.move(game.s, by_map, Zone("deck", "advantage"), Zone("hand", "P1"))
        bypass = game.s.decks["advantage"].pop()
        game.s.players["P2"].hand.append(bypass)  # not through the map
        with pytest.raises(AssertionError, match="behind the map's back") as caught:
            check_moves(moves, before, where(game))
        assert bypass in str(caught.value) and by_map not in str(caught.value)
