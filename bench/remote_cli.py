"""The command line as a client: one command's wall time locally and through a server.

Starts ``python -m oic_ai serve --no-browser`` on a free loopback port (fresh data folder,
bundled library, builtin planner), warms both sides up with one turn each (which embeds
the library into each side's index), then times whole ``oic-ai`` processes, as a user
feels them, ``--rounds`` times each:

- ``generate REQUEST --json`` (a new session each time);
- ``generate "add htop" --continue --json``;
- ``sessions list --json`` and ``sessions replay ID --json``.

Usage: python bench/remote_cli.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, percentile
from serve import start, stop

REQUEST = "a minimal ubuntu 24.04 raw image for x86_64"


def run(env: dict[str, str], *args: str) -> tuple[float, str]:
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "oic_ai", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    took = time.perf_counter() - began
    if done.returncode not in (0, 1):
        raise SystemExit(f"oic-ai {' '.join(args)} failed: {done.stderr[-1000:]}")
    return took, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "server").mkdir()
        process, url, _ = start(root / "server" / "data", root / "server.log")
        try:
            base = {**os.environ, "PYTHONPATH": str(ROOT), "OIC_AI_PROVIDER": "builtin"}
            base.pop("OIC_AI_SERVER_URL", None)
            sides = {
                "local": {**base, "OIC_AI_DATA_DIR": str(root / "local")},
                "server": {
                    **base,
                    "OIC_AI_DATA_DIR": str(root / "client"),
                    "OIC_AI_SERVER_URL": url,
                },
            }
            sessions = {}
            for side, env in sides.items():  # warm-up: each side embeds the library once
                _, out = run(env, "generate", REQUEST, "--json")
                sessions[side] = json.loads(out)["session"]
            rows = []
            commands = [
                ("generate (new session)", ("generate", REQUEST, "--json")),
                ("generate --continue", ("generate", "add htop", "--continue", "--json")),
                ("sessions list", ("sessions", "list", "--json")),
                ("sessions replay", ("sessions", "replay", "{session}", "--json")),
            ]
            for label, args in commands:
                for side, env in sides.items():
                    real = [a.replace("{session}", sessions[side]) for a in args]
                    times = [run(env, *real)[0] for _ in range(rounds)]
                    rows.append((label, side, percentile(times, 50), max(times)))
        finally:
            stop(process)
    print(f"rounds per row: {rounds}; whole processes, wall time")
    print("| command | where | p50 s | max s |")
    print("|---|---|---|---|")
    for label, side, p50, worst in rows:
        print(f"| `{label}` | {side} | {p50:.2f} | {worst:.2f} |")


if __name__ == "__main__":
    main()
