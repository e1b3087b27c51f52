"""The Discord layer around the engine, grouped by job (see docs/bot.md):

- ``app``          :class:`~bot.app.AnimaBot` composes the services; ``create_bot``, ``run_bot``.
- ``commands``     the ``/anima`` group (``server_commands``: settings, stats; ``privacy_commands``:
  what is kept about a member, deleted on request; ``translator``:
  the commands' words in every language); ``components`` the buttons, selects, views.
- ``lobby``        the lobby service (join, options, start); ``lobby_options`` its O/V codes.
- ``games``        the game service: a lock per game, load / apply / commit with a version
  check, AI seats, choices, card plays, panels, reclaim, end, recovery after a restart.
- ``timers``       deadlines: half-time pings, time-outs, AI takeovers; ``slow`` a slow game's
  pings and the table's vote on an absent member's seat, ``quiet`` members' quiet hours.
- ``publishing``   posting events and the board (``board``), pings, DMs and secret starts
  (``direct``), what a restart finds in the channel (``restart``).
- ``rendering``    the one renderer (a package, a module per thing drawn): engine views,
  prompts and events to text and embeds.
- ``table``        shared small types: Table, Reply, NoGame, GameBroken, seat bookkeeping.
- ``storage``      games, the log, settings and stats: schema and migrations, one transaction
  per write, one hop per transaction or read through ``database`` (SQLite through aiosqlite,
  the default, or PostgreSQL through asyncpg; the SQL that differs in ``storage.dialect``).
- ``settings``, ``rules`` (the rules digest for ``/anima rules``), ``preview`` (offline).
"""
