"""Whom an operation acts on: its party target, resolved once, a player named when it is
"a player" to choose.

An operation's target (docs/cards.md) names players: fixed ones (the user, his opponent,
every other player, the parties in a Region) or one the user chooses, another player or
another in his Region (``chosen_player``, ``chosen_player_in_region``), unless a player was
named before a roll (``Roll.against``, carried to its branches as the use's ``chosen``). A
player the user chooses is one the operation would act on (:mod:`engine.rules.effective`):
no empty choice. Every helper keeps what it resolved in the operation's state ``st``, so
that an operation waiting for an answer resumes where it stood; each returns None while a
pick waits for its answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.rules.effective import MONSTER, affected, candidates, roll_victims
from engine.rules.interpreter import pick, use_of
from engine.state import Frame, Player

if TYPE_CHECKING:
    from engine.game import Game

#: The targets the user chooses a player for (one of them).
CHOSEN = ("chosen_player", "chosen_player_in_region")


def named(
    g: Game,
    frame: Frame,
    st: dict[str, Any],
    key: str,
    text: tuple[str, str],
    options: Callable[[], list[str]],
) -> list[str] | None:
    """The player the user names among ``options()``, asked once and kept in ``st[key]``:
    ``[name]``, or ``[]`` when there is nobody to name. The user is asked even when only
    one player can be named. ``text``: the question in English and its variant (what a
    front end words it from)."""
    if key not in st:
        names = options()
        if names:
            english, variant = text
            picked = pick(g, frame, st, frame.player or "", english, names, {"variant": variant})
            if picked is None:
                return None
            names = [picked]
        st[key] = names
    return list(st[key])


def targets(
    g: Game, frame: Frame, o: Any, st: dict[str, Any], key: str = "targets"
) -> list[str] | None:
    """The players (or MONSTER) operation ``o``'s target names (its ``against`` for
    ``key="against"``), resolved once and kept in ``st[key]``."""
    if key in st:
        return list(st[key])
    use = use_of(frame)
    target = o.against if key == "against" else o.target
    if target in CHOSEN and use.chosen is None:

        def options() -> list[str]:
            return roll_victims(g, use, o) if key == "against" else affected(g, use, o)

        return named(g, frame, st, key, ("Choose a player.", "player"), options)
    st[key] = candidates(g, use, target)
    return list(st[key])


def parties(g: Game, frame: Frame, o: Any, st: dict[str, Any]) -> list[Player] | None:
    """The target parties (a monster opponent left out)."""
    names = targets(g, frame, o, st)
    if names is None:
        return None
    return [g.player(n) for n in names if n != MONSTER]


def on_party(
    g: Game, frame: Frame, o: Any, st: dict[str, Any], act: Callable[[Player], bool]
) -> bool:
    """Run ``act`` on the first target party (a monster left out), for operations that act
    on one party (a move, a fight, a hire): True at once when there is none; else what
    ``act`` returns (False while a pick of its waits, or while a frame it pushed runs)."""
    names = parties(g, frame, o, st)
    if names is None:
        return False
    return not names or act(names[0])


def each_party(
    g: Game, frame: Frame, o: Any, st: dict[str, Any], act: Callable[[Player], bool | None]
) -> bool:
    """Run ``act`` on each target party in turn (a monster left out): True once every party
    is done. ``act`` returns False while a pick of its waits (it runs again on the same
    party once answered); anything else, it is done with that party."""
    if targets(g, frame, o, st) is None:
        return False
    while (name := _next_target(st)) is not None:
        if name != MONSTER and act(g.player(name)) is False:
            return False
        _target_done(st)
    return True


def on_named(
    g: Game,
    frame: Frame,
    st: dict[str, Any],
    text: tuple[str, str],
    options: Callable[[], list[str]],
    act: Callable[[Player], bool],
) -> bool:
    """Run ``act`` on the party of the player the user names among ``options()``
    (:func:`named`; Betrayal's victim, the Agent's partner): True at once when there is
    nobody to name; else what ``act`` returns (False while a pick of its waits)."""
    names = named(g, frame, st, "victim", text, options)
    if names is None:
        return False
    return not names or act(g.player(names[0]))


def _next_target(st: dict[str, Any]) -> str | None:
    """The target party being worked on (``st["done"]`` of ``st["targets"]`` are done)."""
    done = st.setdefault("done", 0)
    target_names: list[str] = st["targets"]
    return target_names[done] if done < len(target_names) else None


def _target_done(st: dict[str, Any]) -> None:
    """On to the next target party, with what the last one's decisions kept forgotten."""
    st["done"] += 1
    for key in ("n", "asked", "picked"):
        st.pop(key, None)
