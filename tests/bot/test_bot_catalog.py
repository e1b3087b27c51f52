"""Every ending, tie-break criterion, action type and prompt kind has a template in the bot's
catalog (issue 22), and each renders from sample data without leaving a placeholder."""

from __future__ import annotations

import re

from rules.expansion_advantage_cards import ALL_SETS, expansion_db

from bot.rendering import Names
from bot.rendering.choices import action_label, choice_label
from bot.rendering.ending import ending_text, tiebreak_lines
from bot.rendering.messages import ENGLISH
from bot.rendering.prompts import prompt_text, waiting_text
from bot.storage import SeatRow
from engine import (
    ACTION_LABELS,
    ENDINGS,
    TIEBREAKS,
    ChoiceView,
    PromptData,
    PromptView,
    WaitingView,
)
from engine.cards import default_cards
from engine.game import Game
from engine.prompts import PROMPT_KINDS
from engine.tools.simulate import play_game

DB = default_cards()
#: What replaces the engine's own label: it must never reach a rendered one.
MARK = "ENGINE-LABEL"

SEATS = {"p1": SeatRow(1, "p1", 1, 101, "Alice"), "p2": SeatRow(1, "p2", 2, 102, "Bob")}
NAMES = Names(SEATS)
#: A placeholder left in a rendered string.
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
#: A rule id closing a parenthesis in an engine sentence.
TRAILING_RULE = re.compile(r", [A-Z][0-9]{1,2}[a-z]?\)")


def test_every_ending_and_tiebreak_has_a_template() -> None:
    missing = [f"ending.{k}" for k in ENDINGS if not ENGLISH.get(f"ending.{k}")]
    missing += [f"tiebreak.{k}" for k in TIEBREAKS if not ENGLISH.get(f"tiebreak.{k}")]
    assert missing == []


def test_every_ending_renders_from_its_code() -> None:
    for ending in ENDINGS:
        for winner in ("p1", None):
            text = ending_text(winner, ending, NAMES)
            assert ENGLISH[f"ending.{ending}"] in text
            assert not PLACEHOLDER.search(text)
    assert "the game is over" in ending_text(None, None, NAMES)


def test_every_tiebreak_renders_from_its_criterion() -> None:
    for criterion in TIEBREAKS:
        text = ending_text("p1", "turn_cap", NAMES, criterion)
        assert f"decided on {ENGLISH[f'tiebreak.{criterion}']}" in text
        assert "**Alice**" in text
    scores = {"p1": dict.fromkeys(TIEBREAKS, 3), "p2": dict.fromkeys(TIEBREAKS, 2)}
    over = {"tiebreak": "die_roll", "scores": scores, "rolls": {"p1": [5], "p2": [2]}}
    lines = tiebreak_lines(over, NAMES)
    assert len(lines) == 2
    assert "completed missions **3**" in lines[0]
    assert "🎲 5" in lines[0]
    assert not any(PLACEHOLDER.search(line) for line in lines)


def test_every_action_type_has_a_template() -> None:
    missing = [f"action.{t}" for t in ACTION_LABELS if not ENGLISH.get(f"action.{t}")]
    assert missing == []


def _choice(action: str, **data: object) -> ChoiceView:
    fields: dict[str, object] = {"option": None, "idle": False, "reward": None, "level": None}
    return ChoiceView(index=0, action=action, label=MARK, public=True, **{**fields, **data})


def test_every_action_type_renders_from_sample_data() -> None:
    card = DB.characters[0]
    for kind in ACTION_LABELS:
        arg = {"attack": "p2", "offer": "p2", "pick": "0", "reward": "0"}.get(kind, card.id)
        data = {"option": "+2 Strength"} if kind == "pick" else {}
        if kind == "reward":
            data = {"reward": "advantage", "level": 2}
        label = choice_label(_choice(f"{kind} {arg}", **data), NAMES, DB)
        assert label and MARK not in label and not PLACEHOLDER.search(label), (kind, label)
        if "{card}" in ACTION_LABELS[kind]:
            assert card.name in label, (kind, label)
        if "{seat}" in ACTION_LABELS[kind]:
            assert "Bob" in label and "p2" not in label, (kind, label)
    assert choice_label(_choice("reward 0", reward="advantage", level=1), NAMES, DB) == (
        "Reward: Draw 1 Advantage"
    )
    assert choice_label(_choice("pick 1", option="Heal", idle=True), NAMES, DB) == (
        "Heal (changes nothing now)"
    )
    assert choice_label(_choice("ask hand"), NAMES, DB) == "Ask for an Advantage"


def test_the_bots_labels_over_games_say_what_the_engine_labels_say() -> None:
    """Over whole games of every set, every choice the bot words from data reads as the
    engine's terminal label: nothing of the engine's wording is needed."""
    db = expansion_db()
    seen: set[str] = set()

    def check(g: Game) -> None:
        for prompt in g.s.prompts:
            view = g.prompt_view(prompt.player)
            assert view is not None
            for c in view.choices:
                seen.add(c.action.partition(" ")[0])
                assert action_label(c, db) == c.label, (c.action, c.label)
            for w in g.table_view().waiting:
                for p in w.choices:
                    assert action_label(p, db) == p.label, (p.action, p.label)

    for seed in range(4):
        result = play_game(
            seed,
            2 + seed % 3,
            30,
            {"sets": list(ALL_SETS)},
            cards=db,
            observe=lambda g, _: check(g),
        )
        assert result.error is None, result.error
    assert len(seen) > 15, sorted(seen)


def test_every_prompt_kind_has_a_template() -> None:
    missing = [f"kind.{k}" for k in PROMPT_KINDS if not ENGLISH.get(f"kind.{k}")]
    assert missing == []


def test_a_withheld_decision_is_worded_from_its_kind() -> None:
    for kind in PROMPT_KINDS:
        hidden = WaitingView(player="p1", kind=kind, text=MARK, withheld=True)
        assert waiting_text(hidden, NAMES, DB) == ENGLISH[f"kind.{kind}"]
    data = PromptData(variant="character", player="p2")
    shown = WaitingView(player="p1", kind="pick", text=MARK, data=data)
    assert waiting_text(shown, NAMES, DB) == "Choose a character of **Bob**'s party."


def test_every_prompt_kind_and_variant_renders_from_sample_data() -> None:
    card, region = DB.advantages[0], DB.regions[0]
    data: dict[str, object] = {
        "player": "p1",
        "other": "p2",
        "card": card.id,
        "region": region.id,
        "left": 2,
        "strength": 7,
        "margin": 2,
        "give": (card.id,),
        "ask": (),
        "ask_hand": 1,
        "options": (("0", "+2 Strength", False), ("1", "+2 Speed", True)),
    }
    keys = [k for k in ENGLISH if k.startswith("prompt.") and k.count(".") <= 2]
    for key in keys:
        kind, _, variant = key.removeprefix("prompt.").partition(".")
        if kind not in PROMPT_KINDS:
            continue
        view = PromptView(
            player="p1",
            kind=kind,
            text=MARK,
            public_text=MARK,
            default="pass",
            data=PromptData(**data, variant=variant or None),
        )
        text = prompt_text(view, NAMES, DB)
        assert text and MARK not in text and not PLACEHOLDER.search(text), (key, text)
    for kind in PROMPT_KINDS:
        assert f"prompt.{kind}" in ENGLISH or any(
            k.startswith(f"prompt.{kind}.") for k in ENGLISH
        ), kind


def _engine(names: Names, text: str) -> str:
    """The engine's sentence as the bot used to show it, without a trailing rule id either
    ("Strength + 2, E7)"); a seat in parentheses, which the engine's sentence lost as if it
    were a rule id ("A battle starts (P2)"), is named."""
    text = re.sub(r"\((P[1-5])\)", lambda m: f"({names.bold(m.group(1))})", text)
    return TRAILING_RULE.sub(")", names.sub(text))


def test_the_bots_prompts_over_games_say_what_the_engine_says() -> None:
    """Over whole games of every set, every decision the bot words from its kind and data
    reads as the engine's sentence (rule ids aside), on the panel and on the board."""
    db = expansion_db()
    seats = {f"P{i}": SeatRow(1, f"P{i}", i, 100 + i, f"Name{i}") for i in range(1, 6)}
    names = Names(seats)
    seen: set[str] = set()

    def check(g: Game) -> None:
        for prompt in g.s.prompts:
            view = g.prompt_view(prompt.player)
            assert view is not None
            seen.add(f"{view.kind}.{view.data.variant}")
            assert prompt_text(view, names, db) == _engine(names, view.text), view
        for w in g.table_view().waiting:
            want = ENGLISH[f"kind.{w.kind}"] if w.withheld else _engine(names, w.text)
            assert waiting_text(w, names, db) == want, w

    for seed in range(6):
        result = play_game(
            seed,
            2 + seed % 4,
            40,
            {"sets": list(ALL_SETS)},
            cards=db,
            observe=lambda g, _: check(g),
        )
        assert result.error is None, result.error
    assert len(seen) > 15, sorted(seen)


def test_a_decision_stored_before_prompts_carried_data_reads_its_stored_sentence() -> None:
    """A running game saved by an older bot has one open decision without data: its panel
    and the board read the sentence stored with it, never a template with blanks."""
    from bot.rendering import prompt_text
    from bot.rendering.prompts import stored_before_data
    from bot.rendering.text import Names
    from engine import PromptData, PromptView, default_cards

    old = PromptView(
        player="p1",
        kind="exploration",
        text="Exploration phase at Lost Ruins: explore or skip.",
        public_text="Exploration phase at Lost Ruins: explore or skip.",
        default="skip",
    )
    assert stored_before_data("exploration", PromptData())
    assert prompt_text(old, Names({}), default_cards()) == old.text
    assert not stored_before_data("exploration", PromptData(player="p1", region="lost_ruins"))
