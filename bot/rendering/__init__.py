"""Text and embeds: the board, private hands, cards, choices, event batches, the lobby.

The one renderer of the bot: it turns the engine's views (:class:`~engine.views.TableView`,
:class:`~engine.views.SeatView`), prompt views and event payloads into Discord messages. What
is public is the engine's decision (a public view, a choice's ``public`` flag, a prompt's
``public_text``); nothing here reads a game's state.

The words of the engine's data (each event kind's message, a decision, a choice's label, the
ending, a card's name and kind) are :mod:`wording`'s, shared with the terminal; this package
draws them on Discord: seats by display name (:class:`Names`, the bot's
:class:`wording.SeatNames`), Markdown escaped, within Discord's limits, in embeds and
components.

One module per thing drawn: ``text`` (limits, colours, marks, escaping, seat names),
``cards``, ``choices``, ``prompts``, ``board``, ``ending`` (the end of a game), ``hand``
(private views), ``events`` (event lines, the log; the catalog ``messages``) and ``lobby``.
This package lists what the rest of the bot uses.

Every word is the catalogs' (:mod:`words`), said in the current language: the caller renders
inside :func:`words.speaking` (the game's public language for what the table reads, the
reader's own for a private panel or a DM: :mod:`bot.languages`).
"""

from bot.rendering.autopass import (
    autopass_description,
    autopass_kinds,
    autopass_label,
    window_tip,
)
from bot.rendering.board import (
    AI_AWAY,
    PAUSED_TEXT,
    V2_TEXT_LIMIT,
    ai_away,
    board_colour,
    board_embed,
    board_text,
    board_title,
    paused_text,
)
from bot.rendering.cards import (
    SET_NAMES,
    card_embed,
    card_kind,
    card_name,
    hand_choice_label,
    set_name,
    sets_text,
)
from bot.rendering.choices import (
    action_label,
    choice_label,
    choice_text,
    kind_message,
    option_card,
)
from bot.rendering.ending import Revealed, ending_text, revealed, summary_embed, summary_title
from bot.rendering.events import (
    channel_reason,
    chunk_lines,
    chunk_spans,
    event_line,
    event_lines,
    log_embed,
)
from bot.rendering.hand import hand_embed, start_embed
from bot.rendering.lobby import (
    SLOW_CHOICES,
    SLOW_VALUE,
    TIMER_CHOICES,
    about_text,
    ai_level_text,
    duration,
    lobby_embed,
)
from bot.rendering.prompts import prompt_text, waiting_text
from bot.rendering.text import (
    COLOR,
    CONTENT_LIMIT,
    EMBED_DESCRIPTION_LIMIT,
    LABEL_LIMIT,
    NAME_LIMIT,
    OPTION_LABEL_LIMIT,
    PLACEHOLDER_LIMIT,
    Names,
    at_time,
    clip,
    clip_lines,
    escape,
    plural,
    seat_names,
    without_rule_ids,
)

__all__ = [
    "AI_AWAY",
    "COLOR",
    "CONTENT_LIMIT",
    "EMBED_DESCRIPTION_LIMIT",
    "LABEL_LIMIT",
    "NAME_LIMIT",
    "OPTION_LABEL_LIMIT",
    "PAUSED_TEXT",
    "PLACEHOLDER_LIMIT",
    "SET_NAMES",
    "SLOW_CHOICES",
    "SLOW_VALUE",
    "TIMER_CHOICES",
    "V2_TEXT_LIMIT",
    "Names",
    "Revealed",
    "about_text",
    "action_label",
    "ai_away",
    "ai_level_text",
    "at_time",
    "autopass_description",
    "autopass_kinds",
    "autopass_label",
    "board_colour",
    "board_embed",
    "board_text",
    "board_title",
    "card_embed",
    "card_kind",
    "card_name",
    "channel_reason",
    "choice_label",
    "choice_text",
    "chunk_lines",
    "chunk_spans",
    "clip",
    "clip_lines",
    "duration",
    "ending_text",
    "escape",
    "event_line",
    "event_lines",
    "hand_choice_label",
    "hand_embed",
    "kind_message",
    "lobby_embed",
    "log_embed",
    "option_card",
    "paused_text",
    "plural",
    "prompt_text",
    "revealed",
    "seat_names",
    "set_name",
    "sets_text",
    "start_embed",
    "summary_embed",
    "summary_title",
    "waiting_text",
    "window_tip",
    "without_rule_ids",
]
