"""The page through HAProxy while the replica serving it changes (guarantee 5 of issue 24).

PostgreSQL, Redis, one ``chroma run`` and two ``oic-ai serve`` replicas (Aegra) behind
HAProxy, users in PostgreSQL. Headless Chromium loads ``/ui/`` from the balancer and
answers the token question. The first turn (create) is served with only replica ``r0`` in
the balancer; then, as in a rolling restart, ``r1`` is put back, ``r0`` is taken out
through HAProxy's admin socket and stopped (SIGTERM), and the same page, not reloaded,
refines the template through ``r1`` alone. The page shows both turns, the refined
template, and no console error; the server keeps both turns.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.cluster import (  # noqa: F401 (fixture)
    ClusterDatabase,
    cluster_database,
    haproxy_command,
    two_replicas,
)
from tests.support.postgres import postgres_cluster  # noqa: F401 (fixture)
from tests.support.processes import stop
from tests.support.servers import Server

from .page import ask, session_id, template_text
from .test_token import open_with_token


class Balanced:
    """The balancer's URL, its folder (admin socket), the replicas and alice's token."""

    def __init__(self, url: str, root: Path, replicas: list[Server], token: str) -> None:
        """Keep what the test needs."""
        self.url, self.root, self.replicas, self.token = url, root, replicas, token

    def only(self, name: str) -> None:
        """Let only replica ``name`` (``r0``, ``r1``) take new requests.

        As a rolling restart does it: ``name`` is enabled and waited for until the
        balancer's health check has it up, and only then are the others taken out, so no
        request meanwhile finds no replica (HAProxy's 503).
        """
        answer = haproxy_command(self.root, f"enable server replicas/{name}")
        assert answer.strip() == "", answer
        deadline = time.monotonic() + 60
        while not self._up(name):
            assert time.monotonic() < deadline, f"{name} never came up in the balancer"
            time.sleep(0.2)
        for index in range(len(self.replicas)):
            if f"r{index}" != name:
                answer = haproxy_command(self.root, f"disable server replicas/r{index}")
                assert answer.strip() == "", answer

    def _up(self, name: str) -> bool:
        """True when HAProxy's statistics show server ``name`` as UP."""
        rows = haproxy_command(self.root, "show stat").splitlines()
        header = rows[0].lstrip("# ").split(",") if rows else []
        for row in rows[1:]:
            fields = dict(zip(header, row.split(","), strict=False))
            if fields.get("pxname") == "replicas" and fields.get("svname") == name:
                return fields.get("status", "").startswith("UP")
        return False


@pytest.fixture(scope="module")
def balanced(
    cluster_database: ClusterDatabase,  # noqa: F811 (fixture)
) -> Iterator[Balanced]:
    """Two replicas behind HAProxy, one user (alice)."""
    root, token = cluster_database.root, cluster_database.add_user("alice")
    with two_replicas(root, cluster_database.url) as started:
        yield Balanced(started.balancer, root, started.replicas, token)


def test_the_page_creates_and_refines_while_the_replica_serving_it_changes(
    balanced: Balanced, browser: Any
) -> None:
    r0, _ = balanced.replicas
    balanced.only("r0")
    open_with_token(browser, balanced.url + "/ui/", balanced.token)
    first = ask(browser, "a minimal ubuntu 24.04 edge image for arm64 with docker")
    assert first in ("valid", "valid_with_warnings"), first
    assert "docker" in template_text(browser)

    balanced.only("r1")  # a rolling restart: r0 leaves the balancer, then stops
    stop(r0.process)
    assert httpx.get(balanced.url + "/ok", timeout=30).status_code == 200

    second = ask(browser, "add htop")
    assert second in ("valid", "valid_with_warnings"), second
    shown = template_text(browser)
    assert "htop" in shown and "docker" in shown
    thread = session_id(browser)
    state = httpx.get(
        f"{balanced.url}/threads/{thread}/state",
        headers={"Authorization": f"Bearer {balanced.token}"},
        timeout=60,
    )
    assert state.status_code == 200, state.text
    assert state.json()["values"]["turn"] == 2
