"""The kill test's harness: the worker processes (shard clusters) started, killed with
``SIGKILL`` and started again, and the members who play through the hub's SimCord
(:mod:`scale_bridge`), whose clicks are answered by whichever worker runs their shard."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).resolve().parent / "scale_worker.py"
#: Seconds a click waits for its answer (a killed worker gives none).
ANSWER_WAIT = 6.0


class Zygote:
    """The process that has imported the bot and forks the workers (:mod:`scale_worker`)."""

    def __init__(self, env: dict[str, str], count: int) -> None:
        environ = {
            **os.environ,
            **env,
            "SHARD_COUNT": str(count),
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(WORKER.parent), str(ROOT / "tests")]),
        }
        self.process = subprocess.Popen(
            [sys.executable, str(WORKER), "--zygote"],
            env=environ,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == b"zygote ready"

    def fork(self, shards: list[int], log: Path) -> int:
        """A new worker running ``shards``; its process id."""
        assert self.process.stdin is not None and self.process.stdout is not None
        line = f"{','.join(str(s) for s in shards)} {log}\n"
        self.process.stdin.write(line.encode())
        self.process.stdin.flush()
        return int(self.process.stdout.readline())

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@dataclass
class Worker:
    """One shard cluster: a process running ``shards``, forked by the zygote."""

    zygote: Zygote
    shards: list[int]
    log: Path
    pid: int = 0
    started_at: float = 0.0
    starts: int = 0
    kills: int = 0

    def start(self) -> None:
        self.pid = self.zygote.fork(self.shards, self.log)
        self.started_at = time.monotonic()
        self.starts += 1

    def kill(self) -> None:
        """``SIGKILL``: the process dies wherever it is, nothing cleaned up."""
        os.kill(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not _gone(self.pid) and time.monotonic() < deadline:
            time.sleep(0.005)
        self.kills += 1

    def stop(self) -> None:
        if self.pid and not _gone(self.pid):
            os.kill(self.pid, signal.SIGKILL)


@dataclass
class Clicks:
    """What the members' clicks got: answered (the worker acknowledged them) or not."""

    sent: int = 0
    answered: int = 0
    unanswered: int = 0
    #: (game, seat, prompt version, action) of each click answered as a choice made.
    chosen: list[tuple[int, str, int, str]] = field(default_factory=list)
    #: What each of those clicks was answered (debugging a failed check).
    answers: list[Any] = field(default_factory=list)


async def answered(result: simcord.InteractionResult, wait: float = ANSWER_WAIT) -> bool:
    """Wait (on the wall clock) for a click's answer; False if none came."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if result.acknowledged:
            # The answer's content may follow the acknowledgement: give it a moment.
            await asyncio.sleep(0.02)
            return True
        await asyncio.sleep(0.01)
    return False


async def appears(find: Any, wait: float = ANSWER_WAIT) -> Any:
    """What ``find()`` returns once it is not None (on the wall clock); None if it never is."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        found = find()
        if found is not None:
            return found
        await asyncio.sleep(0.02)
    return None


class Operations:
    """SimCord runs one operation (a click, a command) at a time: the games' players take
    turns to send theirs (each returns at once; its answer is waited for outside)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    async def click(
        self, actor: simcord.MemberActor, message: Any, custom_id: str
    ) -> simcord.InteractionResult:
        async with self._lock:
            return await actor.click(message, custom_id=custom_id)

    async def slash(
        self, actor: simcord.MemberActor, channel: simcord.ChannelHandle, name: str, **options: Any
    ) -> simcord.InteractionResult:
        async with self._lock:
            return await actor.slash(channel, name, **options)

    async def pick(
        self, actor: simcord.MemberActor, message: Any, custom_id: str, index: int
    ) -> simcord.InteractionResult | None:
        """Click the button ``custom_id`` or choose value ``index`` in the select holding it
        (``anima_sim.pick``, one operation at a time)."""
        from anima_sim import components as parts

        for c in parts(message):
            if c.type == "button" and c.custom_id == custom_id:
                return await self.click(actor, message, custom_id)
        for c in parts(message):
            if (
                c.type == "select"
                and str(index) in c.values
                and c.custom_id.startswith(custom_id.rsplit(":", 1)[0] + ":s")
            ):
                async with self._lock:
                    return await actor.select(message, [str(index)], custom_id=c.custom_id)
        return None


def components(message: Any) -> list[Any]:
    rows = getattr(message, "components", None) or []
    found = []
    for row in rows:
        found += list(getattr(row, "children", [row]))
    return found


def custom_ids(message: Any) -> list[str]:
    return [c.custom_id for c in components(message) if getattr(c, "custom_id", None)]


def newest_with(channel: simcord.ChannelHandle, prefix: str) -> Any | None:
    """The newest message of ``channel`` with a component whose custom_id starts with
    ``prefix``."""
    for message in reversed(channel.history()):
        if any(c.startswith(prefix) for c in custom_ids(message)):
            return message
    return None


def game_id_of(text: str) -> int | None:
    found = re.search(r"anima:lobby:(\d+):join", text)
    return int(found[1]) if found else None


def pick(rng: random.Random, options: list[Any]) -> Any:
    return options[rng.randrange(len(options))]
