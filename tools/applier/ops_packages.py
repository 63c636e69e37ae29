"""Handlers for packages and package repositories."""

from __future__ import annotations

import fnmatch
import re

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from oic_ai.stores.targets import load_targets
from oic_ai.tools.applier.comments import append, remove
from oic_ai.tools.applier.editor import AlreadySo, Editor, Skip
from oic_ai.tools.applier.yaml_values import scalar, seq
from oic_ai.tools.edit_plan import AddPackages, AddRepository, RemovePackages
from oic_ai.tools.template_keys import PUBLIC_KEY_PLACEHOLDER

_VERSION_PIN = re.compile(r"\s*(?:[<>=!]=?|~=).*$")
_GLOB = re.compile(r"[*?\[]")


def add_packages(ed: Editor, op: AddPackages) -> None:
    """AddPackages: add packages to the system (or kernel) package list."""
    names: list[str] = []
    pins: list[str] = []
    for raw in op.packages:
        bare = _bare_package(raw)
        if bare != raw.strip():
            pins.append(raw)
        if not load_targets().pattern("package_name").match(bare):
            raise Skip(f"{raw!r} is not a package name")
        if bare not in names:
            names.append(bare)
    if not names:
        raise Skip("no package names given")
    system = ed.section("systemConfig")
    where = "systemConfig"
    if op.kernel:
        kernel = ed.mapping(system, "kernel", "systemConfig")
        system, where = kernel, "systemConfig.kernel"
    existing = system.get("packages")
    known = ed.names(existing) if isinstance(existing, CommentedSeq) else set()
    present = [n for n in names if n in known]
    added = [n for n in names if n not in present]
    if not added:
        raise AlreadySo("already present")
    packages = ed.sequence(system, "packages", where)
    like = packages[-1] if len(packages) else None
    for name in added:
        append(packages, scalar(name, like))
    ed.names(packages).update(added)
    line = f"added {'kernel ' if op.kernel else ''}packages {', '.join(added)}"
    if present:
        line += f" ({', '.join(present)} already present)"
    if pins:
        line += f" (version pins dropped from {', '.join(pins)})"
    ed.applied.append(line)


def remove_packages(ed: Editor, op: RemovePackages) -> None:
    """RemovePackages: remove packages from the system and kernel package lists."""
    system = ed.doc.get("systemConfig")
    lists: list[CommentedSeq] = []
    if isinstance(system, CommentedMap):
        if isinstance(system.get("packages"), CommentedSeq):
            lists.append(system["packages"])
        kernel = system.get("kernel")
        if isinstance(kernel, CommentedMap) and isinstance(kernel.get("packages"), CommentedSeq):
            lists.append(kernel["packages"])
    removed: list[str] = []
    missing: list[str] = []
    for pattern in op.packages:
        wanted = pattern.strip()
        hits = 0
        for packages in lists:
            matches = [
                index
                for index, name in enumerate(list.__iter__(packages))  # C speed, not ruamel's
                if isinstance(name, str) and _package_matches(name, wanted)
            ]
            removed.extend(str(packages[index]) for index in matches)
            for index in reversed(matches):
                remove(packages, index)
            hits += len(matches)
        if not hits:
            missing.append(wanted)
    if removed:
        unique = list(dict.fromkeys(removed))
        ed.applied.append(f"removed packages {', '.join(unique)}")
        _remove_dependents(ed, lists, unique)
    if missing:
        ed.not_applied.append(
            f"not applied: remove packages {', '.join(missing)}: not in the package lists"
        )


def _remove_dependents(ed: Editor, lists: list[CommentedSeq], removed: list[str]) -> None:
    """Remove what needs the removed packages: left behind, it would pull them back in."""
    target = ed.target()
    remaining = [str(name) for packages in lists for name in packages if isinstance(name, str)]
    dependents = ed.needs.dependents(
        removed,
        remaining,
        os=str(target.get("os") or ""),
        dist=str(target.get("dist") or ""),
        arch=str(ed.arch() or ""),
    )
    if not dependents:
        return
    for packages in lists:
        doomed = [
            i for i, name in enumerate(packages) if isinstance(name, str) and name in dependents
        ]
        for index in reversed(doomed):
            remove(packages, index)
    ed.applied.append(
        "also removed "
        + "; ".join(f"{name}, which needs {needed}" for name, needed in dependents.items())
    )


def add_repository(ed: Editor, op: AddRepository) -> None:
    """AddRepository: add a package repository."""
    url = op.url.strip()
    if not url:
        raise Skip("the repository needs a url")
    existing = ed.doc.get("packageRepositories")
    if existing is not None and not isinstance(existing, CommentedSeq):
        raise Skip("packageRepositories is not a list")
    # a local directory ("/srv/repo/elxr-aria") is the composer's ``path`` of a file-based
    # repository, not a url
    where = "path" if url.startswith("/") else "url"
    if isinstance(existing, CommentedSeq) and any(
        isinstance(r, dict) and str(r.get(where, "")).rstrip("/") == url.rstrip("/")
        for r in existing
    ):
        raise Skip("a repository with that url is already there")
    codename = (op.codename or "").strip() or _default_codename(ed, url)
    if not codename:
        raise Skip("the repository needs a codename (the suite, e.g. noble)")
    bad = [
        p for p in op.allow_packages if not load_targets().pattern("package_name").match(p.strip())
    ]
    if bad:
        raise Skip(f"{bad[0]!r} is not a package name")
    repo = CommentedMap()
    repo["codename"] = DoubleQuotedScalarString(codename)
    repo[where] = DoubleQuotedScalarString(url)
    pkey = (op.pkey or "").strip()
    repo["pkey"] = DoubleQuotedScalarString(pkey or PUBLIC_KEY_PLACEHOLDER)
    if op.component:
        repo["component"] = DoubleQuotedScalarString(op.component.strip())
    if op.allow_packages:
        repo["allowPackages"] = seq(p.strip() for p in op.allow_packages)
    if existing is None:
        repos = seq([repo])
        ed.insert(ed.doc, "packageRepositories", repos, "", blank=ed.style.blank_sections)
    else:
        append(existing, repo)
    ed.applied.append(f"added repository {codename} ({url})")
    if not pkey:
        ed.warnings.append(
            f"repository {codename} has the placeholder key {PUBLIC_KEY_PLACEHOLDER}: "
            "set pkey to the URL of its signing key"
        )
    if not op.codename:
        ed.warnings.append(f"repository codename {codename!r} was assumed; check it")


def _default_codename(ed: Editor, url: str) -> str:
    dist = ed.target().get("dist")
    if ed.family() == "deb":
        return load_targets().repository_codename(dist)
    segments = [s for s in re.split(r"[/:]+", url) if s and s not in ("https", "http", "file")]
    label = segments[-1] if segments else ""
    return re.sub(r"[^A-Za-z0-9._-]", "-", label)


def _package_matches(name: str, wanted: str) -> bool:
    if _GLOB.search(wanted):
        return fnmatch.fnmatchcase(name, wanted) or fnmatch.fnmatchcase(_bare_package(name), wanted)
    return name == wanted or _bare_package(name) == wanted


def _bare_package(name: str) -> str:
    return _VERSION_PIN.sub("", name.strip())
