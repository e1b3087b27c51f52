"""The normal AI's cards that need a plan, and its trades (issue 20): it answers a trade that
helps it, leads a rival astray from its mission, cancels its own bad exploration roll, lays a
Trap where rivals go, and in whole games every base Advantage takes effect."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from engine.agents.normal import NormalAgent
from engine.cards import MissionCard
from engine.events import Event
from engine.game import Game
from engine.prompts import Prompt
from engine.state import Character
from engine.tools.simulate import play_game, seat_names

#: The base Advantages that never took effect in games between normal seats before issue 20.
ONCE_UNUSED = (
    "wind_step",
    "scrying",
    "arcane_binding",
    "pickpocket",
    "sabotage",
    "wrong_road",
    "fortunes_favor",
    "zeppelin_voyage",
    "expedition_charter",
    "scavenge",
    "second_wind",
    "forced_march",
)


def _ask(game: Game, player: str, kind: str, choices: list[str], **extra: Any) -> Prompt:
    prompt = Prompt(player, kind, "", choices, choices[0], **extra)
    game.s.prompts = [prompt]
    return prompt


def _started(players: tuple[str, ...] = ("A", "B"), seed: int = 1) -> Game:
    """A game past the start choices, in turn 1's Movement phase."""
    game = Game.new(list(players), {}, seed)
    agents = {p: NormalAgent(i) for i, p in enumerate(players)}
    while game.s.phase != "movement":
        prompt = game.pending()[0]
        view = game.seat_view(prompt.player)
        game.apply(prompt.player, agents[prompt.player].choose(view, prompt))
    return game


def _mission_on_table(game: Game) -> tuple[str, str]:
    """(a Basic mission, its Region) whose Region is on the table."""
    on_table = {r.card for r in game.s.regions}
    for card in game.db:
        if isinstance(card, MissionCard) and card.objective.region in on_table:
            return card.id, card.objective.region
    raise AssertionError("no mission of an active Region")


def test_normal_accepts_a_skill_card_it_can_use_for_its_useless_one_and_declines_the_reverse() -> (
    None
):
    game = _started()
    a, b = game.s.players["A"], game.s.players["B"]
    a.party = [Character(card="thief")]  # Trickery
    b.party = [Character(card="sorcerer")]  # Magic
    a.hand, b.hand = ["arcane_binding"], ["pickpocket"]
    frame = game.push("trade", player="A", other="B")
    frame.stage = "sent"
    frame.data = {"give": ["arcane_binding"], "ask": [], "ask_hand": 1}
    text = "Trade offer: A gives Arcane Binding for 1 Advantage(s) of your choice."
    prompt = Prompt("B", "trade_answer", text, ["accept", "decline"], "decline")
    game.s.prompts = [prompt]
    # B holds a Trickery card it cannot use and gets a Magic one it can.
    assert NormalAgent(0).choose(game.seat_view("B"), prompt) == "accept"
    b.party = [Character(card="thief")]  # now the offered card is the useless one
    a.party = [Character(card="sorcerer")]
    assert NormalAgent(0).choose(game.seat_view("B"), prompt) == "decline"


def test_I1_a_sent_offer_shows_its_cards_to_the_partner_alone() -> None:
    """X3: once sent, an offer's cards are known to the partner (the offer names them to him),
    though they stay in the offerer's hand: his sealed table names them; nobody else's does,
    and before the offer is sent not even his."""
    game = Game.new(["A", "B", "C"], {}, 1)
    game.s.players["A"].hand = ["arcane_binding", "fireball"]
    frame = game.push("trade", player="A", other="B")
    frame.data = {"give": ["arcane_binding"], "ask": [], "ask_hand": 1}

    def sealed_hand(seat: str) -> list[str]:
        return json.loads(game.seat_view(seat).sealed.state)["players"]["A"]["hand"]  # type: ignore[no-any-return,union-attr]

    assert all(card.startswith("?") for card in sealed_hand("B"))
    frame.stage = "sent"
    assert "arcane_binding" in sealed_hand("B") and "fireball" not in sealed_hand("B")
    assert all(card.startswith("?") for card in sealed_hand("C"))


def test_normal_offers_a_skill_card_it_cannot_use_to_a_party_that_can() -> None:
    game = _started()
    a, b = game.s.players["A"], game.s.players["B"]
    a.party = [Character(card="thief")]
    b.party = [Character(card="sorcerer")]
    a.hand, b.hand = ["arcane_binding"], ["pickpocket"]
    prompt = _ask(game, "A", "interaction", ["done", "offer B"])
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "offer B"
    a.hand = ["pickpocket"]  # a card it can use: no trade
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "done"


def test_normal_leads_astray_a_rival_going_to_its_announced_mission() -> None:
    game = _started()
    a, b = game.s.players["A"], game.s.players["B"]
    mission, region = _mission_on_table(game)
    b.completed = ["the_last_pantheon"]
    b.started = [mission]  # announced: everybody knows where it is done
    a.hand = ["wrong_road"]
    game.push("move", player="B", region=region).stage = "declared"
    game.push("window", player="B", data={"when": "move_declared", "passed": []})
    prompt = _ask(game, "A", "window", ["pass", "play wrong_road"], window=True)
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "play wrong_road"
    b.started = []  # nothing known to draw it there: let it go
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "pass"


def test_normal_cancels_its_own_exploration_roll_only_when_the_encounters_are_dangerous() -> None:
    game = _started()
    a = game.s.players["A"]
    a.party = [Character(card="mechanist")]  # Strength 2: Encounters are a real risk
    a.region = game.s.regions[0].card
    region = game.db.region(a.region)
    faces = [i + 1 for i, f in enumerate(region.exploration) if f.result == "encounters"]
    calm = [i + 1 for i, f in enumerate(region.exploration) if f.result == "nothing"]
    a.hand = ["fortunes_favor"]
    step = game.push("exploration_step", player="A", data={"roll": faces[0]})
    step.stage = "table"
    game.push("window", player="A", data={"when": "exploration_roll", "passed": []})
    prompt = _ask(game, "A", "window", ["pass", "play fortunes_favor"], window=True)
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "play fortunes_favor"
    if calm:
        step.data["roll"] = calm[0]
        assert NormalAgent(0).choose(game.seat_view("A"), prompt) == "pass"


def test_normal_lays_a_trap_where_a_rival_is_going_not_where_it_goes() -> None:
    game = _started()
    a, b = game.s.players["A"], game.s.players["B"]
    mission, region = _mission_on_table(game)
    b.started = [mission]
    a.missions = []
    regions = [r.card for r in game.s.regions]
    a.region = next(r for r in regions if r != region)
    prompt = _ask(game, "A", "trap_region", [f"pick {r}" for r in regions])
    assert NormalAgent(0).choose(game.seat_view("A"), prompt) == f"pick {region}"


def _normal_games(games: int, sets: list[str]) -> tuple[Counter[str], Counter[str]]:
    """The cards played and the events of ``games`` games between normal seats."""
    played: Counter[str] = Counter()
    kinds: Counter[str] = Counter()

    def observe(game: Game, events: list[Event]) -> None:
        for e in events:
            kinds[e.kind] += 1
            if e.kind == "play":
                played[str(e.data.get("card"))] += 1

    for seed in range(games):
        agents = {n: NormalAgent(f"{seed}:{n}") for n in seat_names(4)}
        result = play_game(seed, 4, agents=agents, options={"sets": sets}, observe=observe)
        assert result.error is None, result.error
    return played, kinds


def test_normal_seats_use_the_cards_that_need_a_plan_and_trade() -> None:
    """A short run of the coverage figure (docs/balance.md has the 1,000-game one)."""
    played, kinds = _normal_games(40, ["shadow_of_omega"])
    used = [c for c in ONCE_UNUSED if played[c]]
    assert len(used) >= 10, sorted(set(ONCE_UNUSED) - set(used))
    assert kinds["trade"] > 0 and kinds["trade_declined"] > 0  # it accepts and refuses
    assert kinds["redirect"] > 0


def test_normal_seats_lay_traps_with_beyond_good_and_evil() -> None:
    _, kinds = _normal_games(15, ["shadow_of_omega", "beyond_good_and_evil"])
    assert kinds["trap_set"] > 0 and kinds["trap_revealed"] > 0
