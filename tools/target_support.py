"""Requests for systems the composer cannot build: found before any template is made.

The systems and their phrases are data (``request.unsupported`` entries with a ``name``
in ``stores/data/targets.yaml``). A mention does not count when it is negated or left
behind ("not windows", "instead of Windows Server", "migrate from Fedora"), when it
describes what the image serves or runs ("alpine containers", "windows clients"), or
when the request also names a supported distribution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from oic_ai.stores.targets import load_targets
from oic_ai.tools.retrieval.query_classifier import WORD_END, WORD_START, detect_target_spans

# words right before a mention that make it something to move away from, or not wanted
_LEFT_BEHIND = re.compile(
    r"(?:\bnot|\bno|\bnon|without|instead\s+of|rather\s+than|unlike|\bfrom|replac\w*|"
    r"migrat\w*|moving|\bmove|\bthan|versus|\bvs\.?)\s+(?:[\w'-]+\s+){0,2}$"
)
# words right after a mention that make it what the image serves, hosts or runs
_SERVED = re.compile(
    r"\s*(?:-?based\s+)?(?:containers?|container\s+images?|docker\s+images?|base\s+images?|"
    r"vms?\b|virtual\s+machines?|guests?|clients?|workloads?|apps?\b|applications?|"
    r"shares?|file\s+shares?|hosts?\s+on|machines\s+on\s+the)"
)


@dataclass(frozen=True)
class UnsupportedRequest:
    """A request for a system the composer has no configuration for.

    Attributes:
        named: The system as the request wrote it ("Windows Server 2022").
        system: The registry's name for it ("Windows", "Arch Linux").
        nearest: The supported dist offered instead, or None (not Linux).
        suggestion: The request with the system swapped for ``nearest``, or None.
    """

    named: str
    system: str
    nearest: str | None
    suggestion: str | None


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[re.Pattern[str], str, str], ...]:
    return tuple(
        (re.compile(rf"{WORD_START}(?:{entry.phrase}){WORD_END}"), entry.name, entry.nearest)
        for entry in load_targets().unsupported
        if entry.name
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
    for pattern, system, nearest in _patterns():
        for match in pattern.finditer(work):
            before = work[max(0, match.start() - 60) : match.start()]
            if _LEFT_BEHIND.search(before) or _SERVED.match(work, match.end()):
                continue
            if _names_a_supported_dist(request):
                return None
            named = " ".join(request[match.start() : match.end()].split())
            suggestion = None
            if nearest:
                title = load_targets().title(nearest)
                rest = request[: match.start()] + title + request[match.end() :]
                suggestion = " ".join(rest.split())
            return UnsupportedRequest(named, system, nearest or None, suggestion)
    return None


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
