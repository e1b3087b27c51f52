"""What each seat may see: typed, frozen views of the public table and of one seat.

The engine alone decides what is public. A :class:`TableView` holds what the board shows to
everybody; a :class:`SeatView` adds what one seat alone knows (its hand, its secret
missions, its start offers, the Encounters it scouted, its open prompt). Hidden cards of
others appear only as counts. Each decision is a :class:`PromptView` whose choices carry a
neutral English label (:data:`ACTION_LABELS`) and say whether they may be shown on the
public board; the engine knows where every card is, so nobody has to guess it from text.

A seat view also carries a :class:`SealedTable`: the game with every card this seat cannot
see replaced by a placeholder (``?advantage:3``), from which :mod:`engine.determinize`
deals a consistent hidden position. It costs about twice as much as the rest of the view and only
agents read it: a front end that renders asks for a view without it
(``seat_view(g, seat, sealed=False)``). Seat ids in labels and texts are the engine's player
names; a front end replaces them by display names.

The package, by job: :mod:`~engine.views.models` (what a view holds), :mod:`~engine.views.labels`
(the neutral labels of a decision's choices and which the table may see),
:mod:`~engine.views.build` (views from the game's state), :mod:`~engine.views.sealed` (the
sealed table) and :mod:`~engine.views.lazy` (a seat view built on its first read).
"""

from engine.views.build import plain_view, seat_view, table_view
from engine.views.labels import (
    ACTION_LABELS,
    choose_options,
    prompt_view,
    public_cards,
    reward_label,
    window_about,
    window_kind,
)
from engine.views.lazy import lazy_seat_view
from engine.views.models import (
    CharacterView,
    ChoiceData,
    ChoiceView,
    PartyView,
    PromptData,
    PromptView,
    PublicChoice,
    RegionView,
    SealedTable,
    SeatView,
    TableView,
    WaitingView,
)
from engine.views.sealed import CARD_SECTIONS, swap_action

__all__ = [
    "ACTION_LABELS",
    "CARD_SECTIONS",
    "CharacterView",
    "ChoiceData",
    "ChoiceView",
    "PartyView",
    "PromptData",
    "PromptView",
    "PublicChoice",
    "RegionView",
    "SealedTable",
    "SeatView",
    "TableView",
    "WaitingView",
    "choose_options",
    "lazy_seat_view",
    "plain_view",
    "prompt_view",
    "public_cards",
    "reward_label",
    "seat_view",
    "swap_action",
    "table_view",
    "window_about",
    "window_kind",
]
