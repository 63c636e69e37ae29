"""Request understanding: search quality on typo, paraphrase and negation requests.

The queries are the create requests of ``tests/data/understanding.yaml``, labelled for our
library (``tests/data/understanding-retrieval.yaml``) and for the composer's upstream
library (``tests/data/understanding-retrieval-upstream.yaml``, read in place from
``shared/reference``). For each library it prints hit@1, hit@3 and MRR, overall and per
kind, for oic-ai's search and, side by side, for the upstream tool's Phase-1 scoring as
``bench/quality.py`` re-expresses it (fixed 0.70/0.20/0.10 weights, no classification, no
negation penalty, minimum score 0.40) over the same embeddings, BM25 and package
components of the query exactly as written (the upstream tool reads no misspelling or
paraphrase). It also times reading a request (spelling and paraphrases) in-process.

Usage: python bench/understanding.py
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from _common import ROOT
from quality import libraries, upstream_rank

DATA = ROOT / "tests" / "data"


def measure(search: Any, queries: list[Any]) -> list[tuple[str, str, dict]]:
    from oic_ai.tools.retrieval.evaluation import evaluate

    ours, theirs = [], []
    for query in queries:
        response = search.search(query.q)
        ours.append((query, [r.path for r in response.results[:5]]))
        raw = search.search(query.q, top_k=200, pool=200, understand=False)
        theirs.append((query, upstream_rank(raw.results)[:5]))
    rows = []
    kinds = ["all", *sorted({q.type or "" for q in queries})]
    for scoring, ranked in (("oic-ai", ours), ("upstream Phase 1", theirs)):
        for kind in kinds:
            subset = [(q, ids) for q, ids in ranked if kind == "all" or q.type == kind]
            rows.append((scoring, kind, evaluate(subset)))
    return rows


def reading_times(rounds: int = 20) -> tuple[float, float]:
    import yaml

    from oic_ai.tools.planner.text import planner_vocabulary
    from oic_ai.tools.retrieval.spelling import read_request

    cases = yaml.safe_load((DATA / "understanding.yaml").read_text(encoding="utf-8"))
    texts = [case["request"] for case in cases["requests"]]
    vocabulary = planner_vocabulary()
    read_request(texts[0], vocabulary)  # load the vocabulary once
    times = []
    for _ in range(rounds):
        for text in texts:
            started = time.perf_counter()
            read_request(text, vocabulary)
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def main() -> None:
    print("| library | scoring | kind | n | hit@1 | hit@3 | MRR |")
    print("|---|---|---|---|---|---|---|")
    for label, search, labelled in libraries(
        ("ours", DATA / "understanding-retrieval.yaml"),
        ("upstream", DATA / "understanding-retrieval-upstream.yaml"),
    ):
        for scoring, kind, row in measure(search, labelled):
            print(
                f"| {label} | {scoring} | {kind} | {row['n']} | {row['hit_at_1']:.3f} | "
                f"{row['hit_at_3']:.3f} | {row['mrr']:.3f} |"
            )
    median, p95 = reading_times()
    print()
    print(f"reading a request (spelling + paraphrases), p50 / p95: {median:.3f} / {p95:.3f} ms")


if __name__ == "__main__":
    main()
