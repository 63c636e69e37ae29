"""Take back one part of an earlier turn: "undo the hugepages bit", "undo the console change".

A turn's change is the difference between the template before it and the template after
it. An undo that names a part of it (a kernel option by its key, the console, packages, a
partition or the disk, a user, a repository, the hostname) takes back only the pieces of
that difference the words name, on the *current* template, so whatever the turn or later
turns did besides stays:

- kernel options and packages are sets of words: the ones the turn added and the part
  names are removed, the ones it removed are put back (a replaced ``loglevel=7`` gets its
  ``loglevel=4`` back);
- users and repositories are lists of named entries: each entry the turn added or
  changed and the part names is put back as it was before the turn (or dropped when it
  was new);
- the hostname, the immutability settings (with their secure boot keys), the disk size
  and the partition layout are single values: they get the value from before the turn.

:func:`take_back` gives the plan operations (or none when the turn did not touch the
part); :func:`only_part` says whether the turn changed nothing else, so the undo can take
back the whole turn and restore the exact template from before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from oic_ai.tools.edit_plan import DeleteValue, EditPlan, RemovePartition, SetKernel, SetValue
from oic_ai.tools.rebase import parse, section

Aspect = tuple[str, ...]


@dataclass(frozen=True)
class Part:
    """What an undo names of a change.

    Attributes:
        names: Words that name pieces of the change ("hugepages", "htop", "bob").
        aspects: Aspects named, each as the template keys a change to it touches
            (:func:`oic_ai.tools.references.undo_aspects`).
    """

    names: tuple[str, ...] = ()
    aspects: tuple[Aspect, ...] = ()
    kept: tuple[str, ...] = ()  # single values said to stay ("keep the 6 gigs": "size")

    def has(self, *keys: str) -> bool:
        """True when an aspect named touches one of ``keys``."""
        return any(key in aspect for aspect in self.aspects for key in keys)

    def named(self, *words: str) -> bool:
        """True when a name of the part is a whole word of one of ``words``.

        Separators bound it: "exporter" is in prometheus-node-exporter and "hugepages" in
        hugepages=512; "ci" is not in pciutils.
        """
        return any(
            re.search(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])", word.lower())
            for name in self.names
            if name
            for word in words
        )


@dataclass
class TakenBack:
    """The operations that take the part back, and what they do in words."""

    operations: list[Any] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def _option_key(token: str) -> str:
    return token.split("=", 1)[0].lower()


def _tokens(doc: Mapping[str, Any]) -> list[str]:
    return str(section(doc, "systemConfig", "kernel").get("cmdline") or "").split()


def _words_back(
    before: Sequence[str],
    after: Sequence[str],
    current: Sequence[str],
    chosen: Callable[[str], bool],
) -> tuple[list[str], list[str], list[str]]:
    """``current`` with the chosen words the turn added removed and those it removed back."""
    added = [w for w in after if w not in before and chosen(w)]
    removed = [w for w in before if w not in after and chosen(w)]
    result = [w for w in current if w not in added]
    for word in removed:  # back where it was: after the word it followed before the turn
        if word in result:
            continue
        earlier = before[: before.index(word)]
        at = max((result.index(w) + 1 for w in earlier if w in result), default=0)
        result.insert(at, word)
    return result, added, removed


def _kernel(
    part: Part, before: dict[str, Any], after: dict[str, Any], now: dict[str, Any], out: TakenBack
) -> None:
    every = part.has("cmdline")
    console = part.has("console=")

    def chosen(token: str) -> bool:
        key = _option_key(token)
        return every or (console and key == "console") or part.named(key) or _family(part, key)

    tokens, added, removed = _words_back(_tokens(before), _tokens(after), _tokens(now), chosen)
    if added or removed:
        out.operations.append(SetKernel(cmdline=" ".join(tokens)))
        if added:
            out.lines.append("removed kernel option " + " ".join(added))
        if removed:
            out.lines.append("put back kernel option " + " ".join(removed))


def _family(part: Part, key: str) -> bool:
    """True when a name of the part names the option family ``key`` belongs to.

    "the hugepages" names ``hugepagesz`` and ``default_hugepagesz`` too: the name (without
    a plural "s") is part of the key. A name shorter than four letters names no family.
    """
    for name in part.names:
        stem = name.lower()
        stem = stem[:-1] if stem.endswith("s") and len(stem) > 4 else stem
        if len(stem) >= 4 and stem in key:
            return True
    return False


def _packages_of(doc: Mapping[str, Any]) -> list[str]:
    return [str(p) for p in section(doc, "systemConfig").get("packages") or [] if p]


def _packages(
    part: Part, before: dict[str, Any], after: dict[str, Any], now: dict[str, Any], out: TakenBack
) -> None:
    every = part.has("packages")
    packages, added, removed = _words_back(
        _packages_of(before),
        _packages_of(after),
        _packages_of(now),
        lambda name: every or part.named(name),
    )
    if added or removed:
        out.operations.append(SetValue(path="systemConfig.packages", value=packages))
        if added:
            out.lines.append("removed packages " + ", ".join(added))
        if removed:
            out.lines.append("put back packages " + ", ".join(removed))


def _entries(value: Any, key: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for entry in value or []:
        if isinstance(entry, Mapping) and entry.get(key):
            found[str(entry[key])] = dict(entry)
    return found


def _named_list(
    part: Part,
    path: tuple[str, str],
    key: str,
    aspect: str,
    what: str,
    docs: tuple[dict[str, Any], dict[str, Any], dict[str, Any]],
    out: TakenBack,
) -> None:
    """Put back the entries (users by name, repositories by URL) the turn changed."""
    owner, name = path
    values = [(section(doc, owner) if owner else doc).get(name) for doc in docs]
    before, after, _ = (_entries(v, key) for v in values)
    changed = [k for k in {**before, **after} if before.get(k) != after.get(k)]
    chosen = [
        k
        for k in changed
        if part.has(aspect)
        or part.named(k, *(str(v) for v in (after.get(k) or before.get(k) or {}).values()))
    ]
    if not chosen:
        return
    result = [
        e for e in values[2] or [] if not (isinstance(e, Mapping) and str(e.get(key)) in chosen)
    ]
    result += [before[k] for k in chosen if k in before]
    full = f"{owner}.{name}" if owner else name
    out.operations.append(SetValue(path=full, value=result) if result else DeleteValue(path=full))
    dropped = [k for k in chosen if k not in before]
    restored = [k for k in chosen if k in before]
    if dropped:
        out.lines.append(f"removed {what} " + ", ".join(dropped))
    if restored:
        out.lines.append(f"put back {what} " + ", ".join(restored) + " as before")


def _value(
    part: Part,
    path: tuple[str, str],
    aspects: tuple[str, ...],
    what: str,
    docs: tuple[dict[str, Any], dict[str, Any], dict[str, Any]],
    out: TakenBack,
) -> None:
    """Give a single value (hostname, disk size, partitions) its value from before the turn."""
    owner, name = path
    if name in part.kept:
        return  # "undo the partition, keep the 6 gigs": the disk size stays
    before, after, current = ((section(doc, owner) if owner else doc).get(name) for doc in docs)
    if before == after or current != after:
        return  # unchanged by the turn, or set again by a later one: that value stays
    if not part.has(*aspects) and not part.named(*(str(v) for v in (before, after) if v)):
        return
    full = f"{owner}.{name}" if owner else name
    out.operations.append(
        SetValue(path=full, value=before) if before is not None else DeleteValue(path=full)
    )
    out.lines.append(f"put back the {what} from before")


def _added_partitions(
    part: Part,
    docs: tuple[dict[str, Any], dict[str, Any], dict[str, Any]],
    out: TakenBack,
) -> bool:
    """Remove the partitions the turn added that the undo names by mount point or id.

    "undo the /home partition, keep /var" after a turn that added /var and /home: only
    /home goes (its space goes back as the planner's removal gives it), and the disk size
    and the other partitions stay. False (nothing done) unless the undo names partitions
    and every one it names was added by the turn and is still there.
    """
    before, after, current = (
        _entries(section(doc, "disk").get("partitions"), "mountPoint") for doc in docs
    )
    named = [
        mount
        for mount in {**before, **after}
        if mount not in ("/", "") and part.named(mount, str((after.get(mount) or {}).get("id")))
    ]
    if not named or any(m in before or m not in current for m in named):
        return False
    for mount in named:
        out.operations.append(RemovePartition(partition=str(current[mount].get("id") or mount)))
    out.lines.append("removed the partition " + ", ".join(sorted(named)) + " it added")
    return True


# what an undo says stays: "keep the 6 gigs", "but leave the disk size", "the hostname stays"
_KEPT = re.compile(
    r"\b(?:keep(?:ing)?|leave|leaving|retain)\s+(?P<what>[^,.;!?]+)"
    r"|(?P<what2>\b(?:the\s+)?[\w.\s-]{1,30}?)\s+(?:stays?|remains?)\b",
    re.IGNORECASE,
)
_SIZE = re.compile(
    r"\b\d+(?:\.\d+)?\s*(?:gigs?|gigabytes?|g|gb|gib|mb|mib|tb|tib)\b|\bdisk(?:\s+size)?\b|\bsize\b",
    re.IGNORECASE,
)


def kept_values(request: str) -> tuple[str, ...]:
    """The single values an undo request says stay: the disk size ("keep the 6 gigs")."""
    kept: list[str] = []
    for match in _KEPT.finditer(request):
        what = match.group("what") or match.group("what2") or ""
        if _SIZE.search(what) and not re.search(r"\bpartition", what, re.IGNORECASE):
            kept.append("size")
        if re.search(r"\bhost\s*name\b", what, re.IGNORECASE):
            kept.append("hostname")
    return tuple(dict.fromkeys(kept))


def take_back(before_text: str, after_text: str, current_text: str, part: Part) -> TakenBack:
    """The operations that take back ``part`` of the turn from ``before_text`` to ``after_text``.

    Args:
        before_text: The template before the turn.
        after_text: The template the turn left.
        current_text: The session's current template (the operations apply to it).
        part: What the undo names.

    Returns:
        The operations (none when the turn did not touch the part) and what they do.
    """
    docs = (parse(before_text), parse(after_text), parse(current_text))
    out = TakenBack()
    _kernel(part, *docs, out)
    _packages(part, *docs, out)
    _named_list(part, ("systemConfig", "users"), "name", "users", "user", docs, out)
    _named_list(
        part, ("", "packageRepositories"), "url", "packageRepositories", "repository", docs, out
    )
    _value(part, ("systemConfig", "hostname"), ("hostname",), "hostname", docs, out)
    # immutability and its secure boot keys are one setting: turned off, the keys go too,
    # so "put immutability back on like before" brings the whole section back
    immutability = ("systemConfig", "immutability")
    _value(part, immutability, ("immutability",), "immutability settings", docs, out)
    disk = ("size", "partitions", "mountPoint")
    if _added_partitions(part, docs, out):
        return out  # "undo the /home partition": that one goes, the disk size stays
    _value(part, ("disk", "partitions"), disk, "partition layout", docs, out)
    # the disk size goes with a partition change only when the turn changed partitions too
    # (a disk grown to hold a new partition); "undo the partition" never takes back a turn
    # that only set the disk size
    layouts = [section(doc, "disk").get("partitions") for doc in docs[:2]]
    _value(
        part,
        ("disk", "size"),
        disk if layouts[0] != layouts[1] else ("size",),
        "disk size",
        docs,
        out,
    )
    return out


def _without_cosmetics(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` without the image name and description, its package list in name order."""
    doc = dict(doc)
    doc.pop("metadata", None)
    if isinstance(doc.get("image"), Mapping):
        doc["image"] = {k: v for k, v in doc["image"].items() if k != "name"}
    system = section(doc, "systemConfig")
    if isinstance(system.get("packages"), list):
        system["packages"] = sorted(str(p) for p in system["packages"])
        doc["systemConfig"] = system
    return doc


def apply_taken_back(text: str, taken: TakenBack) -> str:
    """``text`` with ``taken``'s operations applied."""
    from oic_ai.tools.applier import apply_plan

    return apply_plan(text, EditPlan(summary="undo part", operations=taken.operations)).text


def only_part(before_text: str, after_text: str, part: Part) -> bool:
    """True when taking ``part`` back from the turn's result gives the template before it.

    The image name and the description are left out of the comparison: a turn's change
    renames the image after what it added, which is no part of what the user asked.
    """
    taken = take_back(before_text, after_text, after_text, part)
    if not taken.operations:
        return False
    undone = parse(apply_taken_back(after_text, taken))
    return _without_cosmetics(undone) == _without_cosmetics(parse(before_text))
