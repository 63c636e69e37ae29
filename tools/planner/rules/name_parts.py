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

from oic_ai.tools.planner.rules.package_apply import add_packages, remove_packages
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, tokenize
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
