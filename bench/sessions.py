"""Session figures: `sessions list` over 1,000 sessions, and checkpoint overhead per turn.

Prints a Markdown table. Everything runs in a temporary data folder, offline
(builtin planner, local embedder).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SESSIONS = 1000
REQUEST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
REFINE = "make the disk 16GiB"


def seed_sessions(data_dir: Path, count: int) -> None:
    """``count`` sessions of one to five turns each, spread over the last month."""
    from stores.session_store import SessionStore, sessions_db_path

    now = time.time()
    with SessionStore(sessions_db_path(data_dir)) as store:
        for i in range(count):
            sid = str(uuid.uuid4())
            for turn in range(1 + i % 5):
                store.record_turn(
                    sid,
                    request=f"{REQUEST} number {i}" if turn == 0 else f"refinement {turn}",
                    template=f"edge-ubuntu-{i}",
                    status="valid",
                    provider="builtin",
                    now=now - (count - i) * 2600 + turn,
                )


def list_figures(data_dir: Path) -> dict[str, float]:
    from stores.session_store import SessionStore, sessions_db_path

    path = sessions_db_path(data_dir)
    cold = []
    for _ in range(30):
        t = time.perf_counter()
        with SessionStore(path) as store:
            rows = store.list()
        cold.append((time.perf_counter() - t) * 1000)
    assert len(rows) == SESSIONS
    env = {**os.environ, "OIC_AI_DATA_DIR": str(data_dir)}
    fresh = {}
    for label, extra in (("json", ["--json"]), ("table", [])):
        runs = []
        for _ in range(7):
            t = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "oic_ai", "sessions", "list", *extra],
                check=True,
                capture_output=True,
                cwd=ROOT,
                env=env,
            )
            runs.append(time.perf_counter() - t)
        fresh[label] = statistics.median(runs) * 1000
    return {
        "store.list() p50 ms": statistics.median(cold),
        "fresh json ms": fresh["json"],
        "fresh table ms": fresh["table"],
    }


def _p50(values: list[float]) -> float:
    return statistics.median(values) * 1000


def overhead_figures(data_dir: Path, rounds: int) -> dict[str, Any]:
    """The same create turn with no checkpointer and with the SQLite saver, alternating."""
    from graph.builder import build_graph
    from graph.checkpointer import open_sqlite_saver
    from graph.context import Context
    from stores.session_store import sessions_db_path
    from stores.settings import load_settings

    settings = load_settings(data_dir=data_dir, provider="builtin", env={})
    context = Context.from_settings(settings)
    payload = {"messages": [{"role": "user", "content": REQUEST}]}
    refine = {"messages": [{"role": "user", "content": REFINE}]}
    bare = build_graph()
    bare.invoke(payload, context=context)  # builds the template index once
    plain: list[float] = []
    saved: list[float] = []
    refined: list[float] = []
    db = sessions_db_path(data_dir)
    with open_sqlite_saver(data_dir) as saver:
        graph = build_graph(saver)
        graph.invoke(payload, {"configurable": {"thread_id": "warm-up"}}, context=context)
        size_before = db.stat().st_size + _wal(db)
        for _ in range(rounds):
            t = time.perf_counter()
            bare.invoke(payload, context=context)
            plain.append(time.perf_counter() - t)
            config = {"configurable": {"thread_id": str(uuid.uuid4())}}
            t = time.perf_counter()
            graph.invoke(payload, config, context=context)
            saved.append(time.perf_counter() - t)
            t = time.perf_counter()
            graph.invoke(refine, config, context=context)
            refined.append(time.perf_counter() - t)
        checkpoints = len(list(graph.get_state_history(config)))
        saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size_after = db.stat().st_size + _wal(db)
    deltas = [s - p for s, p in zip(saved, plain, strict=True)]
    return {
        "turn without checkpointer p50 ms": _p50(plain),
        "turn with SqliteSaver p50 ms": _p50(saved),
        "overhead per turn p50 ms": _p50(deltas),
        "refine turn with SqliteSaver p50 ms": _p50(refined),
        "checkpoints per two turns": checkpoints,
        "bytes per turn": (size_after - size_before) / (2 * rounds),
    }


def _wal(db: Path) -> int:
    wal = db.with_name(db.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory(prefix="oic-bench-sessions-") as tmp:
        listing = Path(tmp) / "listing"
        seed_sessions(listing, SESSIONS)
        lf = list_figures(listing)
        of = overhead_figures(Path(tmp) / "turns", rounds)
    print("| figure | value |\n|---|---|")
    print(
        f"| `SessionStore.list()` of {SESSIONS:,} sessions (open + read), p50 "
        f"| {lf['store.list() p50 ms']:.1f} ms |"
    )
    print(
        f"| `oic-ai sessions list --json` with {SESSIONS:,} sessions, fresh process median "
        f"| {lf['fresh json ms']:.0f} ms |"
    )
    print(
        f"| `oic-ai sessions list` (table) with {SESSIONS:,} sessions, fresh process median "
        f"| {lf['fresh table ms']:.0f} ms |"
    )
    print(
        f"| create turn, no checkpointer, p50 | {of['turn without checkpointer p50 ms']:.1f} ms |"
    )
    print(f"| create turn, SqliteSaver, p50 | {of['turn with SqliteSaver p50 ms']:.1f} ms |")
    print(
        f"| checkpoint overhead per turn, p50 of paired deltas "
        f"| {of['overhead per turn p50 ms']:.1f} ms |"
    )
    print(f"| refine turn, SqliteSaver, p50 | {of['refine turn with SqliteSaver p50 ms']:.1f} ms |")
    print(f"| checkpoints written per turn | {of['checkpoints per two turns'] / 2:.1f} |")
    print(f"| database growth per turn | {of['bytes per turn'] / 1024:.1f} KiB |")
