"""What "put back X" names among what earlier templates of the session had.

A restore ("bring htop back", "put back the ssh server you removed", "bring bob back")
names something an earlier turn removed. Packages are read by name or through the
capability catalog (:func:`removed_packages`); the named entries of other parts (a user,
a kernel option by its key, a partition by its mount point or id, a repository by its
name or URL) by :func:`removed_entries`, which the conversation takes back like an undo
of that one piece, so the entry comes back exactly as it was (a user keeps its sudo and
groups, a kernel option its value).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from oic_ai.tools.rebase import parse, section


def removed_packages(words: str, current: str, history: list[str]) -> tuple[str, ...]:
    """The packages earlier templates had, the current one lacks, and ``words`` name.

    A name said as written ("htop"), or what the catalog provides for the words on the
    current target ("the ssh server" -> openssh-server, "docker" -> moby-engine).
    """
    from oic_ai.stores.capability_catalog import load_catalog
    from oic_ai.stores.template_model import template_from_text

    now = template_from_text(current)
    have = set(now.packages)
    removed = list(
        dict.fromkeys(
            name
            for earlier in reversed(history)
            for name in template_from_text(earlier).packages
            if name not in have
        )
    )
    said = set(re.findall(r"[\w.+-]+", words.lower()))
    names = [name for name in removed if name in said]
    target = now.target
    if not names and target.os and target.dist:
        for capability in load_catalog().find(words):
            provided = capability.packages_for(target.os, target.dist, target.arch or "")
            names += [name for name in removed if name in provided and name not in names]
    return tuple(names)


def _entry_names(doc: Mapping[str, Any]) -> set[str]:
    """The names a template's entries go by: users, option keys, mount points, repos."""
    system = section(doc, "systemConfig")
    names = {str(u.get("name", "")).lower() for u in _dicts(system.get("users"))}
    cmdline = str(section(system, "kernel").get("cmdline") or "")
    names |= {token.split("=", 1)[0].lower() for token in cmdline.split()}
    for part in _dicts(section(doc, "disk").get("partitions")):
        names |= {str(part.get(k, "")).lower() for k in ("mountPoint", "id", "name")}
    for repo in _dicts(doc.get("packageRepositories")):
        names |= {str(repo.get(k, "")).lower() for k in ("id", "url", "codename")}
    return {name for name in names if name}


def _dicts(value: Any) -> Iterable[Mapping[str, Any]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def removed_entries(words: str, current: str, history: list[str]) -> tuple[str, ...]:
    """The entry names ``words`` say that an earlier template had and the current one lacks.

    "bring bob back" after "remove bob" gives ``("bob",)``; a name that is still there, or
    that no earlier template had, gives nothing (the request is then read as written).
    """
    have = _entry_names(parse(current))
    removed: set[str] = set()
    for earlier in history:
        removed |= _entry_names(parse(earlier)) - have
    said = re.findall(r"[\w./+-]+", words.lower())
    return tuple(dict.fromkeys(w for w in said if w in removed and len(w) > 1))
