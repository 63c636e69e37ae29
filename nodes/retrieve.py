"""``retrieve``: find the best base template of the requested family, with its sources."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context, run_settings
from oic_ai.nodes.state import Source, State, record
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.vocabulary import OS_DISTS
from oic_ai.tools.search_templates import open_search

TOP_SOURCES = 3


def _family_filters(targets: dict[str, str]) -> list[dict[str, str]]:
    """Filters from narrowest to widest, never wider than the requested OS family."""
    dist = targets.get("dist")
    os_name = targets.get("os")
    if dist:
        os_name = next((o for o, dists in OS_DISTS.items() if dist in dists), os_name)
    family = {"os": os_name} if os_name else {}
    tries: list[dict[str, str]] = []
    if dist:
        if targets.get("arch"):
            tries.append({"dist": dist, "arch": targets["arch"]})
        tries.append({"dist": dist})
    if family:
        if targets.get("arch"):
            tries.append({**family, "arch": targets["arch"]})
        tries.append(family)
    if not family and targets.get("arch"):
        tries.append({"arch": targets["arch"]})
    tries.append({})
    return tries


def retrieve(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Search the library and read the base template.

    The base is the best match within the requested dist, then OS family; only when the
    library has nothing of that family does it fall back to the best overall, with a notice.
    """
    settings = run_settings(runtime)
    route = record(state, "route")
    targets = dict(route.get("targets", {}))
    request = state.get("request", "")
    search = open_search(settings)
    response = None
    used: dict[str, str] = {}
    for filters in _family_filters(targets):
        response = search.search(request, top_k=TOP_SOURCES, filters=filters or None)
        if response.results:
            used = filters
            break
    if response is None or not response.results:
        raise UserInputError(
            f"the template library {search.templates_dir} has no templates",
            fix="point --templates-dir at a folder of templates",
        )
    notices = list(state.get("notices", []))
    wanted_os = targets.get("os") or next(
        (o for o, d in OS_DISTS.items() if targets.get("dist") in d), None
    )
    if wanted_os and "os" not in used and "dist" not in used:
        best = response.results[0]
        notices.append(
            f"the library has no {wanted_os} template; starting from {best.template} "
            f"({best.metadata.get('os')}) instead"
        )
    sources = [
        Source(
            template=r.template,
            path=r.path,
            score=round(r.score, 4),
            semantic=round(r.semantic, 4),
            keyword=round(r.keyword, 4),
            package=round(r.package, 4),
        )
        for r in response.results
    ]
    base = response.results[0]
    base_path = Path(base.path)  # already under the library folder: joining again doubles it
    try:
        base_text = Path(base_path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserInputError(
            f"cannot read base template {base_path} ({exc})", fix="run 'oic-ai index' again"
        ) from None
    route = {**route, "query_type": response.classification.type}
    return {
        "route": route,
        "sources": sources,
        "base_template": base.template,
        "base_text": base_text,
        "notices": notices,
    }
