"""Measure retrieval against labelled queries: hit@1, hit@3 and MRR, with the misses."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from oic_ai.stores.errors import UserInputError


@dataclass(frozen=True)
class LabelledQuery:
    """A query, the file names acceptable as its answer, and its intended type."""

    q: str
    accept: tuple[str, ...]
    type: str | None = None


class _Ranker(Protocol):
    def rank(self, query: str) -> list[str]: ...


def load_queries(path: Path) -> list[LabelledQuery]:
    """Read a queries file shaped ``queries: [{q, accept: [names], type?}]``.

    Raises:
        UserInputError: the file is missing, not YAML, or not in that shape.
    """
    from oic_ai.stores.template_library import read_user_text
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

    text = read_user_text(path, "queries file", fix="check it", missing_fix="check --queries")
    try:
        data = load_data(text)
    except YamlSyntaxError as exc:
        raise UserInputError(
            f"queries file {path} is not valid YAML ({exc})", fix="fix it"
        ) from None
    items = data.get("queries") if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        raise UserInputError(
            f"queries file {path} has no 'queries' list",
            fix="use queries: [{q: ..., accept: [...]}]",
        )
    out = []
    for number, item in enumerate(items, 1):
        if not (
            isinstance(item, dict)
            and isinstance(item.get("q"), str)
            and isinstance(item.get("accept"), list)
            and item["accept"]
        ):
            raise UserInputError(
                f"queries file {path}: entry {number} needs q (text) and accept (a list)",
                fix="fix that entry",
            )
        kind = item.get("type")
        out.append(
            LabelledQuery(
                item["q"], tuple(str(a) for a in item["accept"]), str(kind) if kind else None
            )
        )
    return out


def _name(result_id: str) -> str:
    return result_id.rsplit("/", 1)[-1]


def evaluate(ranked: list[tuple[LabelledQuery, list[str]]]) -> dict[str, Any]:
    """Score rankings (template ids, best first) against their labels."""
    hits1 = hits3 = 0
    reciprocal = 0.0
    misses = []
    for query, ids in ranked:
        names = [_name(i) for i in ids]
        rank = next((n for n, name in enumerate(names, 1) if name in query.accept), None)
        if rank == 1:
            hits1 += 1
        if rank is not None and rank <= 3:
            hits3 += 1
        reciprocal += 1.0 / rank if rank else 0.0
        if rank != 1:
            misses.append(
                {
                    "q": query.q,
                    "type": query.type,
                    "accept": list(query.accept),
                    "got": names[:3],
                    "rank": rank,
                }
            )
    n = len(ranked)
    return {
        "n": n,
        "hit_at_1": round(hits1 / n, 4) if n else 0.0,
        "hit_at_3": round(hits3 / n, 4) if n else 0.0,
        "mrr": round(reciprocal / n, 4) if n else 0.0,
        "misses": misses,
    }
