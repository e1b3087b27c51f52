"""M (Movement phase), X1 and the Wrong Road window (T4)."""

from __future__ import annotations

from typing import Any

ARK = "arkhangel"
CORNES = "village_of_cornes"
RUINS = "lost_ruins"


def _two(make: Any, regions: list[dict[str, Any]], dice: list[int] = (), **players: Any) -> Any:
    """A and B, A first (Acrobat, Speed 4) and B second (Mercenary, Speed 2), at Movement."""
    setup = {
        "regions": regions,
        "players": {
            "A": {"party": ["acrobat"], **players.get("A", {})},
            "B": {"party": ["mercenary"], **players.get("B", {})},
        },
        "phase": "movement",
    }
    return make(setup=setup, dice=list(dice))


def test_M1_go_explore_or_rest(make: Any) -> None:
    t = _two(make, [{"card": ARK}, {"card": CORNES}])
    choices = t.choices("A")
    assert {"go arkhangel", "go village_of_cornes", "explore_new", "rest"} <= set(choices)


def test_M1_only_one_player_explores_a_new_region_per_turn(make: Any) -> None:
    t = _two(make, [{"card": ARK}, {"card": CORNES}], A={"region": ARK})
    t.do("A", "explore_new")
    t.pass_windows()
    prompt = t.until("B", "movement")
    assert not any(c.startswith("explore_new") for c in prompt.choices)


def test_M2_a_preliminary_monster_is_fought_before_arriving(make: Any) -> None:
    t = _two(make, [{"card": CORNES, "preliminary": "old_warrior"}], dice=[6, 1])
    t.do("A", f"go {CORNES}")
    t.pass_windows()
    assert t.p("A").region == CORNES
    assert any("Strength 4 = 10 vs" in x for x in t.texts("battle_roll"))


def test_M2_a_lost_battle_means_the_party_does_not_arrive(make: Any) -> None:
    t = _two(
        make,
        [{"card": CORNES, "preliminary": "wild_boar"}, {"card": ARK}],
        dice=[1, 6],
        A={"region": ARK},
    )
    t.do("A", f"go {CORNES}")
    t.pass_windows()
    a = t.p("A")
    assert a.region == ARK and a.turn_over and not a.arrived


def test_M3_at_most_twice_the_players_regions_and_M5_removal(make: Any) -> None:
    regions = [{"card": c} for c in (ARK, CORNES, "whispering_forest", "silver_harbor")]
    t = _two(make, regions, A={"region": ARK}, B={"region": CORNES})
    t.s.decks["region"].append(RUINS)
    t.s.decks["encounter"].append("treasure")
    t.do("A", "explore_new")
    prompt = t.prompt("A")
    assert prompt.kind == "remove_region"
    # occupied Regions cannot be removed
    assert set(prompt.choices) == {"remove whispering_forest", "remove silver_harbor"}
    t.do("A", "remove whispering_forest")
    t.pass_windows()
    assert len(t.s.regions) == 4
    assert "whispering_forest" in t.s.discards["region"]


def test_M4_explore_a_new_region_face_up_encounter_then_enter(make: Any) -> None:
    t = _two(make, [{"card": ARK}], A={"region": ARK})
    t.s.decks["region"].append(RUINS)
    t.s.decks["encounter"].append("old_warrior")
    t.do("A", "explore_new")
    assert t.s.regions[-1].card == RUINS and t.s.regions[-1].revealed
    t.g.s.rigged = [6, 1]
    t.pass_windows()
    assert t.p("A").region == RUINS


def test_M4_explore_from_the_region_discard_pile(make: Any) -> None:
    t = _two(make, [{"card": ARK}])
    t.s.decks["region"].remove(RUINS)
    t.s.discards["region"].append(RUINS)
    t.refresh()
    assert f"explore_new {RUINS}" in t.choices("A")
    t.do("A", f"explore_new {RUINS}")
    assert t.s.regions[-1].card == RUINS and RUINS not in t.s.discards["region"]


def test_M5_a_player_blocks_a_removal_by_discarding(make: Any) -> None:
    regions = [{"card": c} for c in (ARK, CORNES, "whispering_forest", "silver_harbor")]
    t = _two(make, regions, A={"region": ARK}, B={"region": CORNES, "hand": ["truce"]})
    t.s.decks["region"].append(RUINS)
    t.s.decks["encounter"].append("treasure")
    t.do("A", "explore_new")
    t.do("A", "remove whispering_forest")
    assert t.prompt("A") is None  # the explorer does not block his own choice
    t.do("B", "block truce")
    assert "truce" in t.s.discards["advantage"]
    prompt = t.prompt("A")
    assert prompt.kind == "remove_region" and prompt.choices == ["remove silver_harbor"]


def test_M5_no_removable_region_the_new_one_is_added_anyway(make: Any) -> None:
    regions = [
        {"card": c, "preliminary": e}
        for c, e in (
            (ARK, "sleep"),
            (CORNES, "treasure"),
            ("whispering_forest", "giant_rats"),
            ("silver_harbor", "old_warrior"),
        )
    ]
    t = _two(make, regions)
    t.s.decks["region"].append(RUINS)
    t.s.decks["encounter"].append("wild_boar")
    t.do("A", "explore_new")
    assert len(t.s.regions) == 5
    assert any("added anyway" in x for x in t.texts())


def test_M6_rest_gives_plus_two_next_turn_only(make: Any) -> None:
    t = _two(make, [{"card": ARK}])
    from engine.rules.party import speed, strength

    t.do("A", "rest")
    a = t.p("A")
    assert strength(t.g, a) == 4  # not this turn
    t.until("A", "reset")
    assert t.s.turn == 2 and strength(t.g, a) == 6 and speed(t.g, a) == 6
    t.do("A", "done")
    t.until("A", "movement")
    t.do("A", f"go {ARK}")
    t.until("A", "reset")
    assert t.s.turn == 3 and strength(t.g, a) == 4


def test_M7_a_preliminary_event_applies_and_is_discarded(make: Any) -> None:
    t = _two(make, [{"card": CORNES, "preliminary": "treasure"}], A={"hand": []})
    t.do("A", f"go {CORNES}")
    t.pass_windows()
    assert len(t.p("A").hand) == 2  # Treasure: draw 2
    assert t.s.regions[0].preliminary is None and "treasure" in t.s.discards["encounter"]


def test_M7_a_preliminary_monster_that_wins_stays(make: Any) -> None:
    t = _two(make, [{"card": CORNES, "preliminary": "wild_boar"}], dice=[1, 6])
    t.do("A", f"go {CORNES}")
    t.pass_windows()
    assert t.s.regions[0].preliminary == "wild_boar" and t.s.regions[0].revealed


def test_M8_an_encounter_above_the_region_level_is_a_false_alarm(make: Any) -> None:
    t = _two(make, [{"card": ARK, "preliminary": "dragon_god"}])
    t.do("A", f"go {ARK}")
    t.pass_windows()
    assert t.p("A").region == ARK
    assert "dragon_god" in t.s.discards["encounter"]
    assert any("false alarm" in x for x in t.texts("false_alarm"))


def test_X1_go_to_own_region_meets_nothing(make: Any) -> None:
    t = _two(make, [{"card": ARK, "preliminary": None}], A={"region": ARK})
    t.s.regions[0].preliminary = None
    t.do("A", f"go {ARK}")
    t.pass_windows()
    a = t.p("A")
    assert a.region == ARK and a.arrived
    assert not t.texts("encounter")


def test_X1_a_resting_party_stays_and_does_not_explore(make: Any) -> None:
    t = _two(make, [{"card": ARK}], A={"region": ARK})
    t.do("A", "rest")
    assert t.p("A").region == ARK and not t.p("A").arrived


def test_T4_wrong_road_redirects_a_declared_move(make: Any) -> None:
    t = _two(make, [{"card": ARK}, {"card": CORNES}], B={"hand": ["wrong_road"]})
    t.do("A", f"go {ARK}")
    assert "play wrong_road" in t.choices("B")
    assert t.choices("A") == ["pass"]  # A holds nothing: the window still opens for him
    t.do("B", "play wrong_road")
    t.do("B", f"pick {CORNES}")
    t.pass_windows()
    assert t.p("A").region == CORNES


def test_O1_tree_of_regions_soo_starts_at_level_one(make: Any) -> None:
    setup = {
        "regions": [{"card": ARK}, {"card": RUINS}],
        "players": {"A": {"party": ["acrobat"]}, "B": {"party": ["mercenary"]}},
        "phase": "movement",
    }
    t = make(setup=setup, tree_of_regions="soo")
    assert f"go {RUINS}" not in t.choices("A")  # level 2 needs a level 1 visit first
    assert f"go {ARK}" in t.choices("A")
    t.s.decks["encounter"].append("treasure")  # O1: a change of level draws an Encounter
    t.do("A", f"go {ARK}")
    t.pass_windows()
    assert t.p("A").tree_level == 1
    assert "treasure" in t.s.discards["encounter"]


def test_V4_tree_of_regions_bge_reading_moves_one_level_up_or_down(make: Any) -> None:
    setup = {
        "regions": [{"card": ARK}, {"card": RUINS}, {"card": "pit_of_hell"}],
        "players": {"A": {"party": ["acrobat"], "region": RUINS}, "B": {"party": ["mercenary"]}},
        "phase": "movement",
    }
    t = make(setup=setup, tree_of_regions="bge")
    t.p("A").tree_level = 2
    t.s.prompts.clear()
    t.s.stack[-1].kind = "movement_step"
    t.g.advance()
    assert {f"go {ARK}", f"go {RUINS}", "go pit_of_hell"} <= set(t.choices("A"))


def test_M1_a_refused_move_names_its_rule_and_changes_nothing(make: Any) -> None:
    from engine.errors import IllegalAction

    t = _two(make, [{"card": ARK}])
    before = t.g.to_json()
    try:
        t.do("A", "go pit_of_hell")
    except IllegalAction as exc:
        assert exc.rule == "M1" and "not a legal choice" in exc.reason
    else:
        raise AssertionError("an inactive Region was accepted")
    assert t.g.to_json() == before


def test_M1_expedition_charter_is_not_playable_once_somebody_explored(make: Any) -> None:
    t = _two(make, [{"card": ARK}], B={"hand": ["expedition_charter"]})
    t.do("A", "explore_new")
    t.pass_windows()
    prompt = t.until("B", "movement")
    assert not any(c.startswith("explore_new") for c in prompt.choices)
    assert "play expedition_charter" not in prompt.choices  # it would explore nothing


def test_D2_expedition_charter_explores_from_the_discard_when_the_deck_is_empty(
    make: Any,
) -> None:
    t = _two(make, [{"card": ARK}], A={"hand": ["expedition_charter"]})
    t.s.decks["region"].clear()
    t.s.discards["region"] += [CORNES, RUINS]
    t.refresh()
    t.do("A", "play expedition_charter")
    prompt = t.prompt("A")
    assert prompt.kind == "pick" and prompt.choices == [f"pick {CORNES}", f"pick {RUINS}"]
    t.do("A", f"pick {RUINS}")
    assert t.s.regions[-1].card == RUINS and t.s.discards["region"] == [CORNES]
    assert t.s.explored_new


def test_D2_expedition_charter_takes_the_only_discarded_region_without_asking(
    make: Any,
) -> None:
    t = _two(make, [{"card": ARK}], A={"hand": ["expedition_charter"]})
    t.s.decks["region"].clear()
    t.s.discards["region"].append(RUINS)
    t.refresh()
    t.do("A", "play expedition_charter")
    assert t.s.regions[-1].card == RUINS and not t.s.discards["region"]


def test_M1_expedition_charter_is_not_playable_with_no_region_left(make: Any) -> None:
    t = _two(make, [{"card": ARK}], A={"hand": ["expedition_charter"]})
    t.s.decks["region"].clear()
    t.refresh()
    assert "play expedition_charter" not in t.choices("A")


def test_T4_wrong_road_only_on_another_partys_move(make: Any) -> None:
    # O1: played on his own move, Wrong Road would take the mover past the Tree of Regions.
    setup = {
        "regions": [{"card": ARK}, {"card": "pit_of_hell"}],
        "players": {
            "A": {"party": ["acrobat"], "hand": ["wrong_road"]},
            "B": {"party": ["mercenary"]},
        },
        "phase": "movement",
    }
    t = make(setup=setup, tree_of_regions="soo")
    t.do("A", f"go {ARK}")
    assert t.choices("A") == ["pass"]  # not on his own move
    t.pass_windows()
    t.until("B", "movement")
    t.do("B", f"go {ARK}")
    assert "play wrong_road" in t.choices("A")  # on another party's move


def test_T4_a_zeppelin_voyage_move_opens_the_move_window(make: Any) -> None:
    t = _two(
        make,
        [{"card": ARK}, {"card": CORNES}],
        A={"hand": ["zeppelin_voyage"]},
        B={"hand": ["wrong_road"]},
    )
    t.do("A", "play zeppelin_voyage")
    t.do("A", f"pick {CORNES}")
    prompt = t.prompt("B")
    assert prompt is not None and prompt.kind == "window"
    assert "play wrong_road" in prompt.choices
    t.do("B", "play wrong_road")
    t.do("B", f"pick {ARK}")
    t.pass_windows()
    assert t.p("A").region == ARK
