"""A finished game's history: what the end reveals (every leader and mission), the whole
public log as a Markdown file, the replay record (seed + every applied action, which
``anima replay FILE`` plays again, engine/tools/replay.py) and the replay page (one HTML file
that steps through the game in every seat's view, ``replay_viewer``; docs/replay.md).

Only for games that are no longer running (:data:`FINISHED`): the secrets, and the record
(from which anybody could rebuild every hidden card), are the table's only after the end.
The log is said in the current language (the caller's: the member who asked for it).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

import discord

import words
from bot import rendering
from bot.storage import EventRow, GameRow, SeatRow
from engine import Game, GameRecord, Options, RecordedAction, record_from
from replay_viewer import replay_page
from words import counted, msg, say

#: The statuses of a game that has ended (with a result, or stopped by its host).
FINISHED = ("over", "ended")

#: What Discord takes in one message's attachments: the replay page is left out of a history
#: that would pass it (none in practice: a game of 2,000 actions makes a page of 75 KiB).
ATTACHMENTS_LIMIT = 25 * 1024 * 1024

#: An action row of the log: (version, seat, action, source).
ActionRow = tuple[int, str, str, str]


def leaders(actions: Iterable[ActionRow]) -> dict[str, str]:
    """Each seat's leader: the character it kept at the start (S3: ``keep <card>``), not
    counting a ``keep`` the next action took back (``undo``, issue 25)."""
    out: dict[str, str] = {}
    rows = list(actions)
    for n, (_version, seat, action, _source) in enumerate(rows):
        kind, _, card = action.partition(" ")
        undone = n + 1 < len(rows) and rows[n + 1][2] == "undo"
        if kind == "keep" and card and seat not in out and not undone:
            out[seat] = card
    return out


def secrets(game: Game, actions: Sequence[ActionRow]) -> list[rendering.Revealed]:
    """Every seat's leader and missions; the caller checks that the game has ended."""
    table = game.table_view()
    hands = [game.seat_view(seat, sealed=False, table=table) for seat in table.seats]
    return rendering.revealed(hands, leaders(actions))


def record_of(game: Game, actions: Sequence[ActionRow]) -> GameRecord:
    """The replay record of ``game`` (checked: it replays to the stored state, X5)."""
    steps = [
        RecordedAction(player=seat, action=action, timeout=source == "timeout")
        for _version, seat, action, source in actions
    ]
    return record_from(game, steps)


def page_html(row: GameRow, seats: Sequence[SeatRow], record: GameRecord, game: Game) -> str:
    """The replay page of the game (its seats by display name), in the current language."""
    names = rendering.seat_names(seats)
    labels = {s.seat: names.label(s.seat) for s in seats}
    title = say(msg("replay.title.game", game=row.id))
    return replay_page(record, labels, title, game.db)


def log_markdown(
    row: GameRow,
    seats: Sequence[SeatRow],
    events: Sequence[EventRow],
    revealed: Sequence[rendering.Revealed],
    game: Game,
) -> str:
    """The whole public log of a game, turn by turn, then what its end revealed."""
    names = rendering.seat_names(seats)
    db = game.db
    view = game.table_view()
    players = ", ".join(names.of(s.seat) for s in seats)
    sets = rendering.sets_text(Options.model_validate(row.options).sets)
    lines = [
        f"# {say(msg('history.title', game=row.id, sets=sets))}",
        "",
        say(msg("history.players", players=players)),
    ]
    cap = Options.model_validate(row.options).turn_cap
    if cap:
        lines.append(say(counted("history.turn_limit", cap)))
    if view.over:
        lines.append(rendering.ending_text(view.winner, view.ending, names, _tiebreak(events)))
    else:
        lines.append(say(msg("history.no_result")))
    language = words.current()
    if language != words.SOURCE and words.catalog(language, cards=True):
        # Any language but English shows the cards in our translation: the log says so.
        lines.append(say(msg("history.our_translation")))
    lines += ["", f"## {say(msg('history.setup'))}", ""]
    for e in events:
        if e.recipients is not None:
            continue  # private events name hidden cards: never in the public log
        line = rendering.event_line(e, names, db)
        if e.kind == "turn":
            turn = say(msg("history.turn", turn=e.data.get("turn", "?")))
            lines += ["", f"## {turn}", ""]
        lines.append(f"- {line}")
    if revealed:
        lines += ["", f"## {say(msg('history.revealed'))}", ""]
        for r in revealed:
            lines.append(f"### {names.of(r.seat)}")
            if r.leader:
                leader = rendering.card_name(db, r.leader)
                lines.append(f"- {say(msg('history.leader', card=leader))}")
            for id, cards in (
                ("history.completed", r.completed),
                ("history.started", r.started),
                ("history.secret", r.secret),
            ):
                listed = ", ".join(rendering.card_name(db, c) for c in cards)
                lines.append(f"- {say(msg(id, cards=listed or say(msg('history.none'))))}")
    return "\n".join(lines) + "\n"


def _tiebreak(events: Sequence[EventRow]) -> str | None:
    over = next((e for e in reversed(events) if e.kind == "game_over"), None)
    return over.data.get("tiebreak") if over is not None else None


def files(
    row: GameRow,
    seats: Sequence[SeatRow],
    events: Sequence[EventRow],
    game: Game,
    actions: Sequence[ActionRow],
) -> list[discord.File]:
    """The history's attachments: the log (Markdown), the replay record (JSON) and the
    replay page (HTML, unless the three would pass :data:`ATTACHMENTS_LIMIT`)."""
    if row.status not in FINISHED:
        raise ValueError("the history of a game is shown only after its end")
    log = log_markdown(row, seats, events, secrets(game, actions), game).encode()
    record = record_of(game, actions)
    data = record.to_json().encode()
    page = page_html(row, seats, record, game).encode()
    out = [
        discord.File(io.BytesIO(log), filename=f"anima-game-{row.id}.md"),
        discord.File(io.BytesIO(data), filename=f"anima-game-{row.id}-replay.json"),
    ]
    if len(log) + len(data) + len(page) <= ATTACHMENTS_LIMIT:
        out.append(
            discord.File(
                io.BytesIO(page),
                filename=f"anima-game-{row.id}-replay.html",
                description=say(msg("replay.file")),
            )
        )
    return out
