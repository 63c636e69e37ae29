"""``oic-ai serve``: start-up to ready, and the REST API's latency over real HTTP.

Starts ``python -m oic_ai serve --no-browser`` on a free loopback port with a fresh data
folder (the bundled library, builtin planner), and measures:

- start-up: from spawning the process to the ``serving on ...`` line (``/ok`` answered);
- ``POST /api/v1/validate`` with a 151-line template, and ``GET /api/v1/search`` for a
  request, each ``--requests`` times one after another (the first search, which embeds
  the library into a fresh index, is reported on its own);
- ``GET /api/v1/templates`` and ``GET /ui/``.

Usage: python bench/serve.py [--requests N] [--starts N]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

from _common import ROOT, percentile

TEMPLATE = ROOT / "image-templates" / "ubuntu24-aarch64-edge-container-raw.yml"
QUERIES = [
    "minimal ubuntu edge image with docker",
    "azure linux cloud vm qcow2",
    "debian installer iso for x86_64",
    "edge gateway arm64 with monitoring",
]
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(data: Path, log: Path) -> tuple[subprocess.Popen[bytes], str, float]:
    port = free_port()
    env = {
        **os.environ,
        "OIC_AI_DATA_DIR": str(data),
        "OIC_AI_PROVIDER": "builtin",
        "PYTHONPATH": str(ROOT),
    }
    began = time.perf_counter()
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "oic_ai", "serve", "--no-browser", "--port", str(port)],
            cwd=data.parent,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    while f"serving on {url}/ui/" not in log.read_text(errors="replace"):
        if process.poll() is not None or time.perf_counter() - began > 180:
            raise SystemExit(f"serve did not start:\n{log.read_text()[-2000:]}")
        time.sleep(0.01)
    return process, url, time.perf_counter() - began


def stop(process: subprocess.Popen[bytes]) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(60)


def timed(request: urllib.request.Request | str) -> float:
    began = time.perf_counter()
    with OPENER.open(request, timeout=120) as answer:
        answer.read()
        assert answer.status == 200
    return time.perf_counter() - began


def row(label: str, times: list[float]) -> str:
    p50, p95 = percentile(times, 50) * 1000, percentile(times, 95) * 1000
    return f"| {label} | {len(times)} | {p50:.1f} | {p95:.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    body = json.dumps({"template": TEMPLATE.read_text()}).encode()
    with tempfile.TemporaryDirectory() as tmp:
        startups = []
        for attempt in range(args.starts):
            data = Path(tmp) / f"run{attempt}" / "data"
            data.mkdir(parents=True)
            process, url, seconds = start(data, data.parent / "serve.log")
            startups.append(seconds)
            if attempt < args.starts - 1:
                stop(process)
        try:
            first_search = timed(f"{url}/api/v1/search?q={urllib.parse.quote(QUERIES[0])}")
            validate = [
                timed(
                    urllib.request.Request(
                        f"{url}/api/v1/validate",
                        data=body,
                        headers={"Content-Type": "application/json"},
                    )
                )
                for _ in range(args.requests)
            ]
            search = [
                timed(f"{url}/api/v1/search?q={urllib.parse.quote(QUERIES[i % len(QUERIES)])}")
                for i in range(args.requests)
            ]
            listing = [timed(f"{url}/api/v1/templates") for _ in range(max(10, args.requests // 5))]
            page = [timed(f"{url}/ui/") for _ in range(max(10, args.requests // 5))]
        finally:
            stop(process)
    print(f"start-up to ready (spawn to 'serving on'), {args.starts} cold starts: ", end="")
    print(", ".join(f"{s:.2f}" for s in startups) + " s")
    print(f"first search (embeds the bundled library into a fresh index): {first_search:.2f} s")
    print("| request | n | p50 ms | p95 ms |")
    print("|---|---|---|---|")
    print(row("`POST /api/v1/validate` (151-line template)", validate))
    print(row("`GET /api/v1/search` (warm index)", search))
    print(row("`GET /api/v1/templates`", listing))
    print(row("`GET /ui/`", page))


if __name__ == "__main__":
    main()
