"""Per-user access: what checking a bearer token costs each request, and ``users add``.

Prints a Markdown table. In-process: :meth:`TokenVerifier.user_for` (the work
``oic_ai/web/auth.py`` does before every request: one ``stat`` of the token file, a
SHA-256 and a constant-time comparison with every user's hash) with 10 and 1,000 users,
and the first check after the file changed (a re-read). Then ``oic-ai users add`` in
fresh processes. Everything lives in a temporary folder.

    python bench/auth.py [--rounds 2000]
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

from _common import ROOT, percentile


def _verify(path: Path, users: int, rounds: int) -> tuple[float, float, float]:
    """p50 and p95 of a known token's check (µs), and the median re-read after a change (µs)."""
    from oic_ai.stores.users import TokenVerifier, UserStore

    store = UserStore(path)
    tokens = [store.add(f"user{i}").token for i in range(users)]
    verifier = TokenVerifier(path)
    token = tokens[users // 2]
    assert verifier.user_for(token) == f"user{users // 2}"
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        verifier.user_for(token)
        times.append((time.perf_counter() - start) * 1e6)
    reloads = []
    for i in range(20):
        os.utime(path, ns=(i, i))  # a change of mtime: the next check re-reads the file
        start = time.perf_counter()
        verifier.user_for(token)
        reloads.append((time.perf_counter() - start) * 1e6)
    return percentile(times, 50), percentile(times, 95), statistics.median(reloads)


def _cli_add(folder: Path, runs: int) -> float:
    """Median wall time (s) of ``oic-ai users add`` in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OIC_AI_DATA_DIR": str(folder)}
    times = []
    for i in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "oic_ai", "users", "add", f"cli{i}", "--json"],
            env=env,
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="oic-bench-auth-") as tmp:
        root = Path(tmp)
        print("| figure | value |")
        print("|---|---|")
        for users in (10, 1000):
            p50, p95, reload = _verify(root / f"users-{users}.json", users, args.rounds)
            print(f"| token check, {users} users, p50 | {p50:.1f} µs |")
            print(f"| token check, {users} users, p95 | {p95:.1f} µs |")
            changed = f"first check after the file changed, {users} users, median"
            print(f"| {changed} | {reload:.0f} µs |")
        print(f"| `oic-ai users add`, fresh process median | {_cli_add(root / 'cli', 5):.2f} s |")


if __name__ == "__main__":
    main()
