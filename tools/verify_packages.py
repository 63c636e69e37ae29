"""``verify_packages``: check a template's packages against the indexes of its target.

Each package is classified as found, found by provides, a glob matching N packages,
missing, or unverified (it may come from one of the template's own repositories
that has no index yet). A target without any index gives ``checked: False`` with the
reason and the command that provides one; nothing is ever reported as checked when
it was not.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oic_ai.stores.capability_catalog import normalize_arch
from oic_ai.stores.targets import load_targets
from oic_ai.tools.suggest_packages import Suggestion, rank_alternatives

if TYPE_CHECKING:
    from oic_ai.stores.package_index import IndexView, PackageIndex, RepoFilter
    from oic_ai.stores.settings import Settings

FOUND, PROVIDES, GLOB, MISSING, UNVERIFIED = "found", "provides", "glob", "missing", "unverified"
GLOB_SAMPLE = 5

# "name-1.2.3", "name_1.2", "name-1.2-3.emt3": a version pinned onto the name
_VERSION_SPLIT = re.compile(r"[-_](?=\d)")


@dataclass(frozen=True)
class PackageCheck:
    """The verdict for one package name.

    Attributes:
        name: The name as the template writes it.
        status: ``found``, ``provides``, ``glob``, ``missing`` or ``unverified``.
        matches: Providers (``provides``), a sample of matches (``glob``) or the
            package a version-pinned name resolved to (``found``).
        count: How many packages a glob matches.
        repo: The repository the package was found in.
        note: Why, in a few words, when the status needs explaining.
    """

    name: str
    status: str
    matches: tuple[str, ...] = ()
    count: int = 0
    repo: str = ""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-serialisable description."""
        data: dict[str, Any] = {"name": self.name, "status": self.status}
        if self.matches:
            data["matches"] = list(self.matches)
        if self.status == GLOB:
            data["count"] = self.count
        if self.repo:
            data["repo"] = self.repo
        if self.note:
            data["note"] = self.note
        return data


@dataclass
class PackageReport:
    """The result of checking one template's packages.

    ``checked`` is False when the target has no index (``reason`` and ``fix`` say
    why and what to run); then ``found`` and ``missing`` are empty.
    """

    checked: bool
    reason: str | None = None
    fix: str | None = None
    path: str | None = None
    os: str = ""
    dist: str = ""
    arch: str = ""
    checks: list[PackageCheck] = field(default_factory=list)
    found: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)
    by_provides: dict[str, list[str]] = field(default_factory=dict)
    globbed: dict[str, int] = field(default_factory=dict)
    suggestions: dict[str, list[str]] = field(default_factory=dict)
    ranked: dict[str, list[Suggestion]] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    pending_repos: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True unless a checked template has a missing package."""
        return not (self.checked and self.missing)

    def to_json(self) -> dict[str, Any]:
        """Return the ``packages check`` JSON shape for this template (DESIGN.md)."""
        return {
            "path": self.path,
            "checked": self.checked,
            "reason": self.reason,
            "fix": self.fix,
            "target": {"os": self.os, "dist": self.dist, "arch": self.arch},
            "found": list(self.found),
            "missing": list(self.missing),
            "unverified": list(self.unverified),
            "by_provides": {k: list(v) for k, v in self.by_provides.items()},
            "globbed": dict(self.globbed),
            "suggestions": {k: list(v) for k, v in self.suggestions.items()},
            "ranked_suggestions": {
                name: [s.to_json() for s in items] for name, items in self.ranked.items()
            },
            "packages": [check.to_json() for check in self.checks],
            "sources": list(self.sources),
            "pending_repositories": list(self.pending_repos),
        }


def how_to_index(os: str, dist: str, arch: str) -> str:
    """Return the one-line fix for a target without an index."""
    return (
        f"run 'oic-ai packages sync --repo-config PROVIDERCONFIG --dist {dist} --arch {arch}' "
        f"(the composer's config/osv/{os or '<os>'}/{dist}/providerconfigs/*.yml) or import a "
        f"local index with 'oic-ai packages sync --index FILE --dist {dist} --arch {arch}'"
    )


# --- reading a template ------------------------------------------------------------


def template_packages(data: Mapping[str, Any]) -> list[str]:
    """Return ``systemConfig.packages`` then ``systemConfig.kernel.packages``, unique."""
    system = data.get("systemConfig")
    if not isinstance(system, Mapping):
        return []
    kernel = system.get("kernel")
    names: list[str] = []
    for raw in (
        system.get("packages"),
        kernel.get("packages") if isinstance(kernel, Mapping) else None,
    ):
        if not isinstance(raw, list):
            continue
        for item in raw:
            if isinstance(item, str | int | float) and not isinstance(item, bool):
                text = str(item).strip()
                if text and text not in names:
                    names.append(text)
    return names


def template_target(data: Mapping[str, Any]) -> tuple[str, str, str]:
    """Return the template's (os, dist, arch), empty strings where absent."""
    target = data.get("target")
    if not isinstance(target, Mapping):
        return "", "", ""
    return (
        str(target.get("os") or "").strip(),
        str(target.get("dist") or "").strip(),
        str(target.get("arch") or "").strip(),
    )


def template_repo_filters(data: Mapping[str, Any]) -> list[tuple[RepoFilter, str]]:
    """Return each ``packageRepositories`` entry as a filter and a label."""
    from oic_ai.stores.package_index import RepoFilter
    from oic_ai.stores.package_repos import template_repo_key

    result = []
    for entry in data.get("packageRepositories") or []:
        if not isinstance(entry, Mapping):
            continue
        allow = entry.get("allowPackages")
        patterns = (
            tuple(str(p) for p in allow if isinstance(p, str)) if isinstance(allow, list) else ()
        )
        label = str(entry.get("codename") or entry.get("url") or entry.get("path") or "?")
        result.append((RepoFilter(template_repo_key(entry), patterns), label))
    return result


# --- names we can vouch for without an index ------------------------------------------

_KNOWN: dict[tuple[Path, tuple[tuple[str, int, int], ...]], frozenset[str]] = {}
_KNOWN_LOCK = threading.Lock()


def known_package_names(settings: Settings | None = None) -> frozenset[str]:
    """Every package name the capability catalog or the template library uses.

    The catalog's lists and alias spellings (any target) and every package of every
    template in the library (``settings.templates_dir``, else the bundled one). Kept per
    library until one of its files changes.
    """
    import yaml

    from oic_ai.stores.capability_catalog import load_catalog
    from oic_ai.stores.template_library import bundled_templates_dir, iter_template_files

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # only the package lists matter

    root = ((settings.templates_dir if settings else None) or bundled_templates_dir()).resolve()
    files: list[tuple[str, int, int]] = []
    for path in iter_template_files(root) if root.is_dir() else ():
        try:
            info = path.stat()
        except OSError:
            continue
        files.append((str(path), info.st_mtime_ns, info.st_size))
    key = (root, tuple(sorted(files)))
    with _KNOWN_LOCK:
        cached = _KNOWN.get(key)
    if cached is not None:
        return cached
    names: set[str] = set()
    catalog = load_catalog()
    for capability in catalog.capabilities.values():
        for listed in capability.package_table.values():
            names.update(listed)
    for group in catalog.alias_groups:
        names.update(group.names)
        for listed in group.targets.values():
            names.update(listed)
    for file_name, _, size in files:
        if size > 1 << 20:
            continue  # the library skips files over 1 MiB too
        try:
            data = yaml.load(Path(file_name).read_bytes(), Loader=loader)  # noqa: S506 (a safe loader)
        except (OSError, yaml.YAMLError):
            continue  # unreadable or malformed: the library skips it as well
        if isinstance(data, Mapping):
            names.update(template_packages(data))
    known = frozenset(names)
    with _KNOWN_LOCK:
        _KNOWN.clear()  # one library at a time is what a process uses
        _KNOWN[key] = known
    return known


def unverified_names(
    names: Sequence[str], *, base: Sequence[str], known: frozenset[str]
) -> list[str]:
    """The names no index checked that neither the base, the catalog nor the library knows.

    Globs are left out (they name families of packages, not one), and so is a name with a
    version pinned onto a known name (``openssh-server-9.6``).

    Args:
        names: The draft's package names.
        base: The package names of the template the turn started from.
        known: :func:`known_package_names`.
    """
    from oic_ai.stores.package_index import is_glob

    vouched = known | set(base)
    result: list[str] = []
    for name in names:
        if name in vouched or is_glob(name) or name in result:
            continue
        stems = (name[: m.start()] for m in _VERSION_SPLIT.finditer(name))
        if any(stem in vouched for stem in stems):
            continue
        result.append(name)
    return result


# --- opening the index ---------------------------------------------------------------

_INDEXES: dict[Path, PackageIndex] = {}
_INDEXES_LOCK = threading.Lock()


def index_for(data_dir: str | Path) -> PackageIndex:
    """Return the (process-wide, reused) package index of a data folder.

    Reusing it keeps the SQLite connection and the name cache warm between calls,
    which is what makes repeated checks from the graph cheap.
    """
    from oic_ai.stores.package_index import PackageIndex

    key = Path(data_dir).resolve()
    with _INDEXES_LOCK:
        index = _INDEXES.get(key)
        if index is None:
            index = _INDEXES[key] = PackageIndex.for_data_dir(key)
        return index


# --- checking ----------------------------------------------------------------------


def _versioned(view: IndexView, name: str) -> PackageCheck | None:
    """Resolve a name with a pinned version (``intel-dlstreamer-2025.2.0``) if the index agrees.

    Versions compare as Debian or RPM versions (``stores/versions.py``), never as string
    prefixes: ``1.2`` does not match ``1.20``.
    """
    from oic_ai.stores.versions import parse_pin, pin_matches

    family = load_targets().family_of(view.dist) or "deb"
    pin = parse_pin(name)
    splits = [(m.start(), m.end(), "=") for m in reversed(list(_VERSION_SPLIT.finditer(name)))]
    candidates = [(pin.name, pin.version, pin.op)] if pin else []
    candidates += [(name[:start], name[end:], "=") for start, end, _ in splits]
    for base, version, op in candidates:
        for hit in view.exact(base):
            if pin_matches(op, version, hit.version, family):
                return PackageCheck(
                    name,
                    FOUND,
                    matches=(f"{hit.name} {hit.version}",),
                    repo=hit.repo,
                    note="name with a pinned version",
                )
    return None


def check_name(view: IndexView, name: str) -> PackageCheck:
    """Classify one package name against a target's index view."""
    from oic_ai.stores.package_index import is_glob

    if is_glob(name):
        matches = view.glob(name)
        if matches:
            return PackageCheck(
                name, GLOB, matches=tuple(matches[:GLOB_SAMPLE]), count=len(matches)
            )
        return PackageCheck(name, MISSING, note="the pattern matches no package")
    hits = view.exact(name)
    if hits:
        return PackageCheck(name, FOUND, repo=hits[0].repo)
    providers = view.providers(name)
    if providers:
        return PackageCheck(name, PROVIDES, matches=tuple(providers))
    versioned = _versioned(view, name)
    if versioned is not None:
        return versioned
    return PackageCheck(name, MISSING)


def verify_packages(
    names: Sequence[str],
    view: IndexView,
    *,
    os: str,
    dist: str,
    arch: str,
    pending: Sequence[tuple[RepoFilter, str]] = (),
    suggest: bool = True,
    path: str | None = None,
) -> PackageReport:
    """Check package names against a target's index view.

    Args:
        names: Package names or composer globs.
        view: The target's lookups (``PackageIndex.view``).
        os: Target os.
        dist: Target dist.
        arch: Target arch.
        pending: The template's repositories that have no index, with labels; a
            name they may supply is ``unverified`` rather than ``missing``.
        suggest: Compute suggestions for missing names.
        path: The template's path, for the report.
    """
    report = PackageReport(checked=view.has_index, path=path, os=os, dist=dist, arch=arch)
    report.sources = [row.repo for row in (*view.base, *view.extra)]
    report.pending_repos = [label for _, label in pending]
    if not view.has_index:
        report.reason = f"no package index for {dist}/{arch}"
        report.fix = how_to_index(os, dist, arch)
        return report
    for name in names:
        check = check_name(view, name)
        if check.status == MISSING:
            supplier = next((label for rule, label in pending if rule.allows(name)), None)
            if supplier is not None:
                check = PackageCheck(
                    name,
                    UNVERIFIED,
                    note=f"may come from repository {supplier!r}, which has no index",
                )
        report.checks.append(check)
        if check.status == MISSING:
            report.missing.append(name)
        elif check.status == UNVERIFIED:
            report.unverified.append(name)
        else:
            report.found.append(name)
            if check.status == PROVIDES:
                report.by_provides[name] = list(check.matches)
            elif check.status == GLOB:
                report.globbed[name] = check.count
    if suggest:
        for name in report.missing:
            ranked = rank_alternatives(name, os=os, dist=dist, arch=arch, view=view)
            report.ranked[name] = ranked
            report.suggestions[name] = [s.name for s in ranked]
    return report


def verify_template_packages(
    template_data: Mapping[str, Any],
    settings: Settings | None = None,
    *,
    index: PackageIndex | None = None,
    path: str | None = None,
    suggest: bool = True,
) -> PackageReport:
    """Check a parsed template's packages against its target's indexes.

    The indexes that apply are those of the template's os/dist/arch plus its own
    ``packageRepositories`` that were synced, each limited by its ``allowPackages``.
    This never raises for a bad template: an unknown target or a missing index
    gives ``checked: False`` with a reason.

    Args:
        template_data: The template as loaded from YAML.
        settings: Where the index lives (``settings.data_dir``); defaults apply if None.
        index: Use this index instead of the one under ``settings.data_dir``.
        path: The template's path, for the report.
        suggest: Compute suggestions for missing names.
    """
    os, dist, arch = template_target(template_data)
    arch = normalize_arch(arch) if arch else ""

    def unchecked(reason: str, fix: str) -> PackageReport:
        return PackageReport(False, reason, fix, path=path, os=os, dist=dist, arch=arch)

    if not dist or not arch:
        return unchecked(
            "the template has no target.dist or target.arch",
            "set target.os, target.dist and target.arch",
        )
    targets = load_targets()
    if dist not in targets.dists and os not in targets.oses:
        return unchecked(
            f"unknown target {os or '?'}/{dist}", f"use one of the dists {', '.join(targets.dists)}"
        )
    if index is None:
        from oic_ai.stores.settings import Settings

        index = index_for((settings or Settings()).data_dir)
    repos = template_repo_filters(template_data)
    view = index.view(dist, arch, [rule for rule, _ in repos])
    indexed_keys = {row.repo_key for row in view.extra}
    pending = [(rule, label) for rule, label in repos if rule.repo_key not in indexed_keys]
    return verify_packages(
        template_packages(template_data),
        view,
        os=os,
        dist=dist,
        arch=arch,
        pending=pending,
        suggest=suggest,
        path=path,
    )


def verify_template_text(
    text: str,
    settings: Settings | None = None,
    *,
    path: str | None = None,
    suggest: bool = True,
) -> PackageReport:
    """Check the packages of a template given as YAML text; never raises for bad input.

    Text that is not a YAML mapping gives ``checked: False`` with the reason.

    Args:
        text: The template's YAML text.
        settings: Where the index lives (``settings.data_dir``); defaults apply if None.
        path: The template's path, for the report.
        suggest: Compute suggestions for missing names.
    """
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

    try:
        data = load_data(text)
    except YamlSyntaxError as exc:
        data = exc
    if not isinstance(data, Mapping):
        reason = f"not valid YAML ({data})" if isinstance(data, Exception) else "not a mapping"
        return PackageReport(
            checked=False,
            reason=f"the template is {reason}",
            fix="pass the whole template as YAML text",
            path=path,
        )
    return verify_template_packages(data, settings, path=path, suggest=suggest)
