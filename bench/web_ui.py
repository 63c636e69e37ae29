"""Browser UI figures: first streamed step after Send, a full builtin turn, page transfer size.

Goals (issue 25): the page ≤ 150 KB transferred on a first visit, the first step shown
≤ 300 ms after Send; the script prints whether each is met.

Starts a real ``oic-ai serve --no-browser`` (builtin planner, a temporary data folder and a
copy of the library, indexed first) on a free loopback port, drives Debian's headless
Chromium through chromedriver (no download), and prints a Markdown table:

- time from Send to the answer bubble (shown at once, before the server answers), to the
  first step the page shows from the stream (``window.oicTimings``, ``performance.now()``
  in the page), and to the end of the turn (the final state loaded);
- the same stream read without a browser (``http.client``): time to the run's ``metadata``
  event and to its first ``updates`` event, which separates the server's run start-up from
  the page;
- the page's transfer size on a first visit (Resource Timing ``transferSize`` of the
  document, its scripts and style, and the API calls the page makes while it loads).

Usage: ``python bench/web_ui.py [--turns N]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from _common import ROOT, percentile

from tests.browser.driver import chrome

REQUESTS = (
    "minimal ubuntu 24.04 raw image for x86_64 with htop",
    "edge image for arm64 on ubuntu 24.04 with docker",
    "debian 13 minimal raw image for x86_64 with curl",
    "azure linux 3 container host with podman",
    "minimal emt3 image with openssh",
)
REFINES = ("add vim", "hostname bench-01", "make the disk 8GiB")
PAGE_GOAL = 150 * 1024  # bytes transferred on a first visit (issue 25)
FIRST_STEP_GOAL_MS = 300


def free_port() -> int:
    """A loopback port that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(root: Path) -> tuple[subprocess.Popen[bytes], str, dict[str, str]]:
    """Index a copy of the library and start ``oic-ai serve`` on it; returns process and URL."""
    templates = root / "image-templates"
    shutil.copytree(ROOT / "image-templates", templates)
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("OIC_AI_", "OPENAI_", "OLLAMA_"))
    }
    env.update(
        PYTHONPATH=str(ROOT),
        OIC_AI_DATA_DIR=str(root / "data"),
        OIC_AI_TEMPLATES_DIR=str(templates),
        OIC_AI_PROVIDER="builtin",
        HF_HUB_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGGRAPH_NO_VERSION_CHECK="1",
        NO_PROXY="127.0.0.1,localhost",
    )
    oic = [sys.executable, "-m", "oic_ai"]
    subprocess.run([*oic, "index"], env=env, check=True, capture_output=True, cwd=root)
    port = free_port()
    log = (root / "serve.log").open("wb")
    process = subprocess.Popen(
        [*oic, "serve", "--no-browser", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=root,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while True:
        try:
            with opener.open(url + "/ui/", timeout=2) as answer:
                if answer.status == 200:
                    return process, url, env
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            raise SystemExit("oic-ai serve did not start:\n" + (root / "serve.log").read_text())
        time.sleep(0.2)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server's process group (by its PID)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(20)


def wait(driver: Any, script: str, limit: float = 120.0) -> Any:
    """Poll a JavaScript expression until it is truthy."""
    deadline = time.monotonic() + limit
    while True:
        value = driver.execute_script("return " + script)
        if value:
            return value
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {script}")
        time.sleep(0.01)


def browser_turn(driver: Any, text: str) -> tuple[float, float, float]:
    """Type a request, press Send; ms to the first streamed step, to the end, to the bubble."""
    from selenium.webdriver.common.by import By

    before = driver.execute_script("return window.oicTimings.turns")
    box = driver.find_element(By.CSS_SELECTOR, '[aria-label="Request"]')
    box.clear()
    box.send_keys(text)
    driver.find_element(By.CSS_SELECTOR, '[aria-label="Send"]').click()
    wait(driver, f"window.oicTimings.turns > {before} && !document.body.classList.contains('busy')")
    timings = driver.execute_script("return window.oicTimings")
    bubble = timings.get("bubble", 0.0) - timings["send"]
    return timings["firstStep"] - timings["send"], timings["done"] - timings["send"], bubble


def raw_stream(url: str, thread: str, text: str) -> tuple[float, float]:
    """ms to the run's metadata event and to its first updates event, without a browser."""
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=120)
    body = {"thread_id": thread, "if_exists": "do_nothing", "metadata": {"graph_id": "oic-ai"}}
    conn.request("POST", "/threads", json.dumps(body), {"Content-Type": "application/json"})
    conn.getresponse().read()
    run = {
        "assistant_id": "oic-ai",
        "input": {"messages": [{"role": "user", "content": text}]},
        "stream_mode": ["updates"],
    }
    start = time.perf_counter()
    conn.request(
        "POST",
        f"/threads/{thread}/runs/stream",
        json.dumps(run),
        {"Content-Type": "application/json"},
    )
    answer = conn.getresponse()
    metadata = first = 0.0
    for line in answer:
        if line.startswith(b"event: metadata") and not metadata:
            metadata = (time.perf_counter() - start) * 1000
        if line.startswith(b"event: updates") and not first:
            first = (time.perf_counter() - start) * 1000
    conn.close()
    return metadata, first


def transfer(driver: Any) -> dict[str, int]:
    """Bytes over the wire on this visit: the document, its assets, the API calls."""
    entries = driver.execute_script(
        "const nav = performance.getEntriesByType('navigation')[0];"
        "return [[nav.name, nav.transferSize, nav.decodedBodySize, 'document'],"
        " ...performance.getEntriesByType('resource').map("
        "   e => [e.name, e.transferSize, e.decodedBodySize, e.initiatorType])];"
    )
    assets = sum(e[1] for e in entries if "/ui/" in e[0])
    decoded = sum(e[2] for e in entries if "/ui/" in e[0])
    everything = sum(e[1] for e in entries)
    return {"assets": assets, "assets_decoded": decoded, "all": everything, "files": len(entries)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=len(REQUESTS), help="new sessions to run")
    args = parser.parse_args()
    chromium, chromedriver = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
    if not (chromium.exists() and chromedriver.exists()):
        raise SystemExit("Debian's chromium and chromium-driver are needed (make system-deps)")
    root = Path(tempfile.mkdtemp(prefix="oic-ai-bench-ui-"))
    process, url, _ = serve(root)
    first_steps: list[float] = []
    full: list[float] = []
    bubbles: list[float] = []
    refine_first: list[float] = []
    refine_full: list[float] = []
    try:
        with chrome(chromium, chromedriver, root / "profile", root / "driver.log") as driver:
            driver.get(url + "/ui/")
            wait(driver, "document.body.dataset.ready === 'true'")
            time.sleep(1.0)  # the page's first API calls (sessions, summary) settle
            size = transfer(driver)
            # one untimed turn warms the server (imports, the embedder)
            browser_turn(driver, REQUESTS[0])
            for index in range(args.turns):
                driver.find_element("id", "new-session").click()
                first, whole, bubble = browser_turn(driver, REQUESTS[index % len(REQUESTS)])
                first_steps.append(first)
                full.append(whole)
                bubbles.append(bubble)
                for refine in REFINES:
                    first, whole, bubble = browser_turn(driver, refine)
                    bubbles.append(bubble)
                    refine_first.append(first)
                    refine_full.append(whole)
        raw = [raw_stream(url, str(uuid.uuid4()), REQUESTS[i % 5]) for i in range(args.turns)]
    finally:
        stop(process)
        shutil.rmtree(root, ignore_errors=True)

    def row(name: str, values: list[float]) -> str:
        p50, p95 = statistics.median(values), percentile(values, 95)
        return f"| {name} | {len(values)} | {p50:.0f} | {p95:.0f} | {min(values):.0f} |"

    print("| figure (ms unless noted) | n | p50 | p95 | min |")
    print("|---|---|---|---|---|")
    print(row("Send → answer bubble on the page (browser)", bubbles))
    print(row("Send → first streamed step, create turn (browser)", first_steps))
    print(row("Send → turn done, create turn (browser)", full))
    print(row("Send → first streamed step, refine turn (browser)", refine_first))
    print(row("Send → turn done, refine turn (browser)", refine_full))
    print(row("POST runs/stream → metadata event (no browser)", [r[0] for r in raw]))
    print(row("POST runs/stream → first updates event (no browser)", [r[1] for r in raw]))
    print()
    print("| page transfer, first visit | bytes |")
    print("|---|---|")
    print(f"| /ui/ document, scripts and style (over the wire) | {size['assets']} |")
    print(f"| the same, decoded | {size['assets_decoded']} |")
    print(
        f"| everything the page loads, API calls included ({size['files']} requests) "
        f"| {size['all']} |"
    )
    print()
    every_first = first_steps + refine_first
    p95_first = percentile(every_first, 95)
    print(
        f"page ≤ {PAGE_GOAL // 1024} KB transferred: {size['all']:,} bytes, "
        f"{'met' if size['all'] <= PAGE_GOAL else 'NOT met'}"
    )
    print(
        f"first step ≤ {FIRST_STEP_GOAL_MS} ms after Send: p95 {p95_first:.0f} ms, "
        f"{'met' if p95_first <= FIRST_STEP_GOAL_MS else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
