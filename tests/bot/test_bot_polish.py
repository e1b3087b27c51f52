"""Issue 8, findings 10-12: lines with their context, polish (plurals, names, no internal ids or
rule IDs, setup buttons, DMs promised only when on, escaped user text), and a game in a
thread started from the lobby message."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import discord
import simcord
from anima_sim import Driver, World, components, message_by_id, start_game, stored, world
from anima_sim import board as current_board
from test_bot_render import table_for

from bot import rendering
from bot.components.choices import ChoiceSelect
from bot.components.game_views import board_view, private_view
from bot.storage import EventRow, GameRow
from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.prompts import Prompt
from engine.tools.simulate import play_game

DB = default_cards()


def shown_texts(m: discord.Message) -> list[str]:
    """The parts of a message Discord renders as markdown."""
    parts = [m.content or ""]
    for e in m.embeds:
        parts += [e.title or "", e.description or ""]
        parts += [x for f in e.fields for x in (f.name or "", f.value or "")]
    return parts


# ---------------------------------------------------------------------- finding 10


def test_lines_name_both_sides_and_rewards_say_what_they_give() -> None:
    names = rendering.Names({})
    roll = EventRow(1, 1, 1, "battle_roll", "", None, {
        "player": "p1", "other": None, "opponent": "Dark Knight", "dice": [1, 1],
        "shown": ["1", "1"], "strengths": [1, 6], "totals": [2, 7],
    })  # fmt: skip
    line = rendering.event_line(roll, names, DB)
    assert line == "🎲 **p1**: 1 + Strength 1 = **2** vs 🎲 **Dark Knight**: 1 + Strength 6 = **7**"

    # A Region's named reward is offered in a menu whose options say what each gives.
    game = Game.new(["p1", "p2"], seed=1)
    region = next(c for c in DB if c.type == "region" and c.name == "Whispering Forest")
    game.s.players["p1"].region = region.id
    game.s.prompts = [
        Prompt(player="p1", kind="reward", text="Choose a reward",
               choices=["reward 0", "reward 1", "reward 2"], default="reward 0"),
    ]  # fmt: skip
    table = table_for(game)
    panel = private_view(table, table.seats["p1"])
    assert panel is not None
    menu = next(c for c in panel.children if isinstance(c, ChoiceSelect))
    options = {o.label: o.description for o in menu.item.options}
    assert options["Reward: Woodland Shrine"] == rendering.clip(region.rewards[2].text, 100)
    assert options["Reward: Draw 1 Advantage"] == "Into your hand"


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


# ---------------------------------------------------------------------- finding 11


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


HOSTILE = ["[Free Nitro](https://evil.example)", "**Boldy**", "@everyone"]


async def test_hostile_names_are_escaped_over_a_whole_game(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    guild = simcord_env.create_guild("Anima Test")
    table = guild.create_text_channel("table")
    members = [
        guild.add_member(simcord_env.create_user(f"user{i}", global_name=name))
        for i, name in enumerate(HOSTILE)
    ]
    dave = guild.add_member(simcord_env.create_user("dave"))
    w = World(simcord_env, guild, table, *members, dave, dave)
    game_id = await start_game(w, w.alice, [w.bob, w.carol], ai=0, turns=2)
    assert [s.name for s in stored(db_path, game_id).seats.values()] == HOSTILE
    await Driver(w, db_path, game_id, {m.id: m for m in members}, seed=3).play()
    r = await w.dave.slash(w.table, "anima stats")
    messages = [*w.table.history(viewer=w.dave), r.response.message]
    shown = [t for m in messages for t in shown_texts(m)]
    assert any("Free Nitro" in t for t in shown) and any("Boldy" in t for t in shown)
    for t in shown:
        assert not re.search(r"(?<!\\)\[Free Nitro\]", t), t  # no masked link
        assert not re.search(r"(?<!\\)\*\*Boldy", t), t  # no bold from a name
        assert "@everyone" not in t, t  # no ping (escaped with a zero-width space)


# ---------------------------------------------------------------------- finding 12


async def test_a_game_in_a_thread_from_the_lobby_message(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    """SimCord creates the thread through the API (POST .../messages/{id}/threads), as
    Discord does: no thread prepared by the harness."""
    w = world(simcord_env)
    r = await w.alice.slash(w.table, "anima start", turns=2, thread=True)
    lobby = r.response.message
    game_id = stored(db_path, 1).id
    fields = {f.name: f.value for f in lobby.embeds[0].fields}
    assert "thread" in fields["Where"]
    await w.bob.click(lobby, custom_id=f"anima:lobby:{game_id}:join")
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")

    (thread,) = w.table.threads
    row: GameRow | None = await simcord_env.bot.storage.game(game_id)  # type: ignore[attr-defined]
    assert row is not None and row.channel_id == thread.id and row.status == "running"
    closed = message_by_id(w.table, lobby.id)
    assert f"<#{thread.id}>" in (closed.embeds[0].description or "")
    # The board and every line of the game are in the thread; the channel stays clean.
    board = current_board(thread, db_path, game_id)
    assert {"Choose my start", "My hand"} <= {c.label for c in components(board)}
    in_channel = len(w.table.history())
    # Commands and buttons work in the thread; the channel is free for another lobby.
    r = await w.bob.slash(thread, "anima hand")
    assert r.ephemeral and r.response.embeds[0].title == f"Your hand · game #{game_id}"
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    final = await Driver(w, db_path, game_id, players, seed=2, channel=thread).play()
    assert final.status == "over"
    assert len(w.table.history()) == in_channel
    assert any(m.embeds and m.embeds[0].title.endswith("is over") for m in thread.history())
    r = await w.carol.slash(w.table, "anima start")
    assert not r.ephemeral
