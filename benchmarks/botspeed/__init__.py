"""The parts of ``benchmarks/bot_speed.py`` (its entry point and ``run``).

- :mod:`botspeed.measure`: the hooks (:class:`~botspeed.measure.Probe`), one record per
  interaction, the memory of a live game, the flow of a game replayed from its log;
- :mod:`botspeed.driver`: the games set up and played through SimCord
  (:class:`~botspeed.driver.Bench`);
- :mod:`botspeed.report`: the text report and the ``--json`` figures, against the targets.
"""
