"""Retrieval quality side by side: our scoring vs the upstream tool's Phase-1 scoring.

Upstream Phase 1 uses fixed weights (0.70 semantic, 0.20 keyword, 0.10 package), no query
classification, no negation penalty, and drops anything under a 0.40 minimum score (so a
query can get no answer). It is re-expressed here on the same embeddings, the same BM25
and package components and the same labelled queries, so only the scoring differs.

Usage: python bench/quality.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
UPSTREAM = ROOT.parent / "shared" / "reference" / "os-image-composer" / "image-templates"


def upstream_rank(results: list, weights=(0.70, 0.20, 0.10), minimum: float = 0.40) -> list[str]:
    scored = [
        (weights[0] * r.semantic + weights[1] * r.keyword + weights[2] * r.package, r.path)
        for r in results
    ]
    return [path for score, path in sorted(scored, reverse=True) if score >= minimum]


def measure(templates: Path, queries_file: Path, data: Path) -> dict[str, dict[str, float]]:
    from oic_ai.stores.settings import load_settings
    from oic_ai.tools.retrieval.evaluation import evaluate, load_queries
    from oic_ai.tools.retrieval.hybrid_search import TemplateSearch

    search = TemplateSearch.open(load_settings(data_dir=data, templates_dir=templates, env={}))
    search.refresh()
    queries = load_queries(queries_file)
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
    sets = [("our library", ROOT / "image-templates", ROOT / "tests/eval/retrieval.yaml")]
    if UPSTREAM.is_dir():
        sets.append(("upstream library", UPSTREAM, ROOT / "tests/eval/retrieval-upstream.yaml"))
    print("| library | scoring | queries | hit@1 | hit@3 | MRR | empty answers |")
    print("|---|---|---|---|---|---|---|")
    for label, templates, queries in sets:
        with tempfile.TemporaryDirectory() as tmp:
            for scoring, row in measure(templates, queries, Path(tmp)).items():
                print(
                    f"| {label} | {scoring} | {row['n']} | {row['hit_at_1']:.3f} | "
                    f"{row['hit_at_3']:.3f} | {row['mrr']:.3f} | {row['empty']} |"
                )


if __name__ == "__main__":
    main()
