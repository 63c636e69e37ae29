"""Repositories the template lists, named by the user: "the openvino repo", "drop that mirror".

People name a listed repository by a word of its address ("the intel gpu repo" for
``https://repositories.intel.com/gpu/ubuntu``), by its codename, by its URL, or, when the
template lists only one, as "the repo". The repository meant is the one whose URL and
codename hold most of the words the clause says before the repository word; a tie names
none (the answer then lists them). A removal ("drop the openvino repo", "remove the
repository URL") deletes that entry: it is never a package removal.
"""

from __future__ import annotations

import re

from oic_ai.tools.edit_plan import DeleteValue, SetValue
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import TAKE_OUT

_URL = r"(?:https?|file)://[^\s\[\]\x1f,;'\"`()]*[^\s\[\]\x1f,;'\"`().!?:]"
_NOUN = (
    r"(?:apt\s+|yum\s+|dnf\s+|rpm\s+|deb\s+|package\s+|software\s+)?"
    r"(?:repo|repository|mirror|ppa|source)"
)
# "drop the openvino repo", "remove the repository URL", "get rid of that mirror"
_REMOVE = re.compile(
    rf"\b(?:{TAKE_OUT}|disable|forget"
    r"|(?:don'?t|do\s+not|no\s+longer)\s+(?:need|want|use))\s+"
    r"(?:the\s+|that\s+|this\s+|our\s+|their\s+)?(?P<words>(?:(?!(?:and|or|from|to)\b)[\w.+-]+\s+){0,3}?)"
    rf"{_NOUN}s?\b(?!\s+(?:code|files?|tree|tarball|rpm|package))(?:\s+(?:at\s+|for\s+)?(?P<url>{_URL}))?"
    rf"|\b(?:remove|drop|delete|get\s+rid\s+of)\s+(?P<bare>{_URL})"
)
# "..., remove it": the same removal, said again after the repository was named
_IT = re.compile(
    r"[\s,;.!-]*(?:so\s+|just\s+|please\s+)?(?:remove|drop|delete|ditch)\s+(?:it|that|them)\b"
)
# words that say nothing of which repository it is
_GENERIC = frozenset(
    "the a an our their that this its extra external third party vendor vendor's upstream "
    "official custom additional old new other apt yum dnf rpm deb package software https http "
    "www com org net io repo repos repository mirror source".split()
)


# "drop the grafana stuff", "get rid of all the acme things": a vendor's whole setup, its
# repository with what it installs (the package rule reads the packages)
_REMOVE_SETUP = re.compile(
    rf"\b{TAKE_OUT}\s+"
    r"(?:all\s+)?(?:of\s+)?(?:the\s+|that\s+|this\s+|our\s+|their\s+)?"
    r"(?P<words>(?:(?!(?:and|or|from|to|the)\b)[\w.+-]+\s+){1,2}?)"
    r"(?:stuff|things|bits|bits\s+and\s+pieces|setup|bundle|integration|packages\s+and\s+repo)\b"
)


def _words_of(url: str, codename: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", f"{url} {codename}".lower()) if len(w) >= 3}


def listed_repositories(state: PlanState) -> list[tuple[str, str]]:
    """``(url, codename)`` of every repository the template lists or this plan adds."""
    found = [(r.url, r.codename) for r in state.facts.repositories if r.url]
    found += [(r.url, r.codename or "") for r in state.repositories]
    return found


def named_repository(state: PlanState, said: str) -> str | None:
    """The URL of the listed repository ``said`` names by its words, if exactly one."""
    words = {w for w in re.findall(r"[a-z0-9][a-z0-9.+-]*", said.lower()) if w not in _GENERIC}
    words = {p for w in words for p in re.split(r"[.+-]", w) if len(p) >= 3} | words
    if not words:
        return None
    scored = [
        (len(words & _words_of(url, codename)), url) for url, codename in listed_repositories(state)
    ]
    best = max((score for score, _ in scored), default=0)
    winners = [url for score, url in scored if score == best]
    return winners[0] if best > 0 and len(winners) == 1 else None


def rule_repository_removal(state: PlanState) -> None:
    """Delete the listed repositories the request removes."""
    text = state.text
    for match in text.matches(_REMOVE):
        listed = listed_repositories(state)
        url = match.group("url") or match.group("bare")
        if match.group("bare") and url not in {u for u, _ in listed}:
            continue  # "remove URL" for no listed repository: another rule's
        if url:
            url = text.raw(*match.span("url" if match.group("url") else "bare")).rstrip(".,;:")
            wanted = url if url in {u for u, _ in listed} else None
        elif match.group("words").strip():
            wanted = named_repository(state, match.group("words"))
        else:
            wanted = listed[0][0] if len(listed) == 1 else None
        text.consume(*match.span())
        for it in _IT.finditer(text.work, match.end(), min(len(text.work), match.end() + 40)):
            text.consume(*it.span())
        if wanted is None:
            shown = ", ".join(u for u, _ in listed) or "none"
            state.not_applied.append(
                f"'{text.raw(*match.span()).strip()}' — no single listed repository matches; "
                f"the template lists: {shown}. Name it by its URL"
            )
            continue
        planned = [r for r in state.repositories if r.url == wanted]
        if planned:
            state.repositories.remove(planned[0])
            continue
        state.values.append(DeleteValue(path=f"packageRepositories[url={wanted}]"))
    for match in text.matches(_REMOVE_SETUP):
        # the words must name one repository by its host's own words ("grafana" for
        # apt.grafana.com); the span stays for the package rule, which removes the packages
        wanted = named_repository(state, match.group("words"))
        if wanted is None or not _in_host(wanted, match.group("words")):
            continue
        planned = [r for r in state.repositories if r.url == wanted]
        if planned:
            state.repositories.remove(planned[0])
        elif not any(isinstance(v, DeleteValue) and wanted in v.path for v in state.values):
            state.values.append(DeleteValue(path=f"packageRepositories[url={wanted}]"))


def _in_host(url: str, said: str) -> bool:
    """Whether a word of ``said`` is one of the host of ``url`` ("grafana": apt.grafana.com)."""
    host = re.sub(r"^[a-z]+://", "", url.lower()).split("/")[0]
    parts = {p for p in re.split(r"[^a-z0-9]+", host) if len(p) >= 3} - _GENERIC
    return bool(parts & set(re.findall(r"[a-z0-9]+", said.lower())))


# "switch the repo to 9.x", "move the elastic repository to version 9.x", "bump that
# mirror from 8.x to 9.x": the version in a listed repository's address changes
_VERSION_CHANGE = re.compile(
    r"\b(?:switch|move|bump|change|update|upgrade|point|set|repoint)\s+"
    r"(?:the\s+|that\s+|this\s+|our\s+|their\s+)?(?P<words>(?:(?!(?:and|or|to)\b)[\w.+-]+\s+){0,3}?)"
    rf"{_NOUN}s?\s+(?:from\s+(?:version\s+)?v?(?P<old>\d+(?:\.(?:\d+|x))*)\s+)?"
    r"to\s+(?:version\s+|release\s+)?v?(?P<new>\d+(?:\.(?:\d+|x))*)(?![\w.])",
    re.IGNORECASE,
)
# a version as a segment of an address: "/8.x/", "/v3.19/", "-17/"
_SEGMENT = r"(?<=[/_-])v?{}(?=[/_-]|$)"


def rule_repository_version(state: PlanState) -> None:
    """Change the version in the address of the listed repository a request moves.

    "switch the repo to 9.x" for ``https://artifacts.elastic.co/packages/8.x/apt``: the
    address holds one version of the same shape (``8.x``), which becomes ``9.x``; the
    other fields stay. The repository is the only one listed or the one its words name;
    an address with no such version, or with several, is reported.
    """
    text = state.text
    for match in text.matches(_VERSION_CHANGE):
        listed = [u for u, _ in listed_repositories(state)]
        words = match.group("words").strip()
        wanted = named_repository(state, words) if words else None
        if wanted is None and not words and len(listed) == 1:
            wanted = listed[0]
        if wanted is None:
            continue  # no listed repository: another rule's ("switch to the 9.x repo")
        new = match.group("new")
        shape = re.sub(r"\d+", r"\\d+", re.escape(new))  # "9.x": any "N.x"
        found = list(re.finditer(_SEGMENT.format(shape), wanted))
        if match.group("old"):
            found = [m for m in found if m.group().lstrip("v") == match.group("old")]
        text.consume(*match.span())
        if len(found) != 1:
            state.not_applied.append(
                f"'{text.raw(*match.span()).strip()}' — the address {wanted} holds "
                f"{'no' if not found else 'more than one'} version like {new} to change; "
                "give the new URL"
            )
            continue
        version = found[0]
        keep_v = "v" if version.group().startswith("v") else ""
        url = wanted[: version.start()] + keep_v + new + wanted[version.end() :]
        planned = [r for r in state.repositories if r.url == wanted]
        if planned:
            planned[0].url = url
            continue
        state.repository_values.append(
            SetValue(path=f"packageRepositories[url={wanted}].url", value=url)
        )
        state.notes.append(f"repository {wanted} now points at {url}")
