"""Session figures: `sessions list` over 1,000 sessions, and checkpoint overhead per turn.

Prints a Markdown table. Everything runs in a temporary data folder, offline
(builtin planner, local embedder).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import _common  # noqa: F401  (puts the repository root on sys.path)

SESSIONS = 1000
REQUEST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
REFINE = "make the disk 16GiB"


def seed_sessions(data_dir: Path, count: int) -> None:
    """``count`` sessions of one to five turns each, spread over the last month."""
    from _common import seed_sessions as seed

    from oic_ai.stores.session_store import SessionStore, sessions_db_path

    with SessionStore(sessions_db_path(data_dir)) as store:
        seed(store, count, REQUEST)


def list_figures(data_dir: Path) -> dict[str, float]:
    from _common import cli_median_ms, store_list_ms

    from oic_ai.stores.session_store import SessionStore, sessions_db_path

    path = sessions_db_path(data_dir)
    store, rows = store_list_ms(lambda: SessionStore(path))
    assert rows == SESSIONS
    env = {**os.environ, "OIC_AI_DATA_DIR": str(data_dir)}
    fresh = {
        label: cli_median_ms(["sessions", "list", *extra], env)
        for label, extra in (("json", ["--json"]), ("table", []))
    }
    return {"store": store, "json": fresh["json"], "table": fresh["table"]}


def _p50(values: list[float]) -> float:
    return statistics.median(values) * 1000


def overhead_figures(data_dir: Path, rounds: int) -> dict[str, dict[str, float]]:
    """The same create turn with no checkpointer and with the SQLite saver, interleaved.

    The saver runs twice: ``synchronous=FULL`` (SQLite's default, what a plain
    ``sqlite3.connect`` gives) and ``NORMAL`` (what ``open_sqlite_saver`` sets).
    """
    from oic_ai.graph.builder import build_graph
    from oic_ai.graph.checkpointer import open_sqlite_saver
    from oic_ai.nodes.context import Context
    from oic_ai.stores.session_store import sessions_db_path
    from oic_ai.stores.settings import load_settings

    settings = load_settings(data_dir=data_dir, provider="builtin", env={})
    context = Context.from_settings(settings)
    payload = {"messages": [{"role": "user", "content": REQUEST}]}
    refine = {"messages": [{"role": "user", "content": REFINE}]}
    bare = build_graph()
    bare.invoke(payload, context=context)  # builds the template index once
    db = sessions_db_path(data_dir)
    modes = ("FULL", "NORMAL")
    plain: list[float] = []
    saved: dict[str, list[float]] = {m: [] for m in modes}
    deltas: dict[str, list[float]] = {m: [] for m in modes}
    refined: list[float] = []
    with open_sqlite_saver(data_dir) as saver:
        graph = build_graph(saver)
        graph.invoke(payload, {"configurable": {"thread_id": "warm-up"}}, context=context)
        saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size_before = db.stat().st_size + _wal(db)
        for _ in range(rounds):
            for mode in modes:
                saver.conn.execute(f"PRAGMA synchronous = {mode}")
                t = time.perf_counter()
                bare.invoke(payload, context=context)
                plain.append(time.perf_counter() - t)
                config = {"configurable": {"thread_id": str(uuid.uuid4())}}
                t = time.perf_counter()
                graph.invoke(payload, config, context=context)
                saved[mode].append(time.perf_counter() - t)
                deltas[mode].append(saved[mode][-1] - plain[-1])
                t = time.perf_counter()
                graph.invoke(refine, config, context=context)
                refined.append(time.perf_counter() - t)
        checkpoints = len(list(graph.get_state_history(config)))
        saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size_after = db.stat().st_size + _wal(db)
    turns = 2 * rounds * len(modes)
    figures = {m: {"p50": _p50(saved[m]), "delta": _p50(deltas[m])} for m in modes}
    figures["plain"] = {"p50": _p50(plain)}
    figures["refine"] = {"p50": _p50(refined)}
    figures["per turn"] = {
        "checkpoints": checkpoints / 2,
        "kib": (size_after - size_before) / turns / 1024,
    }
    return figures


def _wal(db: Path) -> int:
    wal = db.with_name(db.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    with tempfile.TemporaryDirectory(prefix="oic-bench-sessions-") as tmp:
        listing = Path(tmp) / "listing"
        seed_sessions(listing, SESSIONS)
        lf = list_figures(listing)
        of = overhead_figures(Path(tmp) / "turns", rounds)
    n = f"{SESSIONS:,}"
    rows = [
        (f"`SessionStore.list()` of {n} sessions (open + read), p50", f"{lf['store']:.1f} ms"),
        (
            f"`oic-ai sessions list --json`, {n} sessions, fresh process median",
            f"{lf['json']:.0f} ms",
        ),
        (
            f"`oic-ai sessions list` (table), {n} sessions, fresh process median",
            f"{lf['table']:.0f} ms",
        ),
        ("create turn, no checkpointer, p50", f"{of['plain']['p50']:.1f} ms"),
    ]
    for mode in ("FULL", "NORMAL"):
        rows.append(
            (f"create turn, SqliteSaver synchronous={mode}, p50", f"{of[mode]['p50']:.1f} ms")
        )
        rows.append(
            (
                f"checkpoint overhead per turn, synchronous={mode} (p50 of paired deltas)",
                f"{of[mode]['delta']:.1f} ms",
            )
        )
    rows += [
        ("refine turn, SqliteSaver, p50", f"{of['refine']['p50']:.1f} ms"),
        ("checkpoints written per turn", f"{of['per turn']['checkpoints']:.1f}"),
        ("database growth per turn", f"{of['per turn']['kib']:.1f} KiB"),
    ]
    print("| figure | value |\n|---|---|")
    for figure, value in rows:
        print(f"| {figure} | {value} |")
