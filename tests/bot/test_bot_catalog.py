"""Every ending, tie-break criterion, action type and prompt kind has a template in the bot's
catalog (issue 22), and each renders from sample data without leaving a placeholder."""

from __future__ import annotations

import re

from rules.expansion_advantage_cards import ALL_SETS, expansion_db

from bot.rendering import Names
from bot.rendering.choices import action_label, choice_label, waiting_text
from bot.rendering.ending import ending_text, tiebreak_lines
from bot.rendering.messages import ENGLISH
from bot.storage import SeatRow
from engine import ACTION_LABELS, ENDINGS, TIEBREAKS, ChoiceView, WaitingView
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
        assert waiting_text(hidden, NAMES) == ENGLISH[f"kind.{kind}"]
    shown = WaitingView(player="p1", kind="pick", text="p2 chooses.", withheld=False)
    assert waiting_text(shown, NAMES) == "**Bob** chooses."
