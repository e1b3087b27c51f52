"""The base of the engine's records (state, frames, prompts, events): plain slotted
dataclasses. Building and changing them is as cheap as Python allows, which matters because
the rules build and change them several times per action; pydantic validates them only at the
edges (loading a stored game, actions from outside), through a ``TypeAdapter``."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


class Plain:
    """A record of the engine. Subclasses are ``@dataclass(slots=True, kw_only=True)``:
    built with keywords, like the pydantic models they replace. Three are not ``kw_only``:
    the frame, the prompt and the event, which ``Game.push``, ``ask`` and ``emit`` build for
    nearly every action, positionally, because calling a class with keywords costs about
    twice as much in CPython (the keywords become a dict first)."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain Python data, nested records as dicts."""
        return asdict(cast("DataclassInstance", self))
