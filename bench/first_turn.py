"""The first turn on a fresh install: `oic-ai generate` with an empty data folder.

Each run is a new process with a new, empty data folder and the default embedded store,
so it pays for everything a first turn pays for: start-up, creating the store, indexing
the bundled library (only what the shipped vectors do not cover) and the turn itself.

The same command on the warm folder right after shows what start-up alone costs.

Usage: python bench/first_turn.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT

REQUEST = "a minimal Ubuntu 24.04 edge image for arm64 with docker and node monitoring"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times: list[float] = []
    warm: list[float] = []
    cpu: list[float] = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "data"
            env = {**os.environ, "OIC_AI_DATA_DIR": str(data)}
            command = [sys.executable, "-m", "oic_ai", "generate", "--provider", "builtin"]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            done = subprocess.run(
                [*command, REQUEST], env=env, cwd=ROOT, capture_output=True, check=False
            )
            times.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            if done.returncode != 0:
                sys.exit(f"generate failed ({done.returncode}): {done.stderr.decode()[-400:]}")
            t = time.perf_counter()  # the same command again, now on a warm data folder
            subprocess.run([*command, REQUEST], env=env, cwd=ROOT, capture_output=True, check=True)
            warm.append(time.perf_counter() - t)
    load = os.getloadavg()
    print("| figure | value |")
    print("|---|---|")
    print(
        f"| first `oic-ai generate --provider builtin`, fresh data folder, median of "
        f"{len(times)}, s | {statistics.median(times):.2f} (min {min(times):.2f}) |"
    )
    print(f"| its CPU time (user + system), median, s | {statistics.median(cpu):.2f} |")
    print(
        f"| the same command again on that (now warm) data folder, median, s | "
        f"{statistics.median(warm):.2f} (min {min(warm):.2f}) |"
    )
    print(
        f"| load average (1, 5, 15 min) at the end | {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f} |"
    )


if __name__ == "__main__":
    main()
