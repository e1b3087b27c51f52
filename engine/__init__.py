"""The rules of Anima: pure, synchronous, deterministic. No Discord, no asyncio, no I/O
beyond reading ``cards.json``.

This module is the engine's public face: what a front end (the bot, a tool) needs, in one
place. A game is a :class:`Game`: :meth:`Game.new` sets one up, :meth:`Game.apply` takes a
player's action and returns the :class:`Event`\\ s it caused (each says who may see it), and
every open decision is a :class:`Prompt`. What a seat may see comes as views
(:func:`seat_view`, :func:`table_view`, :class:`SeatView`...), what an event holds is declared
per kind (:data:`EVENT_PAYLOADS`), and a refused action raises :class:`IllegalAction` with its
:class:`Refusal` kind. The bot imports the engine only from here (an import-linter contract);
the rules themselves live in :mod:`engine.rules`, one module per concept.
"""

from engine.actions import Action, parse_action
from engine.agents import Agent, RandomAgent, choice_actions
from engine.agents.levels import DEFAULT_LEVEL, LEVELS, make_agent
from engine.cards import (
    AdvantageCard,
    Card,
    CardDB,
    CharacterCard,
    EncounterCard,
    FinalMissionCard,
    MissionCard,
    Objective,
    RegionCard,
    default_cards,
)
from engine.determinize import determinize
from engine.endings import ENDINGS, TIEBREAKS, Ending, Tiebreak
from engine.errors import GameDataError, IllegalAction, Refusal
from engine.event_kinds import EVENT_PAYLOADS
from engine.events import Event
from engine.game import Game
from engine.options import Options
from engine.prompts import PLAY_KINDS, Prompt, kind_text

# The keyed dice (docs/fair_dice.md): the commitment a front end posts before the game exists.
from engine.rng import commitment as dice_commitment

# The end of a forced choice's option that would change nothing now, as the engine's labels
# (and the ``choose`` event's ``label``) carry it: a front end words it itself.
from engine.rules.ops_flow import IDLE
from engine.tools.replay import (
    GameRecord,
    RecordedAction,
    ReplayError,
    load_record,
    record_from,
    replay_steps,
)
from engine.undo import UndoRefusal
from engine.views import (
    ACTION_LABELS,
    CharacterView,
    ChoiceData,
    ChoiceView,
    PartyView,
    PromptData,
    PromptView,
    PublicChoice,
    RegionView,
    SeatView,
    TableView,
    WaitingView,
    lazy_seat_view,
    reward_label,
    seat_view,
    table_view,
)

__all__ = [
    "ACTION_LABELS",
    "DEFAULT_LEVEL",
    "ENDINGS",
    "EVENT_PAYLOADS",
    "IDLE",
    "LEVELS",
    "PLAY_KINDS",
    "TIEBREAKS",
    "Action",
    "AdvantageCard",
    "Agent",
    "Card",
    "CardDB",
    "CharacterCard",
    "CharacterView",
    "ChoiceData",
    "ChoiceView",
    "EncounterCard",
    "Ending",
    "Event",
    "FinalMissionCard",
    "Game",
    "GameDataError",
    "GameRecord",
    "IllegalAction",
    "MissionCard",
    "Objective",
    "Options",
    "PartyView",
    "Prompt",
    "PromptData",
    "PromptView",
    "PublicChoice",
    "RandomAgent",
    "RecordedAction",
    "Refusal",
    "RegionCard",
    "RegionView",
    "ReplayError",
    "SeatView",
    "TableView",
    "Tiebreak",
    "UndoRefusal",
    "WaitingView",
    "choice_actions",
    "default_cards",
    "determinize",
    "dice_commitment",
    "kind_text",
    "lazy_seat_view",
    "load_record",
    "make_agent",
    "parse_action",
    "record_from",
    "replay_steps",
    "reward_label",
    "seat_view",
    "table_view",
]
