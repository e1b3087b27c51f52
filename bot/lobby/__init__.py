"""The lobby service: open a lobby, join, leave, add AI players, set the options (codes in
:mod:`bot.lobby_options`), cancel, and start: deal the game, send the secret starts, let AI
seats choose theirs, post the first board.

Lobby changes run under the same per-game lock as the game they become
(:class:`bot.games.service.Games`).

A lobby never blocks its channel for ever: ``/anima start`` answers (defers) before it writes
the lobby, and a lobby whose message was never posted (a failed answer, a crash) or that
nobody changed for ``ANIMA_LOBBY_IDLE`` seconds expires when somebody opens a new one there.

A lobby speaks its game's language (``games.language``, a lobby option whose default is the
server's, :func:`bot.languages.server_language`). The service words nothing itself: it
answers with messages of the catalogs (:class:`LobbyOutcome`), which the one who shows them
says in the reader's language (a refusal) or the lobby's (the lobby message).
"""

from bot.lobby.outcome import CANNOT_SAVE, CLOSED, LobbyOutcome
from bot.lobby.service import LOBBY_IDLE, UNPOSTED_GRACE, Lobby

__all__ = ["CANNOT_SAVE", "CLOSED", "LOBBY_IDLE", "UNPOSTED_GRACE", "Lobby", "LobbyOutcome"]
