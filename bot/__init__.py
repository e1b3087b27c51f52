"""The Discord layer: commands, views, rendering, storage and timers around the engine."""
