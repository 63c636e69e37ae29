"""A release of the current image's os said by its number alone, or as newer or older.

People who have an Ubuntu image say "switch it to 26 then", "move it to 26.04", "upgrade to
version 26", "ok 26 instead", "make it the newer LTS", "go with the latest release": the os
is the one the template is on, so the words name one of its dists. :func:`resolve_releases`
writes the dist's title ("Ubuntu 26.04") in the words' place, and the router reads a
target as it reads "switch it to Ubuntu 26.04".

A number counts only where a release is asked for: after a verb of moving to ("switch it
to", "upgrade to", "go to") or "version"/"release", or opening the request ("26 then"); and
only when the os has a release of that number. "switch the disk to 26 GB", "set loglevel
to 4" and "add 26 users" name no release. Newer and older count from the current dist, in
the os's releases ("LTS" only among long-term ones); when there is none, nothing changes.
"""

from __future__ import annotations

import re

from oic_ai.stores.targets import Dist, load_targets
from oic_ai.tools.target_support import target_of

# the current image, moved: "switch it to", "upgrade to", "move this over to", "go to"
_MOVE = (
    r"(?:switch|move|change|upgrade|bump|go|jump|update|downgrade|rebase|retarget|put)"
    r"(?:\s+(?:it|this|that|this\s+one|the\s+(?:image|template|build|os|distro)|everything))?"
    r"(?:\s+(?:up|down|over|back))?\s+(?:to|onto)\s+"
)
_PICK = r"(?:use|take|pick|try|go\s+with|stick\s+with|do|make\s+it|build\s+it\s+on|on)\s+"
_OPENING = r"^\W*(?:(?:ok(?:ay)?|fine|sure|alright|right|yes|yeah|so|well|hm+|then)\W+)*"
_NUMBER = r"(?:(?:version|release|v)\s*)?(?P<n>\d{1,2}(?:\.\d{1,2})?)"
_ENDS = r"(?=\s*(?:$|[,.;:!?)]|\b(?:then|instead|please|pls|now|and|but|lts|for|too)\b))"
_BY_NUMBER = re.compile(
    rf"(?:\b{_MOVE}|\b{_PICK}(?=(?:version|release|v)\s*\d)|{_OPENING})(?P<said>{_NUMBER}){_ENDS}",
    re.IGNORECASE,
)
# "the newer LTS", "the latest release", "the previous ubuntu version", "newest lts"
_RELATIVE = re.compile(
    r"\b(?P<said>(?:the\s+)?(?P<way>newer|newest|latest|next|more\s+recent|most\s+recent|"
    r"older|oldest|previous|earlier)\s+(?:(?P<os>[a-z][\w-]*)\s+)?"
    r"(?P<noun>lts|release|version|one)(?:\s+(?:release|version))?)\b(?!\s+of\b)",
    re.IGNORECASE,
)


def _release(dist: Dist) -> tuple[int, ...]:
    version = str(dist.os_release.get("version_id") or "")
    if not version:
        found = re.search(r"(\d+(?:\.\d+)*)\s*$", dist.title)
        version = found.group(1) if found else ""
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def _lts(dist: Dist) -> bool:
    release = _release(dist)
    return dist.os == "ubuntu" and len(release) == 2 and release[0] % 2 == 0 and release[1] == 4


def _releases(os_name: str) -> list[Dist]:
    dists = [d for d in load_targets().dists.values() if d.os == os_name and _release(d)]
    return sorted(dists, key=_release)


def _numbered(said: str, dists: list[Dist]) -> Dist | None:
    wanted = tuple(int(part) for part in said.split("."))
    found = [d for d in dists if _release(d)[: len(wanted)] == wanted]
    return found[0] if len(found) == 1 else None


def _relative(way: str, noun: str, current: Dist, dists: list[Dist]) -> Dist | None:
    if noun.lower() == "lts":
        dists = [d for d in dists if _lts(d)]
    way = " ".join(way.lower().split())
    newer = [d for d in dists if _release(d) > _release(current)]
    older = [d for d in dists if _release(d) < _release(current)]
    if way in ("newer", "next", "more recent"):
        return newer[0] if newer else None
    if way in ("newest", "latest", "most recent"):
        return newer[-1] if newer else None
    if way in ("older", "previous", "earlier"):
        return older[-1] if older else None
    return older[0] if older else None  # oldest


def resolve_releases(request: str, template: str | None) -> str:
    """``request`` with a release said by number or as newer/older written as its dist's title.

    Args:
        request: The user's words.
        template: The session's template (its os gives the releases); None leaves the words.

    Returns:
        The request, with "26" in "switch it to 26 then" written "Ubuntu 26.04" and "the
        newer LTS" in "make it the newer LTS" written "Ubuntu 26.04", when the template's
        os has that release; otherwise as it was.
    """
    if not template:
        return request
    targets = load_targets()
    current = targets.dists.get(target_of(template).get("dist") or "")
    if current is None:
        return request
    dists = _releases(current.os)
    if len(dists) < 2:
        return request
    found = _BY_NUMBER.search(request)
    if found is not None and (dist := _numbered(found.group("n"), dists)) is not None:
        return request[: found.start("said")] + dist.title + request[found.end("said") :]
    for match in _RELATIVE.finditer(request):
        named = (match.group("os") or "").lower()
        if named and named not in (current.os, *current.keywords):
            continue  # "the newer nginx version" names a package's version
        if match.group("noun").lower() == "one" and not named:
            continue  # "the previous one" is an earlier template (an undo)
        if (dist := _relative(match.group("way"), match.group("noun"), current, dists)) is not None:
            return request[: match.start("said")] + dist.title + request[match.end("said") :]
    return request
