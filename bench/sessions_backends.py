"""Sessions on PostgreSQL next to SQLite: checkpoint overhead per turn, ``sessions list``.

Prints a Markdown table. SQLite lives in a temporary data folder; PostgreSQL is the one
at ``--url`` (an empty database you own), or else a throwaway cluster from Debian's
``postgresql`` package started for the run (initdb + pg_ctl in a temporary folder,
PostgreSQL's durable defaults: fsync and synchronous commit on; stopped by PID at the
end; ``tests/support/postgres.py``). It connects over TCP on loopback. Offline: builtin planner,
local embedder.

    python bench/sessions_backends.py [--rounds 20] [--url postgresql://...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from _common import ROOT, cli_median_ms, seed_sessions, store_list_ms

SESSIONS = 1000
REQUEST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
REFINE = "make the disk 16GiB"


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A temporary cluster's database URL; the cluster is stopped by PID afterwards."""
    import shutil

    from tests.support.postgres import start_cluster

    root = Path(tempfile.mkdtemp(prefix="oic-bench-pg-"))
    cluster = start_cluster(root, durable=True)  # fsync and synchronous commit on
    try:
        yield cluster.create_database("bench")
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


def _settings(data_dir: Path, url: str | None) -> Any:
    from oic_ai.stores.settings import load_settings

    env = {"OIC_AI_DATABASE_URL": url} if url else {}
    return load_settings(data_dir=data_dir, provider="builtin", env=env)


def seed(settings: Any) -> None:
    """1,000 sessions of one to five turns each, spread over the last month."""
    from oic_ai.stores.session_factory import open_session_store

    with open_session_store(settings) as store:
        seed_sessions(store, SESSIONS, REQUEST)


def list_figures(settings: Any) -> dict[str, float]:
    """``list()`` in-process (open + read + close) and a fresh ``sessions list --json``."""
    from oic_ai.stores.session_factory import open_session_store

    store, rows = store_list_ms(lambda: open_session_store(settings))
    assert rows == SESSIONS, rows
    env = {**os.environ, "OIC_AI_DATA_DIR": str(settings.data_dir), "PYTHONPATH": str(ROOT)}
    env.pop("OIC_AI_DATABASE_URL", None)
    if settings.database_url:
        env["OIC_AI_DATABASE_URL"] = settings.database_url
    return {"store": store, "fresh": cli_median_ms(["sessions", "list", "--json"], env)}


def overhead_figures(data_dir: Path, url: str, rounds: int) -> dict[str, dict[str, float]]:
    """The same create turn with no checkpointer, with SQLite and with PostgreSQL, interleaved.

    A turn on a thread also records its index row through the store the settings choose,
    so the overhead is everything a session costs: checkpoints, writes and the index.
    """
    from oic_ai.graph.builder import build_graph
    from oic_ai.graph.checkpointer import open_session_saver
    from oic_ai.nodes.context import Context
    from oic_ai.stores.session_factory import open_session_store

    backends = {"sqlite": _settings(data_dir, None), "postgres": _settings(data_dir, url)}
    payload = {"messages": [{"role": "user", "content": REQUEST}]}
    refine = {"messages": [{"role": "user", "content": REFINE}]}
    plain_context = Context.from_settings(backends["sqlite"])
    bare = build_graph()
    bare.invoke(payload, context=plain_context)  # builds the template index once
    times: dict[str, list[float]] = {"plain": []}
    times |= {f"{b} {k}": [] for b in backends for k in ("turn", "delta", "refine")}
    figures: dict[str, dict[str, float]] = {}
    with (
        open_session_saver(backends["sqlite"]) as lite,
        open_session_saver(backends["postgres"]) as pg,
    ):
        graphs = {"sqlite": build_graph(lite), "postgres": build_graph(pg)}
        contexts = {b: Context.from_settings(s) for b, s in backends.items()}
        for name, graph in graphs.items():
            warm = {"configurable": {"thread_id": f"warm-up-{name}"}}
            graph.invoke(payload, warm, context=contexts[name])
        sizes, last = {}, {}
        for name, settings in backends.items():
            with open_session_store(settings) as store:
                store.vacuum()
                sizes[name] = store.size_bytes()
        for _ in range(rounds):
            for name, graph in graphs.items():
                t = time.perf_counter()
                bare.invoke(payload, context=plain_context)
                times["plain"].append(time.perf_counter() - t)
                config = last[name] = {"configurable": {"thread_id": str(uuid.uuid4())}}
                t = time.perf_counter()
                graph.invoke(payload, config, context=contexts[name])
                times[f"{name} turn"].append(time.perf_counter() - t)
                times[f"{name} delta"].append(times[f"{name} turn"][-1] - times["plain"][-1])
                t = time.perf_counter()
                graph.invoke(refine, config, context=contexts[name])
                times[f"{name} refine"].append(time.perf_counter() - t)
        for name, graph in graphs.items():
            with open_session_store(backends[name]) as store:
                store.vacuum()
                grown = store.size_bytes() - sizes[name]
            figures[name] = {
                "checkpoints": len(list(graph.get_state_history(last[name]))) / 2,
                "kib": grown / (2 * rounds) / 1024,
            }
    figures["p50"] = {k: statistics.median(v) * 1000 for k, v in times.items()}
    return figures


def main() -> None:
    """Measure both backends and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--url", help="an empty PostgreSQL database (default: a throwaway one)")
    parser.add_argument(
        "--async-commit",
        action="store_true",
        help="connect with synchronous_commit=off (what ALTER ROLE ... SET would give)",
    )
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory(prefix="oic-bench-backends-") as tmp:
        with nullcontext(args.url) if args.url else throwaway_postgres() as url:
            if args.async_commit:
                url += ("&" if "?" in url else "?") + "options=-csynchronous_commit%3Doff"
            listing: dict[str, dict[str, float]] = {}
            for name, db in (("sqlite", None), ("postgres", url)):
                settings = _settings(Path(tmp) / f"list-{name}", db)
                seed(settings)
                listing[name] = list_figures(settings)
            of = overhead_figures(Path(tmp) / "turns", url, args.rounds)
    p = of["p50"]
    n = f"{SESSIONS:,}"
    rows = [
        ("create turn, no checkpointer, p50", f"{p['plain']:.1f} ms", "-"),
        (
            "create turn on a session, p50",
            f"{p['sqlite turn']:.1f} ms",
            f"{p['postgres turn']:.1f} ms",
        ),
        (
            "checkpoint overhead per turn (p50 of paired deltas; checkpoints + index row)",
            f"{p['sqlite delta']:.1f} ms",
            f"{p['postgres delta']:.1f} ms",
        ),
        (
            "refine turn on a session, p50",
            f"{p['sqlite refine']:.1f} ms",
            f"{p['postgres refine']:.1f} ms",
        ),
        (
            "checkpoints written per turn",
            f"{of['sqlite']['checkpoints']:.1f}",
            f"{of['postgres']['checkpoints']:.1f}",
        ),
        (
            "storage growth per turn",
            f"{of['sqlite']['kib']:.1f} KiB",
            f"{of['postgres']['kib']:.1f} KiB",
        ),
        (
            f"`list()` of {n} sessions (open + read + close), p50",
            f"{listing['sqlite']['store']:.1f} ms",
            f"{listing['postgres']['store']:.1f} ms",
        ),
        (
            f"`oic-ai sessions list --json`, {n} sessions, fresh process median",
            f"{listing['sqlite']['fresh']:.0f} ms",
            f"{listing['postgres']['fresh']:.0f} ms",
        ),
    ]
    print("| figure | SQLite | PostgreSQL |\n|---|---|---|")
    for figure, lite, pg in rows:
        print(f"| {figure} | {lite} | {pg} |")


if __name__ == "__main__":
    main()
