"""The end of a turn and of the game: the Crisis! countdown and the Crisis itself (F5-F7),
and the tie-break that decides a game ended by its turn limit (``Options.turn_cap``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

from engine import zones
from engine.cards import Objective
from engine.endings import TIEBREAKS, Ending, Tiebreak
from engine.flow import handles
from engine.rules.order import turn_order
from engine.rules.party import speed, strength
from engine.state import Frame

if TYPE_CHECKING:
    from engine.game import Game


def end_of_turn(g: Game) -> None:
    """F5: the countdown goes down by one at the end of each Exploration phase."""
    if g.s.crisis is None:
        return
    g.s.crisis -= 1
    if g.s.crisis > 0:
        turns = f"{g.s.crisis} turn" + ("s" if g.s.crisis != 1 else "")
        g.emit("crisis_countdown", f"⏳ Crisis! in {turns}.", turns=g.s.crisis)
        return
    g.emit("crisis", "⏳ The Crisis is unleashed! Normal play stops (F6).")
    g.push("crisis")


def end_game(
    g: Game,
    winner: str | None,
    ending: Ending,
    text: str = "",
    crisis_order: list[str] | None = None,
    **data: Any,
) -> None:
    """The game is over: ``winner`` (None: nobody, Omega breaks free) and how it ended;
    ``text`` and ``data`` (the turn limit's tie-break) go into the ``game_over`` event, with
    the finishing order (:func:`finishing_order`; ``crisis_order``: the Crisis! challenge's)."""
    # Ranked before the table is cleared: the tie-break reads the parties as they end.
    ranking = finishing_order(g, winner, ending, crisis_order)
    zones.clear_stack(g.s)  # an Encounter still being met is discarded, not lost
    g.s.prompts.clear()
    g.s.phase = "over"
    g.s.winner = winner
    g.s.ending = ending
    if not text:
        text = f"🏆 {winner} wins the game!" if winner else "Nobody wins: Omega breaks free."
    g.emit("game_over", text, winner=winner, ending=ending, ranking=ranking, **data)


def finishing_order(
    g: Game, winner: str | None, ending: Ending, crisis_order: list[str] | None = None
) -> list[list[str]]:
    """The order the game decided, as groups of seats best first (a group's players are
    tied): the winner; then, at the turn limit, the others by the tie-break's scored
    criteria (equal scores tied: the dice decide the winner only); after the Crisis!, the
    players who faced its challenge in its order (``crisis_order``; tied when it is not
    known); then those who lost for lacking a Basic mission (F6), tied. A Final mission
    completed decides the winner only: the others are tied behind him."""
    others = [n for n in g.s.seats if n != winner]
    out = [n for n in others if g.player(n).lost]
    still = [n for n in others if n not in out]
    groups: list[list[str]] = [[winner]] if winner else []
    if ending == "turn_cap":
        scores = tiebreak_scores(g)
        keys = {n: tuple(scores[n][c] for c in SCORED) for n in still}
        for key in sorted(set(keys.values()), reverse=True):
            groups.append([n for n in still if keys[n] == key])
    elif ending.startswith("crisis") and crisis_order:
        groups += [[n] for n in crisis_order if n in still]
        groups += [[n for n in still if n not in crisis_order]]
    else:
        groups.append(still)
    groups.append(out)
    return [group for group in groups if group]


#: The criteria that compare scores, in order; a die roll breaks what they leave tied.
SCORED: tuple[Tiebreak, ...] = tuple(t for t in get_args(Tiebreak) if t != "die_roll")


def tiebreak_scores(g: Game) -> dict[str, dict[str, int]]:
    """Each player still in the game, in seat order, with his score on every scored
    tie-break criterion (:data:`SCORED`, higher is better)."""
    final = g.s.final_mission
    scores: dict[str, dict[str, int]] = {}
    for name in g.s.seats:
        p = g.player(name)
        if p.lost:
            continue
        scores[name] = {
            "completed_missions": len(p.completed),
            # F2: only a Resistance Final mission can be under way before it is completed,
            # and only a player who may attempt it (F4) can have started it.
            "final_mission_progress": p.resisting.get(final, 0) if final else 0,
            "characters": len(p.party),
            # The numbers the board shows (C1, C6: incapacitated characters add no Strength).
            "strength_speed": strength(g, p) + speed(g, p),
        }
    return scores


def standing(g: Game) -> list[str]:
    """The players still in the game, best first by the scored tie-break criteria (seat order
    among equals): the winner first once the game is over."""
    scores = tiebreak_scores(g)
    ranked = sorted(scores, key=lambda n: [-scores[n][c] for c in SCORED])
    winner = g.s.winner
    return [winner, *(n for n in ranked if n != winner)] if winner in scores else ranked


def _roll_off(g: Game, tied: list[str], rolls: dict[str, list[int]]) -> str:
    """Like T2: each tied player rolls a die; the highest wins; a tie for highest rolls again."""
    while len(tied) > 1:
        for name in tied:
            rolls.setdefault(name, []).append(g.die())
        best = max(rolls[name][-1] for name in tied)
        tied = [name for name in tied if rolls[name][-1] == best]
    return tied[0]


def end_at_turn_limit(g: Game) -> None:
    """The turn limit ends the game and a tie-break names the winner (ruling in
    docs/engine.md): most completed missions, then most turns held on the Final mission, then
    most characters, then the highest party Strength + Speed, then a die roll (rolled again
    on a tie, like T2). The ``game_over`` event says which criterion decided, every player's
    scores and the dice."""
    scores = tiebreak_scores(g)
    contenders = list(scores)
    tied_on: list[Tiebreak] = []
    decided: Tiebreak = "die_roll"
    for criterion in SCORED:
        best = max(scores[n][criterion] for n in contenders)
        leaders = [n for n in contenders if scores[n][criterion] == best]
        if len(leaders) == 1:
            decided = criterion
            break
        tied_on.append(criterion)
        contenders = leaders
    rolls: dict[str, list[int]] = {}
    if decided == "die_roll":
        winner = _roll_off(g, contenders, rolls)
        detail = "; ".join(f"{n} 🎲 {', '.join(map(str, rolls[n]))}" for n in contenders)
    else:
        winner = leaders[0]
        ranked = sorted(contenders, key=lambda n: -scores[n][decided])
        detail = ", ".join(f"{n} {scores[n][decided]}" for n in ranked)
    text = f"The turn limit ({g.s.options.turn_cap} turns) is reached: the tie-break decides. "
    if tied_on:
        text += f"{_names(contenders)} are tied with {_tied_scores(scores[winner], tied_on)}. "
    text += f"🏆 {winner} wins the game on {TIEBREAKS[decided]}: {detail}."
    end_game(g, winner, "turn_cap", text, tiebreak=decided, scores=scores, rolls=rolls)


def _names(names: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _tied_scores(score: dict[str, int], criteria: list[Tiebreak]) -> str:
    """The shared scores of tied players, in words: '1 completed mission and 2 characters'.
    Turns held on the Final mission are left out while nobody holds any (the usual case)."""
    words = {
        "completed_missions": ("completed mission", "completed missions"),
        "final_mission_progress": (
            "turn held on the Final mission",
            "turns held on the Final mission",
        ),
        "characters": ("character", "characters"),
    }
    parts = []
    for c in criteria:
        n = score[c]
        if c == "final_mission_progress" and n == 0:
            continue
        if c in words:
            parts.append(f"{n} {words[c][n != 1]}")
        else:
            parts.append(f"Strength + Speed {n}")
    return _names(parts)


@handles("crisis")
def run_crisis(g: Game, frame: Frame) -> None:
    """F6: players without a completed Basic mission lose; the rest face the challenge one
    at a time in Speed order, wherever they are; the first to succeed wins."""
    s = g.s
    final = g.db.final_mission(s.final_mission or "")
    if frame.stage == "":
        s.phase = "crisis"
        for name in s.seats:
            p = g.player(name)
            if not p.completed and not p.lost:
                p.lost = True
                g.emit(
                    "crisis_lost", f"{name} has no completed Basic mission and loses.", player=name
                )
        remaining = [n for n in s.seats if not g.player(n).lost]
        if len(remaining) == 1:
            end_game(g, remaining[0], "last_player")
            return
        if not remaining:
            end_game(g, None, "crisis_lost")
            return
        order = turn_order(g)  # in Speed order, ties broken by dice (T2)
        # The order stays whole beside the queue: the finishing order reads it.
        frame.stage, frame.data = "next", {"queue": order, "order": list(order)}
        g.emit(
            "crisis_challenge",
            f"{final.crisis.text} Order: {', '.join(order)}.",
            card=final.id,
            order=list(order),
        )
        return
    if frame.stage == "fought":
        if g.s.result.get("won") is True:
            end_game(g, frame.player, "crisis_won", crisis_order=frame.data.get("order"))
            return
        frame.stage = "next"
        return
    queue: list[str] = frame.data["queue"]
    if not queue:
        end_game(g, None, "crisis_lost", crisis_order=frame.data.get("order"))
        return
    name = queue.pop(0)
    frame.player = name
    challenge: Objective = final.crisis.challenge
    if challenge.kind == "fight":
        frame.stage = "fought"
        g.push(
            "battle",
            player=name,
            data={
                "name": challenge.opponent or "the Crisis",
                "strength": challenge.strength or final.level,
                "keywords": challenge.keywords,
            },
        )
        return
    die = g.die()
    bonus = speed(g, g.player(name))
    ok = die + bonus >= (challenge.difficulty or 0)
    g.emit(
        "crisis_attempt",
        f"{name}: 🎲 {die} + Speed {bonus} = {die + bonus} vs "
        f"{challenge.difficulty}: {'success' if ok else 'failure'}.",
        player=name,
        die=die,
        total=die + bonus,
        at_least=challenge.difficulty or 0,
        success=ok,
    )
    if ok:
        end_game(g, name, "crisis_won", crisis_order=frame.data.get("order"))
