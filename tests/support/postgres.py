"""A throwaway PostgreSQL cluster from Debian's ``postgresql`` package, for real tests.

``postgres_cluster`` (session-scoped) runs ``initdb`` in a temporary folder owned by the
``postgres`` user (through ``runuser -u postgres --`` when the tests run as root: the
server refuses to run as root), starts it with ``pg_ctl`` on a free loopback port with
its unix socket in the same folder, and stops it by the postmaster's PID with
``pg_ctl stop -m fast`` at the end. ``postgres_url`` gives each test its own database
(``CREATE DATABASE``) and returns its ``postgresql://`` URL.

Without the programs the tests are skipped with one line (a failure under ``CI=true``;
see :mod:`tests.support.system`).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.processes import free_port
from tests.support.system import require_program

SUPERUSER = "postgres"
START_SECONDS = 60


@dataclass
class Cluster:
    """A running throwaway cluster: its folder, port and superuser URL."""

    root: Path
    port: int
    pg_ctl: Path
    as_postgres: list[str]

    @property
    def data(self) -> Path:
        """The cluster's data folder (``PGDATA``)."""
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        """The ``postgresql://`` URL of a database on this cluster (TCP on loopback)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def pid(self) -> int | None:
        """The postmaster's PID (first line of ``postmaster.pid``), if it is running."""
        pid_file = self.data / "postmaster.pid"
        try:
            return int(pid_file.read_text().splitlines()[0])
        except (OSError, ValueError, IndexError):
            return None

    def create_database(self, name: str | None = None) -> str:
        """Create a new empty database and return its URL."""
        import psycopg

        name = name or "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def run(self, argv: Sequence[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        """Run a PostgreSQL program as the ``postgres`` user."""
        return subprocess.run(  # type: ignore[call-overload, no-any-return]
            [*self.as_postgres, *argv], capture_output=True, text=True, check=False, **kwargs
        )

    def stop(self) -> None:
        """``pg_ctl stop -m fast``; SIGKILL the postmaster's PID if it will not stop."""
        pid = self.pid()
        if pid is None:
            return
        done = self.run([str(self.pg_ctl), "stop", "-D", str(self.data), "-m", "fast", "-w"])
        if done.returncode != 0 and self.pid() == pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _as_postgres() -> list[str]:
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.skip("running as root without runuser: cannot start PostgreSQL as postgres")
    return [runuser, "-u", SUPERUSER, "--"]


def start_cluster(root: Path, *, durable: bool = False) -> Cluster:
    """initdb and start a cluster under ``root`` on a free port (tries a few ports).

    Tests run it without fsync (a throwaway cluster need not survive a power cut);
    ``durable=True`` keeps PostgreSQL's defaults (fsync, synchronous commit), as a bench
    of commit costs needs.
    """
    initdb = require_program("initdb")
    pg_ctl = require_program("pg_ctl")
    as_postgres = _as_postgres()
    if as_postgres:
        shutil.chown(root, user=SUPERUSER, group=SUPERUSER)
    root.chmod(0o700)
    cluster = Cluster(root, 0, pg_ctl, as_postgres)
    done = cluster.run(
        [
            str(initdb),
            "-D",
            str(cluster.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            *([] if durable else ["--no-sync"]),
        ]
    )
    if done.returncode != 0:
        pytest.fail(f"initdb failed: {done.stderr[-2000:]}")
    for _attempt in range(3):
        cluster.port = free_port()
        options = (
            f"-c port={cluster.port} -c listen_addresses=127.0.0.1 "
            f"-c unix_socket_directories={root} -c max_connections=200"
        )
        if not durable:
            options += " -c fsync=off -c full_page_writes=off -c synchronous_commit=off"
        log = root / f"server-{cluster.port}.log"
        started = cluster.run(
            [
                str(pg_ctl),
                "start",
                "-D",
                str(cluster.data),
                "-l",
                str(log),
                "-o",
                options,
                "-w",
                "-t",
                str(START_SECONDS),
            ]
        )
        if started.returncode == 0:
            return cluster
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else started.stderr
        if "in use" not in tail.lower():
            pytest.fail(f"pg_ctl start failed: {tail}")
    pytest.fail("could not find a free port for PostgreSQL")


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """One throwaway cluster for the whole test session, stopped by PID at the end."""
    require_program("initdb")
    root = Path(tempfile.mkdtemp(prefix="oic-pg-"))
    cluster: Cluster | None = None
    try:
        cluster = start_cluster(root)
        yield cluster
    finally:
        if cluster is not None:
            cluster.stop()
            deadline = time.monotonic() + 30
            while cluster.pid() is not None and time.monotonic() < deadline:
                time.sleep(0.1)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    """A fresh, empty database on the session's cluster: its ``postgresql://`` URL."""
    return postgres_cluster.create_database()
