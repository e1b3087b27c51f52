"""The interpreter of the effect language (docs/cards.md): runs a card's operations.

An ``effects`` frame points into a card's data (``card`` + ``data["path"]``) instead of
copying the operations, so stored games stay small. Operations that need a decision (a target,
a character, an option) ask a prompt and resume when it is answered; nested lists (a roll's
success, a fight's win, a choice's option) run as child ``effects`` frames.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import zones
from engine.actions import Action
from engine.cards import effects as fx
from engine.flow import handles, responds
from engine.rules.effective import (
    MONSTER,
    Use,
    affected,
    betrayal_victims,
    candidates,
    exchange_partners,
    move_destinations,
    redirections,
    roll_victims,
    scoutable,
    where,
)
from engine.rules.effective import acts as would_act
from engine.rules.party import (
    PARTY_LIMIT,
    add_character,
    add_modifier,
    discard_card,
    draw_advantages,
    end_turn,
    faction,
    kill,
    normal_characters,
    room_in_hand,
    speed,
    strength,
    top_card,
)
from engine.rules.regions import active_region, can_explore_new, region_level
from engine.rules.sets import ARCANE_DECK
from engine.state import Frame, Player
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game


def run_effects(g: Game, user: str, card: str, path: list[Any], **data: Any) -> None:
    """Push an effects frame running the operation list at ``card``/``path`` for ``user``."""
    g.push("effects", player=user, card=card, data={"path": path, "i": 0, **data})


def _ops_at(g: Game, card: str, path: list[Any]) -> list[Any]:
    """The operation list at ``path`` inside a card's data."""
    obj: Any = g.db[card]
    for key in path:
        obj = obj[key] if isinstance(key, int) else getattr(obj, key)
    assert isinstance(obj, list)
    return obj


def _ops(g: Game, frame: Frame) -> list[Any]:
    return _ops_at(g, frame.card or "", frame.data["path"])


# ---------------------------------------------------------------------- the interpreter

OpFn = Callable[["Game", Frame, Any, dict[str, Any]], bool]
OPS: dict[str, OpFn] = {}


def op(name: str) -> Callable[[OpFn], OpFn]:
    def register(fn: OpFn) -> OpFn:
        OPS[name] = fn
        return fn

    return register


@handles("effects")
def run_frame(g: Game, frame: Frame) -> None:
    ops = _ops(g, frame)
    i = frame.data["i"]
    if i >= len(ops) or g.over:
        g.pop()
        return
    state: dict[str, Any] = frame.data.setdefault("op", {})
    if OPS[ops[i].op](g, frame, ops[i], state):
        frame.data["i"] = i + 1
        frame.data.pop("op", None)


@responds("effects")
def answer_frame(g: Game, frame: Frame, player: str, action: Action) -> None:
    frame.data["op"]["picked"] = action.arg


def _pick(
    g: Game, frame: Frame, st: dict[str, Any], who: str, text: str, options: list[str]
) -> str | None:
    """Ask ``who`` to pick one of ``options`` (once); returns the pick when answered."""
    if "picked" in st:
        picked: str = st.pop("picked")
        st.pop("asked", None)
        return picked
    g.ask(who, "pick", text, [f"pick {o}" for o in options])
    st["asked"] = True
    return None


def use_of(frame: Frame) -> Use:
    """The use of a card's effects an ``effects`` frame runs (the card already spent)."""
    return Use(
        frame.player or "",
        frame.card or "",
        chosen=frame.data.get("chosen"),
        region=frame.data.get("region"),
    )


def _targets(
    g: Game, frame: Frame, o: Any, st: dict[str, Any], key: str = "targets"
) -> list[str] | None:
    """Resolve the party target of operation ``o`` (its ``against`` for ``key="against"``)
    to player names (or MONSTER); None while a pick is pending. A player picked by the user
    is one the operation would act on (:mod:`engine.rules.effective`): no empty choice.

    The result is kept in ``st[key]``, so an operation resolves its target once.
    """
    if key in st:
        return list(st[key])
    use = use_of(frame)
    target = o.against if key == "against" else o.target
    result: list[str]
    if target in ("chosen_player", "chosen_player_in_region") and use.chosen is None:
        options = roll_victims(g, use, o) if key == "against" else affected(g, use, o)
        if not options:
            result = []
        else:
            picked = _pick(g, frame, st, use.user, "Choose a player.", options)
            if picked is None:
                return None
            result = [picked]
    else:
        result = candidates(g, use, target)
    st[key] = result
    return list(result)


def _next_target(st: dict[str, Any]) -> str | None:
    """Work through st["targets"] one at a time (for per-target decisions)."""
    done = st.setdefault("done", 0)
    targets: list[str] = st["targets"]
    return targets[done] if done < len(targets) else None


def _target_done(st: dict[str, Any]) -> None:
    st["done"] += 1
    for key in ("n", "asked", "picked"):
        st.pop(key, None)


def _parties(g: Game, frame: Frame, o: Any, st: dict[str, Any]) -> list[Player] | None:
    """The target parties (a monster opponent left out); None while a pick is pending."""
    names = _targets(g, frame, o, st)
    if names is None:
        return None
    return [g.player(n) for n in names if n != MONSTER]


def _then(g: Game, frame: Frame, *branch: str | int, **data: Any) -> bool:
    """Finish the current operation by running its nested list ``branch`` (a roll's
    ``success``, a fight's ``win``, a choice's ``options, k, effects``) as a child frame."""
    frame.data["i"] += 1
    frame.data.pop("op", None)
    path = [*frame.data["path"], frame.data["i"] - 1, *branch]
    if _ops_at(g, frame.card or "", path):
        run_effects(g, frame.player or "", frame.card or "", path, **data)
    return False


@op("draw")
def op_draw(g: Game, frame: Frame, o: fx.Draw, st: dict[str, Any]) -> bool:
    parties = _parties(g, frame, o, st)
    if parties is None:
        return False
    for p in parties:
        if o.deck == "advantage":
            draw_advantages(g, p, o.count)
        else:
            for _ in range(o.count):
                if len(p.party) >= PARTY_LIMIT:
                    break
                card = top_card(g, "character")
                if card is None:
                    break
                add_character(g, p, card, Zone("deck", "character"))
    return True


@op("discard")
def op_discard(g: Game, frame: Frame, o: fx.Discard, st: dict[str, Any]) -> bool:
    if _targets(g, frame, o, st) is None:
        return False
    while (name := _next_target(st)) is not None:
        if name == MONSTER:
            _target_done(st)
            continue
        p = g.player(name)
        n = st.setdefault("n", 0)
        if n >= o.count or not p.hand:
            _target_done(st)
            continue
        if o.choice == "random":
            card = p.hand[g.randint(len(p.hand))]
        else:
            picked = _pick(g, frame, st, name, "Choose an Advantage to discard.", p.hand)
            if picked is None:
                return False
            card = picked
        discard_card(g, card, Zone("hand", name))
        st["n"] = n + 1
        g.emit("discard", f"{name} discards {g.db[card].name}.", player=name, card=card)
    return True


@op("modify")
def op_modify(g: Game, frame: Frame, o: fx.Modify, st: dict[str, Any]) -> bool:
    names = _targets(g, frame, o, st)
    if names is None:
        return False
    sign = f"{o.amount:+d}"
    for name in names:
        if name == MONSTER:
            battle = g.find_frame("battle")
            if battle is not None and o.stat == "strength":
                battle.data["monster_bonus"] = battle.data.get("monster_bonus", 0) + o.amount
                g.emit("modify", f"The monster gets {sign} Strength.", amount=o.amount)
            continue
        add_modifier(g, g.player(name), o.stat, o.amount, o.duration, frame.card or "")
        g.emit(
            "modify",
            f"{name}'s party gets {sign} {o.stat.capitalize()} ({o.duration}).",
            player=name,
            stat=o.stat,
            amount=o.amount,
            duration=o.duration,
        )
    return True


@op("move")
def op_move(g: Game, frame: Frame, o: fx.Move, st: dict[str, Any]) -> bool:
    names = _targets(g, frame, o, st)
    if names is None:
        return False
    name = next((n for n in names if n != MONSTER), None)
    if name is None:
        return True
    if o.to == "explore_new":
        return _explore_new(g, frame, st, name)
    options = move_destinations(g, name)  # past the Tree of Regions (O1), not where it is
    if not options:
        return True
    picked = _pick(g, frame, st, frame.player or name, "Choose the Region to move to.", options)
    if picked is None:
        return False
    _moves_this_turn(g, name)
    frame.data["i"] += 1  # the move runs as a child frame; this op is done
    frame.data.pop("op", None)
    g.push("move", player=name, region=picked)  # a declared move: the window opens (T4)
    return False


def _explore_new(g: Game, frame: Frame, st: dict[str, Any], name: str) -> bool:
    """M4/D2: explore a new Region: the top of the Region deck, or, once the deck is empty,
    a Region of the explorer's choice from the Region discard pile."""
    if not can_explore_new(g):
        return True
    region: str | None = None
    if not g.s.decks["region"]:
        pile = g.s.discards["region"]
        region = (
            pile[0]
            if len(pile) == 1
            else _pick(
                g, frame, st, name, "Choose the Region to explore from the discard pile (D2).", pile
            )
        )
        if region is None:
            return False
    _moves_this_turn(g, name)
    g.push("explore_new", player=name, region=region)
    return True


def _moves_this_turn(g: Game, name: str) -> None:
    """A card that moves a party in its own Movement step is its movement for the turn."""
    step = g.find_frame("movement_step")
    if step is not None and step.player == name:
        step.data["moved"] = True


@op("redirect_move")
def op_redirect(g: Game, frame: Frame, o: fx.RedirectMove, st: dict[str, Any]) -> bool:
    move = g.find_frame("move")
    options = redirections(g)
    if move is None or not options:
        return True
    picked = _pick(g, frame, st, frame.player or "", "Choose where that party goes.", options)
    if picked is None:
        return False
    move.region = picked
    g.emit(
        "redirect",
        f"{move.player}'s party is led astray to {g.db[picked].name}.",
        player=move.player,
        region=picked,
    )
    return True


def _character_op(
    g: Game,
    frame: Frame,
    o: Any,
    st: dict[str, Any],
    apply: Callable[[Player, str], None],
    only_active: bool = True,
    only_untapped: bool = False,
) -> bool:
    """Shared by incapacitate/tap/kill: pick a character of each target and apply."""
    if _targets(g, frame, o, st) is None:
        return False
    while (name := _next_target(st)) is not None:
        if name == MONSTER:
            _target_done(st)
            continue
        p = g.player(name)
        chars = [
            c.card
            for c in p.party
            if not (only_active and c.incapacitated) and not (only_untapped and c.tapped)
        ]
        if o.pick == "this_character":
            chars = [c for c in chars if c == frame.card]
        if not chars:
            _target_done(st)
            continue
        if o.pick == "random":
            card = chars[g.randint(len(chars))]
        elif o.pick == "this_character" or len(chars) == 1:
            card = chars[0]
        else:
            chooser = name if o.pick == "owner_chooses" else frame.player or name
            picked = _pick(g, frame, st, chooser, f"Choose a character of {name}'s party.", chars)
            if picked is None:
                return False
            card = picked
        apply(p, card)
        _target_done(st)
    return True


@op("incapacitate")
def op_incapacitate(g: Game, frame: Frame, o: fx.Incapacitate, st: dict[str, Any]) -> bool:
    def apply(p: Player, card: str) -> None:
        next(c for c in p.party if c.card == card).incapacitated = True
        g.emit(
            "incapacitate",
            f"{g.db[card].name} of {p.name}'s party is incapacitated.",
            player=p.name,
            card=card,
        )

    return _character_op(g, frame, o, st, apply)


@op("tap")
def op_tap(g: Game, frame: Frame, o: fx.Tap, st: dict[str, Any]) -> bool:
    def apply(p: Player, card: str) -> None:
        next(c for c in p.party if c.card == card).tapped = True
        g.emit("tap", f"{g.db[card].name} of {p.name}'s party is turned.", player=p.name, card=card)

    # Turning picks among untapped characters: two taps turn two different characters.
    return _character_op(g, frame, o, st, apply, only_untapped=o.pick != "this_character")


@op("kill")
def op_kill(g: Game, frame: Frame, o: fx.Kill, st: dict[str, Any]) -> bool:
    return _character_op(g, frame, o, st, lambda p, card: kill(g, p, card), only_active=False)


@op("untap")
def op_untap(g: Game, frame: Frame, o: fx.Untap, st: dict[str, Any]) -> bool:
    parties = _parties(g, frame, o, st)
    if parties is None:
        return False
    for p in parties:
        for c in p.party:
            c.tapped = False
        g.emit("untap", f"{p.name}'s characters straighten.", player=p.name)
    return True


@op("steal")
def op_steal(g: Game, frame: Frame, o: fx.Steal, st: dict[str, Any]) -> bool:
    names = _targets(g, frame, o, st)
    if names is None:
        return False
    thief = g.player(frame.player or "")
    for name in names:
        if name == MONSTER or name == thief.name:
            continue
        victim = g.player(name)
        for _ in range(o.count):
            if not victim.hand or not room_in_hand(thief):
                break
            card = victim.hand[g.randint(len(victim.hand))]
            zones.move(g.s, card, Zone("hand", name), Zone("hand", thief.name))
            g.emit(
                "steal",
                f"{thief.name} steals an Advantage from {name}.",
                player=thief.name,
                victim=name,
            )
            g.emit(
                "steal_private",
                f"{g.db[card].name} goes from {name} to {thief.name}.",
                to=[thief.name, name],
                card=card,
                player=thief.name,
                victim=name,
            )
    return True


@op("reveal")
def op_reveal(g: Game, frame: Frame, o: fx.Reveal, st: dict[str, Any]) -> bool:
    user = frame.player or ""
    # Only Encounters the user does not know yet: Scrying's second look is at another Region.
    hidden = scoutable(g, user)
    if not hidden:
        return True
    picked = _pick(g, frame, st, user, "Choose a Region to scout.", hidden)
    if picked is None:
        return False
    region = next(r for r in g.s.regions if r.card == picked)
    region.peeked.append(user)
    assert region.preliminary is not None
    g.emit("scout", f"{user} scouts {g.db[picked].name}.", player=user, region=picked)
    g.emit(
        "scout_private",
        f"At {g.db[picked].name} waits {g.db[region.preliminary].name}.",
        to=[user],
        region=picked,
        card=region.preliminary,
    )
    return True


@op("roll")
def op_roll(g: Game, frame: Frame, o: fx.Roll, st: dict[str, Any]) -> bool:
    victim: str | None = None
    if o.against is not None:
        against = _targets(g, frame, o, st, key="against")
        if against is None:
            return False
        if not against:
            return True  # nobody to roll against
        victim = against[0]
    names = _targets(g, frame, o, st)
    if names is None:
        return False
    name = next((n for n in names if n != MONSTER), frame.player or "")
    p = g.player(name)
    die = g.die()
    bonus = speed(g, p) if o.check == "speed" else strength(g, p) if o.check == "strength" else 0
    total = die + bonus
    ok = total >= o.at_least
    label = {"speed": f" + Speed {bonus}", "strength": f" + Strength {bonus}"}.get(o.check, "")
    g.emit(
        "roll",
        f"🎲 {die}{label} = {total} vs {o.at_least}: {'success' if ok else 'failure'}.",
        player=name,
        check=o.check if o.check in ("speed", "strength") else None,
        die=die,
        total=total,
        at_least=o.at_least,
        success=ok,
    )
    inherited = victim if victim is not None else frame.data.get("chosen")
    extra = {"chosen": inherited} if inherited is not None else {}
    return _then(g, frame, "success" if ok else "failure", **extra)


@op("fight")
def op_fight(g: Game, frame: Frame, o: fx.Fight, st: dict[str, Any]) -> bool:
    if "pushed" in st:  # the battle is over: its outcome picks the branch
        return _then(g, frame, "win" if g.s.result.get("won") else "lose")
    names = _targets(g, frame, o, st)
    if names is None:
        return False
    name = next((n for n in names if n != MONSTER), None)
    if name is None:
        return True
    st["pushed"] = True
    g.push(
        "battle",
        player=name,
        data={"name": o.opponent, "strength": o.strength, "keywords": list(o.keywords)},
    )
    return False


@op("end_turn")
def op_end_turn(g: Game, frame: Frame, o: fx.EndTurn, st: dict[str, Any]) -> bool:
    parties = _parties(g, frame, o, st)
    if parties is None:
        return False
    for p in parties:
        end_turn(g, p)
    return True


@op("lose_next_turn")
def op_lose_next(g: Game, frame: Frame, o: fx.LoseNextTurn, st: dict[str, Any]) -> bool:
    parties = _parties(g, frame, o, st)
    if parties is None:
        return False
    for p in parties:
        p.skip_next_turn = True
        g.emit("lose_next_turn", f"{p.name} will also lose the next turn.", player=p.name)
    return True


@op("cancel")
def op_cancel(g: Game, frame: Frame, o: fx.Cancel, st: dict[str, Any]) -> bool:
    window = g.find_frame("window")
    if window is not None:
        window.data["cancelled"] = True
        g.emit("cancel", "It is cancelled.", when=window.data["when"])
    return True


@op("reroll")
def op_reroll(g: Game, frame: Frame, o: fx.Reroll, st: dict[str, Any]) -> bool:
    parties = _parties(g, frame, o, st)
    if parties is None:
        return False
    for p in parties:
        p.reroll = True
        g.emit("reroll", f"{p.name} will roll the next battle die twice.", player=p.name)
    return True


#: Said of an option of a forced choice that would change nothing now (an Encounter's or a
#: Region's alternatives: paying with an empty hand is the player's right).
IDLE = " (changes nothing now)"


def _voluntary(g: Game, frame: Frame) -> bool:
    """Whether the effects running were chosen by their user: a card or ability he used, a
    reward he took; not an Encounter, an exploration result or a Trap that befalls him."""
    path = frame.data["path"]
    if path[0] == "rewards":
        return True
    if path[0] != "abilities":
        return False
    return g.db[frame.card or ""].abilities[path[1]].timing in ("play", "interrupt", "battle")


@op("choose")
def op_choose(g: Game, frame: Frame, o: fx.Choose, st: dict[str, Any]) -> bool:
    """The user picks one option. An option that would change nothing is left out of a
    choice he made himself (no empty choice); in a forced one it stays, saying so. One
    option left is taken without asking."""
    if "labels" not in st:
        use, voluntary = use_of(frame), _voluntary(g, frame)
        labels: dict[str, str] = {}
        for i, option in enumerate(o.options):
            idle = bool(option.effects) and not would_act(g, use, option.effects)
            if not (idle and voluntary):
                labels[str(i)] = option.label + (IDLE if idle else "")
        st["labels"] = labels
    labels = st["labels"]
    if not labels:  # the card's earlier operations left no option acting: nothing to choose
        return True
    if len(labels) == 1:
        picked: str | None = next(iter(labels))
    else:
        text = " / ".join(f"{i}: {label}" for i, label in labels.items())
        picked = _pick(g, frame, st, frame.player or "", text, list(labels))
    if picked is None:
        return False
    g.emit(
        "choose",
        f"{frame.player} chooses: {labels[picked]}.",
        player=frame.player,
        label=labels[picked],
    )
    return _then(g, frame, "options", int(picked), "effects")


@op("hire_from_discard")
def op_hire_discard(g: Game, frame: Frame, o: fx.Hire, st: dict[str, Any]) -> bool:
    names = _targets(g, frame, o, st)
    if names is None:
        return False
    name = next((n for n in names if n != MONSTER), None)
    pile = g.s.discards["character"]
    if name is None or not pile or len(g.player(name).party) >= PARTY_LIMIT:
        return True
    picked = _pick(g, frame, st, name, "Choose a character from the discard pile.", list(pile))
    if picked is None:
        return False
    add_character(g, g.player(name), picked, Zone("discard", "character"))
    return True


@op("take_character")
def op_take_character(g: Game, frame: Frame, o: fx.TakeCharacter, st: dict[str, Any]) -> bool:
    """Betrayal: a character leaves another party and joins the user's (C1, C5, R4)."""
    user = g.player(frame.player or "")
    if "victim" not in st:
        # R4: a party of 4 takes nobody; C1/C5: a party is never left empty, so only parties
        # of 2 or more can be chosen (the one named before a roll, if any: Roll.against).
        options = betrayal_victims(g, use_of(frame), o)
        if not options:
            return True
        victim_name = _pick(g, frame, st, user.name, "Choose a player to betray.", options)
        if victim_name is None:
            return False
        st["victim"] = victim_name
    victim = g.player(st["victim"])
    chars = [c.card for c in victim.party]
    if o.pick == "random":
        card = chars[g.randint(len(chars))]
    else:
        chooser = victim.name if o.pick == "owner_chooses" else user.name
        picked = _pick(
            g, frame, st, chooser, f"Choose a character of {victim.name}'s party.", chars
        )
        if picked is None:
            return False
        card = picked
    # As it lies: turned or face down, it stays so.
    zones.move(g.s, card, Zone("party", victim.name), Zone("party", user.name), as_it_lies=True)
    g.emit(
        "take_character",
        f"{g.db[card].name} leaves {victim.name}'s party and joins {user.name}'s.",
        player=user.name,
        victim=victim.name,
        card=card,
    )
    return True


@op("take_discarded")
def op_take_discarded(g: Game, frame: Frame, o: fx.TakeDiscarded, st: dict[str, Any]) -> bool:
    parties = _parties(g, frame, o, st)
    if parties is None:
        return False
    for p in parties:
        pile = g.s.discards["advantage"]
        # The played card (discarded as it was played) is not taken back: Scavenge could
        # otherwise be played again and again without end.
        under = [c for c in pile if c != frame.card]
        if under and room_in_hand(p):
            card = under[-1]
            zones.move(g.s, card, Zone("discard", "advantage"), Zone("hand", p.name))
            g.emit(
                "take",
                f"{p.name} takes {g.db[card].name} from the discard pile.",
                player=p.name,
                card=card,
                source="discard",
            )
    return True


@op("exchange_arcane")
def op_exchange_arcane(g: Game, frame: Frame, o: fx.ExchangeArcane, st: dict[str, Any]) -> bool:
    """C7 (Ascension): each target party gives up a normal character (its owner chooses) for
    the top Arcane character."""
    if _targets(g, frame, o, st) is None:
        return False
    while (name := _next_target(st)) is not None:
        p = None if name == MONSTER else g.player(name)
        normal = normal_characters(g, p) if p is not None else []
        # The Arcane deck exists only when a set in play has Arcane characters (C7).
        if p is None or not normal or ARCANE_DECK not in g.s.decks:
            _target_done(st)
            continue
        if top_card(g, ARCANE_DECK) is None:  # none left, even in the discard pile
            _target_done(st)
            continue
        if len(normal) == 1:
            card = normal[0]
        else:
            picked = _pick(g, frame, st, name, "Choose the character who leaves.", normal)
            if picked is None:
                return False
            card = picked
        arcane = top_card(g, ARCANE_DECK)
        assert arcane is not None
        discard_card(g, card, Zone("party", name))
        zones.move(g.s, arcane, Zone("deck", ARCANE_DECK), Zone("party", name))
        g.emit(
            "exchange_arcane",
            f"{g.db[card].name} leaves {name}'s party; the Arcane {g.db[arcane].name} joins it.",
            player=name,
            card=card,
            arcane=arcane,
        )
        _target_done(st)
    return True


@op("exchange_advantage")
def op_exchange_advantage(
    g: Game, frame: Frame, o: fx.ExchangeAdvantage, st: dict[str, Any]
) -> bool:
    """The Agent: the user gives an Advantage of his choice to a player he names and takes one
    of that player's at random (hands are secret); both hands keep their size."""
    user = g.player(frame.player or "")
    if "victim" not in st:
        # A player with an Advantage in hand, while the user has one to give (the one named
        # before a roll, if any: Roll.against).
        options = exchange_partners(g, use_of(frame), o)
        if not options:
            return True
        victim_name = _pick(
            g, frame, st, user.name, "Choose a player to exchange an Advantage with.", options
        )
        if victim_name is None:
            return False
        st["victim"] = victim_name
    victim = g.player(st["victim"])
    given = _pick(
        g, frame, st, user.name, f"Choose the Advantage you give {victim.name}.", list(user.hand)
    )
    if given is None:
        return False
    # Taken before the given card arrives, so the user never draws back his own card.
    taken = victim.hand[g.randint(len(victim.hand))]
    zones.move(g.s, taken, Zone("hand", victim.name), Zone("hand", user.name))
    zones.move(g.s, given, Zone("hand", user.name), Zone("hand", victim.name))
    g.emit(
        "exchange_advantage",
        f"{user.name} exchanges an Advantage with {victim.name}.",
        player=user.name,
        victim=victim.name,
    )
    g.emit(
        "exchange_advantage_private",
        f"{g.db[given].name} goes from {user.name} to {victim.name}; "
        f"{g.db[taken].name} from {victim.name} to {user.name}.",
        to=[user.name, victim.name],
        player=user.name,
        victim=victim.name,
        given=given,
        taken=taken,
    )
    return True


@op("modify_region")
def op_modify_region(g: Game, frame: Frame, o: fx.ModifyRegion, st: dict[str, Any]) -> bool:
    """The Region the effect happens at (a Trap's, else the user's) changes level until the end
    of the turn; the level stays within 1-3 (regions.region_level)."""
    card = frame.data.get("region") or where(g, frame.player or "")
    region = active_region(g, card) if card else None
    if region is None:
        return True
    region.level_bonus += o.amount
    g.emit(
        "region_level",
        f"{g.db[region.card].name} is now level {region_level(g, region.card)} until the end "
        "of the turn.",
        region=region.card,
        amount=o.amount,
        level=region_level(g, region.card),
    )
    return True


@op("discard_faction")
def op_discard_faction(g: Game, frame: Frame, o: fx.DiscardFaction, st: dict[str, Any]) -> bool:
    parties = _parties(g, frame, o, st)
    if parties is None:
        return False
    for p in parties:
        lose_faction(g, p)
    return True


def lose_faction(g: Game, p: Player) -> None:
    """A6/E6: the party leaves its Faction, which goes to the discard pile."""
    card = faction(g, p)
    if card is None:
        return
    discard_card(g, card.id, Zone("in_play", p.name))
    g.emit(
        "discard",
        f"{p.name} loses the Faction {card.name}.",
        player=p.name,
        card=card.id,
        why="faction",
    )


assert set(OPS) == fx.OPERATIONS, f"operations without an interpreter: {fx.OPERATIONS - set(OPS)}"
