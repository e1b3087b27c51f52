"""The interpreter of the effect language (docs/cards.md): runs a card's operations.

An ``effects`` frame points into a card's data (``card`` + ``data["path"]``) instead of
copying the operations, so stored games stay small. Operations that need a decision (a target,
a character, an option) ask a prompt and resume when it is answered; nested lists (a roll's
success, a fight's win, a choice's option) run as child ``effects`` frames.

This module is the machine: the frame, the table of operations (:data:`OPS`, filled with
``@op`` by the ``ops_*`` modules beside it) and what every operation shares (:func:`pick`,
:func:`then`, :func:`use_of`). Whom an operation acts on is :mod:`engine.rules.targets`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.flow import handles, registrar, responds
from engine.rules.effective import Use
from engine.state import Frame

if TYPE_CHECKING:
    from engine.game import Game


def run_effects(g: Game, user: str, card: str, path: list[Any], **data: Any) -> None:
    """Push an effects frame running the operation list at ``card``/``path`` for ``user``."""
    g.push("effects", player=user, card=card, data={"path": path, "i": 0, **data})


def _ops_at(g: Game, card: str, path: list[Any]) -> list[Any]:
    """The operation list at ``path`` inside a card's data."""
    obj: Any = g.db[card]
    for key in path:
        obj = obj[key] if isinstance(key, int) else getattr(obj, key)
    assert isinstance(obj, list)
    return obj


def _ops(g: Game, frame: Frame) -> list[Any]:
    return _ops_at(g, frame.card or "", frame.data["path"])


# ---------------------------------------------------------------------- the interpreter

#: An operation's function: runs ``o`` of ``frame`` with its state ``st`` (kept in the frame
#: while it waits for an answer); True once the operation is done.
OpFn = Callable[["Game", Frame, Any, dict[str, Any]], bool]
#: The function of each operation of the language (engine.rules checks that none lacks one).
OPS: dict[str, OpFn] = {}
#: ``@op(name)``: register the decorated function as the one running operation ``name``.
op = registrar(OPS)


@handles("effects")
def run_frame(g: Game, frame: Frame) -> None:
    ops = _ops(g, frame)
    i = frame.data["i"]
    if i >= len(ops) or g.over:
        g.pop()
        return
    state: dict[str, Any] = frame.data.setdefault("op", {})
    if OPS[ops[i].op](g, frame, ops[i], state):
        frame.data["i"] = i + 1
        frame.data.pop("op", None)


@responds("effects")
def answer_frame(g: Game, frame: Frame, player: str, action: Action) -> None:
    frame.data["op"]["picked"] = action.arg


def pick(
    g: Game,
    frame: Frame,
    st: dict[str, Any],
    who: str,
    text: str,
    options: list[str],
    data: dict[str, Any] | None = None,
) -> str | None:
    """Ask ``who`` to pick one of ``options`` (once); returns the pick when answered.
    ``data`` words it for a front end (:attr:`~engine.prompts.Prompt.data`: its ``variant``
    says what is picked), with the card whose effect asks."""
    if "picked" in st:
        picked: str = st.pop("picked")
        st.pop("asked", None)
        return picked
    said = {"card": frame.card, **(data or {})}
    g.ask(who, "pick", text, [f"pick {o}" for o in options], data=said)
    st["asked"] = True
    return None


def use_of(frame: Frame) -> Use:
    """The use of a card's effects an ``effects`` frame runs (the card already spent)."""
    return Use(
        frame.player or "",
        frame.card or "",
        chosen=frame.data.get("chosen"),
        region=frame.data.get("region"),
    )


def then(g: Game, frame: Frame, *branch: str | int, **data: Any) -> bool:
    """Finish the current operation by running its nested list ``branch`` (a roll's
    ``success``, a fight's ``win``, a choice's ``options, k, effects``) as a child frame."""
    frame.data["i"] += 1
    frame.data.pop("op", None)
    path = [*frame.data["path"], frame.data["i"] - 1, *branch]
    if _ops_at(g, frame.card or "", path):
        run_effects(g, frame.player or "", frame.card or "", path, **data)
    return False
