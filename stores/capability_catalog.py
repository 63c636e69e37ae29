"""The curated capability catalog: which packages give a capability on each distribution.

The data lives in ``stores/data/capabilities.yaml``. It feeds the builtin planner
(capability → packages), package suggestions (name → equivalent names for a target)
and proactive suggestions (use case → capabilities), the ADR's "curated best practices".

Package lists are keyed by family (``deb``, ``rpm``), by dist (``ubuntu24``), or by
either with an architecture (``deb/aarch64``); the most specific key wins. Which dist
belongs to which family is a target fact: :mod:`oic_ai.stores.targets` holds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from oic_ai.stores.data_files import load_mapping
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.targets import load_targets, string_list
from oic_ai.stores.vocabulary import RegistryView

CATALOG_PATH = Path(__file__).parent / "data" / "capabilities.yaml"

# dist -> family, a view of the target registry
DIST_FAMILY: Mapping[str, str] = RegistryView(
    lambda targets: {dist.id: dist.family for dist in targets.dists.values()}
)


def package_family(os: str, dist: str) -> str:
    """Return the package family, ``"deb"`` or ``"rpm"``, of a target.

    Args:
        os: The template's ``target.os`` (``ubuntu``, ``azure-linux``, ...).
        dist: The template's ``target.dist`` (``ubuntu24``, ``azl3``, ...).

    Raises:
        UserInputError: neither the dist nor the os is one the composer knows.
    """
    targets = load_targets()
    family = targets.family_of(dist) or targets.os_family(os)
    if family:
        return family
    raise UserInputError(
        f"unknown target os/dist {os!r}/{dist!r}",
        fix=f"use one of the dists {', '.join(targets.dists)}",
    )


def normalize_arch(arch: str | None) -> str:
    """Return the composer's arch name for ``arch`` (``amd64`` → ``x86_64``); default x86_64."""
    targets = load_targets()
    return targets.canonical_arch(arch) if arch else targets.default_arch


def _lookup_keys(family: str, dist: str, arch: str) -> tuple[str, ...]:
    # most specific first
    return (f"{dist}/{arch}", dist, f"{family}/{arch}", family)


def _pick(
    table: Mapping[str, tuple[str, ...]], family: str, dist: str, arch: str
) -> tuple[str, ...]:
    for key in _lookup_keys(family, dist, arch):
        if key in table:
            return table[key]
    return ()


_WORD = re.compile(r"[a-z0-9][a-z0-9.+]*")


def words(text: str) -> tuple[str, ...]:
    """Split text into lowercase words; ``-``, ``_`` and ``/`` separate words.

    ``real-time``, ``real_time`` and ``real time`` all become ``("real", "time")``.
    Dots inside a word stay (``netplan.io``), a trailing full stop does not.
    """
    lowered = re.sub(r"[-_/]", " ", text.lower())
    return tuple(word.rstrip(".") for word in _WORD.findall(lowered) if word.rstrip("."))


@dataclass(frozen=True)
class Capability:
    """One capability a user can ask for, and the packages that provide it.

    Attributes:
        name: The catalog key, e.g. ``"node-monitoring"``.
        note: One sentence of curated advice, shown with suggestions.
        synonyms: Words and phrases that mean this capability in a request.
        group: The broad capability in ``oic_ai.stores.vocabulary`` it refines (``"monitoring"``).
        package_table: Package names keyed by family, dist, or ``key/arch``.
        unverified: Names, keyed the same way, that could not be checked offline.
    """

    name: str
    note: str
    synonyms: tuple[str, ...]
    group: str = ""
    package_table: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unverified: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def packages_for(self, os: str, dist: str, arch: str | None = None) -> tuple[str, ...]:
        """Return the package names for a target; empty when the distribution lacks it."""
        family = package_family(os, dist)
        return _pick(self.package_table, family, dist, normalize_arch(arch))

    def unverified_for(self, os: str, dist: str, arch: str | None = None) -> frozenset[str]:
        """Return the names for this target that were not checked against an index."""
        family = package_family(os, dist)
        arch = normalize_arch(arch)
        names: set[str] = set()
        for key in _lookup_keys(family, dist, arch):
            names.update(self.unverified.get(key, ()))
        return frozenset(names)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-serialisable description."""
        return {
            "name": self.name,
            "note": self.note,
            "group": self.group,
            "synonyms": list(self.synonyms),
            "packages": {key: list(names) for key, names in self.package_table.items()},
            "unverified": {key: list(names) for key, names in self.unverified.items()},
        }


@dataclass(frozen=True)
class AliasGroup:
    """Spellings of one package, and the real name(s) on each target."""

    names: frozenset[str]
    targets: Mapping[str, tuple[str, ...]]

    def names_for(self, os: str, dist: str, arch: str | None = None) -> tuple[str, ...]:
        """Return the real names on that target (may be empty)."""
        return _pick(self.targets, package_family(os, dist), dist, normalize_arch(arch))


@dataclass(frozen=True)
class UseCase:
    """A kind of image and the capabilities it usually wants, most important first."""

    name: str
    synonyms: tuple[str, ...]
    capabilities: tuple[str, ...]


class CapabilityCatalog:
    """The loaded catalog: capabilities, package aliases and use cases.

    Args:
        capabilities: Capabilities by name, in file order.
        alias_groups: Package spellings and their real names per target.
        use_cases: Use cases by name, in file order.
    """

    def __init__(
        self,
        capabilities: Mapping[str, Capability],
        alias_groups: Iterable[AliasGroup],
        use_cases: Mapping[str, UseCase],
    ) -> None:
        self.capabilities: Mapping[str, Capability] = MappingProxyType(dict(capabilities))
        self.alias_groups: tuple[AliasGroup, ...] = tuple(alias_groups)
        self.use_cases: Mapping[str, UseCase] = MappingProxyType(dict(use_cases))
        self._capability_phrases = _phrase_table(
            (capability.name, (capability.name, *capability.synonyms))
            for capability in self.capabilities.values()
        )
        self._use_case_phrases = _phrase_table(
            (use_case.name, (use_case.name, *use_case.synonyms))
            for use_case in self.use_cases.values()
        )
        self._alias_index: dict[str, list[AliasGroup]] = {}
        for group in self.alias_groups:
            for name in group.names:
                self._alias_index.setdefault(name.lower(), []).append(group)

    def get(self, capability: str) -> Capability:
        """Return a capability by name.

        Raises:
            KeyError: no capability has that name.
        """
        return self.capabilities[capability]

    def find(self, text: str) -> list[Capability]:
        """Return the capabilities a free-text request mentions, most specific first.

        Matching is on whole words and phrases: "node monitoring" finds node-monitoring
        and not also the shorter "monitoring"; "dockerfile" finds nothing. A phrase
        shared by several capabilities ("hardening") returns all of them. Negation
        ("without docker") is not interpreted here.
        """
        return [self.capabilities[name] for name in _match(self._capability_phrases, words(text))]

    def packages(
        self, capability: str, os: str, dist: str, arch: str | None = None
    ) -> tuple[str, ...]:
        """Return the package names to add for a capability on a target.

        Args:
            capability: A capability name (see ``capabilities``).
            os: Target os.
            dist: Target dist; a per-dist list wins over the family list.
            arch: Target arch (``x86_64`` by default); per-arch lists win within a key.

        Raises:
            KeyError: unknown capability.
            UserInputError: unknown os/dist.
        """
        return self.capabilities[capability].packages_for(os, dist, arch)

    def aliases(self, name: str, os: str, dist: str, arch: str | None = None) -> tuple[str, ...]:
        """Return the names that mean the same package as ``name`` on a target.

        ``docker-ce`` on elxr12 gives ``("docker.io",)`` and ``python`` gives
        ``("python3",)``. The name itself is never returned, so a name that is already
        right for the target gives an empty tuple.
        """
        package_family(os, dist)  # validates the target
        found: list[str] = []
        for group in self._alias_index.get(name.lower(), ()):
            for candidate in group.names_for(os, dist, arch):
                if candidate != name and candidate not in found:
                    found.append(candidate)
        return tuple(found)

    def capabilities_for_package(self, name: str) -> tuple[Capability, ...]:
        """Return the capabilities whose package lists (any target) contain ``name``."""
        return tuple(
            capability
            for capability in self.capabilities.values()
            if any(name in names for names in capability.package_table.values())
        )

    def for_use_case(self, use_case: str) -> tuple[Capability, ...]:
        """Return the capabilities worth suggesting for a use case, most important first.

        Accepts a use-case name (``industrial-iot``), a phrase (``industrial IoT``) or a
        whole request ("a minimal edge image for industrial IoT"); when several use
        cases are mentioned the most specific comes first and duplicates are dropped.
        """
        result: list[Capability] = []
        for name in _match(self._use_case_phrases, words(use_case)):
            for capability in self.use_cases[name].capabilities:
                if self.capabilities[capability] not in result:
                    result.append(self.capabilities[capability])
        return tuple(result)

    def names_for_target(self, os: str, dist: str, arch: str | None = None) -> dict[str, str]:
        """Return every catalog package name for a target, mapped to its capability."""
        result: dict[str, str] = {}
        for capability in self.capabilities.values():
            for name in capability.packages_for(os, dist, arch):
                result.setdefault(name, capability.name)
        return result


# phrase (tuple of words) -> owners, longest phrases first
_PhraseTable = tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


def _phrase_table(entries: Iterable[tuple[str, Iterable[str]]]) -> _PhraseTable:
    owners: dict[tuple[str, ...], list[str]] = {}
    for owner, phrases in entries:
        for phrase in phrases:
            key = words(phrase)
            if key and owner not in owners.setdefault(key, []):
                owners[key].append(owner)
    ordered = sorted(owners.items(), key=lambda item: -len(item[0]))
    return tuple((phrase, tuple(names)) for phrase, names in ordered)


def _word_matches(text_word: str, phrase_word: str) -> bool:
    # tolerate a plain plural: "containers", "logs", "robots"
    return text_word == phrase_word or text_word == phrase_word + "s"


def _match(table: _PhraseTable, text: tuple[str, ...]) -> list[str]:
    """Owners of the phrases found in ``text``; longer phrases claim their words first.

    Only the phrases whose first word is in ``text`` are tried, in the table's order (a
    pasted e-mail against every phrase of the catalog took tens of milliseconds).
    """
    by_first = _first_words(table)
    candidates: set[int] = set()
    for word in set(text):
        candidates.update(by_first.get(word, ()))
        if word.endswith("s"):
            candidates.update(by_first.get(word[:-1], ()))
    taken = [False] * len(text)
    found: list[str] = []
    for at in sorted(candidates):
        phrase, owners = table[at]
        size = len(phrase)
        for start in range(len(text) - size + 1):
            span = range(start, start + size)
            if any(taken[i] for i in span):
                continue
            if all(_word_matches(text[start + k], phrase[k]) for k in range(size)):
                for i in span:
                    taken[i] = True
                for owner in owners:
                    if owner not in found:
                        found.append(owner)
    return found


@lru_cache(maxsize=8)
def _first_words(table: _PhraseTable) -> dict[str, tuple[int, ...]]:
    """The table's phrases by their first word, as positions in the table."""
    index: dict[str, list[int]] = {}
    for at, (phrase, _) in enumerate(table):
        index.setdefault(phrase[0], []).append(at)
    return {word: tuple(ats) for word, ats in index.items()}


def _names(value: Any, where: str) -> tuple[str, ...]:
    return string_list(value, where, items="package names")


def _target_table(raw: Any, where: str) -> dict[str, tuple[str, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where} must map family/dist keys to lists")
    targets = load_targets()
    table: dict[str, tuple[str, ...]] = {}
    for key, value in raw.items():
        base, _, arch = str(key).partition("/")
        if base not in targets.families and base not in targets.dists:
            raise ValueError(f"{where}: unknown family or dist {base!r}")
        if arch and arch not in targets.arches:
            raise ValueError(f"{where}: unknown arch {arch!r}")
        table[str(key)] = _names(value, f"{where}.{key}")
    return table


def parse_catalog(data: Mapping[str, Any]) -> CapabilityCatalog:
    """Build a catalog from the parsed YAML document.

    Raises:
        ValueError: the document is malformed (a bug in the shipped data).
    """
    capabilities: dict[str, Capability] = {}
    for name, entry in (data.get("capabilities") or {}).items():
        if not isinstance(entry, Mapping) or not entry.get("note"):
            raise ValueError(f"capability {name!r} needs a mapping with a note")
        capabilities[str(name)] = Capability(
            name=str(name),
            note=str(entry["note"]),
            synonyms=_names(entry.get("synonyms"), f"{name}.synonyms"),
            group=str(entry.get("group", "")),
            package_table=MappingProxyType(_target_table(entry.get("packages"), f"{name}")),
            unverified=MappingProxyType(_target_table(entry.get("unverified"), f"{name}")),
        )
    groups: list[AliasGroup] = []
    for index, entry in enumerate(data.get("aliases") or []):
        if not isinstance(entry, Mapping):
            raise ValueError(f"aliases[{index}] must be a mapping")
        names = frozenset(_names(entry.get("names"), f"aliases[{index}].names"))
        targets = {key: value for key, value in entry.items() if key != "names"}
        groups.append(AliasGroup(names, MappingProxyType(_target_table(targets, "aliases"))))
    use_cases: dict[str, UseCase] = {}
    for name, entry in (data.get("use_cases") or {}).items():
        wanted = _names(entry.get("capabilities"), f"use_cases.{name}")
        unknown = [item for item in wanted if item not in capabilities]
        if unknown:
            raise ValueError(f"use case {name!r} names unknown capabilities {unknown}")
        use_cases[str(name)] = UseCase(
            str(name), _names(entry.get("synonyms"), f"use_cases.{name}"), wanted
        )
    return CapabilityCatalog(capabilities, groups, use_cases)


@lru_cache(maxsize=4)
def load_catalog(path: Path | None = None) -> CapabilityCatalog:
    """Load (once) and return the catalog shipped in ``stores/data/capabilities.yaml``.

    Args:
        path: Another catalog file, for tests; ``None`` means the shipped one.
    """
    return parse_catalog(load_mapping(path or CATALOG_PATH))
