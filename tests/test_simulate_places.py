"""``anima simulate --json``: the ``regions`` and ``encounters`` figures (visits, fights,
wins), read from the events of each game."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.tools.cli import main
from engine.tools.simulate import GameResult, simulate
from engine.tools.simulate_places import EncounterCount, PlaceCounts, RegionCount


def _ev(kind: str, **data: Any) -> Event:
    return Event(kind=kind, text="", data=data)


def test_a_battle_counts_where_the_party_goes_and_for_the_encounter_it_fights() -> None:
    game = Game.new(["P1", "P2"], {}, seed=1)
    places = PlaceCounts()
    observe = places.watch(4)
    # The move reveals the Encounter of the Region entered; the party arrives afterwards, and
    # the battle's result comes in a later action (after the battle window).
    observe(game, [_ev("move", player="P1", region="iron_mines")])
    observe(game, [_ev("encounter", player="P1", card="giant_rats")])
    observe(game, [_ev("battle", player="P1", other=None, card="giant_rats")])
    observe(game, [_ev("battle_result", winner="P1", margin=3)])
    observe(game, [_ev("arrive", player="P1", region="iron_mines")])
    # A monster that wins, a cancelled battle, a party fleeing, an event Encounter.
    observe(game, [_ev("encounter", player="P1", card="lich")])
    observe(game, [_ev("battle", player="P1", other=None, card="lich")])
    observe(game, [_ev("battle_result", winner="Lich", margin=2)])
    observe(game, [_ev("battle", player="P1", other=None, card="werewolf")])
    observe(game, [_ev("battle_cancelled")])
    observe(
        game, [_ev("flee", player="P1", card="chimera", die=6, total=9, at_least=8, success=True)]
    )
    observe(
        game, [_ev("flee", player="P1", card="lich", die=1, total=3, at_least=8, success=False)]
    )
    observe(game, [_ev("encounter", player="P2", card="sleep")])
    # P2 arrives at the same Region and attacks P1: a rival fight there, not a Region fight;
    # then a mission's foe (no card, no other party) is a Region fight.
    observe(game, [_ev("move", player="P2", region="iron_mines")])
    observe(game, [_ev("arrive", player="P2", region="iron_mines")])
    observe(game, [_ev("battle", player="P2", other="P1", card=None)])
    observe(game, [_ev("battle_result", winner="P2", margin=1)])
    observe(game, [_ev("battle", player="P2", other=None, card=None)])
    observe(game, [_ev("battle_result", winner="P2", margin=4)])
    # A cancelled move leaves the party where the state says it is.
    game.s.players["P1"].region = "arkhangel"
    observe(
        game, [_ev("move", player="P1", region="lost_ruins"), _ev("move_cancelled", player="P1")]
    )
    observe(game, [_ev("battle", player="P1", other=None, card="wild_boar")])
    observe(game, [_ev("battle_result", winner="P1", margin=5)])
    places.finish(GameResult(seed=4, players=2, winner_seat=1))

    assert places.per_region == {
        "iron_mines": RegionCount(
            visits=2, fights=3, wins=2, mission_fights=1, mission_wins=1, rival_fights=1
        ),
        "arkhangel": RegionCount(visits=0, fights=1, wins=1, rival_fights=0),
    }
    # The called-off battle (werewolf) and the failed flight count for nothing.
    assert places.per_encounter == {
        "giant_rats": EncounterCount(met=1, fights=1, wins=1),
        "lich": EncounterCount(met=1, fights=1, wins=0),
        "chimera": EncounterCount(fled=1),
        "sleep": EncounterCount(met=1),
        "wild_boar": EncounterCount(fights=1, wins=1),
    }


def test_a_game_the_engine_failed_counts_for_nothing() -> None:
    game = Game.new(["P1", "P2"], {}, seed=1)
    places = PlaceCounts()
    places.watch(9)(game, [_ev("arrive", player="P1", region="arkhangel")])
    places.finish(GameResult(seed=9, players=2, error="boom"))
    places.watch(10)(game, [_ev("arrive", player="P1", region="arkhangel")])
    places.finish(GameResult(seed=10, players=2, winner_seat=2))
    assert places.per_region == {"arkhangel": RegionCount(visits=1)}


def test_the_json_lists_every_region_and_encounter_in_play_and_agrees_with_the_events(
    capsys: pytest.CaptureFixture[str],
) -> None:
    arrivals: Counter[str] = Counter()
    results: Counter[str] = Counter()

    def watch(seed: int) -> Any:
        def observe(game: Game, events: list[Event]) -> None:
            for event in events:
                if event.kind == "arrive":
                    arrivals[event.data["region"]] += 1
                results[event.kind] += event.kind in ("battle_result", "encounter")

        return observe

    summary = simulate(games=6, players=4, seed=21, levels=["normal"] * 4, watch=watch)
    d = summary.deterministic()
    assert d["errors"] == 0, d["error_details"]
    db = default_cards()
    in_play = summary.all_cards
    assert list(d["regions"]) == [c for c in in_play if db[c].type == "region"]
    assert list(d["encounters"]) == [c for c in in_play if db[c].type == "encounter"]
    assert {r: e["visits"] for r, e in d["regions"].items() if e["visits"]} == dict(arrivals)
    # Every battle that reached a result was fought somewhere, by a party or against one.
    regions = d["regions"].values()
    assert sum(e["fights"] + e["rival_fights"] for e in regions) == results["battle_result"]
    assert all(0 <= e["wins"] <= e["fights"] for e in regions)
    assert all(0 <= e["mission_wins"] <= e["mission_fights"] <= e["fights"] for e in regions)
    # A Region's fights are its Encounters' and its missions': together, every fight.
    monster_fights = sum(e["fights"] - e["mission_fights"] for e in regions)
    assert monster_fights == sum(e["fights"] for e in d["encounters"].values())
    encounters = d["encounters"]
    assert sum(e["met"] for e in encounters.values()) == results["encounter"]
    for card, e in encounters.items():
        assert e["kind"] == db.encounter(card).kind
        assert 0 <= e["wins"] <= e["fights"]
        if e["kind"] == "event":
            assert e["fights"] == e["wins"] == e["fled"] == 0, card
    assert sum(e["fights"] for e in encounters.values()) > 0

    # The command prints the same keys.
    assert main(["simulate", "--games", "2", "--players", "2", "--seed", "3", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed["regions"]) == {c for c in in_play if db[c].type == "region"}
    assert set(next(iter(printed["encounters"].values()))) == {
        "kind",
        "met",
        "fights",
        "wins",
        "fled",
    }
