"""A seat view built on its first read, for agents that may never read it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.views.build import seat_view
from engine.views.models import SeatView, set_attribute, set_private
from engine.views.sealed import sealed_table

if TYPE_CHECKING:
    from engine.game import Game


class _LazySeatView(SeatView):
    """A :class:`SeatView` built on its first read (see :func:`lazy_seat_view`), in two
    parts: the view itself, then its sealed table when that is read; once both are built it
    becomes a plain :class:`SeatView`."""

    def _fill(self, sealed: bool = True) -> SeatView:
        g, seat, version = object.__getattribute__(self, "__pydantic_private__")
        if g.s.actions != version:
            raise RuntimeError("a lazy seat view was read after the game moved on")
        fields = self.__dict__
        if "seat" not in fields:
            part = seat_view(g, seat, sealed=False)
            # Without its sealed table: reading that field still comes here.
            fields.update((k, v) for k, v in part.__dict__.items() if k != "sealed")
        if not sealed:
            return self
        fields["sealed"] = sealed_table(g, seat)
        set_attribute(self, "__pydantic_fields_set__", set(fields))
        set_attribute(self, "__pydantic_extra__", None)
        set_attribute(self, "__pydantic_private__", None)
        set_attribute(self, "__class__", SeatView)
        return self

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name not in SeatView.model_fields:
            raise AttributeError(name)
        return self._fill(sealed=name == "sealed").__dict__[name]

    def __eq__(self, other: object) -> bool:
        return self._fill() == other

    def __hash__(self) -> int:
        return hash(self._fill())

    def __repr__(self) -> str:
        return repr(self._fill())

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        return self._fill().model_dump(**kwargs)

    def model_dump_json(self, **kwargs: Any) -> str:
        return self._fill().model_dump_json(**kwargs)


def lazy_seat_view(g: Game, seat: str) -> SeatView:
    """The view of ``seat``, built only when an agent first reads it, and its sealed table
    only when the agent reads that (most decisions of the normal AI never do).

    Building a view costs about as much as applying ten actions (its sealed table as much
    again); a random agent never reads it, and the simulator asks millions of decisions. The
    view must be read before the game moves on (it would describe a later state): reading it
    later raises ``RuntimeError``.
    """
    view = object.__new__(_LazySeatView)
    # Until it is built, the slot of pydantic's private attributes holds where it comes from
    # (a tuple, not a dict: this runs for every decision of the simulator).
    set_private(view, (g, seat, g.s.actions))
    return view
