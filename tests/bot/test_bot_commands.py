"""The other /anima commands: hand, board, play, card, rules, log, end, settings, stats."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import simcord
from anima_sim import (
    Driver,
    Stored,
    World,
    board,
    card_names,
    chose,
    components,
    start_game,
    stored,
    world,
)

from bot.app import AnimaBot
from engine.prompts import Prompt


async def test_card_lookup_with_autocomplete(w: World) -> None:
    choices = await w.alice.autocomplete(w.table, "anima card", "name", "drag")
    assert {c["value"] for c in choices} == {"dragon_god", "dragons_spine", "dragon_knight"}
    assert "Dragon's Spine · Region" in [c["name"] for c in choices]
    everything = await w.alice.autocomplete(w.table, "anima card", "name", "")
    assert len(everything) == 25
    r = await w.alice.slash(w.table, "anima card", name="dragons_spine")
    assert r.ephemeral and r.response.embeds[0].title == "Dragon's Spine"
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    assert fields["Level"] == "3" and "🎲 1" in fields["Exploration"]
    # The card drawn: the embed's image is its attachment, whose alt text names the card.
    assert r.response.embeds[0].image.url == "attachment://card.png"
    (picture,) = r.response.attachments
    assert picture.filename == "card.png" and picture.description
    assert picture.description.startswith("Dragon's Spine")
    r = await w.alice.slash(w.table, "anima card", name="sorcerer")
    assert "Strength / Speed" in {f.name for f in r.response.embeds[0].fields}
    assert r.response.embeds[0].footer.text.startswith("Stand-in text")  # a stand-in says so
    r = await w.alice.slash(w.table, "anima card", name="wrong_road")
    assert r.response.embeds[0].footer.text.startswith("Printed card")
    r = await w.alice.slash(w.table, "anima card", name="no such card")
    assert r.ephemeral and "No card is called" in r.response.content


async def test_rules_with_autocomplete(w: World) -> None:
    choices = await w.alice.autocomplete(w.table, "anima rules", "topic", "B3")
    assert choices[0]["value"] == "B3" and "5 or more" in choices[0]["name"]
    assert len(await w.alice.autocomplete(w.table, "anima rules", "topic", "")) == 25
    sections = await w.alice.autocomplete(w.table, "anima rules", "topic", "battles")
    assert any(c["value"] == "section:B" for c in sections)
    r = await w.alice.slash(w.table, "anima rules", topic="B3")
    assert r.ephemeral and "loses one character" in r.response.embeds[0].description
    r = await w.alice.slash(w.table, "anima rules", topic="section:M")
    assert "**M5**" in r.response.embeds[0].description
    r = await w.alice.slash(w.table, "anima rules", topic="hand limit")
    assert "**R4**" in r.response.embeds[0].description
    r = await w.alice.slash(w.table, "anima rules", topic="zzz qqq")
    assert "No rule matches" in r.response.content


async def test_rules_digest_missing_is_a_clear_message(
    simcord_env: simcord.Env, tmp_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    await simcord_env.restart_bot(make_bot(rules_path=tmp_path / "missing.md"))
    w = world(simcord_env)
    assert await w.alice.autocomplete(w.table, "anima rules", "topic", "B") == []
    r = await w.alice.slash(w.table, "anima rules", topic="B3")
    assert r.ephemeral and "not available" in r.response.content
    assert "ANIMA_RULES_PATH" in r.response.content


def can_play(st: Stored, prompts: list[Prompt]) -> bool:
    return any(
        c.startswith("play ")
        for p in prompts
        if not p.window and p.kind != "pick"
        for c in p.choices
    )


async def test_hand_board_play_and_log(w: World, db_path: Path) -> None:
    r = await w.alice.slash(w.table, "anima hand")
    assert "no game here" in r.response.content
    game_id = await start_game(w, w.alice, [w.bob, w.carol], ai=0, turns=2)
    players = {m.id: m for m in (w.alice, w.bob, w.carol)}

    r = await w.alice.slash(w.table, "anima hand")
    assert r.ephemeral and r.response.embeds[0].title == f"Your hand · game #{game_id}"
    assert any(c.label.startswith("Lead with") for c in components(r.response))
    hand = r.response.embeds[0]
    assert "◇ stand-in text" in (hand.footer.text or "")  # the mark on stand-in cards is explained
    assert any("◇" in (f.value or "") for f in hand.fields)
    r = await w.dave.slash(w.table, "anima hand")
    assert r.response.content == "You are not playing in this game."
    r = await w.dave.slash(w.table, "anima board")
    assert r.ephemeral and r.response.embeds[0].title.startswith(f"Anima · game #{game_id}")
    assert str(board(w.table, db_path, game_id).id) in r.response.content

    driver = Driver(w, db_path, game_id, players, seed=12)
    st, prompts = await driver.until(can_play)
    prompt = next(
        p for p in prompts if not p.window and any(c.startswith("play ") for c in p.choices)
    )
    seat = st.seats[prompt.player]
    member = players[seat.user_id]
    card = next(c for c in prompt.choices if c.startswith("play ")).split(" ", 1)[1]
    hand = st.game.s.players[seat.seat].hand

    offered = await member.autocomplete(w.table, "anima play", "card", "")
    assert sorted(c["value"] for c in offered) == sorted(hand)
    assert any("playable now" in c["name"] for c in offered if c["value"] == card)
    r = await w.dave.slash(w.table, "anima play", card=card)
    assert r.response.content == "You are not playing in this game."
    r = await member.slash(w.table, "anima play", card="not_a_card")
    assert "No card called “not\\_a\\_card” is in your hand" in r.response.content
    version = stored(db_path, game_id).version
    # Typed without picking the suggestion: the card's name, in any case (finding 4).
    typed = card_names()[card].swapcase()
    r = await member.slash(w.table, "anima play", card=typed)
    assert chose(r, "Play ")
    assert stored(db_path, game_id).version > version

    r = await member.slash(w.table, "anima log")
    assert r.ephemeral and r.response.embeds[0].title == f"Game #{game_id} · latest events"
    assert "plays" in r.response.embeds[0].description


async def test_end_needs_host_or_manage_server_and_a_confirmation(w: World, db_path: Path) -> None:
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    r = await w.bob.slash(w.table, "anima end")
    assert r.ephemeral and "Only the host" in r.response.content
    r = await w.alice.slash(w.table, "anima end")
    assert r.ephemeral and "End game" in r.response.content
    r2 = await w.alice.click(r.response, custom_id=f"anima:end:{game_id}:no")
    assert r2.response.content == "The game goes on."
    assert stored(db_path, game_id).status == "running"

    r = await w.admin.slash(w.table, "anima end")
    r2 = await w.admin.click(r.response, custom_id=f"anima:end:{game_id}:yes")
    assert r2.response.content == f"Game #{game_id} has been ended."
    assert stored(db_path, game_id).status == "ended"
    assert "was ended by" in w.table.last_message.content
    assert not components(board(w.table, db_path, game_id))
    r = await w.alice.slash(w.table, "anima end")
    assert "no game here" in r.response.content
    stats = await w.alice.slash(w.table, "anima stats")
    assert "Games played: **0**" in stats.response.embeds[0].description


async def test_settings_need_manage_server(w: World) -> None:
    r = await w.alice.slash(w.table, "anima settings", decision_timer=10)
    assert r.ephemeral and "Manage Server" in r.response.content
    r = await w.admin.slash(w.table, "anima settings")
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    assert fields.pop("Your auto-pass (only you see it)").startswith("**off**")
    assert fields.pop("Language of new lobbies") == "English (the server's Discord language)"
    assert fields.pop("Your language (only you see it)") == "English (your Discord's)"
    assert fields.pop("Pace of new lobbies") == "live"
    assert fields.pop("Your quiet hours (only you see them)") == "none (time zone UTC)"
    assert fields.pop("Your “you are next” ping (only you see it)") == "off"
    assert fields == {
        "Decision timer": "none",
        "Reaction window": "30 s",
        "DMs": "on",
        "AI takeover": "after 3 time-outs",
    }
    r = await w.admin.slash(
        w.table, "anima settings", decision_timer=600, window_timer=20, dms=False, ai_takeover=0
    )
    assert "(saved)" in r.response.embeds[0].title
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    for own in (
        "Your auto-pass (only you see it)",
        "Your language (only you see it)",
        "Pace of new lobbies",
        "Your quiet hours (only you see them)",
        "Your “you are next” ping (only you see it)",
    ):
        fields.pop(own)
    assert fields.pop("Language of new lobbies").startswith("English")
    assert fields == {
        "Decision timer": "10 min",
        "Reaction window": "20 s",
        "DMs": "off",
        "AI takeover": "never",
    }
    # The lobby shows the new default; DMs off means no DM at the start.
    r = await w.alice.slash(w.table, "anima start")
    timer = next(f.value for f in r.response.embeds[0].fields if f.name == "Decision timer")
    assert "10 min" in timer
    assert not w.alice.user.dm_channel.history()


async def test_stats_after_a_game(w: World, db_path: Path) -> None:
    r = await w.alice.slash(w.table, "anima stats")
    assert "No finished game yet." in r.response.embeds[0].fields[0].value
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=1)
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    final = await Driver(w, db_path, game_id, players, seed=2).play()
    r = await w.carol.slash(w.table, "anima stats")
    embed = r.response.embeds[0]
    assert "Games played: **1**" in embed.description
    winner = final.game.s.winner
    lines = embed.fields[0].value.split("\n")
    assert len(lines) == 2 and all(x.endswith(" in 1 game") for x in lines)
    if winner is None:
        assert "**1**" in embed.description.split("nobody won")[1]
