"""Retrieval quality side by side: our scoring vs the upstream tool's Phase-1 scoring.

Upstream Phase 1 uses fixed weights (0.70 semantic, 0.20 keyword, 0.10 package), no query
classification, no negation penalty, and drops anything under a 0.40 minimum score (so a
query can get no answer). It is re-expressed here on the same embeddings, the same BM25
and package components and the same labelled queries, so only the scoring differs.

Usage: python bench/quality.py
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _common import ROOT

UPSTREAM = ROOT.parent / "shared" / "reference" / "os-image-composer" / "image-templates"


def upstream_rank(results: list, weights=(0.70, 0.20, 0.10), minimum: float = 0.40) -> list[str]:
    scored = [
        (weights[0] * r.semantic + weights[1] * r.keyword + weights[2] * r.package, r.path)
        for r in results
    ]
    return [path for score, path in sorted(scored, reverse=True) if score >= minimum]


def libraries(
    ours: tuple[str, Path], upstream: tuple[str, Path]
) -> Iterator[tuple[str, Any, list[Any]]]:
    """``(label, search, labelled queries)`` for our library, then upstream's where it is.

    ``ours`` and ``upstream`` are each a label and a query file; each search indexes its
    library into a fresh folder.
    """
    from oic_ai.stores.settings import load_settings
    from oic_ai.tools.retrieval.evaluation import load_queries
    from oic_ai.tools.retrieval.hybrid_search import TemplateSearch

    sets = [(*ours, ROOT / "image-templates")]
    if UPSTREAM.is_dir():
        sets.append((*upstream, UPSTREAM))
    for label, queries, templates in sets:
        with tempfile.TemporaryDirectory() as tmp:
            settings = load_settings(data_dir=Path(tmp), templates_dir=templates, env={})
            search = TemplateSearch.open(settings)
            search.refresh()
            yield label, search, load_queries(queries)


def measure(search: Any, queries: list[Any]) -> dict[str, dict[str, float]]:
    from oic_ai.tools.retrieval.evaluation import evaluate

    ours, theirs = [], []
    empty = 0
    for query in queries:
        response = search.search(query.q, top_k=200, pool=200)
        ours.append((query, [r.path for r in response.results[:5]]))
        # the upstream tool reads the query as written: no spelling or paraphrase reading
        raw = search.search(query.q, top_k=200, pool=200, understand=False)
        ranked = upstream_rank(raw.results)
        empty += not ranked
        theirs.append((query, ranked[:5]))
    a, b = evaluate(ours), evaluate(theirs)
    return {
        "oic-ai (classified profiles, negation, no empty answers)": {
            **{k: a[k] for k in ("hit_at_1", "hit_at_3", "mrr")},
            "empty": 0,
            "n": a["n"],
        },
        "upstream Phase 1 (0.70/0.20/0.10, min 0.40)": {
            **{k: b[k] for k in ("hit_at_1", "hit_at_3", "mrr")},
            "empty": empty,
            "n": b["n"],
        },
    }


def main() -> None:
    eval_dir = ROOT / "tests" / "eval"
    print("| library | scoring | queries | hit@1 | hit@3 | MRR | empty answers |")
    print("|---|---|---|---|---|---|---|")
    for label, search, labelled in libraries(
        ("our library", eval_dir / "retrieval.yaml"),
        ("upstream library", eval_dir / "retrieval-upstream.yaml"),
    ):
        for scoring, row in measure(search, labelled).items():
            print(
                f"| {label} | {scoring} | {row['n']} | {row['hit_at_1']:.3f} | "
                f"{row['hit_at_3']:.3f} | {row['mrr']:.3f} | {row['empty']} |"
            )


if __name__ == "__main__":
    main()
