"""Machines named again by their noun, after an earlier turn gave them an architecture.

"same iso but for the arm64 tablets" ... "then make a raw image for the tablets": the
tablets were said to be arm64, so the request that names them again without an
architecture means arm64 too. :func:`resolve_machine_arch` puts the architecture said
earlier before the noun ("for the arm64 tablets"), so the target rule reads it. Only a
definite noun after "for" or "on" ("for the tablets", "on those boxes") that an earlier
request said with exactly one architecture; a request that names an architecture itself
stays as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from oic_ai.stores.targets import load_targets

# "for the tablets", "on those boxes", "for our pickup-counter tablets": the noun is last
_NAMED_AGAIN = re.compile(
    r"\b(?:for|on)\s+(?:the|those|these|our|them|its)\s+(?:(?:[a-z][\w-]*)\s+){0,2}?"
    r"(?P<noun>[a-z]{3,}s)\b",
    re.IGNORECASE,
)


def _arch_words() -> dict[str, str]:
    """Each word that names an architecture in a request, and the arch it names."""
    found: dict[str, str] = {}
    for arch in load_targets().arches.values():
        for word in (arch.name, *arch.words):
            found[word.lower()] = arch.name
    return found


def _names_an_arch(text: str, words: dict[str, str]) -> bool:
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    if re.search(rf"(?<![\w-])(?:{alternatives})(?![\w-])", text, re.IGNORECASE):
        return True
    return any(
        bool(arch.phrase) and re.search(arch.phrase, text, re.IGNORECASE) is not None
        for arch in load_targets().arches.values()
    )


def _arch_said_of(noun: str, history: Sequence[str], words: dict[str, str]) -> str | None:
    """The arch word the latest earlier request said of ``noun`` ("arm64 tablets")."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    before = re.compile(
        rf"(?<![\w-])(?P<arch>{alternatives})\s+(?:[a-z][\w-]*\s+){{0,2}}?{re.escape(noun)}\b",
        re.IGNORECASE,
    )
    after = re.compile(
        rf"\b{re.escape(noun)}\s+(?:are|run|use|have)\s+(?:on\s+)?(?:an?\s+)?(?:all\s+)?"
        rf"(?P<arch>{alternatives})(?![\w-])",
        re.IGNORECASE,
    )
    for said in reversed(history):
        found = {m["arch"].lower() for p in (before, after) for m in p.finditer(said)}
        arches = {words[w] for w in found}
        if len(arches) == 1:
            return sorted(found)[0]
        if arches:
            return None  # two architectures said of the same noun: no telling which
    return None


def resolve_machine_arch(request: str, history: Sequence[str]) -> str:
    """``request`` with the architecture said earlier of the machines it names again."""
    words = _arch_words()
    if not history or _names_an_arch(request, words):
        return request
    for match in _NAMED_AGAIN.finditer(request):
        noun = match["noun"]
        arch = _arch_said_of(noun, history, words)
        if arch is not None:
            at = match.start("noun")
            return f"{request[:at]}{arch} {request[at:]}"
    return request
