"""Shared scaffolding of the bench scripts: the repository root on ``sys.path`` and percentiles.

Every script runs as ``python bench/NAME.py``, so this folder is on ``sys.path`` and
``from _common import ...`` finds this module; importing it puts the repository root there too.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0-100), the nearest rank rounded."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def share_percentile(values: list[float], share: float) -> float:
    """The value at ``share`` (0-1) of the sorted values, the rank rounded down."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def seed_sessions(store: Any, count: int, request: str) -> None:
    """``count`` sessions of one to five turns each in ``store``, spread over the last month."""
    now = time.time()
    for i in range(count):
        sid = str(uuid.uuid4())
        for turn in range(1 + i % 5):
            store.record_turn(
                sid,
                request=f"{request} number {i}" if turn == 0 else f"refinement {turn}",
                template=f"edge-ubuntu-{i}",
                status="valid",
                provider="builtin",
                now=now - (count - i) * 2600 + turn,
            )


def store_list_ms(open_store: Callable[[], Any], runs: int = 30) -> tuple[float, int]:
    """Median ms to open a session store, ``list()`` it and close it; the rows it listed."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        with open_store() as store:
            rows = store.list()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), len(rows)


def cli_median_ms(args: list[str], env: Mapping[str, str], runs: int = 7) -> float:
    """Median ms of ``python -m oic_ai ARGS`` as a fresh process (it must exit 0)."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        command = [sys.executable, "-m", "oic_ai", *args]
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=env)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def peak_rss_mib() -> float:
    """The process's peak resident set size in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
