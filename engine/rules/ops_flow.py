"""Operations on the course of the turn: a party's modifiers, rolls and fights with their
branches, the user's choice among options, cancelling what a window was opened for, a party's
turn ending or lost, a battle die rolled twice (docs/cards.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.cards import effects as fx
from engine.rules.effective import MONSTER
from engine.rules.effective import acts as would_act
from engine.rules.interpreter import op, pick, then, use_of
from engine.rules.party import add_modifier, end_turn, speed, strength
from engine.rules.targets import each_party, on_party, parties, targets
from engine.state import Frame, Player

if TYPE_CHECKING:
    from engine.game import Game


#: A modifier's duration in the log's words.
DURATION_WORDS = {
    "battle": "for this battle",
    "turn": "until the end of the turn",
    "next_turn": "during the next turn",
    "permanent": "for the rest of the game",
}


@op("modify")
def op_modify(g: Game, frame: Frame, o: fx.Modify, st: dict[str, Any]) -> bool:
    names = targets(g, frame, o, st)
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
            f"{name}'s party gets {sign} {o.stat.capitalize()} "
            f"{DURATION_WORDS.get(o.duration, o.duration)}.",
            player=name,
            stat=o.stat,
            amount=o.amount,
            duration=o.duration,
        )
    return True


@op("roll")
def op_roll(g: Game, frame: Frame, o: fx.Roll, st: dict[str, Any]) -> bool:
    victim: str | None = None
    if o.against is not None:
        against = targets(g, frame, o, st, key="against")
        if against is None:
            return False
        if not against:
            return True  # nobody to roll against
        victim = against[0]
    rollers = parties(g, frame, o, st)
    if rollers is None:
        return False
    p = rollers[0] if rollers else g.player(frame.player or "")
    die = g.die()
    bonus = speed(g, p) if o.check == "speed" else strength(g, p) if o.check == "strength" else 0
    total = die + bonus
    ok = total >= o.at_least
    label = {"speed": f" + Speed {bonus}", "strength": f" + Strength {bonus}"}.get(o.check, "")
    g.emit(
        "roll",
        f"🎲 {die}{label} = {total} vs {o.at_least}: {'success' if ok else 'failure'}.",
        player=p.name,
        check=o.check if o.check in ("speed", "strength") else None,
        die=die,
        total=total,
        at_least=o.at_least,
        success=ok,
    )
    inherited = victim if victim is not None else frame.data.get("chosen")
    extra = {"chosen": inherited} if inherited is not None else {}
    return then(g, frame, "success" if ok else "failure", **extra)


@op("fight")
def op_fight(g: Game, frame: Frame, o: fx.Fight, st: dict[str, Any]) -> bool:
    if "pushed" in st:  # the battle is over: its outcome picks the branch
        return then(g, frame, "win" if g.s.result.get("won") else "lose")

    def fight(p: Player) -> bool:
        st["pushed"] = True
        g.push(
            "battle",
            player=p.name,
            data={"name": o.opponent, "strength": o.strength, "keywords": list(o.keywords)},
        )
        return False

    return on_party(g, frame, o, st, fight)


@op("end_turn")
def op_end_turn(g: Game, frame: Frame, o: fx.EndTurn, st: dict[str, Any]) -> bool:
    return each_party(g, frame, o, st, lambda p: end_turn(g, p))


#: The operations that mark a party for later: the flag of the party they set, and what the
#: table is told (an event of the operation's own kind).
MARKS = {
    "lose_next_turn": ("skip_next_turn", "{} will also lose the next turn."),
    "reroll": ("reroll", "{} will roll the next battle die twice."),
}


@op("lose_next_turn")
@op("reroll")
def op_mark(g: Game, frame: Frame, o: fx.LoseNextTurn | fx.Reroll, st: dict[str, Any]) -> bool:
    flag, text = MARKS[o.op]

    def mark(p: Player) -> None:
        setattr(p, flag, True)
        g.emit(o.op, text.format(p.name), player=p.name)

    return each_party(g, frame, o, st, mark)


@op("cancel")
def op_cancel(g: Game, frame: Frame, o: fx.Cancel, st: dict[str, Any]) -> bool:
    window = g.find_frame("window")
    if window is not None:
        window.data["cancelled"] = True
        g.emit("cancel", "It is cancelled.", when=window.data["when"])
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
        options = [
            [i, o.options[int(i)].label, label.endswith(IDLE)] for i, label in labels.items()
        ]
        data = {"variant": "choose", "options": options}
        picked = pick(g, frame, st, frame.player or "", text, list(labels), data)
    if picked is None:
        return False
    g.emit(
        "choose",
        f"{frame.player} chooses: {labels[picked]}.",
        player=frame.player,
        label=labels[picked],
    )
    return then(g, frame, "options", int(picked), "effects")
