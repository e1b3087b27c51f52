"""Every event kind is worded by the bot from its payload (issue 22): one builder per kind, one
catalog of templates, and never the engine's own sentence."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest
from rules.expansion_advantage_cards import ALL_SETS
from rules.expansion_advantage_cards import expansion_db as advantage_db
from rules.expansion_cards import expansion_db as arcane_db

from bot.rendering import Names, event_line
from bot.rendering.events import EVENT_MESSAGES
from bot.rendering.messages import ENGLISH, Message, say
from bot.storage import EventRow, SeatRow
from engine.cards import CardDB, default_cards
from engine.event_kinds import EVENT_PAYLOADS, payload_errors
from engine.events import Event
from engine.game import Game
from engine.tools.simulate import play_game
from wording.event_context import Context
from wording.event_messages import BOT_EVENT_KINDS

DB = default_cards()
SEATS = {
    s: SeatRow(1, s, i, 100 + i, n)
    for i, (s, n) in enumerate([("p1", "Alice"), ("p2", "Bob"), ("p3", "Carol")], start=1)
}
NAMES = Names(SEATS)

CHAR = DB.characters[0].id
ADV = DB.advantages[0].id
ENC = next(c.id for c in DB.encounters if c.kind == "monster")
EVENT_ENC = next(c.id for c in DB.encounters if c.kind != "monster")
REGION = DB.regions[0].id
SPECIAL = next(
    (r.id, i) for r in DB.regions for i, row in enumerate(r.exploration) if row.result == "special"
)
MISSION = DB.missions[0].id
FINAL = DB.final_missions[0].id
#: A card without text (the ``.bare`` form of the messages that quote a card's text).
BARE = next((c.id for c in DB if not c.text), "no_such_card")
CHECK = {"die": 4, "total": 9, "at_least": 8, "success": True}

#: Sample payloads of every kind (several where the message has variants).
SAMPLES: dict[str, list[dict[str, Any]]] = {
    "ability": [{"player": "p1", "card": CHAR}, {"player": "p1", "card": BARE}],
    "arrive": [{"player": "p1", "region": REGION}],
    "attack": [{"player": "p1", "other": "p2"}],
    "battle": [
        {"player": "p1", "other": "p2", "card": None, "opponent": "p2"},
        {"player": "p1", "other": None, "card": ENC, "opponent": "Beast"},
        {"player": "p1", "other": None, "card": None, "opponent": "Tiamat"},
    ],
    "battle_cancelled": [{}],
    "battle_result": [{"winner": "p1", "margin": 2}, {"winner": "Beast", "margin": 0}],
    "battle_roll": [
        {
            "player": "p1",
            "other": None,
            "opponent": "Beast",
            "dice": [3, 5],
            "shown": ["3", "5"],
            "strengths": [4, 6],
            "totals": [7, 11],
        },
        {
            "player": "p1",
            "other": "p2",
            "opponent": "p2",
            "dice": [3, 5],
            "shown": ["3", "5"],
            "strengths": [4, 6],
            "totals": [7, 11],
        },
        {
            "player": "p1",
            "other": None,
            "opponent": "",
            "dice": [3, 5],
            "shown": ["6+2", "5"],
            "strengths": [4, 6],
            "totals": [12, 11],
        },
    ],
    "block": [{"player": "p1", "region": REGION}],
    "cancel": [{"when": "battle_start"}],
    "choose": [{"player": "p1", "label": "Draw an Advantage"}],
    "crisis": [{}],
    "crisis_attempt": [{"player": "p1", **CHECK}],
    "crisis_challenge": [{"card": FINAL, "order": ["p1", "p2"]}],
    "crisis_countdown": [{"turns": 2}],
    "crisis_lost": [{"player": "p1"}],
    "death": [{"player": "p1", "card": CHAR}],
    "deliver": [{"player": "p1"}],
    "discard": [
        {"player": "p1", "card": ADV},
        {"player": "p1", "card": ADV, "why": "arcane"},
        {"player": "p1", "card": ADV, "why": "lost"},
        {"player": "p1", "card": ADV, "why": "faction"},
    ],
    "dismiss": [{"player": "p1", "card": CHAR}],
    "draw": [{"player": "p1", "n": 1}, {"player": "p1", "n": 2}],
    "draw_private": [{"cards": [ADV, DB.advantages[1].id]}],
    "encounter": [{"player": "p1", "card": ENC}, {"player": "p1", "card": EVENT_ENC}],
    "expelled": [{"player": "p1", "region": REGION}],
    "explore_new": [
        {"player": "p1", "region": REGION, "encounter": ENC},
        {"player": "p1", "region": REGION, "encounter": None},
    ],
    "explore_nothing": [{}],
    "explore_result": [
        {"player": "p1", "count": 0},
        {"player": "p1", "count": 1},
        {"player": "p1", "count": 2, "in_a_row": True},
        {"player": "p1", "count": 3, "in_a_row": True, "region": REGION, "counts_as": 4},
        {"player": "p1", "region": SPECIAL[0], "row": SPECIAL[1]},
    ],
    "explore_roll": [{"player": "p1", "die": 3, "region": REGION}],
    "false_alarm": [{"card": ENC, "region": REGION, "level": 1}],
    "final_completed": [{"player": "p1"}],
    "final_revealed": [
        {"player": "p1", "card": FINAL, "crisis": 3},
        {"player": "p1", "card": FINAL, "crisis": None},
    ],
    "game_over": [
        {"winner": "p1", "ending": "final_mission"},
        {"winner": None, "ending": "crisis_lost"},
    ],
    "hire": [{"player": "p1", "card": CHAR}],
    "incapacitate": [{"player": "p1", "card": CHAR}],
    "leave": [{"player": "p1", "card": ADV}],
    "leave_region": [{"player": "p1", "region": REGION}],
    "lose_next_turn": [{"player": "p1"}],
    "mission_attempt": [{"player": "p1", "card": MISSION}, {"player": "p1"}],
    "mission_completed": [{"player": "p1", "card": MISSION}],
    "mission_failed": [{"player": "p1", "card": MISSION}, {"player": "p1"}],
    "mission_started": [{"player": "p1", "card": MISSION}],
    "modify": [
        {"amount": 2},
        {"amount": -1, "player": "p1", "stat": "speed", "duration": "turn"},
        {"amount": 1, "player": "p1", "stat": "strength", "duration": "battle"},
    ],
    "move": [{"player": "p1", "region": REGION}],
    "move_cancelled": [{"player": "p1"}],
    "new_party": [{"player": "p1", "card": CHAR}],
    "no_removal": [{}],
    "offer": [{"player": "p1", "other": "p2"}],
    "play": [{"player": "p1", "card": ADV}, {"player": "p1", "card": BARE}],
    "redirect": [{"player": "p1", "region": REGION}],
    "region_removed": [{"region": REGION}],
    "regions": [{"regions": [REGION, DB.regions[1].id]}],
    "reroll": [{"player": "p1"}],
    "reshuffle": [{"deck": "advantage"}, {"deck": "encounter"}],
    "resist": [
        {"player": "p1", "turns": 1, "of": 2},
        {"player": "p1", "card": MISSION},
        {"player": "p1"},
    ],
    "rest": [{"player": "p1"}],
    "reward": [{"player": "p1", "region": REGION, "index": 0}],
    "rivals": [
        {"player": "p1", "other": "p2", "rivalry": "organizations"},
        {"player": "p1", "other": "p2", "rivalry": "factions"},
    ],
    "roll": [
        {"player": "p1", "check": "speed", **CHECK},
        {"player": "p1", "check": None, **CHECK, "success": False},
    ],
    "scout": [{"player": "p1", "region": REGION}],
    "scout_private": [{"region": REGION, "card": ENC}],
    "setup": [{"players": ["p1", "p2", "p3"]}],
    "speed_check": [{"player": "p1", **CHECK}],
    "spoils": [{"player": "p1", "other": "p2"}],
    "spoils_private": [{"player": "p1", "other": "p2", "card": ADV}],
    "start_advantages": [{"player": "p1"}],
    "start_character": [{"player": "p1"}],
    "start_character_private": [{"card": CHAR}],
    "steal": [{"player": "p1", "victim": "p2"}],
    "take_character": [{"player": "p1", "victim": "p2", "card": CHAR}],
    "steal_private": [{"player": "p1", "victim": "p2", "card": ADV}],
    "take": [{"player": "p1", "card": ADV}, {"player": "p1", "card": ADV, "source": "discard"}],
    "tap": [{"player": "p1", "card": CHAR}, {"player": "p1", "card": CHAR, "used": ADV}],
    "tie": [{"goes_on": True}, {"goes_on": False}],
    "tie_roll": [{"rolls": {"p1": 3, "p2": 5}}],
    "timeout": [
        {"player": "p1"},
        {"player": "p1", "choice": "Rest"},
        {"player": "p1", "choice": None},
    ],
    "timeout_private": [{"action": "rest"}, {"action": f"keep {CHAR}", "label": "Keep Abel"}],
    "trade": [{"player": "p1", "other": "p2"}],
    "trade_declined": [{"player": "p2"}],
    "trade_offer": [{"player": "p1", "other": "p2"}],
    "trade_offer_private": [
        {"player": "p1", "other": "p2", "give": [ADV], "ask": [], "ask_hand": 2},
        {"player": "p1", "other": "p2", "give": [], "ask": [CHAR], "ask_hand": 0},
    ],
    "trade_private": [{"player": "p1", "other": "p2", "give": [ADV], "ask": [], "ask_hand": 1}],
    "trade_withdrawn": [{"player": "p1"}],
    "undone": [{"player": "p1"}],
    "turn": [{"turn": 2, "order": ["p2", "p1"]}],
    "turn_over": [{"player": "p1"}],
    "untap": [{"player": "p1"}],
    "flee": [
        {"player": "p1", "card": ENC, **CHECK},
        {"player": "p1", "card": ENC, **CHECK, "success": False},
    ],
    "exchange_arcane": [{"player": "p1", "card": CHAR, "arcane": DB.characters[1].id}],
    "exchange_advantage": [{"player": "p1", "victim": "p2"}],
    "exchange_advantage_private": [
        {"player": "p1", "victim": "p2", "given": ADV, "taken": DB.advantages[1].id}
    ],
    "explore_new_regions": [{"player": "p1", "regions": [REGION, DB.regions[1].id]}],
    "trap_set": [{"player": "p1", "region": REGION}],
    "trap_set_private": [{"card": ADV}],
    "trap_revealed": [
        {"player": "p1", "region": REGION, "card": ADV},
        {"player": "p1", "region": REGION, "card": BARE},
    ],
    "region_level": [{"region": REGION, "amount": 1, "level": 3}],
    "guard": [{"player": "p1", "region": REGION}],
    "guard_check": [
        {"player": "p1", "region": REGION, **CHECK},
        {"player": "p1", "region": REGION, **CHECK, "success": False},
    ],
    "guard_beaten": [{"player": "p1", "region": REGION}],
    "incident_over": [{"player": "p1", "card": ADV}],
    "discredit": [{"player": "p1", "other": "p2"}],
    "spoils_artifact": [{"player": "p1", "other": "p2", "card": ADV}],
    # the bot's own kinds
    "window_closed": [{}],
    "paused": [{}],
    "channel_paused": [{"reason": "deleted"}, {"reason": "forbidden"}],
    "resumed": [{"player": "p1"}],
    "takeover": [{"player": "p1", "times": 1}, {"player": "p1", "times": 3}],
    "reclaimed": [{"player": "p1"}],
    "vote_open": [{"player": "p1", "times": 3}],
    "vote_ai": [{"player": "p1"}],
    "vote_wait": [{"player": "p1"}],
}

#: The payloads the bot adds to an engine kind (its own time-out notes: bot.games.turns).
BOT_EXTRAS = {("timeout", "choice"), ("timeout_private", "label")}


def said(kind: str, data: dict[str, Any], private: bool = False, db: CardDB = DB) -> str:
    """The line of an event, straight from its builder (no fallback for a stored old row)."""
    line = EVENT_MESSAGES[kind](data, Context(NAMES, db, kind, private))
    return line if isinstance(line, str) else say(line)


def test_every_event_kind_has_a_message_and_nothing_else_does() -> None:
    kinds = set(EVENT_PAYLOADS) | set(BOT_EVENT_KINDS)
    assert not set(EVENT_PAYLOADS) & set(BOT_EVENT_KINDS)
    assert sorted(kinds - set(EVENT_MESSAGES)) == [], "event kinds without a message"
    assert sorted(set(EVENT_MESSAGES) - kinds) == [], "messages of no event kind"


def test_every_kind_is_said_from_a_sample_payload() -> None:
    assert set(SAMPLES) == set(EVENT_PAYLOADS) | set(BOT_EVENT_KINDS)
    for kind, payloads in SAMPLES.items():
        for data in payloads:
            if kind in EVENT_PAYLOADS:
                engine_data = {k: v for k, v in data.items() if (kind, k) not in BOT_EXTRAS}
                assert payload_errors(Event(kind, "", data=engine_data)) is None, (kind, data)
            else:
                assert set(data) == set(BOT_EVENT_KINDS[kind]), kind
            line = said(kind, data)
            assert line.strip(), kind
            # Every argument was put in: no template field is left over.
            assert "{" not in line and "}" not in line, (kind, line)
            assert "p1" not in line, (kind, line)  # seat ids become display names


def test_the_catalog_has_no_unused_message_and_every_template_names_its_arguments() -> None:
    used: set[str] = set()
    original = say

    def recording(message: Message, language: str | None = None) -> str:
        used.add(message.id)
        return original(message, language)

    import bot.rendering.messages as catalog_module
    import wording.event_context as context_module
    import wording.event_messages as messages_module
    import wording.event_outcomes as outcomes_module
    import wording.events as events_module
    import words as words_module

    modules = (
        catalog_module,
        context_module,
        messages_module,
        outcomes_module,
        events_module,
        words_module,
    )
    with pytest.MonkeyPatch.context() as mp:
        for module in modules:
            if hasattr(module, "say"):
                mp.setattr(module, "say", recording)
        for kind, payloads in SAMPLES.items():
            for data in payloads:
                for private in (False, True):
                    line = EVENT_MESSAGES[kind](data, Context(NAMES, DB, kind, private))
                    if isinstance(line, Message):
                        recording(line)
    unused = {i for i in ENGLISH if i.startswith(("event.", "word.", "stat.", "rivalry."))}
    # Words the samples need not reach: every duration, deck and channel reason is checked
    # below by its own lookup.
    assert sorted(unused - used) == [], sorted(unused - used)
    for template in ENGLISH.values():
        for form in template if isinstance(template, tuple) else (template,):
            fields = [f for _, f, _, _ in string.Formatter().parse(form) if f is not None]
            assert all(f.isidentifier() for f in fields), form  # named arguments only


def test_the_words_of_a_payload_are_all_in_the_catalog() -> None:
    for duration in ("battle", "turn", "next_turn", "permanent"):
        assert f"duration.{duration}" in ENGLISH
    for deck in ("advantage", "character", "encounter", "mission", "region", "arcane"):
        assert f"deck.{deck}" in ENGLISH
    for reason in ("deleted", "forbidden"):
        assert f"reason.channel_{reason}" in ENGLISH


def test_variants_say_what_happened() -> None:
    assert said("mission_attempt", {"player": "p1"}) == "**Alice** attempts a secret mission."
    mission = DB[MISSION].name
    assert said("mission_attempt", {"player": "p1", "card": MISSION}, private=True) == (
        f"You attempt {mission}."
    )
    assert said("draw", {"player": "p2", "n": 1}) == "**Bob** draws 1 Advantage."
    assert said("draw", {"player": "p2", "n": 3}) == "**Bob** draws 3 Advantages."
    assert said("tie", {"goes_on": True}) == "A tie: the battle goes on."
    assert said("tie_roll", {"rolls": {"p1": 3, "p2": 5}}) == (
        "Equal Speed: **Alice** rolls 3, **Bob** rolls 5."
    )
    offer = said(
        "trade_offer_private",
        {"player": "p1", "other": "p2", "give": [], "ask": [ADV], "ask_hand": 2},
    )
    assert offer == f"**Alice** offers nothing for {DB[ADV].name}, 2 Advantages of your choice."
    assert said("rivals", {"player": "p1", "other": "p2", "rivalry": "factions"}) == (
        "**Alice** and **Bob** belong to enemy Factions and must fight."
    )
    assert said("timeout", {"player": "p3", "choice": None}) == (
        "⏰ **Carol** ran out of time: the default choice."
    )


def test_an_old_stored_event_without_its_payload_keeps_its_stored_line() -> None:
    old = EventRow(1, 1, 1, "notice", "👋 p1 takes the seat back from the AI.", None, {})
    assert event_line(old, NAMES, DB) == "👋 **Alice** takes the seat back from the AI."
    older = EventRow(2, 1, 1, "expelled", "p1's party is driven out of X.", None, {"player": "p1"})
    assert event_line(older, NAMES, DB) == "**Alice**'s party is driven out of X."


MARK = "§ENGINE-TEXT§"


@pytest.mark.parametrize("cards", ["published", "arcane", "advantages"])
def test_simulated_games_say_every_event_without_the_engines_text(cards: str) -> None:
    """Whole games of the engine, every event worded from its payload alone: the engine's
    texts are replaced by a marker, and no line holds it (nor a seat id, nor a template's
    field)."""
    db = {"published": DB, "arcane": arcane_db(), "advantages": advantage_db()}[cards]
    # The simulation's seats (engine.tools.simulate: P1...), named as a game's members.
    seats = [f"P{i}" for i in range(1, 6)]
    names = Names({s: SeatRow(1, s, i, 100 + i, f"Name{i}") for i, s in enumerate(seats)})
    seen: set[str] = set()
    lines = 0

    def check(events: list[Event]) -> None:
        nonlocal lines
        for e in events:
            seen.add(e.kind)
            row = EventRow(1, 1, 1, e.kind, MARK, e.to, dict(e.data))
            try:
                line = EVENT_MESSAGES[e.kind](
                    row.data, Context(names, db, e.kind, e.to is not None)
                )
            except Exception as exc:  # a builder that cannot read a real payload
                raise AssertionError(f"{e.kind} {e.data}: {exc!r}") from exc
            text = line if isinstance(line, str) else say(line)
            assert MARK not in text and "{" not in text, (e.kind, text)
            assert not re.search(r"\bP[1-5]\b", text), (e.kind, text)  # names, not seat ids
            assert event_line(row, names, db) == text
            lines += 1

    options = {"sets": list(ALL_SETS)}
    for seed in range(6):
        result = play_game(
            seed, 2 + seed % 4, 40, options, cards=db, observe=lambda g, ev: check(ev)
        )
        assert result.error is None, result.error
    check(Game.new(["P1", "P2"], seed=3).timeout("P1"))
    assert lines > 500 and len(seen) > 40, (lines, sorted(seen))
