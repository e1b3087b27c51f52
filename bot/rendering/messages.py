"""The bot's words for events: one catalog, message id -> English template with named arguments.

Every event line a player reads is a :class:`Message` (an id and its arguments) looked up
here, never the engine's own sentence. The ids are stable keys and the templates use only
named ``{arguments}``, so that a gettext/Babel catalog can later hold the same ids in other
languages; a message that counts (``n``) has a singular and a plural form. Arguments are
already drawn: display names bold and escaped, card names, numbers, or other messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: Message id -> English template; a pair is (singular, plural), chosen by the message's ``n``.
ENGLISH: dict[str, str | tuple[str, str]] = {
    # words used inside other messages
    "word.success": "success",
    "word.failure": "failure",
    "word.nothing": "nothing",
    "word.list": "{first}, {second}",
    "stat.speed": "Speed",
    "stat.strength": "Strength",
    "duration.battle": "this battle",
    "duration.turn": "this turn",
    "duration.next_turn": "next turn",
    "duration.permanent": "for good",
    "deck.advantage": "Advantage",
    "deck.character": "character",
    "deck.encounter": "Encounter",
    "deck.mission": "mission",
    "deck.region": "Region",
    "deck.arcane": "Arcane",
    "rivalry.organizations": "rival Organizations",
    "rivalry.factions": "enemy Factions",
    "reason.channel_deleted": "its channel was deleted (or I was removed from the server)",
    "reason.channel_forbidden": (
        "I am no longer allowed to send messages there (View Channel, Send Messages)"
    ),
    # the game's course
    "event.setup": "🎲 A game of Anima begins with {players}.",
    "event.regions": "The first Regions are laid out: {regions}.",
    "event.start_character": "{player} chooses a leader.",
    "event.start_character_private": "You lead with {card}.",
    "event.start_advantages": "{player} keeps three Advantages.",
    "event.turn": "🔔 __**Turn {turn}**__ · order: {order}",
    "event.tie_roll": "Equal Speed: {rolls}.",
    "event.tie_roll.one": "{player} rolls {die}",
    "event.turn_over": "{player}'s turn is over.",
    "event.untap": "{player}'s characters straighten.",
    "event.reshuffle": "The {deck} discard pile is shuffled into a new deck.",
    "event.draw": ("{player} draws {n} Advantage.", "{player} draws {n} Advantages."),
    "event.draw_private": "You draw {cards}.",
    "event.timeout": "⏰ {player} ran out of time; the default was taken.",
    "event.timeout.choice": "⏰ {player} ran out of time: {choice}.",
    "event.timeout.hidden": "⏰ {player} ran out of time: the default choice.",
    "event.timeout_private": "⏰ Time ran out: {choice}.",
    # the Reset phase and cards
    "event.discard": "{player} discards {card}.",
    "event.discard.arcane": "{player} discards {card} to hire an Arcane character.",
    "event.discard.lost": "{player} loses {card}.",
    "event.discard.faction": "{player} loses the Faction {card}.",
    "event.dismiss": "{player} dismisses {card}.",
    "event.leave": "{player} gives up {card}.",
    "event.take": "{player} takes {card}.",
    "event.take.discard": "{player} takes {card} from the discard pile.",
    "event.play": "{player} plays {card}: {text}",
    "event.play.bare": "{player} plays {card}.",
    "event.ability": "{player} uses {card}'s ability: {text}",
    "event.ability.bare": "{player} uses {card}'s ability.",
    "event.tap": "{card} of {player}'s party is turned.",
    "event.tap.used": "{card} turns to use {used}.",
    "event.choose": "{player} chooses: {label}.",
    "event.cancel": "It is cancelled.",
    "event.modify": "{player}'s party gets {amount} {stat} ({duration}).",
    "event.modify.monster": "The monster gets {amount} Strength.",
    "event.roll": "🎲 {player}: {die} + {stat} {bonus} = {total} vs {at_least}: {outcome}.",
    "event.roll.plain": "🎲 {player}: {die} = {total} vs {at_least}: {outcome}.",
    "event.reroll": "{player} will roll the next battle die twice.",
    "event.lose_next_turn": "{player} will also lose the next turn.",
    "event.steal": "{player} steals an Advantage from {victim}.",
    "event.steal_private": "{card} goes from {victim} to {player}.",
    "event.exchange_advantage": "{player} exchanges an Advantage with {victim}.",
    "event.exchange_advantage_private": (
        "{given} goes from {player} to {victim}; {taken} from {victim} to {player}."
    ),
    "event.take_character": "{card} leaves {victim}'s party and joins {player}'s.",
    "event.hire": "{card} joins {player}'s party.",
    "event.death": "{card} of {player}'s party dies.",
    "event.incapacitate": "{card} of {player}'s party is incapacitated.",
    "event.new_party": "{player} has lost every character and forms a new party with {card}.",
    # movement
    "event.rest": "{player}'s party rests (+2 Strength, +2 Speed next turn).",
    "event.move": "{player}'s party heads for {region}.",
    "event.move_cancelled": "{player}'s party stays where it is.",
    "event.redirect": "{player}'s party is led astray to {region}.",
    "event.arrive": "{player}'s party reaches {region}.",
    "event.explore_new": "{player} discovers {region} (level {level}).",
    "event.explore_new.guarded": "{player} discovers {region} (level {level}), guarded by {card}.",
    "event.no_removal": "No Region can be removed: the new one is added anyway.",
    "event.block": "{player} discards an Advantage to keep {region} in play.",
    "event.region_removed": "{region} leaves play.",
    "event.scout": "{player} scouts {region}.",
    "event.scout_private": "At {region} waits {card}.",
    "event.expelled": "{player}'s party is driven out of {region}.",
    "event.leave_region": "{player}'s party leaves {region}.",
    # interaction
    "event.attack": "{player} attacks {other}!",
    "event.rivals": "{player} and {other} belong to {rivalry} and must fight.",
    "event.offer": "{player} proposes a trade to {other}.",
    "event.trade_offer": "{player} makes an offer to {other}.",
    "event.trade_offer_private": "{player} offers {give} for {ask}.",
    "event.trade_private": "{player} gives {give} for {ask}.",
    "event.trade.ask_hand": (
        "{n} Advantage of your choice",
        "{n} Advantages of your choice",
    ),
    "event.trade_withdrawn": "{player} withdraws the offer.",
    "event.trade_declined": "{player} declines the trade.",
    "event.trade": "{player} and {other} trade.",
    "event.spoils": "{other} gives {player} a random Advantage.",
    "event.spoils_private": "{card} goes from {other} to {player}.",
    # battles
    "event.battle": "⚔️ {player}'s party fights {opponent}.",
    "event.battle_cancelled": "The battle is called off.",
    "event.battle_roll": "{first} vs {second}",
    "event.battle_roll.side": "🎲 {side}: {shown} + Strength {strength} = **{total}**",
    "event.battle_roll.monster": "the monster",
    "event.battle_result": "⚔️ {winner} wins the battle by {margin}.",
    "event.battle_result.tie": "⚔️ A tie: {winner} wins.",
    "event.tie": "A tie: nothing happens.",
    "event.tie.goes_on": "A tie: the battle goes on.",
    # exploration
    "event.explore_roll": "{player} explores {region}: 🎲 {die}.",
    "event.explore_nothing": "The exploration finds nothing this time.",
    "event.explore_result.nothing": "Nothing stands in {player}'s way.",
    "event.explore_result": (
        "{player} must face {n} Encounter.",
        "{player} must face {n} Encounters.",
    ),
    "event.explore_result.in_a_row": (
        "{player} must face {n} Encounter in a row.",
        "{player} must face {n} Encounters in a row.",
    ),
    "event.explore_result.counts_as": (
        "{player} must face {n} Encounter in a row; {region} counts as level {level} until "
        "it is over.",
        "{player} must face {n} Encounters in a row; {region} counts as level {level} until "
        "they are over.",
    ),
    "event.explore_result.special": "{region}: {text}",
    "event.false_alarm": (
        "{card} (level {card_level}) cannot happen at {region} (level {level}): a false alarm."
    ),
    "event.encounter.monster": (
        "{player} meets {card} (a monster, Strength {strength}, level {level}): {text}"
    ),
    "event.encounter.event": "{player} meets {card} (an event, level {level}): {text}",
    "event.reward": "{player} takes {reward}.",
    # missions and the end
    "event.mission_started": "{player} starts the mission {card}: {text}",
    "event.mission_attempt": "{player} attempts {card}.",
    "event.mission_attempt.secret": "{player} attempts a secret mission.",
    "event.mission_attempt.private": "You attempt {card}.",
    "event.speed_check": "🎲 {player}: {die} + Speed {bonus} = {total} vs {at_least}: {outcome}.",
    "event.resist": "{player}'s party holds out ({turns}/{of}).",
    "event.resist.stand": "{player}'s party stands its ground for {card}.",
    "event.resist.secret": "{player}'s party stands its ground for its secret mission.",
    "event.deliver": "{player} hands over an Advantage.",
    "event.mission_failed": "{player} fails {card} this time.",
    "event.mission_failed.secret": "{player} fails a secret mission this time.",
    "event.mission_completed": "{player} completes {card}!",
    "event.final_revealed": "{player} reveals the Final mission: {card}. {text}",
    "event.final_revealed.crisis": (
        "{player} reveals the Final mission: {card}. {text} Crisis! in {turns} turns."
    ),
    "event.final_completed": "{player} completes the Final mission!",
    "event.crisis_countdown": "⏳ Crisis! in {turns}.",
    "event.crisis": "**⏳ The Crisis is unleashed! Normal play stops.**",
    "event.crisis_lost": "{player} has no completed Basic mission and loses.",
    "event.crisis_challenge": "{text} Order: {order}.",
    "event.crisis_attempt": (
        "{player}: 🎲 {die} + Speed {bonus} = {total} vs {at_least}: {outcome}."
    ),
    # the expansions
    "event.trap_set": "🪤 {player} lays a Trap face down on **{region}**.",
    "event.trap_set_private": "{card} lies in wait.",
    "event.trap_revealed": "🪤 A Trap springs at **{region}**: **{card}** ({player}'s) — {text}",
    "event.trap_revealed.bare": "🪤 A Trap springs at **{region}**: **{card}** ({player}'s).",
    "event.region_level": (
        "⛰️ **{region}** is level **{level}** until the end of the turn ({amount})."
    ),
    "event.guard": "🛡 **{guard}** guards **{region}**: {player} must fight it.",
    "event.guard.unnamed": "its guard",
    "event.guard_check": "🛡 {player} faces **{guard}** at **{region}**: {roll}: {outcome}.",
    "event.guard_check.beaten": "beaten",
    "event.guard_check.caught": "caught",
    "event.guard_beaten": "🏳 {player} overcomes **{guard}**: **{region}** is no longer guarded.",
    "event.flee": "💨 {player} tries to flee **{card}**: {roll}: {outcome}.",
    "event.flee.escapes": "escapes",
    "event.flee.caught": "cannot escape and must fight",
    "event.check": "🎲 {die} + {stat}{bonus} = {total} vs {at_least}",
    "event.exchange_arcane": "✦ {card} leaves {player}'s party; the Arcane **{arcane}** joins it.",
    "event.explore_new_regions": (
        "🧭 {player} explores and reveals {regions}: the party goes to the highest level."
    ),
    "event.explore_new_regions.one": "**{region}** (L{level})",
    "event.discredit": "🗞️ {player} discredits {other}, who loses his Faction.",
    "event.spoils_artifact": "🏺 {player} takes {other}'s Artifact **{card}** as spoils.",
    "event.incident_over": "🌀 {card} ends ({player}'s Incident).",
    # the bot's own events (time-outs of windows, pauses, seats taken over and back)
    "event.window_closed": "⚡ Time is up: the reaction window is closed.",
    "event.paused": "⏸️ The game is paused: everybody is away.",
    "event.channel_paused": "⏸️ The game was paused: {reason}.",
    "event.resumed": "▶️ {player} is back: the game resumes.",
    "event.takeover": (
        "🤖 {player} ran out of time {n} time in a row: an AI player takes over the seat "
        "(the player can take it back from **My hand**).",
        "🤖 {player} ran out of time {n} times in a row: an AI player takes over the seat "
        "(the player can take it back from **My hand**).",
    ),
    "event.reclaimed": "👋 {player} takes the seat back from the AI.",
    # a decision, in a few words, by its kind (engine.prompts.PROMPT_KINDS), read after
    # "waiting for Alice to ..."; what the table reads when a decision's text is withheld
    "kind.start_character": "choose a leader",
    "kind.start_advantage": "choose the Advantage to give back",
    "kind.reveal_final": "reveal the Final mission, or pass",
    "kind.reset": "discard, dismiss, play Reset phase cards, or end the phase",
    "kind.pickup": "take a card another player let go, or pass",
    "kind.movement": "move, explore a new Region, or rest",
    "kind.remove_region": "choose a Region to remove",
    "kind.block_removal": "block the removal of a Region, or pass",
    "kind.window": "respond: play an Interrupt or Battle card, or pass",
    "kind.interaction": "trade, attack, or end the phase",
    "kind.trade_offer": "prepare a trade offer",
    "kind.trade_answer": "answer a trade offer",
    "kind.trade_pay": "choose the Advantages to hand over",
    "kind.exploration": "explore, or skip",
    "kind.reward": "choose a reward or a mission",
    "kind.remote_mission": "choose a mission to attempt",
    "kind.deliver": "choose the Advantages to deliver",
    "kind.casualty": "choose the character who dies",
    "kind.skill_choice": "choose the character who turns",
    "kind.pick": "make a choice for a card",
    "kind.flee": "fight the monster, or try to flee it",
    "kind.new_region": "choose which new Region of the highest level to enter",
    "kind.trap_region": "choose the Region where a Trap lies",
    "kind.spoils": "take the loser's Artifact, or pass for a random Advantage",
    "kind.discredit": "choose whom to discredit, and the Advantage to pay",
    "kind.unknown": "decide",
    "waiting.many": "⏳ Waiting for {players} to {decision}.",
    # a decision's sentence, by its kind and variant (engine.prompts.Prompt.data; drawn by
    # bot.rendering.prompts)
    "prompt.start_character": "Choose the character who leads your party.",
    "prompt.start_advantage": "Choose the Advantage you give back; you keep the other three.",
    "prompt.reveal_final": "Reveal the Final mission now?",
    "prompt.reset": "Reset phase: discard, dismiss, play Reset cards, or done.",
    "prompt.pickup": "You have the fewest: take a card another player let go?",
    "prompt.movement": "Movement phase: go to a Region, explore a new one, or rest.",
    "prompt.remove_region": "Too many Regions: choose one to remove.",
    "prompt.block_removal": "{player} removes {region}. Discard an Advantage to block it?",
    "prompt.window": "Play an Interrupt card, or pass.",
    "prompt.window.move_declared": "{player} declared a move. Play an Interrupt card, or pass.",
    "prompt.window.battle_start": (
        "A battle starts ({player}). Play a Battle or Interrupt card, or pass."
    ),
    "prompt.window.encounter_revealed": (
        "{player} meets an Encounter. Play an Interrupt card, or pass."
    ),
    "prompt.window.exploration_roll": (
        "{player} rolled to explore. Play an Interrupt card, or pass."
    ),
    "prompt.interaction": "Interaction phase: trade, attack, or done.",
    "prompt.trade_offer": "Build your offer to {other}: {player} gives {give} for {ask}.",
    "prompt.trade_answer": "Trade offer: {player} gives {give} for {ask}.",
    "prompt.trade.ask_hand": (
        "{n} Advantage(s) of your choice",
        "{n} Advantage(s) of your choice",
    ),
    "prompt.trade_pay": "Choose an Advantage to hand over.",
    "prompt.exploration": "Exploration phase at {region}: explore or skip.",
    "prompt.reward": "The exploration succeeded: choose a reward or attempt a mission.",
    "prompt.remote_mission": "Choose the mission to attempt.",
    "prompt.deliver": "Choose an Advantage to hand over ({left} left).",
    "prompt.casualty": "You lost by 5 or more: choose the character who dies.",
    "prompt.skill_choice": "Choose the character who turns to use {card}.",
    "prompt.pick": "Make a choice for {card}.",
    "prompt.pick.move": "Choose the Region to move to.",
    "prompt.pick.redirect": "Choose where that party goes.",
    "prompt.pick.scout": "Choose a Region to scout.",
    "prompt.pick.character": "Choose a character of {player}'s party.",
    "prompt.pick.leaves": "Choose the character who leaves.",
    "prompt.pick.hire_discard": "Choose a character from the discard pile.",
    "prompt.pick.player": "Choose a player.",
    "prompt.pick.betray": "Choose a player to betray.",
    "prompt.pick.exchange_partner": "Choose a player to exchange an Advantage with.",
    "prompt.pick.exchange": "Choose the Advantage you give {player}.",
    "prompt.pick.discard": "Choose an Advantage to discard.",
    "prompt.pick.choose": "{options}",
    "prompt.pick.choose.option": "{index}: {option}",
    "prompt.pick.choose.separator": "{first} / {second}",
    "prompt.flee": (
        "{card} (Strength {strength}) bars the way: fight it, or try to flee (Speed check "
        "against its Strength + {margin})?"
    ),
    "prompt.new_region": "Several new Regions share the highest level: choose the one to enter.",
    "prompt.trap_region": "Choose the Region where {card} lies in wait.",
    "prompt.spoils": (
        "You won: take {other}'s Artifact {card}, or pass for a random Advantage from his hand."
    ),
    "prompt.discredit": "Discredit: make a choice.",
    "prompt.discredit.victim": "Discredit: choose whose Faction falls.",
    "prompt.discredit.pay": "Discredit: choose the Advantage you discard to strike {other}.",
    # the choices of a decision: one template per action type ({card} a card's name, {seat}
    # a seat id the renderer turns into a display name, {option} a card's printed option)
    "action.go": "Go to {card}",
    "action.explore_new": "Explore a new Region",
    "action.explore_new.discard": "Explore {card} (discard pile)",
    "action.rest": "Rest (+2/+2 next turn)",
    "action.play": "Play {card}",
    "action.ability": "Use {card}'s ability",
    "action.discard": "Discard {card}",
    "action.dismiss": "Dismiss {card}",
    "action.leave": "Leave {card}",
    "action.keep": "Lead with {card}",
    "action.drop": "Give back {card}",
    "action.take": "Take {card}",
    "action.remove": "Remove {card}",
    "action.block": "Discard {card} to block",
    "action.attack": "Attack {seat}",
    "action.offer": "Offer a trade to {seat}",
    "action.give": "Offer {card}",
    "action.ask": "Ask for {card}",
    "action.ask.hand": "Ask for an Advantage",
    "action.reward": "Reward: {reward}",
    "action.mission": "Attempt {card}",
    "action.pick": "{option}",
    "action.pick.idle": "{option} (changes nothing now)",
    "action.reveal_final": "Reveal the Final mission",
    "action.pass": "Pass",
    "action.done": "Done",
    "action.explore": "Explore",
    "action.skip": "Skip",
    "action.send": "Send the offer",
    "action.withdraw": "Withdraw",
    "action.accept": "Accept",
    "action.decline": "Decline",
    "action.hire_arcane": "Hire an Arcane character, discarding {card}",
    "action.fight": "Fight",
    "action.flee": "Flee (Speed check)",
    "action.yes": "Yes",
    "action.no": "No",
    "action.unknown": "{action}",
    "reward.advantage": ("Draw {n} Advantage", "Draw {n} Advantages"),
    "reward.hire": "Hire a character",
    "reward.remote_mission": "Attempt a mission from afar",
    "reward.discredit": "Discredit",
    "reward.special": "Special reward",
    "reward.unknown": "reward {index}",
    # the end of a game (engine.endings: one template per ending and per tie-break criterion)
    "ending.final_mission": "Final mission completed",
    "ending.crisis_won": "Crisis! challenge won",
    "ending.crisis_lost": "Crisis! lost by all (Omega breaks free)",
    "ending.last_player": "last player standing after the Crisis!",
    "ending.turn_cap": "turn limit reached (tie-break)",
    "ending.unknown": "the game is over",
    "ending.won": "🏆 {player} wins the game — {how}.",
    "ending.won.decided": "🏆 {player} wins the game — {how}, decided on {criterion}.",
    "ending.nobody": "🌑 Nobody wins — {how}.",
    "tiebreak.completed_missions": "completed missions",
    "tiebreak.final_mission_progress": "turns held on the Final mission",
    "tiebreak.characters": "characters in the party",
    "tiebreak.strength_speed": "party Strength + Speed",
    "tiebreak.die_roll": "a die roll",
    "tiebreak.score": "{criterion} **{score}**",
}


@dataclass(frozen=True)
class Message:
    """A sentence to say: its id in the catalog and its named arguments (``n`` chooses the
    singular or plural form of a counting message, and is an argument too)."""

    id: str
    args: Mapping[str, object] = field(default_factory=dict)
    n: int | None = None


def msg(id: str, /, **args: object) -> Message:
    """A :class:`Message`."""
    return Message(id, args)


def counted(id: str, n: int, /, **args: object) -> Message:
    """A :class:`Message` that counts: ``n`` chooses its form and is the argument ``{n}``."""
    return Message(id, {**args, "n": n}, n)


def say(message: Message) -> str:
    """The message in English, its arguments put in (a nested :class:`Message` said first)."""
    template = ENGLISH[message.id]
    if isinstance(template, tuple):
        template = template[0] if message.n == 1 else template[1]
    args = {k: say(v) if isinstance(v, Message) else v for k, v in message.args.items()}
    return template.format(**args)


def listing(items: list[str] | list[Message]) -> Message | str:
    """Items joined as a list ("A, B, C"), or ``nothing`` for none."""
    said = [say(i) if isinstance(i, Message) else i for i in items]
    if not said:
        return msg("word.nothing")
    joined = said[0]
    for item in said[1:]:
        joined = say(msg("word.list", first=joined, second=item))
    return joined
