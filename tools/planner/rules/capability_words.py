"""Which names the catalog and the library use, and which capabilities a text names.

The package rule (:mod:`.packages`) asks these: the real package names of a family, whether
a name is known anywhere, and the capability phrases of a list item (cached lookups).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from oic_ai.stores.capability_catalog import Capability, CapabilityCatalog, load_catalog, words
from oic_ai.tools.planner.words import FILLER
from oic_ai.tools.retrieval.spelling import PackageNames


@lru_cache(maxsize=8)
def real_names(family: str) -> frozenset[str]:
    """The package names the catalog's lists and the bundled library use for ``family``.

    Spellings people write ("docker", "python") are not in it: only names a template of
    that family installs, so "nftables" on el10 is nftables, not the firewall capability.
    """
    import yaml

    from oic_ai.stores.targets import load_targets
    from oic_ai.stores.template_library import bundled_templates_dir, iter_template_files

    targets = load_targets()

    def family_key(key: str) -> str:
        base = key.split("/", 1)[0]
        return base if base in targets.families else (targets.family_of(base) or "")

    names: set[str] = set()
    catalog = load_catalog()
    tables = [c.package_table for c in catalog.capabilities.values()]
    tables += [g.targets for g in catalog.alias_groups]
    for table in tables:
        for key, listed in table.items():
            if family_key(key) == family:
                names.update(listed)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    root = bundled_templates_dir()
    for path in iter_template_files(root) if root.is_dir() else ():
        try:
            data = yaml.load(path.read_bytes(), Loader=loader)  # noqa: S506 (a safe loader)
        except (OSError, yaml.YAMLError):
            continue
        if not isinstance(data, dict):
            continue
        dist = str((data.get("target") or {}).get("dist") or "")
        if targets.family_of(dist) != family:
            continue
        system = data.get("systemConfig") or {}
        names.update(str(p) for p in system.get("packages") or [] if p)
        names.update(str(p) for p in (system.get("kernel") or {}).get("packages") or [] if p)
    return frozenset(names)


def is_known_name(
    name: str,
    template_text: str,
    packages: PackageNames | None = None,
    known: frozenset[str] | None = None,
) -> bool:
    """True when the index, the catalog, the library or the template itself has ``name``."""
    from oic_ai.stores.template_model import template_from_text
    from oic_ai.tools.verify_packages import known_package_names

    if packages is not None and packages.is_package(name):
        return True
    facts = template_from_text(template_text)
    if name in facts.packages or name in facts.kernel.packages:
        return True
    return name in (known if known is not None else known_package_names())


def names_capability(capabilities: Sequence[Capability], token: str) -> bool:
    """True when ``token`` is a capability's name or one of its synonyms (plural allowed)."""
    token_words = words(token)
    for capability in capabilities:
        for phrase in (capability.name, *capability.synonyms):
            phrase_words = words(phrase)
            if len(phrase_words) == len(token_words) and all(
                t in (p, p + "s") for t, p in zip(token_words, phrase_words, strict=True)
            ):
                return True
    return False


def covered_words(
    capabilities: Sequence[Capability], item_words: Sequence[str], min_words: int = 1
) -> list[bool]:
    """Which of ``item_words`` a capability's name or synonyms account for.

    Only phrases of ``min_words`` words or more count ("system stats" with 2, not "sysstat").
    """
    taken = [False] * len(item_words)
    phrases = sorted(
        {
            phrase
            for c in capabilities
            for p in (c.name, *c.synonyms)
            if len(phrase := words(p)) >= min_words
        },
        key=lambda phrase: (-len(phrase), phrase),
    )
    for phrase in phrases:
        size = len(phrase)
        for start in range(len(item_words) - size + 1):
            if any(taken[start : start + size]):
                continue
            if all(item_words[start + k] in (phrase[k], phrase[k] + "s") for k in range(size)):
                taken[start : start + size] = [True] * size
    return taken


@lru_cache(maxsize=256)
def for_use_case(catalog: CapabilityCatalog, text: str) -> tuple[Capability, ...]:
    """``catalog.for_use_case``, cached: the capabilities a use case usually wants."""
    return catalog.for_use_case(text)


@lru_cache(maxsize=4)
def catalog_words(catalog: CapabilityCatalog) -> frozenset[str]:
    """Every word of a capability name or synonym."""
    # filler words ("a", "the", "image") never carry a phrase on their own
    return frozenset(
        word
        for capability in catalog.capabilities.values()
        for phrase in (capability.name, *capability.synonyms)
        for word in words(phrase)
        if word not in FILLER
    )


@lru_cache(maxsize=1024)
def find_capabilities_cached(catalog: CapabilityCatalog, text: str) -> tuple[Capability, ...]:
    """``catalog.find``, cached."""
    return tuple(catalog.find(text))


def find_capabilities(catalog: CapabilityCatalog, text: str) -> tuple[Capability, ...]:
    """``catalog.find``, skipped when no word of ``text`` occurs in any capability phrase."""
    known = catalog_words(catalog)
    if not any(w in known or w.removesuffix("s") in known for w in words(text)):
        return ()
    return find_capabilities_cached(catalog, text)


# "sharing the printer", "monitoring the nodes": a gerund and its object, which the
# catalog names the other way round ("printer sharing", "node monitoring")
_GERUND_OBJECT = re.compile(
    r"^(?P<pre>(?:.*\s)?)(?P<verb>[a-z]{3,}ing)\s+(?:(?:the|a|an|our|their|its|my|his|her|"
    r"some|all|any)\s+)?(?P<noun>[a-z][a-z0-9]+)$"
)


def object_first(catalog: CapabilityCatalog, text: str) -> str | None:
    """``text`` with a closing gerund and its object turned round, when a capability says so.

    "sharing the printer" is "printer sharing", "monitoring the nodes" "node monitoring";
    None when the text has no such ending or the turned phrase names no capability.
    """
    found = _GERUND_OBJECT.match(text)
    if found is None:
        return None
    noun = found.group("noun")
    for single in dict.fromkeys((noun, noun.removesuffix("s"))):
        turned = f"{found.group('pre')}{single} {found.group('verb')}"
        phrase = f"{single} {found.group('verb')}"
        if any(phrase in c.synonyms for c in catalog.capabilities.values()):
            return turned
    return None
