"""A throwaway PostgreSQL 15 cluster for the storage tests (a pytest plugin, loaded by
``tests/conftest.py``).

The cluster is started the first time a test asks for it (the ``postgres_cluster`` session
fixture), in a temporary folder owned by the ``postgres`` user, on a free local port with its
unix socket in that folder (no TCP), trust authentication, and no fsync (a test database
needs no durability); it is stopped and its folder removed after the session. ``initdb``
and ``pg_ctl`` refuse to run as root: when the tests run as root (CI, this machine), they
run as ``postgres`` through ``runuser``.

Without the server (``POSTGRES_BIN`` has no ``initdb``): under ``CI=true`` the tests that
need it fail (CI must test both backends); elsewhere they are skipped, and the session ends
with one line saying how to enable them.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

#: Where Debian's PostgreSQL 15 server programs are (``apt-get install postgresql-15``).
POSTGRES_BIN = Path(os.environ.get("ANIMA_POSTGRES_BIN", "/usr/lib/postgresql/15/bin"))
#: The one line printed when the PostgreSQL tests were skipped.
HOW_TO_ENABLE = (
    "PostgreSQL tests skipped: PostgreSQL 15 is not installed "
    f"(no {POSTGRES_BIN}/initdb); install it to run the storage tests on both backends "
    "(Debian: apt-get install postgresql-15)."
)
#: Seconds to wait for the server to start or stop.
WAIT_S = 60


class PostgresCluster:
    """A PostgreSQL cluster in a folder of its own: :meth:`start`, :meth:`new_database`,
    :meth:`stop`. ``url(name)`` is the asyncpg/libpq address of one of its databases."""

    def __init__(self, root: Path, port: int, user: str | None) -> None:
        self.root = root
        self.data = root / "data"
        self.port = port
        #: The system user the server runs as (None: the current one).
        self.user = user
        self._names = itertools.count(1)

    @classmethod
    def create(cls) -> PostgresCluster:
        """A new, not yet started cluster (``initdb``) in a new temporary folder."""
        user = "postgres" if os.geteuid() == 0 else None
        # In /tmp when it is there: the postgres user must reach the folder (a TMPDIR of
        # root's own may not let it).
        shared = "/tmp" if user is not None and os.path.isdir("/tmp") else None
        root = Path(tempfile.mkdtemp(prefix="anima-pg-", dir=shared))
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        cluster = cls(root, _free_port(), user)
        cluster._run(
            "initdb",
            "--pgdata",
            str(cluster.data),
            "--auth",
            "trust",
            "--username",
            "postgres",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-sync",
        )
        return cluster

    def start(self, durable: bool = False) -> None:
        """Start the server; it listens on its unix socket only (in its folder). Not
        ``durable`` (the tests): no disk syncs at all; ``durable``: PostgreSQL's defaults
        (every commit synced), as a benchmark against a real server wants."""
        options = f"-p {self.port} -k {self.root} -c listen_addresses='' -c max_connections=50"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            "pg_ctl",
            "start",
            "--pgdata",
            str(self.data),
            "--wait",
            f"--timeout={WAIT_S}",
            "--log",
            str(self.root / "server.log"),
            "-o",
            options,
        )

    def stop(self) -> None:
        """Stop the server at once (its data is thrown away) and remove its folder."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "stop", "--pgdata", str(self.data), "--mode", "immediate", "--wait")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The address of one of the cluster's databases (its unix socket)."""
        return f"postgresql://postgres@/{database}?host={self.root}&port={self.port}"

    def psql(self, sql: str, database: str = "postgres") -> None:
        """Run one SQL command with ``psql`` (outside any transaction)."""
        self._run(
            "psql",
            "--no-psqlrc",
            "--quiet",
            "-v",
            "ON_ERROR_STOP=1",
            "--host",
            str(self.root),
            "--port",
            str(self.port),
            "--username",
            "postgres",
            "--dbname",
            database,
            "--command",
            sql,
        )

    def new_database(self) -> str:
        """A new empty database of the cluster: its name."""
        name = f"anima_{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        """Drop a database, closing what is still connected to it."""
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def _run(self, program: str, *args: str) -> None:
        command = [str(POSTGRES_BIN / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(
            command, cwd=self.root, capture_output=True, text=True, timeout=WAIT_S, check=False
        )
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, command, done.stdout, done.stderr)


def _free_port() -> int:
    """A local port nothing listens on now (the socket file is named after it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def installed() -> bool:
    """Whether the PostgreSQL server programs are there."""
    return (POSTGRES_BIN / "initdb").exists() and (POSTGRES_BIN / "pg_ctl").exists()


def in_ci() -> bool:
    """CI runs ``.ci/run`` with ``CI=true``: there both backends must be tested."""
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


_SKIPPED: list[str] = []


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """The session's PostgreSQL cluster, started on first use and stopped at the end."""
    if not installed():
        if in_ci():
            pytest.fail(f"CI=true and PostgreSQL 15 is not installed (no {POSTGRES_BIN}/initdb)")
        _SKIPPED.append(HOW_TO_ENABLE)
        pytest.skip(HOW_TO_ENABLE)
    cluster = PostgresCluster.create()
    try:
        cluster.start()
    except subprocess.CalledProcessError as exc:
        log = cluster.root / "server.log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        cluster.stop()
        pytest.fail(f"PostgreSQL did not start: {exc.stderr or exc}\n{tail}")
    try:
        yield cluster
    finally:
        cluster.stop()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line at the end when the PostgreSQL tests were skipped."""
    if _SKIPPED:
        terminalreporter.write_line(_SKIPPED[0], yellow=True)
