"""A web page of another origin cannot read or change the sessions of a default server.

A default ``oic-ai serve`` (no users, no ``--allow-origin``) holds a session. Headless
Chromium opens a page served by another loopback server (another origin, as any web site
the user visits would be) whose script tries what an attacker's page would: read the
threads and the session list with ``fetch``, delete the thread, rename the session, and
start a run with a "simple" ``no-cors`` POST that needs no preflight. The browser gets
nothing it can read, and the server changed nothing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.loopback import LoopbackHandler, LoopbackServer
from tests.support.servers import GRAPH_ID, message

from .conftest import UiServer
from .driver import wait_until

ATTACK = """<!doctype html><meta charset="utf-8"><title>a page elsewhere</title>
<pre id="out">running</pre>
<script>
const target = %(target)s, thread = %(thread)s;
async function attempt(name, url, init) {
  try {
    const answer = await fetch(target + url, init);
    return [name, "read", answer.status, (await answer.text()).slice(0, 200)];
  } catch (error) {
    return [name, "blocked", String(error)];
  }
}
(async () => {
  const json = { "Content-Type": "application/json" };
  const results = [
    await attempt("search", "/threads/search", { method: "POST", headers: json, body: "{}" }),
    await attempt("state", `/threads/${thread}/state`, {}),
    await attempt("sessions", "/api/v1/sessions", {}),
    await attempt("delete", `/threads/${thread}`, { method: "DELETE" }),
    await attempt("rename", `/api/v1/sessions/${thread}`,
      { method: "PATCH", headers: json, body: JSON.stringify({ title: "owned" }) }),
    await attempt("run", `/threads/${thread}/runs`, { method: "POST", mode: "no-cors",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ assistant_id: %(graph)s, input: %(input)s }) }),
  ];
  document.getElementById("out").textContent = JSON.stringify(results);
})();
</script>
"""


class _Page(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        owner: AttackSite = self.owner
        self.send_bytes(200, owner.page.encode(), "text/html; charset=utf-8")


class AttackSite(LoopbackServer):
    """Another origin: serves the attacking page at every path."""

    handler = _Page

    def __init__(self, page: str) -> None:
        super().__init__()
        self.page = page


def _one_turn(url: str) -> str:
    async def run() -> str:
        from langgraph_sdk import get_client

        client = get_client(url=url)
        thread = await client.threads.create(graph_id=GRAPH_ID)
        await client.runs.wait(thread["thread_id"], GRAPH_ID, input=message("a minimal image"))
        return str(thread["thread_id"])

    return asyncio.run(run())


@pytest.fixture
def site(ui_server: UiServer) -> Iterator[tuple[AttackSite, str]]:
    thread = _one_turn(ui_server.server.url)
    page = ATTACK % {
        "target": json.dumps(ui_server.server.url),
        "thread": json.dumps(thread),
        "graph": json.dumps(GRAPH_ID),
        "input": json.dumps(message("add htop")),
    }
    with AttackSite(page) as running:
        yield running, thread


def _runs(url: str, thread: str) -> list[Any]:
    answer = httpx.get(f"{url}/threads/{thread}/runs", timeout=60)
    assert answer.status_code == 200
    runs: list[Any] = answer.json()
    return runs


def test_a_page_of_another_origin_cannot_read_or_change_sessions(
    ui_server: UiServer, site: tuple[AttackSite, str], browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    attack, thread = site
    url = ui_server.server.url
    assert attack.url.split(":")[-1] != url.split(":")[-1]  # another origin (port)
    before = httpx.get(f"{url}/threads/{thread}/state", timeout=60).json()
    runs_before = _runs(url, thread)
    browser.allowed_console += ["127.0.0.1", "CORS", "Failed to load"]
    browser.get(attack.url + "/")
    out = wait_until(
        browser,
        lambda d: (
            d.find_element(By.ID, "out").text not in ("", "running")
            and d.find_element(By.ID, "out").text
        ),
        "the page's attempts",
    )
    results = {entry[0]: entry for entry in json.loads(out)}
    for name in ("search", "state", "sessions", "delete", "rename"):
        assert results[name][1] == "blocked", results[name]
    # a no-cors answer is opaque: status 0, no body, whatever the server said
    assert results["run"][1:3] == ["read", 0] and results["run"][3] == ""
    assert thread not in out
    after = httpx.get(f"{url}/threads/{thread}/state", timeout=60)
    assert after.status_code == 200  # not deleted
    assert after.json()["values"] == before["values"]
    assert _runs(url, thread) == runs_before  # no run was started
    session = httpx.get(f"{url}/api/v1/sessions/{thread}", timeout=60).json()
    assert session["title"] != "owned"
