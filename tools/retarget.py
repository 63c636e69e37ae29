"""Re-target a template: the same image for another dist, arch or image type.

"The same for Debian", "and Ubuntu 26.04 too", "same thing for x86": the current template
keeps every customisation and gets the new target.

- **Same dist** (another arch or image type): the template is changed in place with a
  ``set_target`` operation; the applier follows the arch through (root partition types,
  the default serial console, arch words in names and packages) and the catalog renames
  the packages whose name differs by arch.
- **Another dist**: the template is re-based. What makes it *this* image is the
  structural difference between it and the minimal template of its own target (its
  *platform*: the library template of that dist, arch and image type with the fewest
  packages). That difference is replayed, as plan operations, onto the platform of the new
  target (:mod:`oic_ai.tools.rebase`); package names are mapped across families through
  the capability catalog (docker.io <-> moby-engine); what cannot be carried over is listed.

Both paths run through the one applier, so the result is validated and package-checked
like any turn's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oic_ai.stores.capability_catalog import CapabilityCatalog, load_catalog
from oic_ai.stores.targets import load_targets
from oic_ai.tools.edit_plan import (
    AddPackages,
    EditPlan,
    RemovePackages,
    SetHostname,
    SetKernel,
    SetTarget,
)
from oic_ai.tools.rebase import (
    Platform,
    Retargeted,
    map_package,
    packages_of,
    parse,
    rebase,
    section,
)


@dataclass(frozen=True)
class LibraryEntry:
    """What choosing a platform needs to know of one library template.

    Attributes:
        path: The file.
        dist: Its ``target.dist``.
        arch: Its ``target.arch`` (the composer's name).
        image_type: Its ``target.imageType``.
        packages: How many packages it installs.
    """

    path: Path
    dist: str
    arch: str
    image_type: str
    packages: int


_ENTRIES: dict[Path, tuple[tuple[tuple[str, int, int], ...], tuple[LibraryEntry, ...]]] = {}


def library_entries(root: Path) -> tuple[LibraryEntry, ...]:
    """The templates under ``root`` as :class:`LibraryEntry`, read again only on a change."""
    from oic_ai.stores.template_library import iter_template_files

    files = []
    for path in iter_template_files(root):
        try:
            info = path.stat()
        except OSError:
            continue
        files.append((path, info.st_mtime_ns, info.st_size))
    key = tuple((str(path), mtime, size) for path, mtime, size in files)
    cached = _ENTRIES.get(root)
    if cached is None or cached[0] != key:
        entries = []
        for path, _, _ in files:
            try:
                doc = parse(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                continue
            target = full_target(section(doc, "target"))
            if target["dist"]:
                count = len(packages_of(doc))
                entries.append(
                    LibraryEntry(path, target["dist"], target["arch"], target["imageType"], count)
                )
        cached = (key, tuple(entries))
        _ENTRIES[root] = cached
    return cached[1]


def full_target(target: Mapping[str, Any]) -> dict[str, str]:
    """A template's target with the registry's defaults for what it leaves out."""
    targets = load_targets()
    dist = str(target.get("dist") or "")
    arch = targets.canonical_arch(str(target.get("arch") or targets.default_arch))
    return {
        "os": str(target.get("os") or targets.os_of(dist) or ""),
        "dist": dist,
        "arch": arch,
        "imageType": str(target.get("imageType") or targets.default_image_type),
    }


def platform_template(root: Path, target: Mapping[str, str]) -> Platform | None:
    """The library's most basic template for ``target``, set to it when none matches exactly.

    Among the templates of the target's dist with its image type, the one with the fewest
    packages is taken, whatever its arch (an arch change is followed through reliably by
    the applier, so a plain x86_64 base set to aarch64 beats a busy aarch64 one); only when
    the dist has no template of that image type is another one changed with ``set_target``.

    Args:
        root: The template library's folder.
        target: The whole target (os, dist, arch, imageType).

    Returns:
        None when the library has no template of the dist at all.
    """
    candidates = [e for e in library_entries(root) if e.dist == target["dist"]]
    if not candidates:
        return None
    best = min(
        candidates,
        key=lambda e: (
            e.image_type != target["imageType"],
            e.packages,
            e.arch != target["arch"],
            str(e.path),
        ),
    )
    text = best.path.read_text(encoding="utf-8")
    if best.arch != target["arch"] or best.image_type != target["imageType"]:
        from oic_ai.tools.applier import apply_plan

        op = SetTarget(
            arch=target["arch"] if best.arch != target["arch"] else None,  # type: ignore[arg-type]
            image_type=target["imageType"] if best.image_type != target["imageType"] else None,  # type: ignore[arg-type]
        )
        operations: list[Any] = [op]
        hostname = _hostname_for_arch(text, best.arch, target["arch"])
        if hostname is not None:
            operations.append(SetHostname(hostname=hostname))
        text = apply_plan(text, EditPlan(summary="platform", operations=operations)).text
    return Platform(name=best.path.name, text=text)


def _hostname_for_arch(text: str, old: str, new: str) -> str | None:
    """The platform's own hostname with its arch word swapped ("ubuntu-arm64" on x86_64).

    Only the library template's hostname: a user's hostname is carried over as given.
    """
    import re

    hostname = section(parse(text), "systemConfig").get("hostname")
    arches = load_targets().arches
    if not isinstance(hostname, str) or old not in arches or new not in arches:
        return None
    swapped = hostname
    for before, after in zip(arches[old].name_words, arches[new].name_words, strict=True):
        swapped = re.sub(rf"(?<![A-Za-z0-9]){re.escape(before)}(?![A-Za-z0-9])", after, swapped)
    return swapped if swapped != hostname else None


def _vendor_spelling(catalog: CapabilityCatalog, name: str, old: dict[str, str]) -> bool:
    """Whether ``name`` is another spelling of a package than ``old``'s own (docker-ce)."""
    for group in catalog.alias_groups:
        if name in group.names:
            own = group.names_for(old["os"], old["dist"], old["arch"])
            return bool(own) and name not in own
    return False


def _package_renames(
    catalog: CapabilityCatalog,
    packages: list[str],
    old: dict[str, str],
    new: dict[str, str],
    *,
    served: bool = False,
) -> tuple[list[str], list[str], list[str]]:
    """Packages to remove and add for a same-family change, and the rename lines.

    ``served``: the template has repositories of its own that stay (an arch change), so a
    vendor's spelling of a package (docker-ce beside docker.io) is theirs and stays.
    """
    remove: list[str] = []
    add: list[str] = []
    lines: list[str] = []
    for name in packages:
        if served and _vendor_spelling(catalog, name, old):
            continue  # "docker-ce" from the template's own download.docker.com: it stays
        mapped = map_package(catalog, name, old, new)
        if mapped is None or mapped == (name,):
            continue
        remove.append(name)
        add.extend(n for n in mapped if n not in packages and n not in add)
        lines.append(f"{name} -> {', '.join(mapped) or '(none on ' + new['dist'] + ')'}")
    return remove, add, lines


def retarget_in_place(text: str, old: dict[str, str], new: dict[str, str]) -> Retargeted:
    """Change the target of ``text`` (same dist) and follow it through."""
    from oic_ai.tools.applier import apply_plan

    op = SetTarget(
        arch=new["arch"] if new["arch"] != old["arch"] else None,  # type: ignore[arg-type]
        image_type=new["imageType"] if new["imageType"] != old["imageType"] else None,  # type: ignore[arg-type]
    )
    operations: list[Any] = [op]
    catalog = load_catalog()
    document = parse(text)
    served = bool(document.get("packageRepositories"))
    remove, add, lines = _package_renames(catalog, packages_of(document), old, new, served=served)
    if remove:
        operations += [RemovePackages(packages=remove), AddPackages(packages=add)]
    applied = apply_plan(text, EditPlan(summary="retarget", operations=operations))
    dropped, cmdline = _foreign_consoles(applied.text, new["arch"])
    if dropped:
        applied = apply_plan(
            text,
            EditPlan(summary="retarget", operations=[*operations, SetKernel(cmdline=cmdline)]),
        )
    result = Retargeted(text=applied.text, changes=list(applied.applied))
    result.warnings = [
        w for w in applied.warnings if not w.startswith("the architecture changed from")
    ]
    if lines:
        result.changes.append("renamed packages for " + new["arch"] + ": " + "; ".join(lines))
    result.not_carried = [line.removeprefix("not applied: ") for line in applied.not_applied]
    result.not_carried += [
        f"kernel option {token}: {new['arch']} has no such serial device" for token in dropped
    ]
    return result


def _foreign_consoles(text: str, arch: str) -> tuple[list[str], str]:
    """The ``console=`` options of ``text`` for a device ``arch`` lacks, and the rest."""
    tokens = str(section(parse(text), "systemConfig", "kernel").get("cmdline") or "").split()
    targets = load_targets()
    dropped = [
        t
        for t in tokens
        if t.startswith("console=")
        and not targets.has_serial_device(arch, t.split("=", 1)[1].split(",", 1)[0])
    ]
    return dropped, " ".join(t for t in tokens if t not in dropped)


def retarget_template(
    text: str,
    target: Mapping[str, str],
    library: Path,
    *,
    session_base: str | None = None,
    asked: Sequence[str] = (),
) -> Retargeted:
    """The template ``text`` re-targeted to ``target``, keeping its customisations.

    Args:
        text: The session's current template.
        target: The whole new target (os, dist, arch, imageType).
        library: The template library's folder (the platforms come from it; it is read
            only when the dist changes).
        session_base: The text the session started from, if known: a value still equal
            to it (a base's own hostname) counts as the base's, not as a customisation.
        asked: The user's earlier requests of the session: a package or kernel option
            they name is carried over even when the old base had it as well.

    Returns:
        The re-targeted text with its changes and what was not carried over.
    """
    old = full_target(parse(text).get("target") or {})
    new = full_target(target)
    if old["dist"] == new["dist"]:
        return retarget_in_place(text, old, new)
    old_platform = platform_template(library, old)
    new_platform = platform_template(library, new)
    if new_platform is None:
        return Retargeted(
            text=text,
            not_carried=[f"the library has no {new['dist']} template to start from"],
        )
    return rebase(
        text,
        old,
        new,
        old_platform=old_platform.text if old_platform else None,
        new_platform=new_platform,
        session_base=session_base,
        catalog=load_catalog(),
        asked=asked,
    )
