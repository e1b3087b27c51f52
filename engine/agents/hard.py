"""The hard AI: a search player (issue 11).

:class:`HardAgent` decides from its seat's :class:`~engine.views.SeatView` alone. For a
decision with several legal choices it runs *determinized flat Monte Carlo* with UCB1 at the
root:

1. **Determinize.** :func:`engine.determinize.determinize` deals every card the seat cannot
   see (the other hands, secret missions, deck order, face-down Encounters) at random among
   the places it could be, consistently with the seat's view; the future dice come from the
   agent's own generator. Each such *world* is a whole :class:`~engine.game.Game`.
2. **Select.** Every choice is an arm. UCB1 picks the arm to try next (each arm once first,
   in the order the rollout policy prefers). The ``k``-th sample of every arm is played in
   the same ``k``-th world with the same rollout generator (common random numbers): two
   choices are compared on the same deal and the same dice, which removes most of the noise
   between them.
3. **Roll out.** A clone of the world applies the choice, then every seat (this one
   included) is played by a fast rollout policy (:mod:`engine.agents.hard_rollout`, reading the
   imagined world directly: building a view per decision would cost more than the whole
   rollout) until the game ends or the current turn (and ``horizon`` more, default none)
   ends.
4. **Evaluate.** A finished game is worth 1 to its winner and 0 to everyone else. Otherwise
   :mod:`engine.agents.hard_values` scores every live party (completed missions first,
   then how ready the party is for a mission it holds, the Final mission's Quest, the
   party's size, Strength, Speed and hand) and turns the scores into this seat's share of a
   softmax: a rough probability of winning from here.
5. **Choose.** The normal player's choice (:class:`~engine.agents.normal.NormalAgent`, tried
   first) stands unless another choice beats it on the same worlds by more than ``margin``
   (the mean of the paired differences, less ``confidence`` standard errors): a few rollouts
   are noisy, the heuristic is not. Giving cards or characters away (discard, dismiss,
   leave) and trade offers are not searched unless the normal player picks them.

The search stops at whichever comes first: ``budget_ms`` of the deciding thread's own CPU
time (:func:`thread_cpu_time`), ``iterations`` rollouts, or ``ceiling_ms`` of wall-clock time
(:func:`time.perf_counter`). The budget is counted in work, not in elapsed time (issue 20): on
a machine shared with other processes, a wall-clock budget left the search a tenth of its
rollouts (11 instead of 141 a decision at a load average of 7.7) and the agent played no
better than the heuristic; CPU time the scheduler gives to others no longer counts. The
wall-clock ceiling (ten times the budget by default) keeps a busy bot answering in time.
Tests give an iteration cap and no time budget, so that a decision never depends on the
machine's speed. A decision with one legal choice is answered at once, without any search.

The agent never sees the :class:`~engine.game.Game` it plays in and never touches its
generator (X5): its own :class:`random.Random`, seeded from ``seed``, deals the worlds and
drives the rollouts.
"""

from __future__ import annotations

import math
import random
import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.agents import choice_actions
from engine.agents.hard_rollout import rollout_choice
from engine.agents.hard_values import evaluate, objective_readiness, party_score
from engine.agents.normal import NormalAgent
from engine.cards import CardDB
from engine.determinize import determinize
from engine.errors import GameDataError

if TYPE_CHECKING:
    from engine.game import Game
    from engine.prompts import Prompt
    from engine.views import PromptView, SeatView

if sys.platform == "linux":
    import resource

    def thread_cpu_time() -> float:
        """The calling thread's CPU time in seconds (user + system).

        ``getrusage(RUSAGE_THREAD)`` rather than :func:`time.thread_time`: both read the same
        accounting, but in sandboxed kernels (gVisor) ``clock_gettime`` on a CPU-time clock
        cost 0.2-1.2 ms a call after some work, as much as a rollout, where ``getrusage``
        costs a few microseconds. Its resolution (a scheduler tick, up to 4 ms) is fine for
        a budget of 100 ms."""
        usage = resource.getrusage(resource.RUSAGE_THREAD)
        return usage.ru_utime + usage.ru_stime

else:  # pragma: no cover - the project runs on Linux; elsewhere the portable clock

    def thread_cpu_time() -> float:
        """The calling thread's CPU time in seconds."""
        return time.thread_time()


#: The default thinking time per decision, in CPU time of the deciding thread (issue 11: hard
#: at 100 ms; issue 20: counted in work, not in wall-clock time).
DEFAULT_BUDGET_MS = 100.0
#: The wall-clock ceiling per decision, as a multiple of the budget when none is given: on a
#: machine so loaded that the thread gets a tenth of a core, the search stops here.
CEILING_FACTOR = 10.0
#: Rollouts at most per decision when no cap is given (a bound for a very fast machine).
MAX_ITERATIONS = 5_000
#: How much better (in value, 0-1) than the normal player's choice another choice must
#: look for the search to prefer it.
DEFAULT_MARGIN = 0.02
#: Standard errors of the paired difference a choice must win by (see ``_Arm.gain_over``).
DEFAULT_CONFIDENCE = 0.0
#: The variance of one pseudo-sample of a paired difference of values (a standard deviation
#: of about 0.22): what a difference is assumed to vary before the samples say otherwise.
PRIOR_VARIANCE = 0.05
#: Choices the search does not consider (unless the guide picks one): giving cards or
#: characters away for nothing (R2), and trades, which the rollouts never complete.
UNSEARCHED = ("discard", "dismiss", "leave", "offer")
#: Whole turns a rollout plays after the current one (0: it ends with the current turn; a
#: longer rollout is twice as costly and, at 100 ms, leaves too few of them).
DEFAULT_HORIZON = 0
#: Determinizations at most per decision; later samples replay them with other dice.
DEFAULT_WORLDS = 8
#: UCB1's exploration constant, for values in [0, 1].
EXPLORATION = 0.5
#: Actions at most in one rollout (a rollout stops at its turn horizon long before).
ROLLOUT_ACTIONS = 2_000
# ---------------------------------------------------------------------- the search


@dataclass
class _Arm:
    """One choice at the root: its samples so far."""

    action: str
    visits: int = 0
    total: float = 0.0
    #: The value of each sample, the ``k``-th played in the ``k``-th world.
    values: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def gain_over(self, other: _Arm, z: float) -> float:
        """A cautious estimate of how much better this choice is than ``other``: the mean
        of the paired differences (same worlds, same dice) minus ``z`` standard errors. A
        pseudo-sample of variance :data:`PRIOR_VARIANCE` keeps one lucky sample from
        looking certain. ``-inf`` when they share no world yet."""
        n = min(self.visits, other.visits)
        if n == 0:
            return -math.inf
        diffs = [a - b for a, b in zip(self.values[:n], other.values[:n], strict=True)]
        mean = sum(diffs) / n
        variance = (sum((d - mean) ** 2 for d in diffs) + PRIOR_VARIANCE) / n
        return mean - z * math.sqrt(variance / n)


@dataclass
class SearchStats:
    """What the last decision cost (for tests and benchmarks)."""

    #: Rollouts played (0: a single legal choice, answered without search).
    iterations: int = 0
    #: Worlds dealt by :func:`~engine.determinize.determinize`.
    worlds: int = 0
    #: Mean value and samples of every choice.
    arms: dict[str, tuple[float, int]] = field(default_factory=dict)
    #: The deciding thread's CPU time and the wall-clock time the search took, in ms
    #: (measurements: two equal searches differ in them, so they are not compared).
    cpu_ms: float = field(default=0.0, compare=False)
    wall_ms: float = field(default=0.0, compare=False)
    #: Whether the wall-clock ceiling, not the budget or the cap, stopped the search.
    hit_ceiling: bool = field(default=False, compare=False)


class HardAgent:
    """A search player: determinized flat Monte Carlo with UCB1 at the root (module
    docstring). ``budget_ms`` is the thinking time per decision in CPU time of the deciding
    thread (None: no time limit, then ``iterations`` must be given); ``ceiling_ms`` bounds a
    decision's wall-clock time (None: :data:`CEILING_FACTOR` times the budget, or none
    without a budget); ``iterations`` caps the rollouts per decision (tests use it with no
    time budget, so that the choice never depends on timing); ``horizon`` is how many whole
    turns a rollout plays after the current one before it is evaluated."""

    def __init__(
        self,
        seed: int | str | None = None,
        budget_ms: float | None = DEFAULT_BUDGET_MS,
        iterations: int | None = None,
        horizon: int = DEFAULT_HORIZON,
        margin: float = DEFAULT_MARGIN,
        confidence: float = DEFAULT_CONFIDENCE,
        max_worlds: int = DEFAULT_WORLDS,
        cards: CardDB | None = None,
        ceiling_ms: float | None = None,
    ) -> None:
        if budget_ms is None and iterations is None:
            raise ValueError("a HardAgent needs a time budget, an iteration cap, or both")
        self.rng = random.Random(seed)
        self.budget_ms = budget_ms
        if ceiling_ms is None and budget_ms is not None:
            ceiling_ms = CEILING_FACTOR * budget_ms
        self.ceiling_ms = ceiling_ms
        self.iterations = iterations
        self.horizon = horizon
        self.margin = margin
        self.confidence = confidence
        self.max_worlds = max_worlds
        self.cards = cards
        #: The heuristic player whose choice the search must beat (same seed, own generator).
        self.guide = NormalAgent(seed, cards)
        #: Decisions that ran a search, and what the last one cost.
        self.searches = 0
        self.last = SearchStats()

    def choose(self, view: SeatView, prompt: Prompt | PromptView) -> str:
        """The choice with the best value over simulated continuations (module docstring)."""
        actions = choice_actions(prompt)
        if len(actions) == 1:
            self.last = SearchStats()
            return actions[0]
        # The normal player's choice: tried first, and kept unless the search finds a choice
        # better by more than ``margin`` (a few rollouts are noisy; the heuristic is not).
        guide = self.guide.choose(view, prompt)
        candidates = [a for a in actions if a == guide or not a.startswith(UNSEARCHED)]
        if len(candidates) == 1:
            self.last = SearchStats()
            return candidates[0]
        start = time.perf_counter()
        cpu_start = thread_cpu_time()
        # Work (this thread's CPU time) is the budget; wall-clock time only a ceiling.
        cpu_deadline = cpu_start + self.budget_ms / 1000 if self.budget_ms is not None else math.inf
        deadline = start + self.ceiling_ms / 1000 if self.ceiling_ms is not None else math.inf
        cap = self.iterations if self.iterations is not None else MAX_ITERATIONS
        self.searches += 1
        seat = view.seat
        stats = SearchStats()
        self.last = stats
        # Each sample index: a determinized game and the seed of the rollouts played in it
        # (its dice and the rollout policy's draws).
        worlds: list[tuple[Game, int]] = []
        arms: list[_Arm] = []
        try:
            first = self._world(view)
            own = _own_prompt(first[0], seat)
        except GameDataError:
            # The sealed table does not fit the cards (should not happen): take the default
            # (X6) rather than fail the seat's turn.
            return prompt.default
        worlds.append(first)
        stats.worlds = 1
        # Unvisited arms are tried in the order the guide, then the rollout policy prefer.
        preferred = rollout_choice(first[0], own, random.Random(first[1]))
        order = sorted(candidates, key=lambda a: (a != guide, a != preferred))
        arms = [_Arm(a) for a in order]
        n = 0
        while n < cap:
            if thread_cpu_time() >= cpu_deadline:
                break
            if time.perf_counter() >= deadline:
                stats.hit_ceiling = True
                break
            if n < len(arms):
                arm = arms[n]
            else:
                log_n = math.log(n)
                arm = max(arms, key=lambda a: a.mean + EXPLORATION * math.sqrt(log_n / a.visits))
            k = arm.visits
            if k == len(worlds):
                # The first samples each get a world of their own; later ones replay those
                # deals with other dice (dealing costs as much as half a rollout).
                if k < self.max_worlds:
                    try:
                        worlds.append(self._world(view))
                    except GameDataError:
                        break
                    stats.worlds += 1
                else:
                    worlds.append((worlds[k % self.max_worlds][0], self.rng.getrandbits(64)))
            world, rollout_seed = worlds[k]
            value = self._simulate(world, seat, arm.action, rollout_seed)
            arm.values.append(value)
            arm.total += value
            arm.visits += 1
            n += 1
        stats.iterations = n
        stats.cpu_ms = (thread_cpu_time() - cpu_start) * 1000
        stats.wall_ms = (time.perf_counter() - start) * 1000
        stats.arms = {a.action: (a.mean, a.visits) for a in arms}
        # The guide's choice (tried first) stands unless another one is better on the same
        # worlds by more than ``margin``, with some confidence (a few rollouts are noisy; the
        # heuristic is not).
        guided = arms[0]
        best, gain = guided, self.margin
        for arm in arms[1:]:
            arm_gain = arm.gain_over(guided, self.confidence)
            if arm_gain > gain:
                best, gain = arm, arm_gain
        return best.action

    def _world(self, view: SeatView) -> tuple[Game, int]:
        """A fresh determinization of ``view`` and a seed for its rollouts."""
        return determinize(view, self.rng, self.cards), self.rng.getrandbits(64)

    def _simulate(self, world: Game, seat: str, action: str, rollout_seed: int) -> float:
        """Apply ``action`` in a copy of ``world``, roll out, and evaluate for ``seat``."""
        g = world.clone()
        s = g.s
        s.rng = rollout_seed  # the world's future dice: the sample's own (a world is reused)
        stop = s.turn + self.horizon
        rng = random.Random(rollout_seed)
        pick = rng.random
        g.apply(seat, action)
        steps = 0
        while s.phase != "over" and s.turn <= stop and steps < ROLLOUT_ACTIONS:
            prompts = s.prompts
            prompt = prompts[int(pick() * len(prompts))] if len(prompts) > 1 else prompts[0]
            g.apply(prompt.player, rollout_choice(g, prompt, rng))
            steps += 1
        return evaluate(g, seat)


def _own_prompt(g: Game, seat: str) -> Prompt:
    """``seat``'s open prompt in a determinized world (the same choices as in the view)."""
    prompt = g.prompt_for(seat)
    if prompt is None:
        raise GameDataError(f"the determinized game has no decision open for {seat}")
    return prompt


__all__ = [
    "CEILING_FACTOR",
    "DEFAULT_BUDGET_MS",
    "UNSEARCHED",
    "HardAgent",
    "SearchStats",
    "evaluate",
    "objective_readiness",
    "party_score",
    "rollout_choice",
    "thread_cpu_time",
]
