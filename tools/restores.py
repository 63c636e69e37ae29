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
from oic_ai.tools.references import find_reference, find_restores


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


def swapped_in(names: Iterable[str], current: str, history: list[str]) -> tuple[str, ...]:
    """What the turn that took ``names`` out put in their place, still in ``current``.

    "change apache to nginx + php-fpm", then "put apache back like before": the turn that
    removed apache2 added nginx and php-fpm, so putting apache2 back takes them out again
    (the swap is undone). A turn that only removed, or added something of another kind
    beside the removal ("remove mdadm and add ipmitool"), gives nothing: one of the added
    must do the removed one's job (a capability of the same group in the catalog).
    """
    from oic_ai.stores.template_model import template_from_text

    seq = [template_from_text(t).packages for t in history]
    now = template_from_text(current).packages
    if not seq or seq[-1] != now:
        seq.append(now)
    partners: list[str] = []
    for name in names:
        for index in range(len(seq) - 1, 0, -1):
            before, after = seq[index - 1], seq[index]
            if name in before and name not in after:
                added = [p for p in after if p not in before]
                if _alternatives(name, added):
                    partners += [p for p in added if p in now]
                break
    return tuple(dict.fromkeys(p for p in partners if p not in names))


def _only_the_swap(
    names: Iterable[str], partners: Iterable[str], current: str, before: str
) -> bool:
    """Whether the turn from ``before`` to ``current`` swapped ``names`` for ``partners`` only."""
    import yaml

    def rest(text: str) -> tuple[Any, set[str]]:
        doc = yaml.safe_load(text) or {}
        system = doc.get("systemConfig") if isinstance(doc, dict) else None
        packages = system.pop("packages", None) if isinstance(system, dict) else None
        return doc, {str(p) for p in packages or []}

    try:
        (now, have), (then, had) = rest(current), rest(before)
    except yaml.YAMLError:
        return False
    return now == then and had == (have - set(partners)) | set(names)


def _alternatives(name: str, added: Iterable[str]) -> bool:
    """Whether a package of ``added`` does the job of ``name`` (a catalog group in common)."""
    from oic_ai.stores.capability_catalog import load_catalog

    def groups(package: str) -> set[str]:
        return {
            c.group
            for c in load_catalog().capabilities.values()
            if c.group and any(package in listed for listed in c.package_table.values())
        }

    mine = groups(name)
    return bool(mine) and any(mine & groups(other) for other in added)


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


# the single-valued fields a restore may name: "put the disk size back", "the hostname back"
_FIELDS = re.compile(
    r"^(?:the\s+|my\s+|our\s+)?(?:(?:disk|drive|image)(?:\s+size)?|size|hostname|host\s+name|"
    r"kernel\s+(?:command\s+line|cmdline|options|args)|cmdline|command\s+line|partitions?|"
    r"partition\s+layout|layout)(?P<tail>(?:\s+(?:please|pls|too))*)$",
    re.IGNORECASE,
)


def field_change(words: str) -> str:
    """The undo of a field's last change a restore naming it asks ("the disk size"), or "".

    A field holds one value, not entries: putting it back takes back its last change,
    which the conversation does as a partial undo of that part.
    """
    words = " ".join(words.split())
    named = _FIELDS.match(words)
    if named is None:
        return ""
    words = words[: named.start("tail")]
    return f"undo the {words.removeprefix('the ').removeprefix('my ').removeprefix('our ')} change"


# what follows a field put back and only says where to: "to what it was before", "as it was"
_AS_BEFORE = re.compile(
    r"\s*(?:(?:to|at)\s+)?(?:(?:what|how|where)\s+it\s+(?:was|used\s+to\s+be)(?:\s+before)?"
    r"|(?:the\s+)?(?:old|previous|original|earlier|prior)\s+(?:value|size|one|setting|name)"
    r"|as\s+it\s+was(?:\s+before)?|before|again)\b",
    re.IGNORECASE,
)


# the clause ends after the field put back: nothing says which value
_SAID_ALL = re.compile(r"\s*(?:$|[,.;!?)]|(?:please|pls|and|then|but|so|because|since)\b)", re.I)


def as_before_end(request: str, at: int) -> int:
    """Where words after a field put back at ``at`` end when they only say "as before"."""
    said = _AS_BEFORE.match(request, at)
    return said.end() if said else at


def restored_request(request: str, current: str | None, history: list[str]) -> str:
    """``request`` with each "put back X" as the change it asks.

    "put htop back" is "add htop" when an earlier template had it; "bring bob back" an
    undo of bob's removal; "put the disk size back to what it was" an undo of the disk
    size's last change.
    """
    if not current or not history:
        return request
    restores = find_restores(request)
    if not restores:
        return request
    out, start = [], 0
    for restore in restores:
        names = removed_packages(restore.object, current, history)
        entries = () if names else removed_entries(restore.object, current, history)
        # a package is added again; a user, kernel option or partition comes back as the
        # turn that removed it had it ("bring bob back": with his sudo and groups); a
        # field ("put the disk size back") gets its value from before its last change
        end = restore.span[1]
        if names or entries:
            said = f"add {', '.join(names)}" if names else f"undo the {' '.join(entries)} removal"
            if partners := swapped_in(names, current, history):
                if _only_the_swap(names, partners, current, history[-1]) and (
                    (found := find_reference(request)) is not None and found.kind == "undo"
                ):
                    # "put apache back like before" right after "change apache to nginx":
                    # the last turn was that swap alone, so it is undone as a whole
                    return request
                said += f" and remove {', '.join(partners)}"  # the swap is undone
        else:
            end = as_before_end(request, end)
            # "put the disk back to 8GiB", "put immutability back on": a value of its own
            if end == restore.span[1] and not _SAID_ALL.match(request, end):
                continue
            said = field_change(restore.object)
        if not said:
            continue
        out.append(request[start : restore.span[0]] + said)
        start = end
    return "".join(out) + request[start:] if out else request
