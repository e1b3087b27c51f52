"""The turn limit (``turn_cap``, `/anima start turns:N`): a tie-break names the winner.

The digest is silent on short games; the ruling is in docs/engine.md ("Rulings this engine had
to make"): most completed missions, then most turns held on the Final mission, then most
characters, then the highest party Strength + Speed, then a die roll (again on a tie, like T2).
Each test starts at the last Exploration phase of a 2-turn game: A's party stands at Village of
Cornes and skips its exploration, the others are outside every Region (X2), so nothing else
happens before the limit is reached.
"""

from __future__ import annotations

from typing import Any

from engine.events import Event


def _last_turn(make: Any, players: dict[str, Any], dice: list[int] = (), **setup: Any) -> Any:
    """A game with a limit of 2 turns, at the Exploration phase of turn 2."""
    for name, p in players.items():
        p.setdefault("region", "village_of_cornes" if name == "A" else None)
        p.setdefault("hand", [])
    regions = [{"card": "village_of_cornes"}]
    return make(
        players=list(players),
        setup={"players": players, "regions": regions, "turn": 2, "phase": "exploration", **setup},
        dice=list(dice),
        turn_cap=2,
    )


def _play_to_the_end(t: Any) -> Event:
    """A skips the last exploration; the game_over event."""
    assert not t.g.over and t.s.turn == 2
    t.do("A", "skip")
    assert t.g.over and t.s.ending == "turn_cap"
    (over,) = [e for e in t.events if e.kind == "game_over"]
    assert over.to is None  # everybody sees how the game was decided
    assert over.data["winner"] == t.s.winner and over.data["ending"] == "turn_cap"
    return over


def test_X_turn_limit_tiebreak_most_completed_missions(make: Any) -> None:
    # B has the bigger, stronger party; A's completed mission comes first (G2).
    t = _last_turn(
        make,
        {
            "A": {"party": ["summoner"], "completed": ["the_bandit_king"]},
            "B": {"party": ["templar", "duelist", "acrobat"]},
        },
    )
    over = _play_to_the_end(t)
    assert t.s.winner == "A" and t.s.turn == 2
    assert over.data["tiebreak"] == "completed_missions"
    assert over.data["scores"]["A"]["completed_missions"] == 1
    assert over.data["scores"]["B"] == {
        "completed_missions": 0,
        "final_mission_progress": 0,
        "characters": 3,
        "strength_speed": 13 + 8,
    }
    assert over.data["rolls"] == {}
    assert over.text == (
        "The turn limit (2 turns) is reached: the tie-break decides. "
        "🏆 A wins the game on completed missions: A 1, B 0."
    )


def test_X_turn_limit_tiebreak_final_mission_progress(make: Any) -> None:
    # Both completed a Basic mission; A has held the Pit of Hell for Guardians of the Abyss
    # (a Resistance Final mission, F2) for 2 of its 3 turns; B has the bigger party.
    t = _last_turn(
        make,
        {
            "A": {"party": ["summoner"], "completed": ["the_bandit_king"]},
            "B": {"party": ["templar", "duelist"], "completed": ["cross_the_swamp"]},
        },
        final_mission="guardians_of_the_abyss",
        crisis=5,
    )
    t.p("A").resisting["guardians_of_the_abyss"] = 2
    over = _play_to_the_end(t)
    assert t.s.winner == "A" and over.data["tiebreak"] == "final_mission_progress"
    assert over.data["scores"]["A"]["final_mission_progress"] == 2
    assert over.data["scores"]["B"]["final_mission_progress"] == 0
    assert "A and B are tied with 1 completed mission. " in over.text
    assert over.text.endswith("🏆 A wins the game on turns held on the Final mission: A 2, B 0.")


def test_X_turn_limit_tiebreak_most_characters(make: Any) -> None:
    t = _last_turn(
        make,
        {
            "A": {"party": ["templar"], "completed": ["the_bandit_king"]},  # 5 + 1
            "B": {"party": ["summoner", "exorcist"], "completed": ["cross_the_swamp"]},  # 3 + 5
            "C": {"party": ["alchemist"]},
        },
    )
    over = _play_to_the_end(t)
    assert t.s.winner == "B" and over.data["tiebreak"] == "characters"
    assert over.text.endswith(
        "A and B are tied with 1 completed mission. "
        "🏆 B wins the game on characters in the party: B 2, A 1."
    )


def test_X_turn_limit_tiebreak_party_strength_and_speed(make: Any) -> None:
    t = _last_turn(
        make,
        {"A": {"party": ["sorcerer", "monk"]}, "B": {"party": ["acrobat", "duelist"]}},
    )
    over = _play_to_the_end(t)
    assert t.s.winner == "B" and over.data["tiebreak"] == "strength_speed"
    assert over.data["scores"]["A"]["strength_speed"] == 7 + 6
    assert over.data["scores"]["B"]["strength_speed"] == 8 + 7
    assert over.text.endswith(
        "A and B are tied with 0 completed missions and 2 characters. "
        "🏆 B wins the game on party Strength + Speed: B 15, A 13."
    )


def test_X_turn_limit_tiebreak_die_roll_again_on_a_tie(make: Any) -> None:
    # Acrobat 4 + 4 and Huntress 3 + 5: tied on everything. The dice: 2 and 2 (again), then
    # 5 and 3. Their Speeds differ, so the turn order rolled none of these dice (T2).
    t = _last_turn(
        make, {"A": {"party": ["acrobat"]}, "B": {"party": ["huntress"]}}, dice=[2, 2, 5, 3]
    )
    over = _play_to_the_end(t)
    assert t.s.winner == "A" and over.data["tiebreak"] == "die_roll"
    assert over.data["rolls"] == {"A": [2, 5], "B": [2, 3]}
    assert t.s.rigged == []
    assert over.text.endswith(
        "A and B are tied with 0 completed missions, 1 character and Strength + Speed 8. "
        "🏆 A wins the game on a die roll: A 🎲 2, 5; B 🎲 2, 3."
    )


def test_turn_limit_orders_the_others_by_the_tiebreak_and_ties_equal_scores(make: Any) -> None:
    """The finishing order (issue 25, the ratings: ``ranking``, groups best first): A's
    completed mission, then B's three characters, then C's Monk and D's Ranger, tied on
    every scored criterion (the dice decide a winner only)."""
    completed = {"completed": ["the_bandit_king"]}
    parties = {"A": ["summoner"], "B": ["templar", "duelist", "acrobat"], "C": ["monk"]}
    players = {n: {"party": c, **(completed if n == "A" else {})} for n, c in parties.items()}
    over = _play_to_the_end(_last_turn(make, {**players, "D": {"party": ["ranger"]}}))
    assert over.data["winner"] == "A"
    assert over.data["ranking"] == [["A"], ["B"], ["C", "D"]]
