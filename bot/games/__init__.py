"""The game service: per-game locks, load / apply / commit with a version check, AI seats,
the players' clicks and commands (choose, play a card, panels, take a seat back, end a game),
broken games, and the catch-up after a restart.

The rule of the house: every change to a running game happens under that game's lock
(:meth:`~bot.games.cache.GameCache.lock`), and is committed before anything is posted
(:mod:`bot.publishing`). Buttons (:mod:`bot.components`) and slash commands
(:mod:`bot.commands`) both come through here.

One transaction per change (issue 10): :meth:`~bot.games.turns.GameTurns.apply` changes the
game in memory and queues the action and its events; :meth:`~bot.games.turns.GameTurns.commit`
(called by :meth:`~bot.games.turns.GameTurns.run_ai` once the AI seats and the auto-passes
have answered) writes the new state, every queued action and event, the seats' bookkeeping and
the publish pointer of the previous post in one transaction; the events are then posted from
memory. A loaded game (its row, seats and game) stays cached while it runs; the cache is an
LRU with a size bound (:data:`~bot.games.cache.CACHE_SIZE`) and a finished game leaves it when
its lock is released. Any error inside a game's lock drops its cached copy: nothing
half-applied stays in memory, the next load starts again from the last commit (and looks in
the channel for what was already posted: see :meth:`bot.publishing.Publisher.reconcile`).

Every stored row is read inside the game's own isolation: a row that cannot be read marks its
game broken (told in its channel once), never the others; ``/anima end`` clears any game.

The modules, one job each, are the layers of the one service (each class extends the one
below it): :mod:`~bot.games.cache` (locks, the cache, loading, broken games),
:mod:`~bot.games.turns` (applying, committing, the AI seats and auto-passes, pause and
resume), :mod:`~bot.games.play` (the players' requests) and :mod:`~bot.games.service`
(:class:`~bot.games.service.Games`, one per bot: what the commands show, the end of a game,
the catch-up after a restart).
"""
