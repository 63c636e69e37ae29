"""Retrieval figures: indexing cold/warm, search latency in-process and as a fresh process,
and synthetic libraries of 1,000 and 10,000 templates. Prints a Markdown table.

Usage: python bench/retrieval.py [--synthetic 1000,10000] [--skip-synthetic]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, peak_rss_mib, percentile

QUERIES = [
    "a minimal Ubuntu 24.04 edge image for arm64 with docker and node monitoring",
    "cloud elxr raw image",
    "image with nginx and docker-ce",
    "edge IoT minimal raw",
    "minimal without docker",
    "pxe network boot image for azure linux",
    "real-time industrial emt image",
    "kiosk desktop ubuntu",
    "ros2 jazzy robotics",
    "rhel 10 container host on arm64",
]


def in_process(templates: Path, data: Path, rounds: int = 20) -> dict[str, float]:
    from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
    from oic_ai.stores.settings import Settings
    from oic_ai.stores.template_index import TemplateIndex, library_key
    from oic_ai.tools.retrieval.hybrid_search import TemplateSearch

    embedder = MiniLMEmbedder()
    search = TemplateSearch(
        TemplateIndex(embedder, data, library=library_key(templates)),
        templates,
        Settings(data_dir=data),
    )
    t = time.perf_counter()
    cold = search.index.sync(templates)
    cold_s = time.perf_counter() - t
    t = time.perf_counter()
    warm = search.index.sync(templates)
    warm_s = time.perf_counter() - t
    assert warm.embedded == 0
    search.refresh()
    search.search(QUERIES[0])  # load the corpus statistics once
    latencies = []
    for _ in range(rounds):
        for query in QUERIES:
            t = time.perf_counter()
            search.search(query)
            latencies.append((time.perf_counter() - t) * 1000)
    return {
        "templates": cold.created,
        "index_cold_s": cold_s,
        "index_warm_s": warm_s,
        "search_p50_ms": percentile(latencies, 50),
        "search_p95_ms": percentile(latencies, 95),
        "peak_rss_mib": peak_rss_mib(),
    }


def fresh_process(templates: Path, data: Path, runs: int = 7) -> float:
    env = {**os.environ, "OIC_AI_DATA_DIR": str(data)}
    command = [
        sys.executable,
        "-m",
        "oic_ai",
        "search",
        "--templates-dir",
        str(templates),
        "--json",
        QUERIES[0],
    ]
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=ROOT)  # warm index
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env, cwd=ROOT)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def synthesise(source: Path, target: Path, count: int) -> None:
    """Write ``count`` variants of our templates (names, packages and words shuffled)."""
    rng = random.Random(count)
    originals = [p.read_text() for p in sorted(source.glob("*.yml"))]
    words = [
        "edge",
        "gateway",
        "factory",
        "retail",
        "camera",
        "robot",
        "sensor",
        "vision",
        "fleet",
        "lab",
        "branch",
        "store",
        "plant",
        "kiosk",
        "drone",
    ]
    target.mkdir(parents=True)
    for n in range(count):
        text = originals[n % len(originals)]
        extra = " ".join(rng.sample(words, 3))
        text = text.replace("description:", f"description: {extra} variant {n}", 1)
        (target / f"synthetic-{n:05d}.yml").write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--synthetic", default="1000,10000")
    parser.add_argument("--skip-synthetic", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        ours = in_process(ROOT / "image-templates", Path(tmp) / "ours")
        ours["fresh_search_median_s"] = fresh_process(ROOT / "image-templates", Path(tmp) / "ours")
        rows.append(("our library", ours))
    if not args.skip_synthetic:
        for count in (int(c) for c in args.synthetic.split(",") if c):
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp) / "templates"
                synthesise(ROOT / "image-templates", folder, count)
                # a child process keeps each library's peak RSS separate
                out = subprocess.run(
                    [sys.executable, __file__, "--one", str(folder), str(Path(tmp) / "data")],
                    check=True,
                    stdout=subprocess.PIPE,
                    text=True,
                    cwd=ROOT,
                ).stdout
                rows.append((f"synthetic {count}", json.loads(out)))
                shutil.rmtree(folder)
    print(
        "| library | templates | index cold s | index warm s | search p50 ms | search p95 ms "
        "| peak RSS MiB | fresh `oic-ai search` median s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, r in rows:
        fresh = r.get("fresh_search_median_s")
        print(
            f"| {name} | {r['templates']} | {r['index_cold_s']:.2f} | {r['index_warm_s']:.2f} | "
            f"{r['search_p50_ms']:.1f} | {r['search_p95_ms']:.1f} | {r['peak_rss_mib']:.0f} | "
            f"{f'{fresh:.2f}' if fresh else '-'} |"
        )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        print(json.dumps(in_process(Path(sys.argv[2]), Path(sys.argv[3]), rounds=5)))
    else:
        main()
