"""``suggest_packages``: ranked alternatives for package names an index does not have.

Candidates come from three places, in this order of trust:

1. the capability catalog's aliases for the target (``docker-ce`` → ``docker.io`` on
   Debian, ``python`` → ``python3``), kept only if the index has them;
2. packages that *provide* the name (virtual packages);
3. close names in the index (rapidfuzz, normalised Levenshtein ratio).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Required, TypedDict, Unpack

from oic_ai.stores.capability_catalog import CapabilityCatalog, load_catalog

if TYPE_CHECKING:
    from oic_ai.stores.package_index import IndexView

MAX_SUGGESTIONS = 5
SIMILARITY_CUTOFF = 70.0


@dataclass(frozen=True)
class Suggestion:
    """One alternative name and why it is proposed.

    Attributes:
        name: The proposed package name.
        reason: ``alias`` (catalog), ``provides`` (virtual package) or ``similar`` (spelling).
        score: 0-100; aliases and providers score 100.
        verified: True when the index has the name.
    """

    name: str
    reason: str
    score: float
    verified: bool

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-serialisable description (the score to one decimal)."""
        return {**asdict(self), "score": round(self.score, 1)}


def _has(view: IndexView | None, name: str) -> bool:
    return view is not None and bool(view.exact(name))


def rank_alternatives(
    name: str,
    *,
    os: str,
    dist: str,
    arch: str | None = None,
    view: IndexView | None = None,
    catalog: CapabilityCatalog | None = None,
    limit: int = MAX_SUGGESTIONS,
) -> list[Suggestion]:
    """Return at most ``limit`` ranked alternatives for one missing name.

    Without an index (``view`` None or empty) only catalog aliases are proposed,
    marked unverified.

    Args:
        name: The package name that was not found (may be a glob pattern).
        os: Target os.
        dist: Target dist.
        arch: Target arch.
        view: The target's index lookups, or None.
        catalog: The capability catalog (the shipped one by default).
        limit: Most suggestions to return.
    """
    catalog = catalog or load_catalog()
    indexed = view is not None and view.has_index
    found: dict[str, Suggestion] = {}

    def add(suggestion: Suggestion) -> None:
        if suggestion.name != name and suggestion.name not in found:
            found[suggestion.name] = suggestion

    for alias in catalog.aliases(name, os, dist, arch):
        if not indexed:
            add(Suggestion(alias, "alias", 100.0, False))
        elif _has(view, alias):
            add(Suggestion(alias, "alias", 100.0, True))
        else:
            for provider in view.providers(alias) if view is not None else []:
                add(Suggestion(provider, "alias", 95.0, True))
    if indexed and view is not None:
        for provider in view.providers(name):
            add(Suggestion(provider, "provides", 100.0, True))
        for similar, score in _similar(name, view, limit * 2):
            add(Suggestion(similar, "similar", score, True))
    return list(found.values())[:limit]


def _similar(name: str, view: IndexView, limit: int) -> list[tuple[str, float]]:
    from rapidfuzz import fuzz, process

    if any(char in name for char in "*?["):
        prefix = name.split("*")[0].split("?")[0].split("[")[0]
        if len(prefix) < 2:
            return []
        return [(match, 80.0) for match in view.glob(prefix + "*", limit=limit)]
    query = name.lower()
    matches = process.extract(
        query,
        view.names(),
        scorer=fuzz.ratio,
        processor=str.lower,
        limit=limit,
        score_cutoff=SIMILARITY_CUTOFF,
    )
    # best score first; among equals, the length closest to the query
    ranked = sorted(matches, key=lambda m: (-m[1], abs(len(m[0]) - len(name)), m[0]))
    return [(match, float(score)) for match, score, _ in ranked]


class Lookup(TypedDict, total=False):
    """The keyword arguments :func:`suggest_packages` passes on to :func:`rank_alternatives`."""

    os: Required[str]
    dist: Required[str]
    arch: str | None
    view: IndexView | None
    catalog: CapabilityCatalog | None
    limit: int


def suggest_packages(missing: Sequence[str], **lookup: Unpack[Lookup]) -> dict[str, list[str]]:
    """Map each missing name to at most ``limit`` ranked alternative names.

    This is the ADR's ``SuggestPackages(missing) -> map[missing][]alternatives``.
    Names with no alternative map to an empty list.
    """
    return {name: [s.name for s in rank_alternatives(name, **lookup)] for name in missing}


def suggestions_to_json(ranked: Mapping[str, Sequence[Suggestion]]) -> dict[str, Any]:
    """Return ranked suggestions (with reasons) as JSON-serialisable data."""
    return {name: [s.to_json() for s in items] for name, items in ranked.items()}
