"""A member takes his last decision back (issue 25): the **Undo** button of his panel.

The engine decides whether he may (``Game.undo_refusal``: nothing random or hidden revealed
since, nobody else decided) and makes the game the replay of its actions minus his last; the
bot applies the action ``undo`` like any decision: one commit (the undo is a row of the
append-only action log, which every replay reads), the board and the panels updated, and the
public line ``event.undone`` after the line of the decision taken back.
"""

from __future__ import annotations

from bot.games.play import GamePlay, answering
from bot.refusals import refusal_text
from bot.storage import SeatRow
from bot.table import Reply, Table
from engine import IllegalAction, UndoRefusal
from words import msg, say

#: The words of each reason the engine gives (catalog ``commands.po``).
REFUSED = {
    UndoRefusal.NOTHING_TO_UNDO: "undo.refused.nothing_to_undo",
    UndoRefusal.NOT_YOUR_LAST: "undo.refused.not_your_last",
    UndoRefusal.OTHERS_DECIDED: "undo.refused.others_decided",
    UndoRefusal.RANDOMNESS_REVEALED: "undo.refused.randomness_revealed",
    UndoRefusal.HIDDEN_REVEALED: "undo.refused.hidden_revealed",
    UndoRefusal.GAME_OVER: "undo.refused.game_over",
}


class GameUndo(GamePlay):
    """The players' Undo."""

    @answering
    async def undo(self, game_id: int, user_id: int, version: int) -> Reply:
        """A click on **Undo**, drawn at the game's ``version``: refused with the engine's
        reason when he may no longer (a stale button), else applied and published."""
        async with self.lock(game_id):
            found = await self._running_player(game_id, user_id)
            if isinstance(found, Reply):
                return found
            table, seat = found
            # A click of a seated player resumes a paused game, as any choice does.
            return await self._resuming(table, seat, lambda: self._undo(table, seat, version))

    async def _undo(self, table: Table, seat: SeatRow, version: int) -> Reply:
        if seat.taken_over:
            return self._taken_over_reply(table)
        g = table.game
        why = g.undo_refusal(seat.seat)
        if why is not None:
            return await self._with_panel(table, seat, say(msg(REFUSED[why])))
        if version != g.version:  # drawn for an earlier decision of his
            return await self._with_panel(table, seat, say(msg("undo.stale")))
        seat.timeouts = 0
        try:
            await self.apply(table, seat.seat, "undo", "human")
        except IllegalAction as exc:
            return Reply(f"❌ {refusal_text(exc, table.names, g.db)}")
        await self.run_ai(table)
        await self.publisher.publish(table, actor=seat.seat)
        return await self._with_panel(table, seat, say(msg("undo.done")), ok=True)
