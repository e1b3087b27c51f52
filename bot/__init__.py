"""The Discord layer: commands, views, rendering, storage and timers around the engine.

- ``storage``  SQLite (aiosqlite, WAL): schema and migrations, games, seats, the append-only
  action/event log, per-server settings, stats. One transaction per accepted action.
- ``session``  the :class:`~bot.session.GameManager`: a lock per game, load / apply / commit
  with a version check, AI seats, timers, broken games, publishing to Discord.
- ``render``   the board, private hands, cards, choice labels, event batches, the lobby; and
  what may be public (no hidden card in any public text, label or custom_id).
- ``views``    the buttons and select menus, all ``DynamicItem`` s (they survive restarts).
- ``commands`` the ``/anima`` group; ``rules`` reads the rules digest for ``/anima rules``.
- ``app``      :class:`~bot.app.AnimaBot`, ``create_bot`` and ``run_bot``.
"""
