"""Tools built on the engine: the scenario runner, the simulator and the ``anima`` CLI."""
