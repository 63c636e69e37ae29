"""The targets a request asks for, as the router reads them (split from ``classify``).

Which mentions ask (not a source, not set aside, not taken back by "no wait"), the whole
target they make with the current one, and whether a request corrects the current
template's os or names another.
"""

from __future__ import annotations

import re

from oic_ai.stores.targets import load_targets
from oic_ai.stores.vocabulary import OS_DISTS
from oic_ai.tools.planner.rules.corrections import taken_back
from oic_ai.tools.planner.rules.target import asked_over_described
from oic_ai.tools.retrieval.query_classifier import TargetMention, detect_target_spans
from oic_ai.tools.target_support import set_aside


def dist_os(dist: str) -> str | None:
    """The os a dist belongs to, or None."""
    return next((os for os, dists in OS_DISTS.items() if dist in dists), None)


def asked_targets(request: str) -> tuple[dict[str, str], list[TargetMention]]:
    """The targets the request asks for (kind -> value) and their mentions.

    A mention after "from" names what to move away from, and one after "forget", "not" or
    "no" is set aside: neither is asked for.
    """
    mentions = [
        m
        for m in detect_target_spans(request)
        if m.kind in ("dist", "os", "arch", "image_type")
        and not m.source
        and not set_aside(request, m.start)
        and not taken_back(request, m.start)
    ]
    asked: dict[str, str] = {}
    for mention in sorted(mentions, key=lambda m: m.start):
        asked[mention.kind] = mention.value
    asked.update(asked_over_described(request, mentions))  # "our x86 boxes are retired"
    return asked, mentions


def new_target(current: dict[str, str], asked: dict[str, str]) -> dict[str, str]:
    """The whole target a request asks for, from the current one and the words it names.

    Args:
        current: The template's target (os, dist, arch, imageType); may be partial.
        asked: The targets the request names (dist, os, arch, image_type).

    Returns:
        ``os``, ``dist``, ``arch`` and ``imageType``; an os named without a dist means
        its default dist unless the current dist is already one of its.
    """
    targets = load_targets()
    result = dict(current)
    dist = asked.get("dist")
    if dist is None and asked.get("os") and targets.os_of(current.get("dist")) != asked["os"]:
        dist = targets.oses[asked["os"]].default_dist
    if dist is not None:
        result["dist"] = dist
        result["os"] = targets.dists[dist].os
    if "arch" in asked:
        result["arch"] = asked["arch"]
    if "image_type" in asked:
        result["imageType"] = asked["image_type"]
    result.setdefault("arch", targets.default_arch)
    result.setdefault("imageType", targets.default_image_type)
    result["arch"] = targets.canonical_arch(result["arch"])
    return result


def sets_current_aside(request: str, current_dist: str | None) -> bool:
    """True when the request rules out the os of the current template's dist.

    "should be eLxr not Azure Linux" corrects this image's target; it asks for no new image.
    """
    current = dist_os(current_dist) if current_dist else None
    return current is not None and any(
        (m.negated or set_aside(request, m.start))
        and (m.value if m.kind == "os" else dist_os(m.value)) == current
        for m in detect_target_spans(request)
        if m.kind in ("os", "dist")
    )


def names_other_os(dist: str, template: str) -> bool:
    """True when ``dist`` belongs to another os than the template's dist."""
    match = re.search(r"^\s*dist:\s*['\"]?([\w.-]+)", template, re.MULTILINE)
    return match is not None and dist_os(match.group(1)) != dist_os(dist)
