"""F (missions and the end of the game), V1, V3, O2."""

from __future__ import annotations

from typing import Any

TOWER = "tower_at_the_end_of_the_world"


def _final(
    make: Any,
    completed: dict[str, list[str]],
    crisis: int = 1,
    dice: list[int] = (),
    party_a: str = "acrobat",
    **options: Any,
) -> Any:
    """A and B at Village of Cornes at the Exploration phase with The Last Seal revealed."""
    players = {
        "A": {
            "party": [party_a],
            "region": "village_of_cornes",
            "hand": [],
            "completed": completed.get("A", []),
        },
        "B": {
            "party": ["huntress"],
            "region": "village_of_cornes",
            "hand": [],
            "completed": completed.get("B", []),
        },
    }
    setup = {
        "regions": [{"card": "village_of_cornes"}, {"card": TOWER}],
        "players": players,
        "final_mission": "the_last_seal",
        "crisis": crisis,
        "phase": "exploration",
    }
    return make(setup=setup, dice=list(dice), **options)


def test_F1_a_started_mission_is_announced_and_a_completed_one_rewarded(make: Any) -> None:
    setup = {
        "regions": [{"card": "lost_ruins"}],
        "players": {
            "A": {
                "party": ["acrobat"],
                "region": "lost_ruins",
                "hand": [],
                "missions": ["guard_the_lost_ruins", "the_bandit_king"],
            }
        },
        "phase": "exploration",
    }
    t = make(setup=setup, dice=[3])  # Lost Ruins 3: nothing
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "mission guard_the_lost_ruins")
    a = t.p("A")
    assert a.started == ["guard_the_lost_ruins"]  # placed on the left, face up
    assert "guard_the_lost_ruins" in t.g.view(None)["players"]["A"]["started"]


def test_F2_a_resistance_mission_goes_on_by_itself_and_completes(make: Any) -> None:
    setup = {
        "regions": [{"card": "lost_ruins"}],
        "players": {
            "A": {
                "party": ["acrobat"],
                "region": "lost_ruins",
                "hand": [],
                "missions": ["guard_the_lost_ruins"],
            }
        },
        "phase": "exploration",
    }
    t = make(setup=setup, dice=[3])
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "mission guard_the_lost_ruins")
    assert t.p("A").resisting == {"guard_the_lost_ruins": 1}
    t.until("A", "movement")
    t.do("A", "go lost_ruins")  # X1: stays, meets nothing
    t.pass_windows()
    t.until("A", "exploration")
    assert t.p("A").resisting == {"guard_the_lost_ruins": 2}
    t.until("A", "movement")
    t.do("A", "go lost_ruins")
    t.pass_windows()
    t.until("A", "exploration")
    assert "guard_the_lost_ruins" in t.p("A").completed  # 3 turns held


def test_F2_a_defeated_resisting_party_starts_over(make: Any) -> None:
    setup = {
        "regions": [{"card": "lost_ruins"}],
        "players": {
            "A": {"party": ["acrobat"], "region": "lost_ruins", "hand": []},
            "B": {"party": ["duelist"], "region": "lost_ruins", "hand": []},
        },
        "phase": "interaction",
    }
    t = make(setup=setup, dice=[1, 6])
    t.p("A").resisting["guard_the_lost_ruins"] = 1
    t.do("A", "attack B")
    t.pass_windows()
    assert t.p("A").resisting == {} and t.p("A").region is None


def test_F3_V1_the_final_mission_is_revealed_by_choice_at_turn_start(make: Any) -> None:
    setup = {"players": {"A": {"party": ["acrobat"], "completed": ["the_bandit_king"]}}}
    t = make(setup=setup)
    prompt = t.prompt("A")
    assert prompt.kind == "reveal_final" and prompt.default == "pass"
    t.do("A", "reveal_final")
    assert t.s.final_mission is not None
    assert t.s.crisis == t.g.db.final_mission(t.s.final_mission).crisis.limit  # F5


def test_V1_soo_reading_reveals_at_once_on_completion(make: Any) -> None:
    setup = {
        "regions": [{"card": "silver_harbor"}],
        "players": {
            "A": {
                "party": ["huntress", "acrobat"],
                "region": "silver_harbor",
                "missions": ["courier_of_silver_harbor"],
                "hand": [],
            }
        },
        "phase": "exploration",
    }
    t = make(setup=setup, dice=[1, 6], final_reveal="immediate")
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "mission courier_of_silver_harbor")
    assert t.s.final_mission is not None


def test_F4_any_player_with_a_completed_basic_mission_may_attempt_the_final(make: Any) -> None:
    from engine.rules.missions import attemptable_missions

    t = _final(make, {"A": ["the_bandit_king"]})
    assert "the_last_seal" in attemptable_missions(t.g, t.p("A"), TOWER)
    assert "the_last_seal" not in attemptable_missions(t.g, t.p("B"), TOWER)


def test_O2_both_basic_missions_before_the_final(make: Any) -> None:
    from engine.rules.missions import attemptable_missions

    t = _final(make, {"A": ["the_bandit_king"]}, both_missions=True)
    assert "the_last_seal" not in attemptable_missions(t.g, t.p("A"), TOWER)
    t.p("A").completed.append("cross_the_swamp")
    assert "the_last_seal" in attemptable_missions(t.g, t.p("A"), TOWER)


def test_F5_completing_the_final_mission_wins(make: Any) -> None:
    setup = {
        "regions": [{"card": TOWER}],
        "players": {
            "A": {
                "party": ["acrobat", "weapons_specialist", "templar", "duelist"],
                "region": TOWER,
                "completed": ["the_bandit_king"],
                "hand": [],
            }
        },
        "final_mission": "the_last_seal",
        "phase": "exploration",
    }
    t = make(setup=setup, dice=[2, 6, 1])  # Tower 2: nothing; 6 + 18 vs 1 + 12
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "mission the_last_seal")
    t.pass_windows()
    assert t.g.over and t.s.winner == "A" and t.s.ending == "final_mission"


def test_F5_the_countdown_goes_down_at_the_end_of_each_exploration_phase(make: Any) -> None:
    t = _final(make, {"A": ["the_bandit_king"]}, crisis=3)
    t.until("A", "reset")
    assert t.s.crisis == 2


def test_F6_crisis_players_without_a_basic_mission_lose_last_one_wins(make: Any) -> None:
    t = _final(make, {"A": ["the_bandit_king"]}, crisis=1)
    for _ in range(10):
        if t.g.over:
            break
        prompt = t.g.pending()[0]
        t.do(prompt.player, prompt.default)
    assert t.g.over and t.s.winner == "A" and t.s.ending == "last_player"
    assert t.p("B").lost


def test_F6_crisis_challenge_in_speed_order_first_success_wins(make: Any) -> None:
    # The Last Seal's Crisis: fight Omega Unbound, Strength 14. B (Huntress, Speed 5) goes
    # first, then A. B: 1 + 3 vs 1 + 14 fails; A: 6 + 4 vs ... also fails -> Omega wins.
    t = _final(
        make, {"A": ["the_bandit_king"], "B": ["cross_the_swamp"]}, crisis=1, dice=[1, 1, 6, 1]
    )
    while not t.g.over:
        prompt = t.g.pending()[0]
        t.do(prompt.player, prompt.default)
    assert t.s.ending == "crisis_lost" and t.s.winner is None
    fights = [e.data["player"] for e in t.events if e.kind == "battle"]
    assert fights == ["B", "A"]


def test_F6_a_crisis_success_wins(make: Any) -> None:
    t = _final(make, {"A": ["the_bandit_king"], "B": ["cross_the_swamp"]}, crisis=1, dice=[6, 1])
    from engine.rules.party import add_modifier

    add_modifier(t.g, t.p("B"), "strength", 10, "permanent", "test")
    while not t.g.over:
        prompt = t.g.pending()[0]
        t.do(prompt.player, prompt.default)
    assert t.s.ending == "crisis_won" and t.s.winner == "B"


def test_F7_nobody_interrupts_another_player_during_the_crisis(make: Any) -> None:
    """B (Speed 5) fights first, then A: A, holding Truce, is never asked during B's attempt,
    nor B during A's."""
    t = _final(
        make, {"A": ["the_bandit_king"], "B": ["cross_the_swamp"]}, crisis=1, dice=[1, 1, 6, 1]
    )
    t.p("A").hand = ["truce"]
    t.s.decks["advantage"].remove("truce")
    asked = []
    while not t.g.over:
        prompt = t.g.pending()[0]
        if t.s.phase == "crisis" and prompt.window:
            battle = t.g.find_frame("battle")
            assert battle is not None and [p.player for p in t.g.pending()] == [battle.player]
            asked.append(prompt.player)
        t.do(prompt.player, prompt.default)
    assert asked == ["B", "A"]  # each in his own attempt only


def test_F7_a_player_plays_his_own_battle_card_in_his_crisis_attempt(make: Any) -> None:
    """F7 bars interrupting *other* players, not playing one's own cards: in his own fight
    against Omega Unbound (Strength 17), A (the Sorcerer, an untapped Magic character, given
    +13 Strength) is asked and plays Fireball (-3 to the opponent). B (Huntress, Speed 5) fights
    first and loses (1 + 3 vs 1 + 17); A's 1 + 16 = 17 then beats 2 + 14 = 16, where without
    Fireball it would lose to 19."""
    from engine.rules.party import add_modifier

    t = _final(
        make,
        {"A": ["the_bandit_king"], "B": ["cross_the_swamp"]},
        crisis=1,
        dice=[1, 1, 1, 2],
        party_a="sorcerer",
    )
    t.p("A").hand = ["fireball"]
    t.s.decks["advantage"].remove("fireball")
    add_modifier(t.g, t.p("A"), "strength", 13, "permanent", "test")
    while t.s.phase != "crisis" or t.g.prompt_for("A") is None:
        prompt = t.g.pending()[0]
        t.do(prompt.player, prompt.default)
    assert t.choices("A") == ["pass", "play fireball"]
    t.do("A", "play fireball")
    while not t.g.over:
        prompt = t.g.pending()[0]
        t.do(prompt.player, prompt.default)
    assert t.s.ending == "crisis_won" and t.s.winner == "A"
    assert [e.data["totals"] for e in t.events if e.kind == "battle_roll"] == [[4, 18], [17, 16]]


def test_V3_soo_original_no_crisis_countdown(make: Any) -> None:
    setup = {"players": {"A": {"party": ["acrobat"], "completed": ["the_bandit_king"]}}}
    t = make(setup=setup, crisis=False)
    t.do("A", "reveal_final")
    assert t.s.final_mission is not None and t.s.crisis is None


def test_F1_a_secret_mission_is_not_announced(make: Any) -> None:
    setup = {
        "regions": [{"card": "silver_harbor"}],
        "players": {
            "A": {
                "party": ["mercenary"],
                "region": "silver_harbor",
                "missions": ["courier_of_silver_harbor"],
                "hand": [],
            }
        },
        "phase": "exploration",
    }
    t = make(setup=setup, dice=[1, 1])  # explore: nothing; Speed check 1 + 2 < 8 fails
    t.do("A", "explore")
    t.pass_windows()
    t.do("A", "mission courier_of_silver_harbor")
    public = [e for e in t.events if e.to is None]
    assert not any("Courier" in e.text or "courier" in str(e.data) for e in public)
    assert t.p("A").started == [] and "courier_of_silver_harbor" in t.p("A").missions
    assert "courier_of_silver_harbor" not in str(t.g.view(None))
    assert "courier_of_silver_harbor" not in str(t.g.view("B"))


def _ranking(t: Any) -> list[list[str]]:
    """The finishing order the game decided (issue 25, the ratings): the ``game_over`` event's
    ``ranking``, groups of seats best first, a group's players tied."""
    (over,) = [e for e in t.events if e.kind == "game_over"]
    ranking: list[list[str]] = over.data["ranking"]
    return ranking


def _play_out(t: Any) -> None:
    while not t.g.over:
        prompt = t.g.pending()[0]
        t.do(prompt.player, prompt.default)


def test_crisis_lost_by_all_ranks_the_challengers_in_the_crisis_order(make: Any) -> None:
    # B (Speed 5) faces the challenge first, then A; both fail.
    t = _final(
        make, {"A": ["the_bandit_king"], "B": ["cross_the_swamp"]}, crisis=1, dice=[1, 1, 6, 1]
    )
    _play_out(t)
    assert t.s.ending == "crisis_lost" and t.s.winner is None
    assert _ranking(t) == [["B"], ["A"]]


def test_crisis_won_puts_the_winner_first(make: Any) -> None:
    t = _final(make, {"A": ["the_bandit_king"], "B": ["cross_the_swamp"]}, crisis=1, dice=[6, 1])
    from engine.rules.party import add_modifier

    add_modifier(t.g, t.p("B"), "strength", 10, "permanent", "test")
    _play_out(t)
    assert t.s.ending == "crisis_won" and t.s.winner == "B"
    assert _ranking(t) == [["B"], ["A"]]


def test_last_player_standing_first_those_without_a_basic_mission_last(make: Any) -> None:
    t = _final(make, {"A": ["the_bandit_king"]}, crisis=1)
    _play_out(t)
    assert t.s.ending == "last_player"
    assert _ranking(t) == [["A"], ["B"]]
