"""The normal AI reveals the Final mission (F3, V1) only when that helps it (issue 20)."""

from __future__ import annotations

from engine.agents.normal import NormalAgent
from engine.agents.reveal import LATE_TURN, READY, mean_final_odds, possible_finals
from engine.cards import default_cards
from engine.game import Game
from engine.prompts import Prompt
from engine.rules.party import add_modifier
from engine.state import Character

STRONG = ["templar", "weapons_specialist", "acrobat", "duelist"]  # Strength 18, Speed 10


def _at_reveal(
    a_party: list[str],
    a_missions: list[str],
    b_party: list[str],
    b_completed: list[str],
    bonus: int = 0,
    turn: int = 5,
) -> tuple[Game, Prompt]:
    """A 2-player game at a turn's start, A with one completed Basic mission and asked
    whether to reveal the Final mission; ``bonus`` Strength and Speed for A's party."""
    game = Game.new(["A", "B"], {}, 3)
    agents = {"A": NormalAgent(1), "B": NormalAgent(2)}
    while game.s.phase != "movement":  # past the start choices: the parties are public (S3)
        asked = game.pending()[0]
        game.apply(asked.player, agents[asked.player].choose(game.seat_view(asked.player), asked))
    s = game.s
    s.turn = turn
    a, b = s.players["A"], s.players["B"]
    a.party = [Character(card=c) for c in a_party]
    a.missions, a.started, a.completed = a_missions, [], ["the_bandit_king"]
    b.party = [Character(card=c) for c in b_party]
    b.missions, b.started, b.completed = ["cross_the_swamp"], [], b_completed
    for stat in ("strength", "speed"):
        if bonus:
            add_modifier(game, a, stat, bonus, "permanent", "test")
    prompt = Prompt("A", "reveal_final", "", ["reveal_final", "pass"], "pass")
    s.prompts = [prompt]
    return game, prompt


def _choice(game: Game, prompt: Prompt) -> str:
    return NormalAgent(0).choose(game.seat_view("A"), prompt)


def test_V1_normal_keeps_building_while_it_is_not_ready() -> None:
    """One character and a Basic mission left: the countdown would only hand the race to
    others, so it passes and builds."""
    game, prompt = _at_reveal(["acrobat"], ["defeat_tiamat"], ["mercenary"], [])
    view = game.seat_view("A")
    assert mean_final_odds(view, default_cards(), view.table.party("A")) < READY
    assert _choice(game, prompt) == "pass"


def test_V1_normal_reveals_once_no_basic_mission_is_left() -> None:
    game, prompt = _at_reveal(["acrobat"], [], ["mercenary"], [])
    assert _choice(game, prompt) == "reveal_final"


def test_V1_normal_reveals_when_it_is_the_best_placed() -> None:
    """A strong party (its odds at the Final mission above READY, better than any rival's)
    reveals even with a Basic mission left."""
    game, prompt = _at_reveal(STRONG, ["defeat_tiamat"], ["mercenary"], ["cross_the_swamp"], 6)
    assert _choice(game, prompt) == "reveal_final"


def test_V1_normal_does_not_reveal_for_a_stronger_rival() -> None:
    """As strong as above, but a rival who could face the Final mission too is stronger."""
    game, prompt = _at_reveal(STRONG, ["defeat_tiamat"], [*STRONG], ["cross_the_swamp"], 3)
    view = game.seat_view("A")
    assert mean_final_odds(view, default_cards(), view.table.party("A")) >= READY
    assert _choice(game, prompt) == "reveal_final"  # the best placed so far
    b = game.s.players["B"]
    for stat in ("strength", "speed"):
        add_modifier(game, b, stat, 6, "permanent", "test")
    assert _choice(game, prompt) == "pass"


def test_V1_normal_reveals_late_in_the_game_whatever_its_odds() -> None:
    game, prompt = _at_reveal(["acrobat"], ["defeat_tiamat"], ["mercenary"], [], turn=LATE_TURN)
    assert _choice(game, prompt) == "reveal_final"


def test_the_possible_final_missions_are_those_of_the_missions_in_play() -> None:
    game, _ = _at_reveal(["acrobat"], ["defeat_tiamat"], ["mercenary"], [])
    finals = {c.id for c in possible_finals(game.seat_view("A"), default_cards())}
    assert finals == {"the_last_seal", "flight_from_the_eclipse", "guardians_of_the_abyss"}
