"""A real ``oic-ai serve --no-browser`` on a free loopback port, driven by ``langgraph_sdk``.

The server runs from a folder outside the checkout (its configuration comes from module
paths, not from ``langgraph.json``), with the builtin planner and its own data folder.
It serves the page, the REST API and the threads and runs API in one process; its
sessions are the CLI's. It is stopped by its process group, also when a test fails.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import OUR_TEMPLATES
from tests.support.cli import cli_env, oic_json
from tests.support.processes import free_port, http_ok, log_tail, started, stop
from tests.support.servers import GRAPH_ID, message

pytestmark = pytest.mark.integration

MINIMAL = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"
STARTUP_SECONDS = 90.0
CREATE = "a minimal ubuntu 24.04 edge image for arm64 with docker"


class Serve:
    """A running ``oic-ai serve``: its URL, process, log, environment and folders."""

    def __init__(self, url: str, process: subprocess.Popen[Any], log: Path, env: dict[str, str]):
        self.url, self.process, self.log, self.env = url, process, log, env

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(self.url + path, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as failed:
            return failed.code, json.loads(failed.read())


def _wait_for_line(serve: Serve, line: str) -> float:
    """Seconds until ``line`` is in the log; fail if the process ends or it takes too long."""
    start = time.monotonic()
    while time.monotonic() - start < STARTUP_SECONDS:
        if line in serve.log.read_text(errors="replace"):
            return time.monotonic() - start
        if serve.process.poll() is not None:
            pytest.fail(f"serve exited with {serve.process.returncode}:\n{log_tail(serve.log)}")
        time.sleep(0.1)
    pytest.fail(f"serve did not print {line!r} in {STARTUP_SECONDS:.0f}s:\n{log_tail(serve.log)}")


def _serve(root: Path, name: str) -> Iterator[Serve]:
    """Start ``oic-ai serve`` in ``root`` (outside the checkout) until it prints its URL."""
    root.mkdir(parents=True, exist_ok=True)
    templates = root / "image-templates"
    templates.mkdir(exist_ok=True)
    for path in sorted(OUR_TEMPLATES.glob("*.yml"))[:6] + [MINIMAL]:
        (templates / path.name).write_text(path.read_text())
    env = cli_env(
        root / "data",
        OIC_AI_PROVIDER="builtin",
        OIC_AI_TEMPLATES_DIR=str(templates),
    )
    for attempt in range(3):
        port = free_port()
        log = root / f"{name}-{attempt}.log"
        argv = [sys.executable, "-m", "oic_ai", "serve", "--no-browser", "--port", str(port)]
        with started(argv, env=env, log=log, cwd=root) as process:
            serve = Serve(f"http://127.0.0.1:{port}", process, log, env)
            deadline = time.monotonic() + STARTUP_SECONDS
            while time.monotonic() < deadline and process.poll() is None:
                if f"serving on http://127.0.0.1:{port}/ui/" in log.read_text(errors="replace"):
                    break
                time.sleep(0.1)
            if process.poll() is not None and "is taken" in log.read_text():
                continue  # lost the race for the port: try another
            _wait_for_line(serve, f"serving on http://127.0.0.1:{port}/ui/")
            yield serve
            return
    pytest.fail("could not find a free port for oic-ai serve")


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    yield from _serve(tmp_path_factory.mktemp("serve"), "serve")


def test_it_prints_its_url_once_ready_and_serves_the_page(serve: Serve) -> None:
    lines = serve.log.read_text().splitlines()
    announced = [line for line in lines if line.startswith("serving on ")]
    assert announced == [f"serving on {serve.url}/ui/"]
    status, headers, body = serve.get("/ui/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert headers["cache-control"] == "no-cache" and b"<html" in body.lower()
    assert http_ok(serve.url + "/ok")
    assert not (Path(serve.env["OIC_AI_DATA_DIR"]).parent / "langgraph.json").exists()


def test_the_rest_api_answers_beside_the_langgraph_api(serve: Serve) -> None:
    status, report = serve.post("/api/v1/validate", {"template": MINIMAL.read_text()})
    assert (status, report["valid"]) == (200, True)
    status, _, body = serve.get("/api/v1/templates")
    names = {t["name"] for t in json.loads(body)["templates"]}
    assert status == 200 and MINIMAL.stem in names
    status, _, body = serve.get("/api/v1/search?q=minimal%20ubuntu%20raw&top_k=2")
    results = json.loads(body)["results"]
    assert status == 200 and 1 <= len(results) <= 2
    assert results[0]["template"] == MINIMAL.name
    status, found = serve.post("/api/v1/packages/check", {"template": MINIMAL.read_text()})
    assert status == 200 and found["checked"] is False
    status, refused = serve.post("/api/v1/templates", {"name": "../x", "template": "a: 1"})
    assert status == 422 and "template name" in refused["error"]
    status, _, info = serve.get("/info")  # a standard LangGraph route, same process
    assert status == 200 and json.loads(info)


async def _stream(url: str, thread_id: str, payload: dict[str, Any]) -> list[str]:
    """Create the thread if new, stream one run's updates; the nodes in order."""
    from langgraph_sdk import get_client

    client = get_client(url=url)
    await client.threads.create(thread_id=thread_id, if_exists="do_nothing")
    nodes: list[str] = []
    async for part in client.runs.stream(
        thread_id, GRAPH_ID, input=payload, stream_mode=["updates"]
    ):
        if part.event == "updates" and isinstance(part.data, dict):
            nodes.extend(part.data)
    return nodes


async def _values(url: str, thread_id: str) -> dict[str, Any]:
    from langgraph_sdk import get_client

    state = await get_client(url=url).threads.get_state(thread_id)
    return dict(state["values"])


def test_turns_stream_their_steps_and_are_cli_sessions(serve: Serve) -> None:
    thread = str(uuid.uuid4())
    nodes = asyncio.run(_stream(serve.url, thread, message(CREATE)))
    assert nodes[:3] == ["classify", "retrieve", "generate"] and nodes[-1] == "respond"
    assert "validate" in nodes and "verify_packages" in nodes
    created = asyncio.run(_values(serve.url, thread))
    assert created["status"] in ("valid", "valid_with_warnings") and created["sources"]

    # the editor's Apply: validated, package-checked and recorded, no planning
    edited = created["template"].replace("systemConfig:", "# by hand\nsystemConfig:", 1)
    payload = {**message("apply my edit"), "template_edit": edited}
    nodes = asyncio.run(_stream(serve.url, thread, payload))
    assert nodes == ["classify", "apply_edit", "validate", "verify_packages", "respond"]
    values = asyncio.run(_values(serve.url, thread))
    assert values["template"] == edited and values["turn"] == 2
    assert values["changes"][0].startswith("applied your edit")
    assert values.get("template_edit") is None

    # an invalid edit is reported, and the session keeps its last good template
    bad = {**message("apply my edit"), "template_edit": edited.replace("arch:", "arch: sparc #")}
    asyncio.run(_stream(serve.url, thread, bad))
    values = asyncio.run(_values(serve.url, thread))
    assert values["status"] == "invalid" and values["template"] == edited

    # "use as starting point" on a new thread
    start = str(uuid.uuid4())
    seed = {
        **message(f"start from {MINIMAL.stem}"),
        "template_edit": MINIMAL.read_text(),
        "template_origin": MINIMAL.stem,
    }
    assert asyncio.run(_stream(serve.url, start, seed))[1] == "apply_edit"
    assert asyncio.run(_values(serve.url, start))["base_template"] == MINIMAL.stem

    # the same sessions, seen from the CLI and from the REST API
    listed = oic_json("sessions", "list", env=serve.env)["sessions"]
    by_id = {s["id"]: s for s in listed}
    assert by_id[thread]["turns"] == 3 and by_id[start]["turns"] == 1
    shown = oic_json("sessions", "show", thread, env=serve.env)
    assert shown["state"]["template"] == edited
    status, _, body = serve.get("/api/v1/sessions")
    assert {s["id"] for s in json.loads(body)["sessions"]} == set(by_id)


def test_sigterm_stops_it_cleanly_and_ctrl_c_exits_130(tmp_path: Path) -> None:
    for sig, code in ((signal.SIGTERM, 0), (signal.SIGINT, 130)):
        runs = _serve(tmp_path / sig.name, sig.name)
        serve = next(runs)
        serve.process.send_signal(sig)
        assert serve.process.wait(30) == code, log_tail(serve.log)
        with pytest.raises(ProcessLookupError):  # nothing of its process group is left
            os.killpg(serve.process.pid, 0)
        assert "Traceback" not in serve.log.read_text()
        assert not http_ok(serve.url + "/ok")
        stop(serve.process)
        runs.close()


def test_ctrl_c_during_start_up_stops_it(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    argv = [sys.executable, "-m", "oic_ai", "serve", "--no-browser", "--port", str(free_port())]
    log = tmp_path / "early.log"
    with started(argv, env=env, log=log, cwd=tmp_path) as process:
        time.sleep(2.0)  # importing the server, or just started
        process.send_signal(signal.SIGINT)
        # 130, or (rarely, when the interrupt lands in an import's clean-up at exit) death by
        # SIGINT, which a shell also reports as 130
        assert process.wait(60) in (130, -signal.SIGINT), log_tail(log)
    assert "Traceback" not in log.read_text(), log_tail(log)


def test_langgraph_dev_serves_the_same_page_and_api(tmp_path: Path) -> None:
    from tests.support.servers import langgraph_dev

    with langgraph_dev(tmp_path) as dev:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(dev.url + "/ui/", timeout=30) as page:
            assert page.status == 200 and page.headers["cache-control"] == "no-cache"
        with opener.open(dev.url + "/api/v1/sessions", timeout=30) as sessions:
            assert json.loads(sessions.read()) == {"sessions": []}


def test_without_no_browser_it_opens_the_page_in_the_browser(tmp_path: Path) -> None:
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"  # $BROWSER is what Python's webbrowser runs first
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(0o755)
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin", BROWSER=str(browser))
    env["DISPLAY"] = ":0"
    port = free_port()
    argv = [sys.executable, "-m", "oic_ai", "serve", "--port", str(port)]
    log = tmp_path / "browser.log"
    with started(argv, env=env, log=log, cwd=tmp_path) as process:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not (opened.exists() and opened.read_text().strip()):
            assert process.poll() is None and time.monotonic() < deadline, log_tail(log)
            time.sleep(0.1)
        assert opened.read_text().strip() == f"http://127.0.0.1:{port}/ui/"
        assert f"serving on http://127.0.0.1:{port}/ui/" in log.read_text()
