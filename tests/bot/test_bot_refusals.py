"""A refused action is worded by the bot from the refusal's kind and parameters."""

from __future__ import annotations

import string

from bot.refusals import ARGUMENTS, message_id, refusal_text
from bot.rendering import seat_names
from bot.storage import SeatRow
from engine.cards import default_cards
from engine.errors import IllegalAction, Refusal
from words import SOURCE, catalog


def test_every_refusal_kind_has_a_message_with_known_arguments() -> None:
    english = catalog(SOURCE)
    for kind in Refusal:
        template = english[message_id(kind)]
        assert isinstance(template, str), kind
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert fields <= ARGUMENTS, kind


def test_seats_and_cards_are_named_for_the_member_not_by_their_ids() -> None:
    names = seat_names([SeatRow(game_id=1, seat="p2", position=1, user_id=2, name="Bob")])
    waiting = IllegalAction(Refusal.NOT_YOUR_DECISION, "it is not your decision", waiting=("p2",))
    assert refusal_text(waiting, names) == "It is not your decision: the game waits for **Bob**."
    unknown = IllegalAction(Refusal.UNKNOWN_CARD, "there is no card", card="moonstone")
    assert refusal_text(unknown, names, default_cards()) == (
        "There is no card “moonstone” in this game."
    )
    count = IllegalAction(Refusal.PLAYER_COUNT, "", "G1", players=5, low=2, high=4)
    assert refusal_text(count) == "These sets are played by 2 to 4 players, not 5."
