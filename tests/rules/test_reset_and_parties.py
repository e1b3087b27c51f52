"""R (Reset phase), C (characters and parties), A1-A2 (Advantages), X6 (time-outs)."""

from __future__ import annotations

from typing import Any

from engine.rules.party import speed, strength
from engine.rules.play import usable_ability


def test_R1_turned_and_incapacitated_characters_recover(make: Any) -> None:
    setup = {
        "regions": [{"card": "arkhangel"}],
        "players": {
            "A": {
                "party": [
                    {"card": "acrobat", "tapped": True},
                    {"card": "bard", "incapacitated": True},
                ],
                "region": "arkhangel",
            }
        },
        "phase": "exploration",
    }
    t = make(setup=setup)
    assert t.p("A").party[0].tapped and t.p("A").party[1].incapacitated
    t.until("A", "reset")
    assert not any(c.tapped or c.incapacitated for c in t.p("A").party)


def test_R2_discard_dismiss_play_in_turn_order(make: Any) -> None:
    setup = {
        "players": {
            "A": {"party": ["acrobat", "bard"], "hand": ["truce", "festival"]},
            "B": {"party": ["mercenary"]},
        }
    }
    t = make(setup=setup)
    choices = set(t.choices("A"))
    assert {"discard truce", "dismiss bard", "play festival", "done"} <= choices
    t.do("A", "discard truce")
    t.do("A", "dismiss bard")
    assert "truce" in t.s.discards["advantage"] and "bard" in t.s.discards["character"]


def test_R3_no_voluntary_discard_outside_the_reset_phase(make: Any) -> None:
    setup = {"players": {"A": {"party": ["acrobat"], "hand": ["truce"]}}, "phase": "movement"}
    t = make(setup=setup)
    assert not any(c.startswith(("discard", "dismiss")) for c in t.choices("A"))


def test_R4_a_full_hand_draws_nothing(make: Any) -> None:
    from engine.rules.party import draw_advantages

    hand = ["truce", "festival", "fireball", "scavenge", "lucky_charm"]
    t = make(setup={"players": {"A": {"party": ["acrobat"], "hand": hand}}})
    assert draw_advantages(t.g, t.p("A"), 2) == 0 and len(t.p("A").hand) == 5


def test_R5_fewest_characters_takes_a_dismissed_one(make: Any) -> None:
    setup = {
        "players": {
            "A": {"party": ["acrobat", "bard", "monk"], "hand": []},
            "B": {"party": ["mercenary"], "hand": ["truce"]},
            "C": {"party": ["duelist", "huntress"], "hand": ["fireball"]},
        }
    }
    t = make(players=("A", "B", "C"), setup=setup)
    t.do("A", "dismiss bard")
    t.do("A", "done")
    t.until("B", "pickup")
    assert "take bard" in t.choices("B")
    t.do("B", "take bard")
    assert {c.card for c in t.p("B").party} == {"mercenary", "bard"}


def test_R5_a_tie_for_fewest_means_nobody_takes(make: Any) -> None:
    setup = {
        "players": {
            "A": {"party": ["acrobat"], "hand": ["truce", "festival"]},
            "B": {"party": ["mercenary"], "hand": []},
            "C": {"party": ["duelist"], "hand": []},
        }
    }
    t = make(players=("A", "B", "C"), setup=setup)
    t.do("A", "discard truce")
    t.do("A", "done")
    t.until("A", "movement")
    assert "truce" in t.s.discards["advantage"]  # B and C tied: nobody picked it up


def test_C1_party_strength_and_speed_are_sums(make: Any) -> None:
    t = make(setup={"players": {"A": {"party": ["acrobat", "sorcerer"]}}})
    assert (strength(t.g, t.p("A")), speed(t.g, t.p("A"))) == (7, 8)


def test_C2_characters_have_gender_stats_skills() -> None:
    from engine.cards import default_cards

    paladin = default_cards().character("paladin")
    assert (paladin.gender, paladin.strength, paladin.speed, paladin.skills) == (
        "female",
        3,
        2,
        ["ki"],
    )


def test_C3_a_turned_character_still_fights_but_cannot_use_its_ability(make: Any) -> None:
    setup = {
        "players": {
            "A": {"party": [{"card": "thief", "tapped": True}, "acrobat"]},
            "B": {"party": ["mercenary"], "hand": ["truce"]},
        },
        "phase": "reset",
    }
    t = make(setup=setup)
    t.p("A").party[0].tapped = True
    t.refresh()
    assert "ability thief" not in t.choices("A")
    assert strength(t.g, t.p("A")) == 6


def test_C4_a_skill_card_turns_a_character_with_that_skill(make: Any) -> None:
    setup = {"players": {"A": {"party": ["acrobat", "sorcerer"], "hand": ["ki_strike"]}}}
    t = make(setup=setup)
    assert usable_ability(t.g, t.p("A"), "ki_strike", when="battle_start", fighting=True) == 0
    t.p("A").party[0].tapped = True  # the Acrobat is the only Ki character
    assert usable_ability(t.g, t.p("A"), "ki_strike", when="battle_start", fighting=True) is None


def test_C4_using_a_skill_card_turns_the_character(make: Any) -> None:
    setup = {
        "players": {
            "A": {"party": ["bard", "acrobat"], "hand": ["sabotage"]},
            "B": {"party": ["mercenary"], "hand": ["truce"]},
        }
    }
    t = make(setup=setup)
    t.do("A", "play sabotage")
    t.do("A", "pick acrobat")  # both have Trickery: the player chooses (C4)
    if t.prompt("A") and t.prompt("A").kind == "pick":
        t.do("A", t.choices("A")[0])
    assert any(c.tapped for c in t.p("A").party)


def test_C4_player_chooses_which_character_turns(make: Any) -> None:
    setup = {
        "players": {
            "A": {"party": ["bard", "acrobat"], "hand": ["sabotage"]},
            "B": {"party": ["mercenary"], "hand": ["truce"]},
        }
    }
    t = make(setup=setup)
    t.do("A", "play sabotage")
    prompt = t.prompt("A")
    assert prompt is not None and prompt.kind == "skill_choice"
    assert prompt.choices == ["pick bard", "pick acrobat"]
    assert "sabotage" in t.p("A").hand  # nothing happens before the choice
    t.do("A", "pick acrobat")
    assert [c.card for c in t.p("A").party if c.tapped] == ["acrobat"]
    assert "sabotage" in t.s.discards["advantage"]


def test_C4_no_question_when_one_character_can_turn(make: Any) -> None:
    setup = {
        "players": {
            "A": {"party": ["bard", "acrobat"], "hand": ["sabotage"]},
            "B": {"party": ["mercenary"], "hand": ["truce"]},
        }
    }
    t = make(setup=setup)
    t.p("A").party[0].tapped = True  # the Bard was turned: only the Acrobat can turn
    t.refresh()
    t.do("A", "play sabotage")
    assert t.prompt("A") is None or t.prompt("A").kind != "skill_choice"
    assert all(c.tapped for c in t.p("A").party)


def test_C5_a_dead_character_is_discarded_a_wiped_party_starts_anew(make: Any) -> None:
    from engine.rules.party import kill

    t = make(setup={"players": {"A": {"party": ["acrobat"]}}})
    kill(t.g, t.p("A"), "acrobat")
    assert "acrobat" in t.s.discards["character"] and len(t.p("A").party) == 1


def test_C6_incapacitated_strength_does_not_count(make: Any) -> None:
    setup = {
        "players": {"A": {"party": [{"card": "acrobat", "incapacitated": True}, "sorcerer"]}},
        "phase": "movement",
    }
    t = make(setup=setup)
    assert strength(t.g, t.p("A")) == 3


def test_C6_sleep_incapacitates_a_character(make: Any) -> None:
    setup = {
        "regions": [{"card": "village_of_cornes", "preliminary": "sleep"}],
        "players": {"A": {"party": ["acrobat", "sorcerer"]}},
        "phase": "movement",
    }
    t = make(setup=setup)
    t.do("A", "go village_of_cornes")
    t.pass_windows()
    if t.prompt("A") and t.prompt("A").kind == "pick":
        t.do("A", "pick sorcerer")
    assert sum(c.incapacitated for c in t.p("A").party) == 1


def test_A1_skill_cards_need_the_skill(make: Any) -> None:
    setup = {"players": {"A": {"party": ["mercenary"], "hand": ["sabotage"]}}}  # Ki only
    t = make(setup=setup)
    assert "play sabotage" not in t.choices("A")  # a Trickery card


def test_A2_a_persistent_plot_card_stays_in_play(make: Any) -> None:
    setup = {"players": {"A": {"party": ["acrobat"], "hand": ["magic_object"]}}}
    t = make(setup=setup)
    before = strength(t.g, t.p("A"))
    t.do("A", "play magic_object")
    assert t.p("A").in_play == ["magic_object"]
    assert strength(t.g, t.p("A")) == before + 1


def test_A2_a_one_use_plot_card_is_discarded(make: Any) -> None:
    setup = {"players": {"A": {"party": ["acrobat"], "hand": ["festival"]}}}
    t = make(setup=setup)
    t.do("A", "play festival")
    assert "festival" in t.s.discards["advantage"]


def test_X6_a_time_out_takes_the_option_that_keeps_most_open(make: Any) -> None:
    t = make(setup={"players": {"A": {"party": ["acrobat"], "hand": ["truce"]}}})
    events = t.g.timeout("A")
    assert events[0].kind == "timeout" and events[0].to is None  # "A ran out of time"
    assert events[1].to == ["A"] and "done" in events[1].text  # which default: A only
    assert t.p("A").hand == ["truce"]  # nothing was discarded
    t.until("A", "movement")
    events = t.g.timeout("A")
    assert "rest" in events[1].text
