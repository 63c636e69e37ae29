"""Rule: a package described by the words of its name ("the nginx plugin for certbot").

People who do not remember a package's exact name often say its parts around a noun for
what kind of thing it is: "the nginx plugin for certbot" (python3-certbot-nginx), "that
monitoring exporter thing prometheus uses for node stats" (prometheus-node-exporter), "the
influx exporter for prometheus". When one clause holds such a noun (plugin, exporter,
module, extension, bindings, thing ...) and every part of exactly one known package name
(the catalog's and the library's, split at "-", a language prefix such as "python3-" aside),
that package is what it describes: the clause is read as asking for it.

Only names something knows are considered, two parts at least, and the longest match must
be the only one; anything less is left to the other rules (and reported when nothing reads
it), so no name is ever made up from the words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from oic_ai.tools.planner.rules.package_apply import add_packages, remove_packages
from oic_ai.tools.planner.state import PlanState, family_of
from oic_ai.tools.planner.text import Item, Token, tokenize
from oic_ai.tools.planner.words import REMOVE_VERBS

# the kind of thing the clause describes
_KIND = frozenset(
    "plugin plugins exporter exporters module modules extension extensions addon addons "
    "add-on add-ons bindings binding thing tool tools integration connector".split()
)
# prefixes a package name carries for its language or packaging, not for what it is
_PREFIXES = frozenset("python3 python lib golang github ruby perl php".split())
# a clause, and each item of a list in it ("cockpit plus the machines plugin": two things)
_CLAUSE = re.compile(r"(?:(?!\b(?:and|plus|with)\b)[^,.;:!?()&\n])+")


def read_name_parts(state: PlanState) -> None:
    """Add the one known package whose name a clause spells out around a kind of thing."""
    names = _parted(state.known_names())
    for clause in _CLAUSE.finditer(state.text.work):
        tokens = [t for t in tokenize(clause.group()) if t.kind == "word"]
        words = {t.text.removesuffix("'s") for t in tokens}  # "certbot's nginx plugin"
        if not words & _KIND:
            continue
        fits = [(len(core), name) for name, core in names if core <= words]
        if not fits:
            continue
        best = max(size for size, _ in fits)
        chosen = [name for size, name in fits if size == best]
        core = dict(names)[chosen[0]]
        if any(dict(names)[name] != core for name in chosen):
            continue  # two things fit the words: nothing is guessed
        if _said_whole(chosen, [t.text for t in tokens]):
            continue  # "rm node exporter": the name itself, spaced; the usual rules read it
        # the same parts under a packaging prefix ("golang-github-prometheus-node-exporter"
        # beside "prometheus-node-exporter"): the plain name
        chosen = _on_target(state, min(chosen, key=lambda name: (name.count("-"), len(name))))
        said = [t for t in tokens if t.text.removesuffix("'s") in core | _KIND]
        start = clause.start() + said[0].start
        end = clause.start() + said[-1].end
        item = Item("add", [t for t in tokenize(state.text.work) if start <= t.start < end])
        if words & (REMOVE_VERBS | {"no", "without", "not"}):
            remove_packages(state, item, chosen, chosen[0])  # "drop the nginx plugin for certbot"
        else:
            add_packages(state, item, chosen, chosen[0])


def _said_whole(names: list[str], words: list[str]) -> bool:
    """True when one of ``names`` is written out in ``words``, its parts in order."""
    said = " ".join(words)
    return any(
        re.search(rf"(?<![\w-]){re.escape(' '.join(n.split('-')))}(?![\w-])", said) for n in names
    )


def _on_target(state: PlanState, name: str) -> list[str]:
    """``name`` as the template's target spells it (the catalog's alias or capability)."""
    target = state.target
    if not target.known:
        return [name]
    for group in state.catalog.alias_groups:
        if name in group.names and (spelt := group.names_for(target.os, target.dist, target.arch)):
            return list(spelt)
    for capability in state.catalog.capabilities.values():
        if any(name in names for names in capability.package_table.values()):
            here = capability.packages_for(target.os, target.dist, target.arch)
            if here and name not in here:
                return [n for n in here if set(n.split("-")) & set(name.split("-"))] or [name]
    return [name]


def _parted(known: frozenset[str]) -> list[tuple[str, frozenset[str]]]:
    parted = []
    for name in sorted(known):
        parts = [p for p in name.split("-") if p]
        core = frozenset(p for p in parts if p not in _PREFIXES)
        if len(parts) >= 2 and len(core) >= 2:
            parted.append((name, core))
    return parted


# --- a part of a package said beside it: "nginx with the rtmp module" ------------------

# how a part is tied to the package named before it: "with the", "plus the", "and its"
_TIED = re.compile(
    r"(?<![\w.+-])(?P<head>[a-z0-9][a-z0-9+.-]*[a-z0-9+])\s*[)(]?\s*(?:(?:out|too|also)\s*)?[)(]?\s*"
    r"(?:,\s*)?(?:\(\s*)?(?:with|plus|and|\+|&)?\s*(?:also\s+)?$"
)
# a clause owned by what is before it: "the rtmp module", "its nginx plugin"
_OWNED_CLAUSE = re.compile(
    r"(?<![\w-])(?:the|its|their)\s+[^,.;:!?()&\n]+?"
    r"(?=\s*(?:$|[,.;:!?()&\n]|\b(?:and|plus|with)\b))"
)
# spellings a package name gives its parts, read as the words people say
_PART_WORDS = {"mod": "module", "mods": "module", "modules": "module", "plugins": "plugin"}


def _norm(part: str) -> str:
    """A name's part as said: no version ("gstreamer1.0"), no "lib" ("libnginx"), "mod"."""
    part = _PART_WORDS.get(part, part)
    bare = re.sub(r"[0-9][0-9.]*$", "", part)
    if len(bare) >= 3 and bare != part:
        return bare
    if part.startswith("lib") and len(part) >= 6:
        return part[3:]
    return part


@dataclass
class HeadPart:
    """A part of the package named before it, found by :func:`parts_of_a_head`."""

    head: str
    start: int
    end: int
    names: list[str]


def parts_of_a_head(state: PlanState) -> list[HeadPart]:
    """Parts said beside the package they belong to: "nginx with the rtmp module".

    A clause with a kind of thing (module, plugin ...) right after a word, tied to it by
    "with", "plus", "and" or a comma and owned by "the", "its" or "their", names the one
    package whose name holds that word and the clause's words
    (libnginx-mod-rtmp, gstreamer1.0-plugins-ugly, python3-certbot-nginx); a slashed list
    ("the good/bad/ugly plugin sets") names one package for each of its words. Every word
    must give exactly one name, else nothing is read. The clause is taken here; the names
    go as the package before them went (:func:`apply_head_parts`).
    """
    work = state.text.work
    found: list[HeadPart] = []
    parted: list[tuple[str, frozenset[str]]] | None = None
    for clause in _OWNED_CLAUSE.finditer(work):
        tokens = [t for t in tokenize(clause.group()) if t.kind == "word"]
        said = [t.text for t in tokens]
        if not {_PART_WORDS.get(w, w) for w in said} & _KIND:
            continue
        tied = _TIED.search(work, max(0, clause.start() - 40), clause.start())
        if tied is None:
            continue
        head = _norm(tied.group("head"))
        if parted is None:
            parted = _normed(_candidates(state))
        names = _each_alternative(parted, head, said)
        if names:
            names = list(dict.fromkeys(n for name in names for n in _on_target(state, name)))
            found.append(HeadPart(head, clause.start(), clause.end(), names))
            state.text.consume(clause.start(), clause.end(), "packages")
        elif _owned(tied, said) and _unknown_part(state, tied.group("head"), said):
            state.reject(clause.start(), clause.end(), _NO_SUCH_PART.format(tied.group("head")))
    return found


_NO_SUCH_PART = (
    "names a part of {} that no package the catalog, the library or a synced index knows; "
    "name its package (or 'install the package NAME' for a package of your own repository)"
)
# the kinds of part a package's own add-on packages are named for
_ADD_ON = frozenset("module modules mod plugin plugins extension extensions addon addons".split())


def _owned(tied: re.Match[str], said: list[str]) -> bool:
    """Whether the clause is tied to the name as its own ("with the", "its"), not listed."""
    glue = tied.group()[len(tied.group("head")) :]
    return said[0] in ("its", "their") or re.search(r"\b(?:with|plus)\b|[+&]", glue) is not None


def _unknown_part(state: PlanState, head: str, said: list[str]) -> bool:
    """Whether "the foo module" of a known package names no package at all ("foo")."""
    from oic_ai.tools.planner.rules.package_known import known

    if not set(said) & _ADD_ON or _norm(head) in _PREFIXES or not known(state, head):
        return False
    rest = [w for w in said if w not in _ADD_ON and w not in ("the", "its", "their")]
    return bool(rest) and not any(known(state, w) for w in rest)


def _each_alternative(
    parted: list[tuple[str, frozenset[str]]], head: str, said: list[str]
) -> list[str]:
    """One name for each alternative of a slashed word ("good/bad/ugly"), or none."""
    slashed = [w for w in said if "/" in w]
    if len(slashed) > 1:
        return []
    options = [p for p in slashed[0].split("/") if p] if slashed else [""]
    names = []
    for option in options:
        words = {_norm(w) for w in said if "/" not in w} | {head}
        if option:
            words.add(_norm(option))
        fits = [
            (len(core), name)
            for name, core in parted
            if head in core and core <= words and (not option or _norm(option) in core)
        ]
        if not fits:
            return []
        best = max(size for size, _ in fits)
        chosen = [name for size, name in fits if size == best]
        if len(chosen) != 1:
            return []  # two things fit the words: nothing is guessed
        names.append(chosen[0])
    return names


def apply_head_parts(state: PlanState, found: list[HeadPart]) -> None:
    """Add or remove the parts :func:`parts_of_a_head` found, as their package went."""
    for part in found:
        item = Item("add", [Token("word", part.names[0], part.start, part.end)])

        def owns(name: str) -> bool:
            return part.head in {_norm(p) for p in re.split(r"[-.]", name)}

        if any(owns(n) for n in state.remove):
            remove_packages(state, Item("remove", item.tokens), part.names, part.names[0])
        elif any(owns(n) for n in (*state.add, *state.present, *state.facts.packages)):
            add_packages(state, item, part.names, part.names[0])
        else:
            quoted = " ".join(state.text.raw(part.start, part.end).split())
            state.not_applied.append(
                f"'{quoted}' — names {', '.join(part.names)}, a part of a package the "
                "request neither adds nor removes; say 'add' or 'remove' with its name"
            )


def _candidates(state: PlanState) -> frozenset[str]:
    """The names a part may be: the catalog's and library's, and Debian's list on deb."""
    from oic_ai.stores.debian_names import debian_names

    names = state.known_names()
    if state.target.known and family_of(state.target.os, state.target.dist) == "deb":
        return names | debian_names()
    return names


@lru_cache(maxsize=4)
def _normed(names: frozenset[str]) -> list[tuple[str, frozenset[str]]]:
    return [(n, frozenset(_norm(p) for p in core)) for n, core in _parted(names)]
