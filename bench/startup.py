"""Start-up cost of each CLI command: median wall time of fresh processes.

Each command runs against a warm data folder (library indexed, one session) so the figure
is start-up plus the command's own work, not first-time indexing.

Usage: python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = "image-templates/ubuntu24-aarch64-edge-container-raw.yml"
COMMANDS = [
    ("--version", ["--version"]),
    ("validate (one file)", ["validate", TEMPLATE]),
    ("sessions list", ["sessions", "list"]),
    ("packages check (no index)", ["packages", "check", TEMPLATE]),
    ("cache stats", ["cache", "stats"]),
    ("index (warm)", ["index"]),
    ("search", ["search", "minimal ubuntu edge image with docker"]),
    ("generate (builtin)", ["generate", "--provider", "builtin", "a minimal debian image"]),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "OIC_AI_DATA_DIR": str(Path(tmp) / "data")}
        base = [sys.executable, "-m", "oic_ai"]
        for _, argv in COMMANDS:  # warm the index, the session database and the caches
            subprocess.run([*base, *argv], env=env, cwd=ROOT, capture_output=True, check=False)
        print("| command | median s |")
        print("|---|---|")
        for label, argv in COMMANDS:
            times = []
            for _ in range(args.runs):
                t = time.perf_counter()
                subprocess.run([*base, *argv], env=env, cwd=ROOT, capture_output=True, check=False)
                times.append(time.perf_counter() - t)
            print(f"| `oic-ai {label}` | {statistics.median(times):.2f} |")


if __name__ == "__main__":
    main()
