"""What the bot's lines and buttons say: a line names both sides and its context, a reward says
what it gives, a card that changes hands says between whom; plurals and set names, no version,
no internal id or rule ID; the setup's buttons and the panel after the start choice;
``/anima about`` promises DMs only when they are on, and ``anima-bot --help`` is clean text."""

from __future__ import annotations

import re
import subprocess
import sys

from test_bot_render import table_for

from bot import rendering
from bot.components.choices import ChoiceSelect
from bot.components.game_views import board_view, private_view
from bot.storage import EventRow
from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.prompts import Prompt
from engine.tools.simulate import play_game

DB = default_cards()


def test_lines_name_both_sides_and_rewards_say_what_they_give() -> None:
    names = rendering.Names({})
    roll = EventRow(1, 1, 1, "battle_roll", "", None, {
        "player": "p1", "other": None, "opponent": "Dark Knight", "dice": [1, 1],
        "shown": ["1", "1"], "strengths": [1, 6], "totals": [2, 7],
    })  # fmt: skip
    line = rendering.event_line(roll, names, DB)
    assert line == "🎲 **p1**: 1 + Strength 1 = **2** vs 🎲 **Dark Knight**: 1 + Strength 6 = **7**"

    # A Region's rewards are buttons, one click each (issue 23), on the board and in the
    # panel; above them, what a named reward gives: the Region's text, quoted.
    game = Game.new(["p1", "p2"], seed=1)
    region = next(c for c in DB if c.type == "region" and c.name == "Whispering Forest")
    game.s.players["p1"].region = region.id
    game.s.prompts = [
        Prompt(player="p1", kind="reward", text="Choose a reward",
               choices=["reward 0", "reward 1", "reward 2"], default="reward 0"),
    ]  # fmt: skip
    table = table_for(game)
    said = f"• **Reward: Woodland Shrine**: “{region.rewards[2].text}”"
    for view in (private_view(table, table.seats["p1"]), board_view(table)):
        assert view is not None
        assert not any(isinstance(c, ChoiceSelect) for c in view.children)
        labels = [getattr(c.item, "label", None) for c in view.children]
        assert {"Reward: Draw 1 Advantage", "Reward: Woodland Shrine"} <= set(labels), labels
    panel = rendering.hand_embed(
        table.seat_view("p1"), DB, table.row, table.seats["p1"], table.names
    )
    assert said in (panel.description or "")
    board = rendering.board_embed(table.table_view(), DB, table.row, table.seats)
    assert said in (board.description or "")
    assert "Draw 1 Advantage**:" not in (board.description or "")  # its label says it all


def test_a_card_that_changes_hands_says_between_whom() -> None:
    """The spoils of a battle between parties (I4) and a theft: the card's name, and from
    whom to whom, for those two players alone."""
    moves: list[Event] = []

    def watch(game: Game, events: list[Event]) -> None:
        moves.extend(e for e in events if e.kind in ("spoils_private", "steal_private"))

    for seed in range(12):
        play_game(seed, players=4, turn_cap=8, observe=watch)
        if moves:
            break
    assert moves
    for e in moves:
        assert re.fullmatch(r".+ goes from P\d to P\d\.", e.text), e.text
        assert e.to is not None and len(e.to) == 2 and all(p in e.text for p in e.to)


def test_plurals_set_names_no_version_no_rule_ids() -> None:
    assert rendering.plural(1, "Encounter") == "1 Encounter"
    assert rendering.plural(2, "Advantage") == "2 Advantages"
    village = next(c for c in DB if c.type == "region" and c.level == 1)
    card = rendering.card_embed(DB, village.id)
    fields = {f.name: f.value for f in card.fields}
    assert fields["Set"] == "Shadow of Omega"
    assert "(s)" not in (fields["Exploration"] + fields["Rewards"])

    game = Game.new(["p1", "p2"], seed=2)
    table = table_for(game)
    board = rendering.board_embed(game.table_view(), game.db, table.row, table.seats)
    assert "version" not in (board.footer.text or "")
    assert all("(s)" not in (f.value or "") for f in board.fields)

    names = rendering.Names({})
    assert names.sub("A tie: p1 wins (B2).") == "A tie: p1 wins."
    assert names.sub("A tie: nothing happens (V2, BGE reading).") == "A tie: nothing happens."
    assert (
        names.plain("Discard an Advantage to block it (M5)?") == "Discard an Advantage to block it?"
    )


def test_setup_buttons_and_the_panel_after_the_start_choice() -> None:
    game = Game.new(["p1", "p2"], seed=5)
    p1 = game.s.players["p1"]
    kept, other = p1.offered_characters
    game.apply("p1", f"keep {kept}")
    table = table_for(game)
    # Only p1 decides now (p2 still chooses a leader, p1 his Advantages): both setup
    # prompts keep the "Choose my start" name.
    game.apply("p2", f"keep {game.s.players['p2'].offered_characters[0]}")
    game.apply("p2", f"drop {game.s.players['p2'].offered_advantages[0]}")
    assert [p.player for p in game.pending()] == ["p1"]
    view = board_view(table)
    assert view is not None
    labels = [getattr(c.item, "label", "") for c in view.children]  # type: ignore[attr-defined]
    assert "Choose my start" in labels and "Decide" not in labels
    # The character p1 did not keep is gone from his panel.
    hand = rendering.hand_embed(
        game.seat_view("p1"), game.db, table.row, table.seats["p1"], table.names
    )
    text = "\n".join(f"{f.name}\n{f.value}" for f in hand.fields)
    assert DB[kept].name in text and DB[other].name not in text


def test_about_explains_and_promises_dms_only_when_on() -> None:
    about = rendering.about_text(dms=False)
    assert "Goal" in about and "A turn" in about and "DM" not in about
    assert len(about.split("\n")) <= 6
    assert "DMs" in rendering.about_text(dms=True)


def test_anima_bot_help_is_clean_text() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bot", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "``" not in out and "usage: anima-bot" in out and "offline preview" in out


def test_a_long_field_is_cut_at_a_line_end_and_says_how_many_lines_are_left_out() -> None:
    """Discord's limits cut the Regions of a five-player, three-set table: whole lines go,
    never half a bold name (a cut inside "**Shrine of the Sleeping God**" showed "**")."""
    from bot.rendering.text import clip_lines

    lines = [f"**Region {i}** L2 · 🂠 face down" for i in range(40)]
    text = "\n".join(lines)
    cut = clip_lines(text, 300)
    assert len(cut) <= 300 and cut.endswith("more")
    kept = cut.split("\n")[:-1]
    assert kept == lines[: len(kept)] and all(line.count("**") == 2 for line in kept)
    assert cut.split("\n")[-1] == f"… and {len(lines) - len(kept)} more"
    assert clip_lines(text, len(text)) == text
