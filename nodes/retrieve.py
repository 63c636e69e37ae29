"""``retrieve``: find the best base template of the requested family, with its sources.

The base is the best match within the requested dist, else os, else package family
("RPM-based"); only when the library has nothing of that family does it fall back to the
best overall, with a notice. What the request leaves open gets a sensible default, and
the answer says so (``notices``):

- the architecture: the one named, else the conversation's (the session's template),
  else the registry's default (x86_64). A base of another arch is retargeted to it
  before planning ("assumed x86_64: no architecture was named");
- the purpose: search ranks a specialised template below its distribution's plain base
  unless the request asks for what it has (``tools/retrieval/base_choice.py``), so "a
  headless server" or "an appliance" starts from the minimal base;
- a desktop: "a desktop image" is a raw disk image with a desktop environment, unless an
  installer or a network-boot image is named.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context, run_settings
from oic_ai.nodes.state import Source, State, record
from oic_ai.stores.base_words import load_base_words
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.targets import load_targets
from oic_ai.tools.search_templates import open_search

TOP_SOURCES = 3
_ARCH = re.compile(r"^\s*arch:\s*['\"]?([\w-]+)", re.MULTILINE)


def _family_filters(targets: dict[str, str]) -> list[dict[str, str]]:
    """Filters from narrowest to widest, never wider than the requested dist, os or family.

    The arch is not a filter: a base of the right purpose for another arch is
    retargeted, which is better than a base of the wrong purpose for the right one.
    """
    registry = load_targets()
    dist = targets.get("dist")
    os_name = registry.os_of(dist) if dist else targets.get("os")
    family = registry.family_of(dist) if dist else targets.get("family")
    tries: list[dict[str, str]] = []
    if dist:
        tries.append({"dist": dist})
    if os_name:
        tries.append({"os": os_name})
    if family and family in registry.families:
        tries.append({"family": family})
    tries.append({})
    return tries


def _wanted_arch(targets: dict[str, str], current: str | None) -> tuple[str, str | None]:
    """The arch to build for, and the notice when it was not named."""
    if targets.get("arch"):
        return targets["arch"], None
    match = _ARCH.search(current or "")
    if match:
        arch = load_targets().canonical_arch(match.group(1))
        return arch, f"kept {arch} from the conversation: no architecture was named"
    arch = load_targets().default_arch
    return arch, f"assumed {arch}: no architecture was named"


# a sources line's options ("[arch=amd64 signed-by=...]", "Architectures: arm64")
_ARCH_OPTION = re.compile(r"\barch=[\w,-]+|^\s*Architectures:.*$", re.IGNORECASE | re.MULTILINE)


def _named_in_options(request: str) -> bool:
    """Whether every arch the request names is in a pasted sources line's options."""
    from oic_ai.tools.retrieval.target_mentions import detect_target_spans

    options = [m.span() for m in _ARCH_OPTION.finditer(request)]
    arches = [m for m in detect_target_spans(request) if m.kind == "arch" and not m.source]
    return bool(arches) and all(
        any(start <= m.start < end for start, end in options) for m in arches
    )


def _retarget(text: str, arch: str) -> str:
    """``text`` with its target arch (and what follows from it) changed to ``arch``."""
    from oic_ai.tools.applier import apply_plan
    from oic_ai.tools.edit_plan import EditPlan, SetTarget

    plan = EditPlan(
        summary=f"retarget to {arch}",
        operations=[SetTarget.model_validate({"op": "set_target", "arch": arch})],
    )
    applied = apply_plan(text, plan)
    return applied.text if not applied.not_applied else text


def retrieve(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Search the library, read the base template and fill in the defaults."""
    settings = run_settings(runtime)
    route = record(state, "route")
    targets = dict(route.get("targets", {}))
    # after a refusal, "everything else as I said" searches with the refused request's parts
    request = route.get("carried_request") or state.get("request", "")
    arch, arch_notice = _wanted_arch(targets, state.get("template"))
    search = open_search(settings)
    response = None
    used: dict[str, str] = {}
    for filters in _family_filters(targets):
        response = search.search(
            request, top_k=TOP_SOURCES, filters=filters or None, default_arch=arch
        )
        if response.results:
            used = filters
            break
    if response is None or not response.results:
        raise UserInputError(
            f"the template library {search.templates_dir} has no templates",
            fix="point --templates-dir at a folder of templates",
        )
    notices = list(state.get("notices", []))
    registry = load_targets()
    plain = registry.default_image_type
    if not targets.get("image_type") and response.results[0].metadata.get("image_type") not in (
        None,
        plain,
    ):
        # no image type named: a template means a raw disk image when it does not say, and
        # so does a request ("an eLxr 12 image for our CI runners" is no installer ISO)
        again = search.search(
            request,
            top_k=TOP_SOURCES,
            filters={**used, "image_type": plain},
            default_arch=arch,
        )
        if again.results:
            response = again
    base = response.results[0]
    wanted_os = targets.get("os") or (
        registry.os_of(targets["dist"]) if "dist" in targets else None
    )
    if wanted_os and "dist" not in used and "os" not in used:
        notices.append(
            f"the library has no {wanted_os} template; starting from {base.template} "
            f"({base.metadata.get('os')}) instead"
        )
    elif targets.get("family") and "dist" not in targets and "os" not in targets:
        family = targets["family"]
        notices.append(
            f"started from {base.metadata.get('dist')}: the request names the {family} "
            f"family ({', '.join(registry.families.get(family, ()))}), not a distribution"
        )
    purpose = response.purpose
    desktops = load_base_words().desktop_environments
    if (
        purpose is not None
        and any(c.name in desktops for c in purpose.capabilities)
        and not targets.get("image_type")
    ):
        notices.append(
            "assumed a raw disk image with a desktop environment: no installer was asked for"
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
    base_path = Path(base.path)  # already under the library folder: joining again doubles it
    try:
        base_text = Path(base_path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserInputError(
            f"cannot read base template {base_path} ({exc})", fix="run 'oic-ai index' again"
        ) from None
    if arch_notice is not None:
        notices.append(arch_notice)
        if base.metadata.get("arch") not in (None, arch):
            # the named arch is the planner's to set; an assumed one is set here
            base_text = _retarget(base_text, arch)
    elif base.metadata.get("arch") not in (None, arch) and _named_in_options(request):
        # "deb [arch=amd64 signed-by=...] URL ...": the pasted line names the arch, and the
        # planner reads that line as a repository, so the arch is set here
        base_text = _retarget(base_text, arch)
    route = {**route, "query_type": response.classification.type}
    return {
        "route": route,
        "sources": sources,
        "base_template": base.template,
        "base_text": base_text,
        "notices": notices,
    }
