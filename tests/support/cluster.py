"""Several ``oic-ai serve`` replicas behind HAProxy, over PostgreSQL and Redis (real parts).

``redis_server`` and ``haproxy`` start Debian's programs on free loopback ports, in the
foreground, and stop them by PID (process group) when the ``with`` block ends; without
the program the test skips with one line (a failure under ``CI=true``). ``replica``
starts one ``oic-ai serve`` with ``OIC_AI_DATABASE_URL`` and ``OIC_AI_REDIS_URL``.
The ``cluster_database`` fixture gives a test module its own database on the shared
PostgreSQL cluster and a folder, and adds users to it through the CLI.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.cli import cli_env, oic_json
from tests.support.postgres import Cluster
from tests.support.processes import free_port, http_ok, started
from tests.support.servers import Server, chroma_run, oic_serve
from tests.support.system import require_program


@dataclass(frozen=True)
class ClusterDatabase:
    """One test module's own database on the shared PostgreSQL cluster, and its folder."""

    root: Path
    url: str

    def add_user(self, name: str) -> str:
        """Add user ``name`` with ``oic-ai users add`` (a CLI in ``root/admin``); its token."""
        admin = cli_env(self.root / "admin", OIC_AI_DATABASE_URL=self.url)
        return str(oic_json("users", "add", name, env=admin)["token"])


@pytest.fixture(scope="module")
def cluster_database(
    postgres_cluster: Cluster,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> ClusterDatabase:
    """A fresh database for the module, with a folder named after the module."""
    folder = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    return ClusterDatabase(folder, postgres_cluster.create_database())


@contextmanager
def redis_server(root: Path) -> Iterator[str]:
    """``redis-server`` on a free loopback port, no persistence; yields its ``redis://`` URL."""
    program = require_program("redis-server")
    port = free_port()
    argv = [str(program), "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    argv += ["--appendonly", "no", "--dir", str(root)]
    log = root / "redis.log"
    with started(argv, env={}, log=log) as process:
        deadline = time.monotonic() + 30
        while "Ready to accept connections" not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"


def haproxy_config(port: int, backends: Sequence[str], admin: Path | None = None) -> str:
    """Round robin over ``backends`` (``http://HOST:PORT``), health-checked on ``/ok``.

    The servers are named ``r0``, ``r1``... in backend ``replicas``; with ``admin``, HAProxy
    takes commands (``disable server replicas/r0``) on that Unix socket.
    """
    lines = [
        "global",
        "    maxconn 512",
        *([f"    stats socket {admin} level admin"] if admin else []),
        "defaults",
        "    mode http",
        "    timeout connect 2s",
        "    timeout client 120s",
        "    timeout server 120s",
        # a replica busy with turns can be slow to answer /ok: 500 ms checks took the only
        # replica of bench/replicas.py out of the balancer (503s) on a loaded machine
        "    timeout check 3s",
        "    retries 2",
        "    option redispatch",
        "frontend oic",
        f"    bind 127.0.0.1:{port}",
        "    default_backend replicas",
        "backend replicas",
        "    balance roundrobin",
        "    option httpchk GET /ok",
        "    http-check send hdr Host localhost",
        "    default-server inter 1s fall 3 rise 1",
    ]
    for index, url in enumerate(backends):
        lines.append(f"    server r{index} {url.removeprefix('http://')} check")
    return "\n".join(lines) + "\n"


@contextmanager
def haproxy(root: Path, backends: Sequence[str]) -> Iterator[str]:
    """HAProxy in the foreground on a free loopback port; yields its ``http://`` URL.

    Its admin socket is ``root / "haproxy.sock"`` (see :func:`haproxy_command`).
    """
    program = require_program("haproxy")
    port = free_port()
    config = root / "haproxy.cfg"
    config.write_text(haproxy_config(port, backends, admin=root / "haproxy.sock"))
    with started([str(program), "-db", "-f", str(config)], env={}, log=root / "haproxy.log"):
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while not http_ok(url + "/ok"):
            if time.monotonic() > deadline:
                pytest.fail((root / "haproxy.log").read_text(errors="replace")[-2000:])
            time.sleep(0.1)
        yield url


def haproxy_command(root: Path, command: str) -> str:
    """Send one command to the HAProxy of :func:`haproxy` in ``root``; its answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(root / "haproxy.sock"))
        sock.sendall(command.encode() + b"\n")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    return answer.decode(errors="replace")


def replica(
    root: Path, database_url: str, redis_url: str, chroma_url: str, **env: str
) -> AbstractContextManager[Server]:
    """One ``oic-ai serve`` replica with its own data and working folder under ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    return oic_serve(
        root,
        OIC_AI_DATABASE_URL=database_url,
        OIC_AI_REDIS_URL=redis_url,
        OIC_AI_CHROMA_URL=chroma_url,
        **env,
    )


@dataclass
class Replicas:
    """What :func:`two_replicas` started: the services' URLs, the replicas, the balancer."""

    database_url: str
    redis_url: str
    chroma_url: str
    replicas: list[Server]
    balancer: str


@contextmanager
def two_replicas(
    root: Path,
    database_url: str,
    *,
    env: Mapping[str, str] | None = None,
) -> Iterator[Replicas]:
    """Redis, one ``chroma run``, replicas ``r0`` and ``r1`` (with ``env``) and HAProxy."""
    (root / "chroma").mkdir(exist_ok=True)
    with redis_server(root) as redis_url, chroma_run(root / "chroma") as chroma:
        with (
            replica(root / "r0", database_url, redis_url, chroma.url, **(env or {})) as r0,
            replica(root / "r1", database_url, redis_url, chroma.url, **(env or {})) as r1,
            haproxy(root, [r0.url, r1.url]) as balancer,
        ):
            yield Replicas(database_url, redis_url, chroma.url, [r0, r1], balancer)
