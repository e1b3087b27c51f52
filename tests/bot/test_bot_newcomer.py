"""A newcomer's turn (issue 23), the rest: auto-pass found without the README (the first
turn's tip and its button), rewards in one click, the private panel kept when auto-pass
changes and rid of the start's offer after the setup, public lines that never speak to the
reader, the lobby's title naming its sets and AI level pickers closed with their lobby."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    add_ai,
    board,
    chose,
    components,
    drive_new_game,
    open_lobby,
    private_reply,
    stored,
)
from test_bot_windows import _public_step

from bot import rendering
from bot.autopass import AUTO_KINDS, WINDOW_KINDS, window_tip
from bot.storage import EventRow
from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.tools.simulate import play_game
from engine.views import PromptView
from wording.cards import card_text
from words import LANGUAGES, SOURCE, msg, say, speaking

DB = default_cards()
TIP = say(msg("hand.window_tip", button="\0", hand="\0"), SOURCE).split("\0")[0]
WINDOWS_SET = "✅ Auto-pass: **Moves, Encounters, Exploration rolls, Battles**."


def texts(message: Any) -> str:
    """A message's content and its embeds' descriptions and fields, as one text."""
    out = [message.content or ""]
    for e in message.embeds:
        out += [e.description or "", *(f"{f.name}: {f.value}" for f in e.fields)]
    return "\n".join(out)


def button_ids(message: Any) -> set[str]:
    return {c.custom_id for c in components(message)}


async def first_window(driver: Driver, game_id: int) -> None:
    """Public choices (the setup's private ones through the members' panels) until the
    game's first reaction window is open."""
    for _ in range(400):
        _st, prompts = driver.human_prompts()
        if prompts and all(p.window for p in prompts):
            return
        await _public_step(driver)
    raise AssertionError("no reaction window")


# ---------------------------------------------------------------------- auto-pass found (item 2)


def test_the_tip_is_for_the_first_turns_windows_without_auto_pass_whatever_the_hand() -> None:
    window = PromptView(
        player="p1", kind="window", text="", public_text="", window=True, default="pass"
    )
    decision = window.model_copy(update={"window": False, "kind": "movement"})
    assert window_tip(window, frozenset(), 1)
    assert window_tip(window, frozenset({"reset", "interaction"}), 1)
    assert not window_tip(window, frozenset({"battle_start"}), 1)  # he found auto-pass
    assert not window_tip(window, frozenset(), 2)  # the first turn only
    assert not window_tip(decision, frozenset(), 1)
    assert not window_tip(None, frozenset(), 1)


async def test_the_first_window_tells_a_member_about_auto_pass_and_sets_it_in_place(
    w: World, db_path: Path
) -> None:
    """Alice's first reaction window: her panel (Respond) says that nobody needs to pass and
    offers **Auto-pass windows**; the button puts every window on her auto-pass, passes this
    one for her, and keeps her panel, a line above it confirming. Bob clicks Pass on the
    board: his answer says the same, privately, with the button. The board shows none of it."""
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob, w.carol], ai=0, turns=2)
    driver.use_commands = False
    await first_window(driver, game_id)
    message = board(w.table, db_path, game_id)
    assert TIP not in texts(message) and "Auto-pass" not in str(components(message))
    # Her live panel (the setup's) was refreshed into the window, the tip in it.
    live = [m for m in w.table.history(viewer=w.alice) if m.flags.ephemeral and m.embeds]
    assert TIP in texts(live[-1])
    assert f"anima:{game_id}:autopass:windows" in button_ids(live[-1])
    opened = await w.alice.click(message, custom_id=f"anima:{game_id}:respond")
    assert opened.response is not None and TIP in texts(opened.response)
    tip = f"anima:{game_id}:autopass:windows"
    assert tip in button_ids(opened.response)
    alice = stored(db_path, game_id).seat_of(w.alice.id)
    r = await w.alice.click(opened.response, custom_id=tip)
    assert r.response is not None and r.response.id == opened.response.id  # edited in place
    assert r.response.content == WINDOWS_SET
    assert r.response.embeds and r.response.embeds[0].title == f"Your hand · game #{game_id}"
    assert TIP not in texts(r.response) and tip not in button_ids(r.response)
    left = stored(db_path, game_id).game.prompt_for(alice.seat)
    assert left is None or not left.window  # the window is passed for her
    settings = await w.alice.slash(w.table, "anima settings")
    assert "Moves, Encounters, Exploration rolls, Battles" in texts(settings.response)

    # Bob clicks Pass on the board in a window of the first turn: the tip answers him.
    for _ in range(200):
        st, prompts = driver.human_prompts()
        bob = st.seat_of(w.bob.id)
        if any(p.player == bob.seat and p.window for p in prompts):
            break
        await _public_step(driver)
    assert st.game.table_view().turn == 1
    message = board(w.table, db_path, game_id)
    r = await w.bob.click(message, custom_id=f"anima:{game_id}:{bob.since}:0")
    said = private_reply(r) or ""
    assert said.startswith("✅ You chose: **Pass**") and TIP in said, said
    answer = next(f for f in r.followups if f.ephemeral)
    assert button_ids(answer) == {tip}
    r = await w.bob.click(answer, custom_id=tip)
    assert r.response is not None and r.response.content == WINDOWS_SET


async def test_the_tip_speaks_the_members_language_and_leaves_after_the_first_turn(
    w: World, db_path: Path
) -> None:
    await w.carol.slash(w.table, "anima settings", language="es")
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.carol], ai=0, turns=3)
    driver.use_commands = False
    await first_window(driver, game_id)
    message = board(w.table, db_path, game_id)
    opened = await w.carol.click(message, custom_id=f"anima:{game_id}:respond")
    tip_es = say(msg("hand.window_tip", button="\0", hand="\0"), "es").split("\0")[0]
    assert opened.response is not None and tip_es in texts(opened.response)
    button = say(msg("button.autopass_windows"), "es")
    assert any(button in c.label for c in components(opened.response))
    # In the second turn's windows nobody reads it any more.
    while stored(db_path, game_id).game.table_view().turn < 2:
        await _public_step(driver)
    await first_window(driver, game_id)
    message = board(w.table, db_path, game_id)
    for member in (w.alice, w.carol):
        opened = await member.click(message, custom_id=f"anima:{game_id}:respond")
        assert opened.response is not None
        assert f"anima:{game_id}:autopass:windows" not in button_ids(opened.response)
        assert "💡" not in texts(opened.response)


# ---------------------------------------------------------------------- rewards (item 3)


async def test_a_reward_is_one_click_on_the_board(w: World, db_path: Path) -> None:
    """A Region's rewards are buttons on the board (what a named one gives written above
    them): the decider takes one in a click (it was Decide, open the menu, pick)."""
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=0, turns=6, seed=4)
    driver.prefer = lambda action: action == "explore"
    st, prompts = await driver.until(lambda st, ps: any(p.kind == "reward" for p in ps))
    prompt = next(p for p in prompts if p.kind == "reward")
    message = board(w.table, db_path, game_id)
    view = st.game.prompt_view(prompt.player)
    assert view is not None
    public = [c for c in view.choices if c.public]
    seat = st.seats[prompt.player]
    ids = button_ids(message)
    assert all(f"anima:{game_id}:{seat.since}:{c.index}" in ids for c in public)
    assert not any(c.type == "select" for c in components(message))
    member = driver.players[seat.user_id or 0]
    choice = public[0]
    r = await member.click(message, custom_id=f"anima:{game_id}:{seat.since}:{choice.index}")
    assert r.acknowledged and chose(r), private_reply(r)
    assert stored(db_path, game_id).version > st.version


# ---------------------------------------------------------------------- the panel (item 4)


async def test_applying_auto_pass_keeps_the_panel_and_the_start_offer_goes(
    w: World, db_path: Path
) -> None:
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=0, turns=2)
    driver.use_commands = False
    message = board(w.table, db_path, game_id)
    opened = await w.alice.click(message, custom_id=f"anima:{game_id}:hand")
    assert opened.response is not None
    assert "Offered Advantages (keep 3)" in texts(opened.response)  # while she chooses
    while stored(db_path, game_id).game.table_view().phase == "setup":
        await _public_step(driver)
    message = board(w.table, db_path, game_id)
    opened = await w.alice.click(message, custom_id=f"anima:{game_id}:hand")
    assert opened.response is not None
    assert "Offered Advantages" not in texts(opened.response)  # the card given back is gone
    menu = f"anima:{game_id}:autopass"
    r = await w.alice.select(opened.response, ["reset", "interaction"], custom_id=menu)
    assert r.response is not None and r.response.id == opened.response.id
    assert r.response.content == "✅ Auto-pass: **My Reset phase, My Interaction phase**."
    assert r.response.embeds[0].title == f"Your hand · game #{game_id}"
    assert menu in button_ids(r.response)
    r = await w.alice.select(r.response, [], custom_id=menu)
    assert r.response is not None and r.response.content == "✅ Auto-pass: **off**."
    assert r.response.embeds and set(AUTO_KINDS) > set(WINDOW_KINDS)


# ---------------------------------------------------------------------- public lines (item 5)


def _public_events(seeds: range) -> list[EventRow]:
    rows: list[EventRow] = []

    def watch(game: Game, events: list[Event]) -> None:
        rows.extend(
            EventRow(len(rows), 1, 1, e.kind, e.text, None, dict(e.data))
            for e in events
            if e.to is None
        )

    for seed in seeds:
        play_game(seed, players=4, turn_cap=8, observe=watch)
    return rows


#: Event kinds whose line carries a card's text, and the payload key naming the card.
WITH_TEXT = {
    "play": "card",
    "ability": "card",
    "encounter": "card",
    "mission_started": "card",
    "final_revealed": "card",
}
QUOTES = {"en": ("“", "”"), "es": ("«", "»"), "ru": ("«", "»"), "it": ("«", "»")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_public_line_speaks_to_the_reader(language: str) -> None:
    """A card's text is written to whoever holds it ("your party has +1 Strength"): a public
    line quotes it as the card's words ("AI 1 plays Magic Object: “Your party…”"), never says
    it as the bot's. In English, no "you" or "your" is left outside the quotes."""
    rows = _public_events(range(6))
    names = rendering.Names({})
    opening, closing = QUOTES[language]
    quoted = 0
    with speaking(language):
        for r in rows:
            line = rendering.event_line(r, names, DB)
            if r.kind in WITH_TEXT and (text := card_text(DB, r.data[WITH_TEXT[r.kind]])):
                assert f"{opening}{text}{closing}" in line, line
                quoted += 1
            if language == SOURCE:
                outside = re.sub(r"“[^”]*”", "", line)
                assert not re.search(r"\byours?\b|\byou\b", outside, re.IGNORECASE), line
    assert quoted > 50


# ---------------------------------------------------------------------- the lobby (item 6)


@pytest.mark.parametrize(
    ("sets", "title"),
    [
        ([], "Anima: Shadow of Omega · game #"),
        (["twilight_of_the_gods"], "Anima: Twilight of the Gods · game #"),
        (
            ["shadow_of_omega", "beyond_good_and_evil"],
            "Anima: Shadow of Omega + Beyond Good and Evil · game #",
        ),
    ],
)
async def test_the_lobby_title_names_the_sets_chosen(
    w: World, db_path: Path, sets: list[str], title: str
) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob])
    if sets:
        r = await w.alice.select(lobby, sets, custom_id=f"anima:lobby:{game_id}:sets")
        assert r.acknowledged
    lobby = next(m for m in w.table.history() if m.id == lobby.id)
    assert lobby.embeds[0].title == f"{title}{game_id}"


@pytest.mark.parametrize("how", ["start", "cancel", "end"])
async def test_an_ai_level_picker_closes_with_its_lobby(
    w: World, db_path: Path, simcord_env: simcord.Env, how: str
) -> None:
    """The host's private AI level picker outlives its lobby on his screen: when the lobby
    starts, is cancelled or ended, it loses its buttons and says the lobby is closed."""
    game_id, lobby = await open_lobby(w, w.alice, [w.bob])
    picker = await add_ai(w.alice, lobby, game_id, "random")
    assert components(picker)
    if how == "end":
        r = await w.alice.slash(w.table, "anima end")
        assert r.response is not None
        r = await w.alice.click(r.response, custom_id=f"anima:end:{game_id}:yes")
    else:
        r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:{how}")
    assert r.acknowledged
    shown = next(m for m in w.table.history(viewer=w.alice) if m.id == picker.id)
    assert shown.content == "This lobby is closed."
    assert not components(shown)
    with pytest.raises(simcord.SetupError):  # nothing left to click
        await w.alice.click(shown, custom_id=f"anima:lobby:{game_id}:ai:random")
    assert isinstance(shown, discord.Message)
