"""Playing cards and using abilities (T4, C3, C4, A1-A3): what may be used now and by whom, in
a player's own phase step or in a reaction window, and the act of playing itself.

The effects a card then has are run by the interpreter (:mod:`engine.rules.interpreter`);
this module only decides whether the card may be used and puts it where it goes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import zones
from engine.actions import Action
from engine.cards import AdvantageCard, Card, CharacterCard
from engine.cards import effects as fx
from engine.flow import handles, responds
from engine.rules.effective import Use, acts
from engine.rules.interpreter import run_effects
from engine.rules.party import (
    Versus,
    artifact,
    can_join_organization,
    can_use_skill,
    discard_pile,
    faction,
    holds,
    is_organization,
    skilled_characters,
    stays_in_play,
)
from engine.rules.regions import can_explore_new
from engine.state import Frame, Player
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game


# ---------------------------------------------------------------------- what may be used now


def usable_ability(
    g: Game,
    p: Player,
    source: str,
    *,
    phase: str | None = None,
    when: str | None = None,
    fighting: bool = False,
    vs: Versus | None = None,
    declarer: str | None = None,
) -> int | None:
    """Index of the first ability of ``source`` (a card in ``p``'s hand or a character of his
    party) that ``p`` may use now: in his own step of ``phase`` or in the window ``when``
    (``declarer``: the party whose action opened that window)."""
    moments = g.db.moments[source]
    has_moment = (
        (phase is not None and ("play", phase) in moments)
        or (when is not None and ("interrupt", when) in moments)
        or (when is not None and fighting and ("battle", "") in moments)
    )
    card = g.db[source]
    if not has_moment and not (phase == "reset" and _enters_play_at_reset(card)):
        # A quick "no" first, because this runs for every card in hand and in the party at
        # every step: the card has nothing for this moment.
        return None
    if isinstance(card, AdvantageCard):
        if source not in p.hand:
            return None
        if card.skill is not None and not can_use_skill(g, p, card.skill):
            return None  # C4
        if is_organization(card) and phase == "reset":
            # A3: at most one Organization; joining one is a Reset phase play (R2).
            return 0 if can_join_organization(g, p) else None
        if card.kind in RESET_KINDS:
            return reset_kind_ability(g, p, card) if phase == "reset" else None
        if _is_static_in_play(card) and phase == "reset":
            return 0  # A2: a card that stays in play is put into play in the Reset phase
    if not has_moment:
        return None
    if isinstance(card, CharacterCard):
        ch = next((c for c in p.party if c.card == source), None)
        if ch is None or ch.incapacitated:
            return None
    elif not isinstance(card, AdvantageCard):
        return None
    for i, ability in enumerate(card.abilities):
        if ability.tap_self and isinstance(card, CharacterCard):
            ch = next(c for c in p.party if c.card == source)
            if ch.tapped:
                continue  # C3: a turned character cannot use its ability
        if (
            _fits_moment(ability, phase, when, fighting)
            and holds(g, ability.condition, p, vs)
            and _may_explore(g, ability)
            and takes_effect(g, p, source, ability)
            and not (declarer == p.name and _redirects(ability))
        ):
            return i
    return None


def _is_static_in_play(card: AdvantageCard) -> bool:
    """A2: a card that stays in play and only works by being there (a Magic Object)."""
    return card.persistent and all(a.timing == "static" for a in card.abilities)


def _enters_play_at_reset(card: Card) -> bool:
    """A2-A7: an Advantage the Reset phase puts into play (or on a Region, a Trap) without an
    ability for that phase."""
    return isinstance(card, AdvantageCard) and (
        is_organization(card) or card.kind in RESET_KINDS or _is_static_in_play(card)
    )


#: Advantage kinds played only in the Reset phase, whatever their abilities say (R2):
#: Incidents (A4), Traps (A5), Factions (A6), Artifacts (A7).
RESET_KINDS = frozenset({"incident", "trap", "faction", "artifact"})


def reset_kind_ability(g: Game, p: Player, card: AdvantageCard) -> int | None:
    """The ability a Reset-phase kind is played with, or None when it cannot be played now.

    A Trap needs an active Region to lie on (A5); a Faction or an Artifact, that the party has
    none (A6, A7: change it by leaving the old one first). An Incident is played with its first
    Reset ``play`` ability whose condition holds (its effect now), else its first ability (a
    static one, which works while the Incident is in play, until the end of the turn)."""
    if card.kind == "trap":
        return 0 if g.s.regions else None
    if card.kind == "faction":
        return 0 if faction(g, p) is None else None
    if card.kind == "artifact":
        return 0 if artifact(g, p) is None else None
    for i, ability in enumerate(card.abilities):
        if (
            ability.timing == "play"
            and ability.phase == "reset"
            and holds(g, ability.condition, p)
            and acts(g, Use(p.name, card.id, spent=True), ability.effects)
        ):
            return i
    # No play ability acts now: the Incident is played for its other abilities, if it has any
    # (an Incident that would change nothing is not offered, like any card).
    return next((i for i, a in enumerate(card.abilities) if a.timing != "play"), None)


def _fits_moment(ability: fx.Ability, phase: str | None, when: str | None, fighting: bool) -> bool:
    """T4: ``play`` abilities in their phase; ``interrupt`` in their window; ``battle`` when
    the user's party is fighting."""
    if ability.timing == "play":
        return phase is not None and ability.phase == phase
    if ability.timing == "interrupt":
        return when is not None and ability.when == when
    return ability.timing == "battle" and when is not None and fighting


def _may_explore(g: Game, ability: fx.Ability) -> bool:
    """M1: a card whose move explores a new Region (Expedition Charter) is that one
    exploration of the turn, so it cannot be played once somebody has explored (or when no
    Region is left to explore), whatever else it does."""
    explores = any(isinstance(o, fx.Move) and o.to == "explore_new" for o in ability.effects)
    return not explores or can_explore_new(g)


def takes_effect(g: Game, p: Player, source: str, ability: fx.Ability) -> bool:
    """No empty choices (R3, issue 20): a card or ability is offered only if its effects would
    change something now (:mod:`engine.rules.effective`); played for nothing it would only
    be thrown away, a voluntary discard outside the Reset phase. A card that stays in play
    changes the table by being there."""
    card = g.db[source]
    if isinstance(card, AdvantageCard) and stays_in_play(card):
        return True
    spent = isinstance(card, AdvantageCard)
    return acts(g, Use(p.name, source, spent=spent), ability.effects)


def _redirects(ability: fx.Ability) -> bool:
    """T4: Wrong Road redirects *another* party's declared move, never the user's own."""
    return any(isinstance(o, fx.RedirectMove) for o in ability.effects)


def own_turn_plays(g: Game, name: str, phase: str) -> list[str]:
    """``play``/``ability`` actions for ``name``'s own step of ``phase`` (T4)."""
    p = g.s.players[name]
    # Only the cards with an ability for this phase (the card database's index) are looked
    # at further, and in the Reset phase those that stay in play once played (A2/A3).
    playable = g.db.used_at("play", phase)
    if phase == "reset":
        playable = playable | g.db.stay_in_play
    plays: list[str] = []
    for card in p.hand:
        if card in playable and usable_ability(g, p, card, phase=phase) is not None:
            plays.append(f"play {card}")
    for ch in p.party:
        if ch.card in playable and usable_ability(g, p, ch.card, phase=phase) is not None:
            plays.append(f"ability {ch.card}")
    return plays


def versus_for(g: Game, name: str) -> Versus | None:
    """The other side of the battle ``name`` is fighting now, if any."""
    battle = g.find_frame("battle")
    if battle is None or name not in (battle.player, battle.other):
        return None
    if battle.other is None:
        return Versus("monster", battle.data.get("keywords", []))
    return Versus("party")


def _fighting(name: str, window: Frame) -> bool:
    """B4: Battle cards may be used in the window at the start of the user's own battle."""
    return window.data["when"] == "battle_start" and name in (window.player, window.other)


def window_ability(g: Game, name: str, source: str, window: Frame) -> int | None:
    """The ability of ``source`` that ``name`` may use in the reaction ``window`` (T4, B4):
    Interrupt cards of its moment, Battle cards when his own party is fighting."""
    fighting = _fighting(name, window)
    return usable_ability(
        g,
        g.player(name),
        source,
        when=window.data["when"],
        fighting=fighting,
        vs=versus_for(g, name) if fighting else None,
        declarer=window.player,
    )


def window_plays(g: Game, name: str, window: Frame) -> list[str]:
    """The ``play``/``ability`` actions ``name`` may take in the reaction ``window``."""
    # Every player is asked at every window, and few cards answer any window: only the cards
    # with an ability for this one (the card database's index) are looked at further.
    when = window.data["when"]
    answering = g.db.used_at("interrupt", when)
    if when == "battle_start" and name in (window.player, window.other):  # _fighting, inline
        answering = answering | g.db.used_at("battle")
    plays: list[str] = []
    if not answering:
        return plays
    p = g.s.players[name]
    for card in p.hand:
        if card in answering and window_ability(g, name, card, window) is not None:
            plays.append(f"play {card}")
    for ch in p.party:
        if ch.card in answering and window_ability(g, name, ch.card, window) is not None:
            plays.append(f"ability {ch.card}")
    return plays


# ---------------------------------------------------------------------- the act of playing


def play_step_action(g: Game, name: str, action: Action, phase: str) -> None:
    """A ``play``/``ability`` action taken in a player's own phase step."""
    assert action.arg is not None
    index = usable_ability(g, g.player(name), action.arg, phase=phase)
    assert index is not None
    begin(g, name, action.arg, index)


def play_window_action(g: Game, name: str, action: Action, window: Frame) -> None:
    """A ``play``/``ability`` action taken in a reaction window."""
    assert action.arg is not None
    index = window_ability(g, name, action.arg, window)
    assert index is not None
    begin(g, name, action.arg, index)


def begin(g: Game, name: str, source: str, index: int, turner: str | None = None) -> None:
    """Use ability ``index`` of ``source`` (a card from hand or a character of the party).

    C4: a Skill card turns one character with the skill; when two or more could, the player
    chooses (a ``skill_choice`` frame asks, then calls this again with the ``turner``).
    """
    p = g.player(name)
    card = g.db[source]
    if isinstance(card, AdvantageCard) and card.kind == "trap":
        g.push("place_trap", player=name, card=source)  # A5: face down, on a Region
        return
    if isinstance(card, AdvantageCard):
        if card.skill is not None and turner is None:
            able = skilled_characters(g, p, card.skill)
            if len(able) > 1:
                g.push("skill_choice", player=name, card=source, data={"index": index})
                return
            turner = able[0]
        to = Zone("in_play", name) if stays_in_play(card) else discard_pile(g, source)
        zones.move(g.s, source, Zone("hand", name), to)
        if turner is not None:
            next(c for c in p.party if c.card == turner).tapped = True
            g.emit(
                "tap",
                f"{g.db[turner].name} turns to use {card.name}.",
                player=name,
                card=turner,
                used=source,
            )
        g.emit("play", f"{name} plays {card.name}: {card.text}", player=name, card=source)
    else:
        if card.abilities[index].tap_self:
            next(c for c in p.party if c.card == source).tapped = True
        g.emit(
            "ability", f"{name} uses {card.name}'s ability: {card.text}", player=name, card=source
        )
    ability = card.abilities[index]
    # A static ability works by being in play (party.static_bonus); an Incident's
    # movement_end ability waits for the end of the Movement phase (M9): only the abilities
    # used now run now.
    if ability.effects and ability.timing in ("play", "interrupt", "battle"):
        run_effects(g, name, source, ["abilities", index, "effects"])


@handles("place_trap")
def ask_trap_region(g: Game, frame: Frame) -> None:
    """A5: the player lays the Trap face down on an active Region of his choice."""
    if frame.stage == "laid":
        g.pop()
        return
    g.ask(
        frame.player or "",
        "trap_region",
        f"Choose the Region where {g.db[frame.card or ''].name} lies in wait (A5).",
        [f"pick {r.card}" for r in g.s.regions],
        data={"card": frame.card},
    )


@responds("place_trap")
def answer_trap_region(g: Game, frame: Frame, player: str, action: Action) -> None:
    card, region = frame.card or "", action.arg or ""
    zones.move(g.s, card, Zone("hand", player), zones.traps_zone(region, player))
    frame.stage = "laid"
    g.emit(
        "trap_set",
        f"{player} lays a Trap face down on {g.db[region].name}.",
        player=player,
        region=region,
    )
    g.emit("trap_set_private", f"{g.db[card].name} lies in wait.", to=[player], card=card)


@handles("skill_choice")
def ask_skill_choice(g: Game, frame: Frame) -> None:
    """C4: the player chooses which of his characters with the skill turns for the card."""
    card = g.db.advantage(frame.card or "")
    assert card.skill is not None
    able = skilled_characters(g, g.player(frame.player or ""), card.skill)
    g.ask(
        frame.player or "",
        "skill_choice",
        f"Choose the character who turns to use {card.name} (C4).",
        [f"pick {c}" for c in able],
        data={"card": card.id},
    )


@responds("skill_choice")
def answer_skill_choice(g: Game, frame: Frame, player: str, action: Action) -> None:
    g.pop()
    begin(g, player, frame.card or "", frame.data["index"], turner=action.arg)
