"""A worker of the kill test (``tests/scale/test_kill.py``): the bot as ``anima-bot`` builds it
from the environment (``SHARD_COUNT``, ``SHARD_IDS``, ``DATABASE_URL``, the ``ANIMA_*``
settings), its Discord the hub's SimCord reached over a socket (``ANIMA_HUB_PORT``; see
:mod:`scale_bridge`); it runs until killed.

``python tests/scale/scale_worker.py --zygote`` imports the bot once and then forks a worker
for each line ``SHARD_IDS LOG`` read on its input, printing the worker's process id (as a
preforking server does: a worker killed with ``SIGKILL`` is back in a fraction of a second,
so that a test of ~90 s can kill one over a hundred times). Each worker is a process of its
own: nothing of it survives its kill but what it wrote to the database and to "Discord".
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import discord
from scale_bridge import serve_worker

from bot.app import create_bot, tune_gc
from bot.settings import load_settings
from engine import default_cards


def main() -> int:
    """One worker: the bot of the environment's settings on the hub's Discord."""
    settings = load_settings(None)
    logging.basicConfig(level=settings.log_level_number, stream=sys.stderr)
    port = int(os.environ["ANIMA_HUB_PORT"])

    def make() -> discord.Client:
        bot = create_bot(settings)
        tune_gc()
        return bot

    asyncio.run(serve_worker(make, port, list(settings.shards)))
    return 0


def zygote() -> int:
    """Fork a worker per input line ``SHARD_IDS LOG``; print its process id."""
    default_cards()  # loaded once, before the forks
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the killed workers
    print("zygote ready", flush=True)
    for line in sys.stdin:
        shards, log = line.strip().split(" ", 1)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.environ["SHARD_IDS"] = shards
            try:
                code = main()
            except BaseException:
                logging.exception("worker failed")
                code = 1
            os._exit(code)
        print(pid, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(zygote() if "--zygote" in sys.argv else main())
