"""Start a lobby's game: deal it (the engine's ``Game.new`` with the lobby's seed, the
server's dice seed and the members' own), open its thread if the lobby asked for one, choose
its pace and timers (a lobby that kept the server's default plays at the server's pace:
issue 26), save it, send the secret starts, let the AI seats choose theirs and post the
first board."""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING

from bot.lobby.outcome import CLOSED, LobbyOutcome
from bot.quiet import quiet_hours
from bot.refusals import refusal_message
from bot.storage import GameRow, NewEvent, SeatRow, StorageUnavailable
from bot.table import MIN_SEATS, Table, now, seat_update
from engine import Game, IllegalAction, Options
from words import counted, msg

if TYPE_CHECKING:
    from bot.lobby.service import Lobby

log = logging.getLogger("anima.lobby")


async def deal(lobby: Lobby, row: GameRow, seats: list[SeatRow]) -> LobbyOutcome:
    """Start ``row``'s game with ``seats`` (under the game's lock, by its host); a refusal
    (too few seats, sets and seats the engine refuses: the lobby stays as it was) or the
    lobby closed as started."""
    if len(seats) < MIN_SEATS:
        return LobbyOutcome(counted("lobby.too_few", MIN_SEATS))
    options = Options.model_validate(row.options)
    seed = lobby.fixed_seed if lobby.fixed_seed is not None else secrets.randbits(62)
    # A lobby opened before the dice were keyed has no server seed yet: it gets one now
    # (the board shows its commitment from the first turn).
    server_seed = row.dice_seed or lobby._server_seed()
    seat_seeds = {s.seat: s.dice_seed for s in seats if s.human and s.dice_seed}
    try:
        game = Game.new(
            [s.seat for s in seats],
            options,
            seed,
            lobby.games.cards,
            server_seed=server_seed,
            seat_seeds=seat_seeds if server_seed else None,
        )
    except IllegalAction as exc:
        # The engine's reason and its rule (G1: sets and player counts); the lobby
        # stays as it was, for the host to change the sets or the seats.
        return LobbyOutcome(msg("lobby.cannot_start", reason=refusal_message(exc)))
    settings = await lobby.storage.guild_settings(row.guild_id)
    closed = counted("lobby.started", len(seats))
    if row.in_thread:
        thread_id = await lobby.publisher.open_thread(row)
        if thread_id is None:
            closed = msg("lobby.started.here", started=closed)
        else:
            # The game belongs to its thread from now on: commands, buttons and
            # posts follow the game's channel id; the channel is free again.
            row.channel_id = thread_id
            await lobby.storage.update_game(row.id, channel_id=thread_id)
            closed = msg("lobby.started.thread", started=closed, thread=f"<#{thread_id}>")
    # A lobby that kept the server's default plays at the server's pace (issue 26).
    pace = row.pace or ("live" if row.decision_timer is not None else settings.pace)
    slow = pace == "slow"
    default_timer = settings.slow_timer if slow else settings.decision_timer
    decision_timer = row.decision_timer if row.decision_timer is not None else default_timer
    window_timer = settings.slow_window if slow else settings.window_timer
    row.decision_timer, row.window_timer, row.pace = decision_timer, window_timer, pace
    table = Table(row, {s.seat: s for s in seats}, game, settings)
    if slow:
        table.quiet = await quiet_hours(lobby.storage, (s.user_id for s in seats))
    t = now()
    for s in seats:
        prompt = game.prompt_for(s.seat)
        if prompt is not None:
            s.prompt_since = game.version
            table.set_deadline(s, prompt, t)
    opening = [NewEvent("setup", "", data={"players": [s.seat for s in seats]})]
    ok = await lobby.storage.start_game(
        row.id,
        game.to_json(),
        game.version,
        seed,
        decision_timer,
        window_timer,
        options.model_dump(),
        [seat_update(s) for s in seats],
        opening,
        t,
        pace=pace,
    )
    if not ok:
        return LobbyOutcome(CLOSED)
    row.status, row.state_json, row.version, row.seed = "running", "", 0, seed
    await lobby.pickers.close(row.id)
    lobby.games.keep(row.id, game)
    try:
        # The secret start goes out before the AI moves, while the offers are all there.
        await lobby.publisher.send_starts(table)
        await lobby.games.run_ai(table)
        await lobby.publisher.publish(table)
    except StorageUnavailable:
        # The game is dealt and saved: the lobby says it started. What could not be
        # saved after (a delivered mark, the AI's first moves) is taken up again from
        # the stored game (its next load, or the recovery at the next start).
        log.warning("game %s: started, but what followed could not be saved", row.id)
        lobby.games.drop(row.id)
    return LobbyOutcome(row=row, seats=seats, closed=closed, default_timer=settings.decision_timer)
