"""What the composer cannot build: refused systems, and combinations without OS defaults.

Two kinds of request get status ``unsupported`` before any template is made:

- a system the composer has no configuration for (Windows, Ubuntu 22.04, CentOS 7): the
  systems and their phrases are data (``request.unsupported`` in
  ``stores/data/targets.yaml``). A mention does not count when it is negated or left
  behind ("not windows", "instead of Windows Server", "migrate from Fedora"), when it
  describes what the image serves or runs ("alpine containers", "windows clients"), when
  it is a repository field or a lineage ("suite bookworm", "bookworm-based"), or when the
  request also names a supported distribution (a system only: an arch that no dist builds,
  such as armhf or RISC-V, is refused whatever dist is named). A system named as what
  the user has, had or moves off ("our current CBL-Mariner 2.0 hosts", "old CentOS boxes
  had docker", "migrating off CentOS 7") is context, not a request for it;
- a supported dist on an arch and image type the composer has no OS defaults for (an ISO
  or network-boot image for aarch64): the facts are each dist's ``builds`` in the same
  file. :func:`unbuildable` names the nearest buildable combinations.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from oic_ai.stores.targets import UnsupportedTarget, load_targets
from oic_ai.tools.retrieval.query_classifier import WORD_END, WORD_START, detect_target_spans
from oic_ai.tools.retrieval.target_mentions import is_context

# words right before a mention that make it something to move away from, or not wanted
_LEFT_BEHIND = re.compile(
    r"(?:\bnot|\bno|\bnon|without|instead\s+of|rather\s+than|unlike|\bfrom|replac\w*|"
    r"migrat\w*|moving|\bmove|\bthan|versus|\bvs\.?)\s+(?:[\w'-]+\s+){0,2}$"
)
# words right before a mention that make it a repository's field, or part of a URL
_REPOSITORY_FIELD = re.compile(
    r"(?:suite|codename|code\s+name|distribution|dist|release|component|repo(?:sitory)?|url)"
    r"\s*[:=]?\s*(?:is\s+)?$|\S*(?:://|/)\S*\s+$"
)
# words right after a mention that make it a lineage ("bookworm-based eLxr")
_LINEAGE = re.compile(r"[\s-]*based\b")
# words right after a mention that make it what the image serves, hosts or runs
_SERVED = re.compile(
    r"\s*(?:-?based\s+)?(?:containers?|container\s+images?|docker\s+images?|base\s+images?|"
    r"vms?\b|virtual\s+machines?|guests?|clients?|workloads?|apps?\b|applications?|"
    r"shares?|file\s+shares?|hosts?\s+on|machines\s+on\s+the)"
)

# a system put beside the image, not asked to be it: "windows 11 alongside it for dual
# boot" (the planner reports it), "dual-boot with windows"
_BESIDE = re.compile(
    r"(?:\s*\d+)?\s+(?:(?:as\s+well\s+|too\s+)?(?:alongside|beside|next\s+to)"
    r"|side\s+by\s+side)\b"
)
_BESIDE_BEFORE = re.compile(r"\bdual[\s-]?boot(?:ing|ed)?\s+(?:with\s+|into\s+)?$")

# words right before a target mention that set it aside: "forget arm", "not the ISO",
# "skip the iso", "never mind the installer"
_SET_ASIDE = re.compile(
    r"(?:\bforget(?:\s+about)?|\bnot|\bno|never\s+mind|\bskip|\bdrop|\bwithout|\bditch)"
    r"\s+(?:the\s+|an?\s+)?$",
    re.IGNORECASE,
)


def set_aside(text: str, start: int) -> bool:
    """True when the target mention at ``start`` is set aside, not asked for ("forget arm")."""
    return _SET_ASIDE.search(text[max(0, start - 24) : start]) is not None


@dataclass(frozen=True)
class UnsupportedRequest:
    """A request for a system the composer has no configuration for.

    Attributes:
        named: The system as the request wrote it ("Windows Server 2022").
        system: The registry's name for it ("Windows", "Arch Linux").
        nearest: The supported dist offered instead, or None (not Linux).
        suggestion: The request with the system swapped for ``nearest``, or None.
        os: The os it is a release of ("ubuntu" for Ubuntu 22.04), or None.
        arch: The schema's name for the arch it is ("armv7hl"), or None.
    """

    named: str
    system: str
    nearest: str | None
    suggestion: str | None
    os: str | None = None
    arch: str | None = None


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[re.Pattern[str], UnsupportedTarget], ...]:
    return tuple(
        (re.compile(rf"{WORD_START}(?:{entry.phrase}){WORD_END}"), entry)
        for entry in load_targets().unsupported
        if entry.name
    )


# a build system asked for as the image: "a Yocto-based variant", "as a Buildroot image"
_IMAGE_OF_IT_AFTER = re.compile(r"[\s-]+(?:variant|version|image|build|flavou?r|one)s?\b")
_ASKING_BEFORE = re.compile(
    r"\b(?:do|make|build|give\s+(?:me|us)|want|need|get|as|try|create|produce|prefer)"
    r"\s+(?:(?:me|us|it|this|that)\s+)?(?:as\s+)?(?:an?|the)\s+$"
    r"|(?:^|[.!?;:]\s*)\s*an?\s+$"  # a request that opens with it: "a buildroot image ..."
)


# a build system asked for as what builds the image: "build it for Yocto instead", "switch
# it to buildroot", "redo this with yocto" (not "our Yocto layers", "moving off buildroot")
_BUILT_WITH_BEFORE = re.compile(
    r"\b(?:build|make|redo|do|port|switch|move|convert|target|rebuild|base)\s+"
    r"(?:(?:it|this|that|them|everything|the\s+(?:image|template|whole\s+thing))\s+)?"
    r"(?:for|on|to|with|in|using|into|onto)\s+(?:an?\s+|the\s+)?$"
)


# a subject before the verb makes it a statement: "we build with yocto today"
_SAYS_WHO = re.compile(r"\b(?:we|they|i|he|she|who|which|that)(?:'\w+)?\s+(?:[\w-]+\s+){0,2}$")


def _asked_as_image(work: str, match: re.Match[str]) -> bool:
    before = work[max(0, match.start() - 40) : match.start()]
    return bool(
        _ASKING_BEFORE.search(before) and _IMAGE_OF_IT_AFTER.match(work, match.end())
    ) or bool(
        (built := _BUILT_WITH_BEFORE.search(before))
        and not _SAYS_WHO.search(before, 0, built.start())
    )


def _names_a_supported_dist(request: str) -> bool:
    return any(
        mention.kind in ("dist", "os") and not mention.source
        for mention in detect_target_spans(request)
    )


def find_unsupported(request: str) -> UnsupportedRequest | None:
    """The system the request asks for that the composer cannot build, or None.

    Args:
        request: The user's words.

    Returns:
        The first such mention that is really asked for, with the nearest supported
        alternative; None when there is none or a supported distribution is named too.
    """
    work = "".join(c.lower() if len(c.lower()) == 1 else c for c in request)
    for pattern, entry in _patterns():
        nearest, kind = entry.nearest, entry.kind
        for match in pattern.finditer(work):
            before = work[max(0, match.start() - 60) : match.start()]
            if _LEFT_BEHIND.search(before) or _SERVED.match(work, match.end()):
                continue
            if _BESIDE.match(work, match.end()) or _BESIDE_BEFORE.search(before):
                continue  # "windows 11 alongside it for dual boot": beside the image
            if set_aside(work, match.start()):
                continue  # "ok forget armv7. back to arm64": set aside, not asked for
            if _REPOSITORY_FIELD.search(before) or _LINEAGE.match(work, match.end()):
                continue
            if kind == "build system" and not _asked_as_image(work, match):
                continue  # "our Yocto layers", "moving off buildroot": named, not asked for
            if kind != "arch" and is_context(work, match.start(), match.end()):
                continue  # "our current CBL-Mariner 2.0 hosts", "old CentOS boxes had docker"
            if kind != "arch" and _names_a_supported_dist(request):
                return None  # "Debian 13 like our Fedora boxes"; an arch has no such way out
            named = " ".join(request[match.start() : match.end()].split())
            suggestion = None
            if nearest:
                title = load_targets().title(nearest)
                rest = request[: match.start()] + title + request[match.end() :]
                suggestion = " ".join(rest.split())
            return UnsupportedRequest(
                named, entry.name, nearest or None, suggestion, entry.os or None, entry.arch or None
            )
    return None


def refused_target(
    found: UnsupportedRequest, asked: Mapping[str, str], kept: Mapping[str, str]
) -> dict[str, str]:
    """The target a refused request names: the os it is a release of, its arch and type.

    Args:
        found: The refused system.
        asked: The targets the request names (``arch``, ``image_type`` ...).
        kept: The supported dist (and image type) it named beside the refused arch.
    """
    named: dict[str, str] = dict(kept)
    os_name = found.os or (load_targets().os_of(kept["dist"]) if kept.get("dist") else None)
    if os_name:
        named["os"] = os_name
    if arch := (found.arch or asked.get("arch")):
        named["arch"] = arch
    if asked.get("image_type"):
        named["imageType"] = asked["image_type"]
    return named


def supported_targets_line() -> str:
    """Every distribution and arch the composer builds, for a refusal message."""
    targets = load_targets()
    dists = ", ".join(f"{targets.title(dist)} ({dist})" for dist in targets.dists)
    # arches a request can name (armv7hl is known to the schema only)
    arches = " and ".join(name for name, arch in targets.arches.items() if arch.words)
    return f"{dists}; on {arches}"


def refusal_message(found: UnsupportedRequest) -> list[str]:
    """The lines that answer a refused request: why, what is built, what to try."""
    lines = [
        f"No template: os-image-composer cannot build {found.named}; "
        "it has no configuration for it.",
        f"It builds Linux images for {supported_targets_line()}.",
    ]
    if found.nearest and found.suggestion:
        title = load_targets().title(found.nearest)
        lines.append(f"Nearest supported: {title} ({found.nearest}); try '{found.suggestion}'.")
    return lines


# --- combinations without OS defaults ---------------------------------------------------


@dataclass(frozen=True)
class UnbuildableTarget:
    """A dist, arch and image type the composer has no OS defaults for.

    Attributes:
        dist: The dist, or None when the request names none (no dist builds it then).
        arch: The arch.
        image_type: The image type.
        options: The nearest buildable ``(dist, arch, imageType)`` combinations, best first.
    """

    dist: str | None
    arch: str
    image_type: str
    options: tuple[tuple[str | None, str, str], ...]


def unbuildable(dist: str | None, arch: str, image_type: str) -> UnbuildableTarget | None:
    """The combination as an :class:`UnbuildableTarget` when the composer cannot build it.

    Args:
        dist: The dist; None to ask whether any dist builds ``arch`` and ``image_type``.
        arch: The arch (the composer's name).
        image_type: The image type.

    Returns:
        None when it is buildable (or names an unknown dist, left to validation).
    """
    targets = load_targets()
    if dist is not None:
        if dist not in targets.dists or targets.buildable(dist, arch, image_type):
            return None
        return UnbuildableTarget(
            dist, arch, image_type, targets.nearest_buildable(dist, arch, image_type)
        )
    if any(targets.buildable(d, arch, image_type) for d in targets.dists):
        return None
    options: dict[tuple[str | None, str, str], None] = {}
    for other in targets.dists:
        for _, other_arch, other_type in targets.nearest_buildable(other, arch, image_type):
            options[(None, other_arch, other_type)] = None
    return UnbuildableTarget(None, arch, image_type, tuple(options))


def combination_words(dist: str | None, arch: str, image_type: str, *, plural: bool = False) -> str:
    """The combination in words: "Ubuntu 24.04 ISO installer for aarch64"."""
    targets = load_targets()
    title = targets.image_type_title(image_type, image_type) + ("s" if plural else "")
    return " ".join(w for w in (targets.title(dist) if dist else "", title, f"for {arch}") if w)


def builds_line(dist: str) -> str:
    """What the composer builds of one dist: "raw disk images for x86_64 and aarch64; ..."."""
    targets = load_targets()
    found = targets.dists.get(dist)
    if found is None:
        return ""
    parts = [
        f"{targets.image_type_title(kind, kind)}s for {' and '.join(arches)}"
        for kind, arches in found.builds.items()
        if arches
    ]
    return "; ".join(parts)


def unbuildable_message(found: UnbuildableTarget) -> list[str]:
    """The lines that answer a request for a combination the composer cannot build."""
    what = combination_words(found.dist, found.arch, found.image_type, plural=True)
    lines = [
        f"No template: os-image-composer has no OS defaults for {what}, so it cannot build them."
    ]
    if found.dist:
        lines.append(f"For {load_targets().title(found.dist)} it builds {builds_line(found.dist)}.")
    if found.options:
        words = [combination_words(d, arch, kind) for d, arch, kind in found.options]
        lines.append("Nearest buildable: " + ", or ".join(words) + ".")
    return lines


def target_of(text: str | None) -> dict[str, str]:
    """The ``target`` section of a template text (os, dist, arch, imageType), or {}."""
    if not text:
        return {}
    import yaml

    try:
        data: Any = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506
    except yaml.YAMLError:
        return {}
    target = data.get("target") if isinstance(data, Mapping) else None
    if not isinstance(target, Mapping):
        return {}
    return {str(k): str(v) for k, v in target.items() if isinstance(v, str | int | float)}


def unbuildable_target_of(text: str | None) -> UnbuildableTarget | None:
    """The template's own target when the composer cannot build it (a known dist), else None."""
    target = target_of(text)
    dist = target.get("dist")
    if not dist:
        return None
    arch = load_targets().canonical_arch(target.get("arch") or load_targets().default_arch)
    image_type = target.get("imageType") or load_targets().default_image_type
    return unbuildable(dist, arch, image_type)


def target_matches(target: Mapping[str, str], wanted: Mapping[str, str]) -> bool:
    """True when a template's ``target`` has every field of ``wanted``.

    Arch spellings and the default arch and image type count.
    """
    targets = load_targets()
    for field, value in wanted.items():
        if field == "arch":
            have = targets.canonical_arch(target.get("arch") or targets.default_arch)
            if have != targets.canonical_arch(value):
                return False
        elif field == "imageType":
            if (target.get("imageType") or targets.default_image_type) != value:
                return False
        elif target.get(field) != value:
            return False
    return True
