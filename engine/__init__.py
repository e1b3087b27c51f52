"""The rules of Anima: pure, synchronous, deterministic. No Discord, no asyncio, no I/O
beyond reading ``cards.json``."""
