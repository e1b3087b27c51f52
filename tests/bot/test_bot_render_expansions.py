"""How the board, the private panel, ``/anima card`` and the event lines show the expansions'
elements (issue 9, "Play"): Arcane characters, Traps face down (named to their owner only),
Factions, Artifacts and Incidents in play, guarded Regions, a Region's changed level; from
views and payloads only, with the stand-in expansion cards (tests/bot/expansion_table.py)."""

from __future__ import annotations

from typing import Any

import discord
from expansion_table import expansion_cards

from bot import rendering
from bot.storage import EventRow, GameRow, SeatRow
from engine.actions import ACTION_TYPES
from engine.cards import default_cards
from engine.views import (
    ACTION_LABELS,
    CharacterView,
    PartyView,
    RegionView,
    SealedTable,
    SeatView,
    TableView,
)

DB = expansion_cards()
SEATS = {
    "p1": SeatRow(42, "p1", 0, 100, "Alice"),
    "p2": SeatRow(42, "p2", 1, 101, "**Bob**"),
}
NAMES = rendering.Names(SEATS)
ROW = GameRow(
    id=42, guild_id=1, channel_id=2, host_id=100, status="running", options={},
    decision_timer=300, window_timer=30, seed=0, state_json="", version=3,
    published_event_id=0, published_version=0, lobby_message_id=None, board_message_id=None,
    board_turn=None, winner_seat=None, ending=None, broken_reason=None, created_at=0.0,
    started_at=0.0, ended_at=None,
)  # fmt: skip


def table(viewer_traps: tuple[str, ...] = ()) -> TableView:
    """Alice (an Arcane character, a Faction, an Artifact, an Incident) and Bob at Maisen,
    whose level a Trap raised; two Traps face down there (one Alice's when she looks); two
    guarded Regions, one guard beaten."""
    alice = PartyView(
        seat="p1",
        characters=(
            CharacterView(card="acrobat"),
            CharacterView(card="bge_arcane_1", arcane=True),
        ),
        strength=9, speed=8, region="maisen", hand_count=2,
        in_play=("abel", "spear_of_twilight", "blood_moon", "bge_black_sun_organization"),
    )  # fmt: skip
    bob = PartyView(seat="p2", characters=(CharacterView(card="thief"),), strength=3, speed=2)
    return TableView(
        turn=2,
        phase="exploration",
        order=("p1", "p2"),
        seats=("p1", "p2"),
        parties=(alice, bob),
        regions=(
            RegionView(
                card="maisen", level=3, printed_level=2, parties=("p1", "p2"), traps=2,
                own_traps=viewer_traps,
            ),
            RegionView(card="hall_of_the_fallen_god", level=2, printed_level=2, guard="standing"),
            RegionView(card="gate_of_ashes", level=1, printed_level=1, guard="beaten"),
        ),
    )  # fmt: skip


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for f in embed.fields:
        parts += [f.name or "", f.value or ""]
    return "\n".join(parts)


def field(embed: discord.Embed, name: str) -> str:
    return next(f.value or "" for f in embed.fields if f.name == name)


def test_the_stand_in_cards_used_here_are_what_the_tests_say() -> None:
    assert DB.character("bge_arcane_1").arcane
    assert DB.advantage("unleashed_danger").kind == "trap"
    assert DB.advantage("abel").kind == "faction"
    assert DB.advantage("spear_of_twilight").kind == "artifact"
    assert DB.advantage("blood_moon").kind == "incident"
    assert DB.advantage("bge_black_sun_organization").kind == "organization"


def test_board_marks_arcane_characters_and_cards_in_play_by_kind() -> None:
    embed = rendering.board_embed(table(), DB, ROW, SEATS)
    alice = next(f.value or "" for f in embed.fields if (f.name or "").startswith("Alice"))
    arcane = DB["bge_arcane_1"].name
    assert f"✦ {arcane}" in alice and "✦ Acrobat" not in alice
    assert "🚩 Abel" in alice
    assert "🏺 Spear of Twilight" in alice
    assert "🌀 Blood Moon" in alice
    assert f"🏛 {DB['bge_black_sun_organization'].name}" in alice
    assert "✦ Arcane" in (embed.footer.text or "")  # the legend explains the marks


def test_board_counts_face_down_traps_and_shows_guards_and_changed_levels() -> None:
    embed = rendering.board_embed(table(), DB, ROW, SEATS)
    regions = field(embed, "Regions")
    maisen = next(line for line in regions.splitlines() if "Maisen" in line)
    assert "L3 (printed 2)" in maisen and "🪤 2 Traps face down" in maisen
    assert "Unleashed Danger" not in embed_text(embed)
    hall = next(line for line in regions.splitlines() if "Hall of the Fallen God" in line)
    assert "🛡 guarded by Einherjar" in hall and "L2 " in hall + " " and "printed" not in hall
    gate = next(line for line in regions.splitlines() if "Gate of Ashes" in line)
    assert "🏳 Rune Ward beaten" in gate


def test_board_without_expansion_elements_keeps_the_short_legend() -> None:
    plain = TableView(
        turn=1, phase="movement", seats=("p1",),
        parties=(PartyView(seat="p1", characters=(CharacterView(card="acrobat"),)),),
        regions=(RegionView(card="maisen", level=2, printed_level=2),),
    )  # fmt: skip
    embed = rendering.board_embed(plain, DB, ROW, SEATS)
    assert "✦" not in embed_text(embed) and "🪤" not in embed_text(embed)
    assert "**Maisen** L2 ·" in field(embed, "Regions")


def test_the_owner_reads_his_own_traps_in_his_panel() -> None:
    view = SeatView(
        seat="p1",
        table=table(viewer_traps=("unleashed_danger",)),
        hand=("pitfall",),
        sealed=SealedTable(seat="p1", state="{}"),
    )
    embed = rendering.hand_embed(view, DB, ROW, SEATS["p1"], NAMES)
    assert field(embed, "🪤 Your Traps") == "Unleashed Danger at Maisen"
    assert "Trap" in field(embed, "Advantages in hand")  # the kind of a Trap in hand
    other = SeatView(seat="p2", table=table(), sealed=SealedTable(seat="p2", state="{}"))
    text = embed_text(rendering.hand_embed(other, DB, ROW, SEATS["p2"], NAMES))
    assert "Your Traps" not in text and "Unleashed Danger" not in text


def test_card_shows_the_new_kinds_fields() -> None:
    arcane = rendering.card_embed(DB, "bge_arcane_1")
    assert field(arcane, "Type") == "Character · Arcane" and "never dismissed" in field(
        arcane, "✦ Arcane"
    )
    trap = rendering.card_embed(DB, "unleashed_danger")
    assert field(trap, "Type") == "Advantage · Trap" and "face down" in field(trap, "Rule")
    assert "until the end of the turn" in field(rendering.card_embed(DB, "blood_moon"), "Rule")
    abel = rendering.card_embed(DB, "abel")
    assert field(abel, "Type") == "Advantage · Faction"
    assert field(abel, "Enemy Factions") == "Disciples of Cain"
    spear = rendering.card_embed(DB, "spear_of_twilight")
    assert field(spear, "Type") == "Advantage · Artifact" and "spoils" in field(spear, "Rule")
    hall = field(rendering.card_embed(DB, "hall_of_the_fallen_god"), "🛡 Guard")
    assert "Einherjar" in hall and "Strength 6" in hall and "stays until beaten" in hall
    gate = field(rendering.card_embed(DB, "gate_of_ashes"), "🛡 Guard")
    assert "Rune Ward" in gate and "Speed check, 9+" in gate
    assert "🛡 Guard" not in embed_text(rendering.card_embed(DB, "maisen"))


def line(kind: str, text: str = "engine text", **data: Any) -> str:
    return rendering.event_line(EventRow(1, 42, 1, kind, text, None, data), NAMES, DB)


def test_event_lines_of_the_expansions_read_from_their_payloads() -> None:
    bob = r"**\*\*Bob\*\***"  # a display name is escaped
    assert line("trap_set", player="p2", region="maisen") == (
        f"🪤 {bob} lays a Trap face down on **Maisen**."
    )
    sprung = line("trap_revealed", player="p2", region="maisen", card="unleashed_danger")
    assert sprung.startswith(f"🪤 A Trap springs at **Maisen**: **Unleashed Danger** ({bob}'s)")
    assert line("region_level", region="maisen", amount=1, level=3) == (
        "⛰️ **Maisen** is level **3** until the end of the turn (+1)."
    )
    assert "**Einherjar** guards **Hall of the Fallen God**" in line(
        "guard", player="p1", region="hall_of_the_fallen_god"
    )
    check = line(
        "guard_check", player="p1", region="gate_of_ashes", die=4, total=9, at_least=9,
        success=True,
    )  # fmt: skip
    assert (
        check
        == "🛡 **Alice** faces **Rune Ward** at **Gate of Ashes**: 🎲 4 + Speed 5 = 9 vs 9: beaten."
    )
    assert "overcomes **Rune Ward**" in line("guard_beaten", player="p1", region="gate_of_ashes")
    fled = line("flee", player="p1", card="amenhotep", die=2, total=7, at_least=10, success=False)
    assert fled == (
        "💨 **Alice** tries to flee **Amenhotep**: 🎲 2 + Speed 5 = 7 vs 10: "
        "cannot escape and must fight."
    )
    arcane = DB["bge_arcane_1"].name
    assert line("exchange_arcane", player="p1", card="acrobat", arcane="bge_arcane_1") == (
        f"✦ Acrobat leaves **Alice**'s party; the Arcane **{arcane}** joins it."
    )
    explored = line("explore_new_regions", player="p1", regions=["maisen", "gate_of_ashes"])
    assert "**Maisen** (L2), **Gate of Ashes** (L1)" in explored
    assert line("discredit", player="p1", other="p2") == (
        f"🗞️ **Alice** discredits {bob}, who loses his Faction."
    )
    assert line("spoils_artifact", player="p1", other="p2", card="spear_of_twilight") == (
        f"🏺 **Alice** takes {bob}'s Artifact **Spear of Twilight** as spoils."
    )
    assert line("incident_over", player="p1", card="blood_moon") == (
        "🌀 Blood Moon ends (**Alice**'s Incident)."
    )
    # Every other event is worded by the bot too: the engine's text is not read.
    assert line("rest", "p1 rests.", player="p1") == (
        "**Alice**'s party rests (+2 Strength, +2 Speed next turn)."
    )


def test_every_action_type_has_a_label() -> None:
    assert set(ACTION_LABELS) >= ACTION_TYPES
    assert ACTION_LABELS["hire_arcane"].format(card="Pitfall") == (
        "Hire an Arcane character, discarding Pitfall"
    )


def test_card_tells_the_beyond_good_and_evil_mission_objectives_in_plain_words() -> None:
    """The two printed objective kinds of issue 9 (the real cards of cards.json)."""
    real = default_cards()
    night = field(rendering.card_embed(real, "the_long_night"), "Objective")
    assert night == (
        "Come through 6 Encounters in a row in any Region, the Region counting as level 3 "
        "until they are over; a defeat drives the party out"
    )
    beasts = field(rendering.card_embed(real, "hunt_the_beasts_of_the_apocalypse"), "Objective")
    assert beasts == (
        "Hold out 2 turns at Ruins of Eden, beating Beasts of the Apocalypse (Strength 14) on "
        "each; beaten, the party is driven out and starts over"
    )
    # A Resistance mission without enemies reads as before.
    assert field(rendering.card_embed(real, "guard_the_lost_ruins"), "Objective") == (
        "Stay 3 turns at Lost Ruins"
    )
