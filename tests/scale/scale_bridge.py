"""One Discord for many bot processes: SimCord's backend in the test's process (the *hub*),
reached by every worker process over a socket (the kill test of issue 24).

What is real and what is modelled:

- **Real**: each worker is a process of its own running the bot as ``anima-bot`` builds it
  (``bot.settings.load_settings`` from the environment: ``SHARD_COUNT``, ``SHARD_IDS``,
  ``DATABASE_URL``; ``bot.app.create_bot``: a ``ShardedAnimaBot``), with real discord.py
  (its HTTP client's requests and its gateway parsers), on the one real PostgreSQL database
  shared by every worker. It can be killed with ``SIGKILL`` at any instant.
- **SimCord, in one place**: Discord's state (servers, channels, messages, interactions) is
  the hub's one SimCord backend. A worker runs SimCord's own fakes (its ``FakeHTTPClient``
  and webhook adapter, its gateway feeding discord.py's parsers) on a copy of the backend's
  servers taken when the worker starts (the copy answers nothing but the connection's READY
  and GUILD_CREATE); every HTTP request the worker's discord.py makes is sent to the hub and
  run there by SimCord's router (:func:`serve_dispatch`), and its answer or Discord error
  sent back. An interaction created at the hub (a member's click or command) goes to the
  worker whose shards carry its server (a DM's: shard 0's), as Discord's gateway does.
- **Modelled**: Discord's ``enforce_nonce`` (``tests/bot/discord_nonces.py``; SimCord ignores
  nonces). Time: each worker moves SimCord's virtual clock with the wall clock (as the offline
  preview does), starting from the wall clock, so that every worker's ``utcnow()`` (the
  bot's deadlines in the shared database) is the same clock; the hub's clock stands still
  (it stamps messages; nothing of the test reads those stamps).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import logging
import os
import pickle
import socket
import struct
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import discord
import simcord
from simcord.backend.errors import BackendError
from simcord.http import router

log = logging.getLogger("anima.scale")

_HEADER = struct.Struct("!I")


# ---------------------------------------------------------------------- framing


def frame(message: Any) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


async def read_frame(reader: asyncio.StreamReader) -> Any:
    head = await reader.readexactly(_HEADER.size)
    return pickle.loads(await reader.readexactly(_HEADER.unpack(head)[0]))


def _recv_exactly(sock: socket.socket, n: int) -> bytes:
    chunks = []
    while n:
        chunk = sock.recv(n)
        if not chunk:
            raise ConnectionError("the hub closed the connection")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _files_out(files: list[Any]) -> list[tuple[str, bytes, str | None, bool]]:
    out = []
    for f in files:
        fp = f.fp
        fp.seek(0)
        out.append((f.filename, fp.read(), f.description, f.spoiler))
    return out


def _files_in(files: list[tuple[str, bytes, str | None, bool]]) -> list[discord.File]:
    return [
        discord.File(io.BytesIO(data), filename=name, description=description, spoiler=spoiler)
        for name, data, description, spoiler in files
    ]


# ---------------------------------------------------------------------- the hub


def shard_of_event(payload: dict[str, Any], shard_count: int) -> int:
    """The shard whose gateway carries an event (a DM's: shard 0), as Discord routes it."""
    guild_id = payload.get("guild_id")
    return 0 if guild_id is None else (int(guild_id) >> 22) % shard_count


class Hub:
    """The test's side: SimCord's environment (its backend is "Discord"), the socket the
    workers reach it on, and the interactions sent to the worker that runs their shard."""

    def __init__(self, env: simcord.Env, shard_count: int) -> None:
        self.env = env
        self.shard_count = shard_count
        self.port = 0
        self._server: asyncio.AbstractServer | None = None
        #: shard -> the event stream of the worker running it.
        self._workers: dict[int, asyncio.StreamWriter] = {}
        #: Events that found no live worker for their shard (a killed one's).
        self.undelivered = 0
        self.requests = 0
        env.backend.subscribers.append(self._forward)

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._forward in self.env.backend.subscribers:
            self.env.backend.subscribers.remove(self._forward)
        for writer in set(self._workers.values()):
            writer.close()
        if self._server is not None:
            self._server.close()

    def live(self, shards: list[int]) -> bool:
        """Whether a worker is connected for each of ``shards``."""
        return all(s in self._workers for s in shards)

    def snapshot(self) -> bytes:
        """The backend as a worker's copy starts from (its listeners left out)."""
        backend = copy.copy(self.env.backend)
        backend.subscribers = []
        backend.http_requests = []
        backend.transcript = []
        return pickle.dumps(backend, protocol=pickle.HIGHEST_PROTOCOL)

    def _forward(self, event: str, payload: Any) -> None:
        if event != "INTERACTION_CREATE":
            return  # the bot asks for no other event (the guilds intent: its copy's)
        writer = self._workers.get(shard_of_event(payload, self.shard_count))
        if writer is None or writer.is_closing():
            self.undelivered += 1
            return
        writer.write(frame(("event", event, payload)))

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            hello = await read_frame(reader)
            if hello[0] == "events":
                await self._events(hello[1], reader, writer)
            else:
                await self._dispatches(reader, writer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def _events(
        self, shards: list[int], reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        writer.write(frame(("snapshot", self.snapshot())))
        await writer.drain()
        for shard in shards:
            self._workers[shard] = writer
        try:
            await reader.read()  # until the worker's end
        finally:
            for shard in shards:
                if self._workers.get(shard) is writer:
                    del self._workers[shard]

    async def _dispatches(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            request = await read_frame(reader)
            writer.write(frame(self._dispatch(request)))
            await writer.drain()

    def _dispatch(self, request: dict[str, Any]) -> tuple[str, Any]:
        self.requests += 1
        try:
            result = router.dispatch(
                self.env.backend,
                request["method"],
                request["path"],
                json=request["json"],
                params=request["params"],
                files=_files_in(request["files"]),
                reason=request["reason"],
                message_content_access=request["message_content_access"],
            )
        except (router.RouteNotImplemented, router.UnsupportedField) as exc:
            return ("gap", str(exc))
        except BackendError as exc:
            return ("error", (exc.status, exc.code, str(exc.message)))
        return ("ok", result)


# ---------------------------------------------------------------------- a worker


class RemoteRouter:
    """A worker's SimCord router: each request sent to the hub and answered from there (a
    blocking call: the worker's event loop waits for the hub's answer, a local socket's
    round trip, as discord.py waits for Discord's)."""

    def __init__(self, port: int) -> None:
        self._sock = socket.create_connection(("127.0.0.1", port))
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock.sendall(frame(("dispatch",)))

    def dispatch(
        self,
        backend: Any,
        method: str,
        path: str,
        *,
        json: Any | None = None,
        params: dict[str, Any] | None = None,
        files: list[Any] | None = None,
        reason: str | None = None,
        message_content_access: bool = True,
    ) -> Any:
        request = {
            "method": method,
            "path": path,
            "json": json,
            "params": params,
            "files": _files_out(files or []),
            "reason": reason,
            "message_content_access": message_content_access,
        }
        self._sock.sendall(frame(request))
        size = _HEADER.unpack(_recv_exactly(self._sock, _HEADER.size))[0]
        kind, value = pickle.loads(_recv_exactly(self._sock, size))
        if kind == "ok":
            return value
        if kind == "gap":
            raise RuntimeError(value)
        status, code, message = value
        raise BackendError(status, code, message)


async def serve_worker(
    make_bot: Callable[[], discord.Client], port: int, shards: list[int]
) -> None:
    """A worker's life: take the hub's servers, run the bot on SimCord's fakes with every
    request sent to the hub, feed it the interactions of its shards, move its clock with the
    wall clock; until killed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(frame(("events", shards)))
    await writer.drain()
    kind, snapshot = await read_frame(reader)
    assert kind == "snapshot"
    backend = pickle.loads(snapshot)
    # Every worker's virtual clock reads the wall clock (see the module's doc).
    epoch = backend.clock._epoch
    backend.clock.elapsed = time.time() - epoch.timestamp()
    remote = RemoteRouter(port)
    router.dispatch = remote.dispatch  # type: ignore[assignment]
    bot = make_bot()
    env = simcord.Env(bot, strict_sync=False, check_errors=False, settle_timeout=30.0)
    env.backend = backend
    await env.start()
    print(f"worker {os.getpid()} ready: shards {shards}", flush=True)
    pump = asyncio.ensure_future(_pump(env))
    try:
        while True:
            kind, event, payload = await read_frame(reader)
            backend.emit(event, payload)
    finally:
        pump.cancel()


async def _pump(env: simcord.Env, every: float = 0.05) -> None:
    """Move the virtual clock to the wall clock, again and again."""
    epoch = datetime(2026, 1, 1, tzinfo=UTC).timestamp()
    while True:
        await asyncio.sleep(0)
        await _real_sleep(every)
        step = time.time() - epoch - env.backend.clock.elapsed
        if step <= 0:
            continue
        with contextlib.suppress(simcord.SetupError, TimeoutError):
            await env.advance_time(step)


async def _real_sleep(seconds: float) -> None:
    """Sleep on the wall clock (the loop's timers are SimCord's virtual ones)."""
    await asyncio.to_thread(time.sleep, seconds)
