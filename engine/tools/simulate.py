"""Whole games between program players: ``anima simulate``.

Game ``i`` of a run uses seed ``S + i``. Everything that decides a game comes from that seed:
the game's own generator (X5), each seat's agent (its AI level from ``--seats``, random by
default, seeded ``"S+i:P<n>"``) and the scheduler that picks which of several open prompts
(start choices, reaction windows) is answered first. The summary is therefore the same on
every run for a given seed; only the timing line differs.

Win rates come with a 95% confidence interval (Wilson's score interval, which stays inside
0-1 and is sound for small counts and rates near 0 or 1).

Card coverage counts the cards that *took effect*, read from the events' ``data``: an Advantage
played (``play``), a character's ability used (``ability``) or the character in a party that
fought a battle (``battle``), an Encounter met (``encounter``, ``false_alarm``), a Region
entered (``arrive``), a mission attempted (``mission_attempt``), a Final mission revealed
(``final_revealed``), a Trap turned face up (``trap_revealed``: it takes effect then, M9).

The figures per Region and per Encounter are :mod:`engine.tools.simulate_places`'s; the
``anima simulate`` command (arguments, progress bar, output) is
:mod:`engine.tools.simulate_command`'s.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import rng
from engine.agents import Agent, RandomAgent
from engine.agents.levels import make_agent
from engine.cards import CardDB, default_cards
from engine.endings import ENDINGS, TIEBREAKS
from engine.events import Event
from engine.game import Game
from engine.options import Options
from engine.prompts import Prompt
from engine.rules.sets import SHADOW_OF_OMEGA, in_game
from engine.tools.pace import GamePace, format_pace, pace_summary, quartiles, track_pace
from engine.tools.simulate_places import PlaceCounts
from engine.views import lazy_seat_view

#: Event kind -> the ``data`` key naming the card that took effect.
RESOLVING: dict[str, str] = {
    "play": "card",
    "ability": "card",
    "encounter": "card",
    "false_alarm": "card",
    "arrive": "region",
    "mission_attempt": "card",
    "final_revealed": "card",
    "trap_revealed": "card",
}
#: Events that change who is in a party (for the members of a party at a battle).
_JOINS = frozenset({"hire", "new_party"})
_LEAVES = frozenset({"death", "dismiss"})

DEFAULT_TURN_CAP = 60
#: The AI level of a seat when ``--seats`` does not name one.
DEFAULT_LEVEL = "random"
#: The endings of a game played out as designed: the Final mission, or the Crisis! (F5, F6;
#: "last player standing" is the Crisis too: the others had no completed Basic mission).
DESIGNED_ENDINGS = ("final_mission", "crisis_won", "crisis_lost", "last_player")
#: The normal quantile of a two-sided 95% interval.
_Z95 = 1.959963984540054
#: A game that needs more actions than this is reported as an error (an endless game).
MAX_ACTIONS = 200_000


def seat_names(players: int) -> list[str]:
    return [f"P{i + 1}" for i in range(players)]


def wilson(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95% by default); (0, 1) with no trial."""
    if trials == 0:
        return 0.0, 1.0
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_entry(wins: int, trials: int) -> dict[str, Any]:
    """A win count as the report shows it: count, rate and its 95% interval (4 decimals)."""
    low, high = wilson(wins, trials)
    rate = wins / trials if trials else 0.0
    return {
        "wins": wins,
        "of": trials,
        "rate": round(rate, 4),
        "ci95": [round(low, 4), round(high, 4)],
    }


def seat_agents(seed: int, levels: Sequence[str]) -> dict[str, Agent]:
    """The agents of one game: seat ``P<n>`` plays at ``levels[n-1]``, seeded by game and seat
    (a random seat gets exactly the agent the simulator always gave it)."""
    names = seat_names(len(levels))
    return {
        name: make_agent(level, f"{seed}:{name}") for name, level in zip(names, levels, strict=True)
    }


@dataclass
class GameResult:
    """One simulated game."""

    seed: int
    players: int
    actions: int = 0
    turns: int = 0
    ending: str | None = None
    #: 1-based seat of the winner; None when nobody won.
    winner_seat: int | None = None
    #: What decided a game ended by the turn limit (engine.endings.TIEBREAKS).
    tiebreak: str | None = None
    resolved: set[str] = field(default_factory=set)
    #: When the first Basic mission, the Final mission's reveal came (engine.tools.pace).
    pace: GamePace = field(default_factory=GamePace)
    #: The engine failed: one line, and a short traceback.
    error: str | None = None
    traceback: str = ""
    seconds: float = 0.0


def battle_members(game: Game, events: Sequence[Event], index: int) -> set[str]:
    """The characters of the parties fighting in the ``battle`` event ``events[index]``.

    The parties are read from the state after the action and walked back through the events
    that followed the battle in the same action (a casualty, a new party).
    """
    names = [n for n in (events[index].data.get("player"), events[index].data.get("other")) if n]
    members: set[str] = set()
    for name in names:
        party = {c.card for c in game.s.players[name].party}
        for later in reversed(events[index + 1 :]):
            if later.data.get("player") != name or "card" not in later.data:
                continue
            if later.kind in _JOINS:
                party.discard(later.data["card"])
            elif later.kind in _LEAVES:
                party.add(later.data["card"])
        members |= party
    return members


def collect_resolved(game: Game, events: Sequence[Event], into: set[str]) -> None:
    """Add to ``into`` the card ids that took effect in ``events`` (see the module docstring)."""
    for i, event in enumerate(events):
        key = RESOLVING.get(event.kind)
        if key is not None:
            if key in event.data:  # a secret mission's public event names no card
                into.add(event.data[key])
        elif event.kind == "battle":
            into |= battle_members(game, events, i)


def _short_traceback(exc: BaseException, frames: int = 4) -> str:
    tb = traceback.extract_tb(exc.__traceback__)[-frames:]
    lines = [f"{os.path.basename(f.filename)}:{f.lineno} in {f.name}: {f.line}" for f in tb]
    lines.append(f"{type(exc).__name__}: {exc}")
    return "\n".join(lines)


def play_game(
    seed: int,
    players: int = 4,
    turn_cap: int = DEFAULT_TURN_CAP,
    options: dict[str, Any] | None = None,
    agents: dict[str, Agent] | None = None,
    cards: CardDB | None = None,
    max_actions: int = MAX_ACTIONS,
    observe: Callable[[Game, list[Event]], None] | None = None,
    keyed: bool = False,
) -> GameResult:
    """Play one whole game; engine exceptions are caught and reported in the result.

    Its dice come from the old generator seeded with ``seed`` (the positions tests and
    pictures are made from); with ``keyed``, from the keyed stream the bot's games draw from,
    its server seed derived from ``seed`` (nothing to prove here: the same stream).

    ``observe(game, events)``, if given, is called after every applied action (benchmarks and
    tests look at the state there); its exceptions are reported like the engine's.
    """
    result = GameResult(seed=seed, players=players)
    names = seat_names(players)
    if agents is None:
        agents = {name: RandomAgent(f"{seed}:{name}") for name in names}
    pick = random.Random(f"{seed}:scheduler").random
    start = time.perf_counter()
    game: Game | None = None
    prompt: Prompt | None = None
    action = ""
    resolved = result.resolved
    try:
        opts = Options.model_validate({"turn_cap": turn_cap, **(options or {})})
        server_seed = rng.derived_server_seed(seed) if keyed else None
        game = Game.new(names, opts, seed, cards, server_seed=server_seed)
        state = game.s
        actions = 0
        while state.phase != "over":
            prompts = state.prompts
            if not prompts:
                raise RuntimeError("no open prompt, but the game is not over")
            prompt = prompts[int(pick() * len(prompts))] if len(prompts) > 1 else prompts[0]
            action = agents[prompt.player].choose(lazy_seat_view(game, prompt.player), prompt)
            events = game.apply(prompt.player, action)
            actions += 1
            result.actions = actions
            if events:  # most actions (a pass in a reaction window) cause none
                collect_resolved(game, events, resolved)
                track_pace(game, events, result.pace)
            if observe is not None:
                observe(game, events)
            if actions >= max_actions and not game.over:
                raise RuntimeError(f"no end after {actions} actions (turn {state.turn})")
    except Exception as exc:
        doing = f", {prompt.player} {action!r} at {prompt.kind}" if prompt else ""
        where = f"turn {game.s.turn}, action {result.actions + 1}{doing}" if game else "setup"
        result.error = f"seed {seed}: {type(exc).__name__}: {exc} ({where})"
        result.traceback = _short_traceback(exc)
    result.seconds = time.perf_counter() - start
    if game is not None:
        result.turns = game.s.turn
        if result.error is None:
            result.ending = game.s.ending
            over = [e for e in game.last_events if e.kind == "game_over"]
            result.tiebreak = over[0].data.get("tiebreak") if over else None
            if game.s.winner is not None:
                result.winner_seat = game.s.seats.index(game.s.winner) + 1
    return result


@dataclass
class Summary:
    """The results of a run, ready to print."""

    games: int
    players: int
    seed: int
    turn_cap: int
    results: list[GameResult]
    all_cards: list[str]
    #: The sets in play (G1, S5).
    sets: list[str] = field(default_factory=lambda: [SHADOW_OF_OMEGA])
    #: The AI level of each seat, in seat order (empty: all random).
    levels: list[str] = field(default_factory=list)
    #: Per Region and per Encounter counts (engine.tools.simulate_places).
    places: PlaceCounts = field(default_factory=PlaceCounts)

    def seat_levels(self) -> list[str]:
        return self.levels or [DEFAULT_LEVEL] * self.players

    @property
    def actions(self) -> int:
        return sum(r.actions for r in self.results)

    @property
    def errors(self) -> list[GameResult]:
        return [r for r in self.results if r.error is not None]

    @property
    def seconds(self) -> float:
        return sum(r.seconds for r in self.results)

    def resolved(self) -> set[str]:
        return set().union(*(r.resolved for r in self.results)) & set(self.all_cards)

    def never_resolved(self) -> list[str]:
        done = self.resolved()
        return [c for c in self.all_cards if c not in done]

    def deterministic(self) -> dict[str, Any]:
        """Everything but the timing: the same for the same arguments, on every run."""
        finished = [r for r in self.results if r.error is None]
        turns = [r.turns for r in finished]
        p25, p75 = quartiles(turns)
        endings = Counter(r.ending for r in finished)
        wins = Counter(r.winner_seat for r in finished)
        tiebreaks = Counter(r.tiebreak for r in finished)
        db = default_cards()
        never = self.never_resolved()
        return {
            "games": self.games,
            "players": self.players,
            "sets": list(self.sets),
            "seeds": [self.seed, self.seed + self.games - 1],
            "turn_cap": self.turn_cap,
            "actions": self.actions,
            "errors": len(self.errors),
            "turns": {
                "min": min(turns, default=0),
                "median": statistics.median(turns) if turns else 0,
                "max": max(turns, default=0),
                "p25": p25,
                "p75": p75,
            },
            # When the game's middle begins and ends (docs/balance.md).
            "pace": pace_summary([r.pace for r in finished]),
            "endings": {key: endings[key] for key in ENDINGS},
            "tiebreaks": {key: tiebreaks[key] for key in TIEBREAKS},
            "wins": {
                **{name: wins[i + 1] for i, name in enumerate(seat_names(self.players))},
                "nobody": wins[None],
            },
            "seat_levels": dict(zip(seat_names(self.players), self.seat_levels(), strict=True)),
            "wins_per_seat": {
                name: {"level": level, **rate_entry(wins[i + 1], len(finished))}
                for i, (name, level) in enumerate(
                    zip(seat_names(self.players), self.seat_levels(), strict=True)
                )
            },
            "wins_per_level": self.wins_per_level(wins, len(finished)),
            # The game as designed ends by its Final mission or its Crisis (F5, F6), not by
            # the turn limit: the share of games that did (the balance target, docs/balance.md).
            "final_or_crisis": rate_entry(
                sum(endings[key] for key in DESIGNED_ENDINGS), len(finished)
            ),
            "coverage": {
                "resolved": len(self.all_cards) - len(never),
                "total": len(self.all_cards),
                "never_resolved": never,
                "never_resolved_by_type": {
                    t: [c for c in never if db[c].type == t]
                    for t in sorted({db[c].type for c in never})
                },
            },
            # What happened where: visits, fights and wins per Region and per Encounter.
            **self.places.to_json(db, self.all_cards),
            "error_details": [
                {"seed": r.seed, "error": r.error, "traceback": r.traceback} for r in self.errors
            ],
        }

    def wins_per_level(self, wins: Counter[int | None], games: int) -> dict[str, Any]:
        """Per AI level in play: its seats, and the share of those seats' games it won (one
        seat in each of ``games`` games is ``games`` trials; two seats, twice as many)."""
        levels = self.seat_levels()
        out: dict[str, Any] = {}
        for level in dict.fromkeys(levels):
            seats = [i + 1 for i, lv in enumerate(levels) if lv == level]
            won = sum(wins[s] for s in seats)
            out[level] = {"seats": [f"P{s}" for s in seats], **rate_entry(won, games * len(seats))}
        return out

    def timing(self) -> dict[str, float]:
        seconds = self.seconds
        return {
            "seconds": round(seconds, 3),
            "actions_per_second": round(self.actions / seconds) if seconds else 0,
            "ms_per_game": round(1000 * seconds / max(1, self.games), 2),
        }


def simulate(
    games: int,
    players: int,
    seed: int,
    turn_cap: int = DEFAULT_TURN_CAP,
    options: dict[str, Any] | None = None,
    levels: Sequence[str] | None = None,
    progress: Callable[[GameResult], None] | None = None,
    watch: Callable[[int], Callable[[Game, list[Event]], None]] | None = None,
    keyed: bool = False,
) -> Summary:
    """Play ``games`` games, game ``i`` with seed ``seed + i``; seat ``P<n>`` plays at AI
    level ``levels[n-1]`` (default: every seat random). ``progress(result)``, if given, is
    called after each game (a progress bar); ``watch(seed)``, if given, gives the observer of
    game ``seed`` (see :func:`play_game`: the report counts the cards used). ``keyed``: the
    dice of the keyed stream (:func:`play_game`)."""
    db = default_cards()
    opts = Options.model_validate(options or {})
    all_cards = [c.id for c in db if in_game(c, opts)]  # S5: the cards these sets deal
    chosen = list(levels) if levels else []
    if chosen and len(chosen) != players:
        raise ValueError(f"{len(chosen)} seat levels for {players} players")
    results = []
    places = PlaceCounts()
    for i in range(games):
        agents = seat_agents(seed + i, chosen) if chosen else None
        observe = _both(places.watch(seed + i), watch(seed + i) if watch is not None else None)
        result = play_game(
            seed + i, players, turn_cap, options, agents, db, observe=observe, keyed=keyed
        )
        places.finish(result)
        results.append(result)
        if progress is not None:
            progress(result)
    return Summary(
        games, players, seed, turn_cap, results, all_cards, list(opts.sets), chosen, places
    )


def _both(
    first: Callable[[Game, list[Event]], None], second: Callable[[Game, list[Event]], None] | None
) -> Callable[[Game, list[Event]], None]:
    """One observer that calls ``first``, then ``second`` if there is one."""
    if second is None:
        return first

    def observe(game: Game, events: list[Event]) -> None:
        first(game, events)
        second(game, events)

    return observe


def format_summary(summary: Summary, verbose: bool = False) -> str:
    """The human-readable report; the last line (timing) is the only one that varies."""
    d = summary.deterministic()
    t = d["turns"]
    cov = d["coverage"]
    per_game = d["actions"] / max(1, d["games"])
    lines = [
        f"games: {d['games']} ({d['players']} players, seeds {d['seeds'][0]}-{d['seeds'][1]}, "
        f"turn cap {d['turn_cap']})",
        f"sets: {', '.join(d['sets'])}",
        f"actions: {d['actions']} ({per_game:.1f} per game)",
        f"errors: {d['errors']}",
        f"turns per game: min {t['min']}, median {t['median']}, max {t['max']}",
        *format_pace(t, d["pace"]),
        "endings:",
        *(f"  {label}: {d['endings'][key]}" for key, label in ENDINGS.items()),
        "    decided by: "
        + ", ".join(f"{label} {d['tiebreaks'][key]}" for key, label in TIEBREAKS.items()),
        "wins per seat: " + ", ".join(f"{seat} {n}" for seat, n in d["wins"].items()),
    ]
    if any(level != DEFAULT_LEVEL for level in d["seat_levels"].values()):
        lines.append("seat levels: " + ", ".join(f"{s} {lv}" for s, lv in d["seat_levels"].items()))
        lines.extend(
            f"  {s} ({e['level']}): {_rate_text(e)}" for s, e in d["wins_per_seat"].items()
        )
        lines.append(
            f"ended by the Final mission or the Crisis: {_rate_text(d['final_or_crisis'])}"
        )
        lines.append("wins per level:")
        lines.extend(
            f"  {level} ({', '.join(e['seats'])}): {_rate_text(e)}"
            for level, e in d["wins_per_level"].items()
        )
    lines += [
        f"card coverage: {cov['resolved']}/{cov['total']} cards resolved",
    ]
    if verbose or d["errors"]:
        for r in d["error_details"]:
            lines.append(f"error: {r['error']}")
            lines.extend(f"    {line}" for line in r["traceback"].splitlines())
    if verbose:
        for card_type, ids in cov["never_resolved_by_type"].items():
            lines.append(f"never resolved ({card_type}): {', '.join(ids)}")
    timing = summary.timing()
    lines.append(
        f"time: {timing['seconds']:.2f} s, {timing['actions_per_second']} actions/s, "
        f"{timing['ms_per_game']} ms per game"
    )
    return "\n".join(lines)


def _rate_text(entry: dict[str, Any]) -> str:
    low, high = entry["ci95"]
    return (
        f"{entry['wins']}/{entry['of']} = {100 * entry['rate']:.1f}% "
        f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)"
    )
