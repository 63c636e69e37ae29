"""Retrieval figures: indexing cold/warm, search latency in-process and as a fresh process,
and synthetic libraries of 1,000 and 10,000 templates. Prints a Markdown table.

The synthetic variants get their source template's vector plus noise (see SourceVectors)
unless --embed-all. Each search figure is measured twice on the same index, with the
vectorised BM25 and with rank-bm25 (when installed), and the rankings compared.

Usage: python bench/retrieval.py [--synthetic 1000,10000] [--skip-synthetic] [--embed-all]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import ROOT, cli_median_ms, peak_rss_mib, percentile

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


class SourceVectors:
    """For the synthetic libraries: each variant's vector is its source template's, plus noise.

    Embedding 10,000 variants takes half an hour on two loaded cores and says nothing new
    about search latency, which depends on the store and BM25, not on the vectors' values.
    Queries are embedded by the real model. ``--embed-all`` uses the model for everything.
    """

    def __init__(self, source: Path) -> None:
        import numpy as np

        from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
        from oic_ai.stores.template_library import parse_template_bytes

        self.model = MiniLMEmbedder()
        self.model_id = "synthetic-source-vectors"
        self.dimensions = self.model.dimensions
        texts = []
        for path in sorted(source.glob("*.yml")):
            parsed = parse_template_bytes(path.read_bytes(), path.name)
            assert not isinstance(parsed, str)
            texts.append(parsed.searchable_text())
        self.sources = self.model.embed_array(texts)
        self.rng = np.random.default_rng(1)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        import numpy as np

        rows = []
        for text in texts:
            n = int(text.split("\n", 1)[0].rsplit("-", 1)[-1].split(".")[0])
            vector = self.sources[n % len(self.sources)] + self.rng.normal(0, 0.01, self.dimensions)
            rows.append((vector / np.linalg.norm(vector)).tolist())
        return rows

    def embed_query(self, text: str) -> list[float]:
        return self.model.embed_query(text)


def timed_searches(search: Any, rounds: int) -> list[float]:
    latencies = []
    for _ in range(rounds):
        for query in QUERIES:
            t = time.perf_counter()
            search.search(query)
            latencies.append((time.perf_counter() - t) * 1000)
    return latencies


def in_process(
    templates: Path, data: Path, rounds: int = 20, source_vectors: bool = False
) -> dict[str, float]:
    from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
    from oic_ai.stores.settings import Settings
    from oic_ai.stores.template_index import TemplateIndex, library_key
    from oic_ai.tools.retrieval.hybrid_search import TemplateSearch, _bm25_tokens

    try:
        from oic_ai.tools.retrieval.bm25 import BM25Index
    except ImportError:  # a checkout from before the vectorised BM25, for a comparison
        BM25Index = None  # type: ignore[assignment,misc]

    embedder: Any = SourceVectors(ROOT / "image-templates") if source_vectors else MiniLMEmbedder()
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
    search.search(QUERIES[0])
    tokenized = [_bm25_tokens(item.document) for item in search._corpus or []]
    t = time.perf_counter()
    if BM25Index is not None:
        BM25Index(tokenized)  # what one index version costs to build (then cached)
    load_s = time.perf_counter() - t
    latencies = timed_searches(search, rounds)
    figures = {
        "templates": cold.created,
        "shipped": getattr(cold, "shipped", 0),
        "index_cold_s": cold_s,
        "index_warm_s": warm_s,
        "keyword_load_s": load_s,
        "search_p50_ms": percentile(latencies, 50),
        "search_p95_ms": percentile(latencies, 95),
        "peak_rss_mib": peak_rss_mib(),
    }
    try:  # the same searches with the BM25 this replaced, when it is still installed
        from rank_bm25 import BM25Okapi
    except ImportError:
        return figures
    ours = {q: [r.template for r in search.search(q, top_k=10).results] for q in QUERIES}
    t = time.perf_counter()
    search._bm25 = BM25Okapi(tokenized)
    figures["rank_bm25_build_s"] = time.perf_counter() - t
    theirs = {q: [r.template for r in search.search(q, top_k=10).results] for q in QUERIES}
    figures["same_rankings"] = float(ours == theirs)
    latencies = timed_searches(search, rounds)
    figures["rank_bm25_p50_ms"] = percentile(latencies, 50)
    figures["rank_bm25_p95_ms"] = percentile(latencies, 95)
    return figures


def fresh_process(templates: Path, data: Path, runs: int = 7) -> float:
    """Median seconds of a search as a fresh ``oic-ai`` process, its index already warm."""
    env = {**os.environ, "OIC_AI_DATA_DIR": str(data)}
    args = ["search", "--templates-dir", str(templates), "--json", QUERIES[0]]
    cli_median_ms(args, env, runs=1)  # warm index
    return cli_median_ms(args, env, runs) / 1000


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
    parser.add_argument(
        "--embed-all", action="store_true", help="embed synthetic variants with the model too"
    )
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
                one = ["--one", str(folder), str(Path(tmp) / "data")]
                if not args.embed_all:
                    one.append("--source-vectors")
                out = subprocess.run(
                    [sys.executable, __file__, *one],
                    check=True,
                    stdout=subprocess.PIPE,
                    text=True,
                    cwd=ROOT,
                ).stdout
                rows.append((f"synthetic {count}", json.loads(out)))
                shutil.rmtree(folder)
    print(
        "| library | templates (from shipped vectors) | index cold s | index warm s "
        "| search p50 / p95 ms | same with rank-bm25 p50 / p95 ms | same rankings "
        "| keyword statistics build s (rank-bm25) | peak RSS MiB "
        "| fresh `oic-ai search` median s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, r in rows:
        fresh = r.get("fresh_search_median_s")
        old = (
            f"{r['rank_bm25_p50_ms']:.1f} / {r['rank_bm25_p95_ms']:.1f}"
            if "rank_bm25_p50_ms" in r
            else "-"
        )
        same = {1.0: "yes", 0.0: "NO"}.get(r.get("same_rankings", -1.0), "-")
        build = f"{r['keyword_load_s']:.2f}" + (
            f" ({r['rank_bm25_build_s']:.2f})" if "rank_bm25_build_s" in r else ""
        )
        print(
            f"| {name} | {r['templates']} ({r.get('shipped', 0)}) | {r['index_cold_s']:.2f} "
            f"| {r['index_warm_s']:.2f} | {r['search_p50_ms']:.1f} / {r['search_p95_ms']:.1f} "
            f"| {old} | {same} | {build} | {r['peak_rss_mib']:.0f} "
            f"| {f'{fresh:.2f}' if fresh else '-'} |"
        )
    load = os.getloadavg()
    print(f"\nload average at the end: {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}")


if __name__ == "__main__":
    if len(sys.argv) in (4, 5) and sys.argv[1] == "--one":
        source_vectors = sys.argv[4:] == ["--source-vectors"]
        figures = in_process(Path(sys.argv[2]), Path(sys.argv[3]), 5, source_vectors)
        print(json.dumps(figures))
    else:
        main()
