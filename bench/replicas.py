"""Turns per second through one replica against two, behind HAProxy, on one machine.

Starts the real parts the replicas' tests use (``tests/support``): a PostgreSQL cluster
with its default durability (fsync on), ``redis-server``, one ``chroma run``, and
``oic-ai serve`` replicas (Aegra) with ``OIC_AI_DATABASE_URL`` and ``OIC_AI_REDIS_URL``,
the builtin planner, no users (loopback). Then, for one replica and for two, HAProxy in
front (round robin) and ``--sessions`` clients at once, each making a session (its first
turn, not timed) and then ``--turns`` refinements one after another with
``langgraph_sdk``, sent with ``runs.stream`` (as the page and the CLI do) and with
``runs.wait``. Printed: turns per second, the p50/p95 of one turn, the
load average before and after, and the CPU seconds each part used during the timed turns
(from ``/proc``), which says what bounds the figure.

Usage: python bench/replicas.py [--sessions N] [--turns N] [--via stream wait]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from _common import percentile

FIRST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
REFINEMENTS = ("add htop", "make the disk 24GiB", "add vim", "set the hostname to edge-07")
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def family(root: int) -> list[int]:
    """``root`` and every process below it (PostgreSQL's backends, a replica's helpers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_of(parts: dict[str, int]) -> dict[str, float]:
    """CPU seconds so far of each part's process tree, and of this process (the clients)."""
    found = {name: sum(cpu_seconds(p) for p in family(pid)) for name, pid in parts.items()}
    mine = resource.getrusage(resource.RUSAGE_SELF)
    found["clients (this process)"] = mine.ru_utime + mine.ru_stime
    return found


def pid_of(*fragments: str) -> int:
    """The PID of a process whose command line contains every fragment (0: none)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if all(fragment in line for fragment in fragments):
                return int(entry.name)
    return 0


def _message(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def measure(url: str, sessions: int, turns: int, parts: dict[str, int], via: str) -> dict[str, Any]:
    """Time ``sessions`` x ``turns`` refinements through ``url`` (first turns not timed).

    ``via`` is ``stream`` (``runs.stream``, as the page and the CLI send a turn) or ``wait``
    (``runs.wait``).
    """
    from langgraph_sdk import get_client

    times: list[float] = []

    async def first_turn() -> str:
        client = get_client(url=url, timeout=600)
        thread = await client.threads.create(graph_id="oic-ai")
        await client.runs.wait(thread["thread_id"], "oic-ai", input=_message(FIRST))
        return str(thread["thread_id"])

    async def refine(thread: str) -> None:
        client = get_client(url=url, timeout=600)
        for turn in range(turns):
            began = time.perf_counter()
            request = _message(REFINEMENTS[turn % len(REFINEMENTS)])
            if via == "wait":
                await client.runs.wait(thread, "oic-ai", input=request)
            else:
                async for _part in client.runs.stream(
                    thread, "oic-ai", input=request, stream_mode="updates"
                ):
                    pass
            times.append(time.perf_counter() - began)

    async def go() -> tuple[float, dict[str, float], dict[str, float], float]:
        threads = await asyncio.gather(*(first_turn() for _ in range(sessions)))
        load = os.getloadavg()[0]
        before = cpu_of(parts)
        began = time.perf_counter()
        await asyncio.gather(*(refine(t) for t in threads))
        return time.perf_counter() - began, before, cpu_of(parts), load

    wall, before, after, load_before = asyncio.run(go())
    return {
        "turns": len(times),
        "wall": wall,
        "rate": len(times) / wall,
        "p50": percentile(times, 50),
        "p95": percentile(times, 95),
        "load": (load_before, os.getloadavg()[0]),
        "cpu": {name: after[name] - before.get(name, 0.0) for name in after},
    }


@contextmanager
def cluster(
    root: Path, replicas: int, database_url: str, redis_url: str, chroma_url: str
) -> Iterator[tuple[str, dict[str, int]]]:
    """``replicas`` replicas behind HAProxy; the balancer's URL and each part's root PID."""
    from tests.support.cluster import haproxy, replica

    with ExitStack() as stack:
        servers = [
            stack.enter_context(
                replica(root / f"n{replicas}-r{i}", database_url, redis_url, chroma_url)
            )
            for i in range(replicas)
        ]
        folder = root / f"lb{replicas}"
        folder.mkdir()
        balancer = stack.enter_context(haproxy(folder, [s.url for s in servers]))
        parts = {f"replica {i}": s.process.pid for i, s in enumerate(servers)}
        yield balancer, {**parts, "haproxy": pid_of(str(folder / "haproxy.cfg"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--via", choices=("stream", "wait"), nargs="+", default=["stream", "wait"])
    args = parser.parse_args()
    from tests.support.cluster import redis_server
    from tests.support.postgres import start_cluster
    from tests.support.servers import chroma_run

    root = Path(tempfile.mkdtemp(prefix="oic-bench-replicas-"))
    pg_root = Path(tempfile.mkdtemp(prefix="oic-bench-replicas-pg-"))  # chowned to postgres
    pg = start_cluster(pg_root, durable=True)
    results: dict[tuple[str, int], dict[str, Any]] = {}
    try:
        database_url = pg.create_database("bench")
        (root / "chroma").mkdir()
        with redis_server(root) as redis_url, chroma_run(root / "chroma") as chroma:
            redis_port = redis_url.rsplit(":", 1)[1].split("/")[0]
            shared = {
                "postgres": pg.pid() or 0,
                "redis": pid_of("redis-server", f":{redis_port}"),
                "chroma": chroma.process.pid,
            }
            for count in (1, 2):
                with cluster(root, count, database_url, redis_url, chroma.url) as (url, parts):
                    for via in args.via:
                        every = {**parts, **shared}
                        results[via, count] = measure(url, args.sessions, args.turns, every, via)
    finally:
        pg.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(pg_root, ignore_errors=True)
    cores = os.cpu_count()
    print(f"{args.sessions} sessions x {args.turns} turns at once, builtin planner, {cores} cores")
    print("| turn sent by | replicas | turns | wall s | turns/s | turn p50 s | turn p95 s | load |")
    print("|---|---|---|---|---|---|---|---|")
    for (via, count), r in sorted(results.items()):
        print(
            f"| runs.{via} | {count} | {r['turns']} | {r['wall']:.1f} | {r['rate']:.2f} "
            f"| {r['p50']:.2f} "
            f"| {r['p95']:.2f} | {r['load'][0]:.1f} → {r['load'][1]:.1f} |"
        )
    print()
    print("CPU seconds used during the timed turns:")
    for (via, count), r in sorted(results.items()):
        used = ", ".join(f"{name} {sec:.1f}" for name, sec in r["cpu"].items())
        print(f"  runs.{via}, {count} replica(s): {used}; wall {r['wall']:.1f} s x {cores} cores")
    for via in args.via:
        speedup = results[via, 2]["rate"] / results[via, 1]["rate"]
        print(f"runs.{via}: two replicas against one: {speedup:.2f}x")


if __name__ == "__main__":
    main()
