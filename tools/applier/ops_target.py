"""Handlers for the build target and the image: os, dist, arch, image type, name, version.

An architecture change follows through to what depends on it: root partition types,
serial consoles, names and package names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from oic_ai.stores.targets import load_targets
from oic_ai.tools import partition_layout as layout
from oic_ai.tools.applier.editor import AlreadySo, Editor, Skip
from oic_ai.tools.applier.ops_disk import DEFAULT_RAW_SIZE, create_disk, partitions
from oic_ai.tools.applier.yaml_values import show
from oic_ai.tools.edit_plan import SetImage, SetTarget


def set_target(ed: Editor, op: SetTarget) -> None:
    """SetTarget: change the build target."""
    if all(v is None for v in (op.os, op.dist, op.arch, op.image_type)):
        raise Skip("nothing to set")
    oses = load_targets().oses
    if op.os is not None:
        if op.os not in oses:
            raise Skip(f"unknown os {op.os!r}; use one of {', '.join(oses)}")
        if op.dist is not None and op.dist not in oses[op.os].dists:
            raise Skip(f"dist {op.dist!r} does not belong to os {op.os}")
    if op.dist is not None and op.os is None:
        owner = ed.target().get("os")
        if op.dist not in load_targets().dists:
            raise Skip(f"unknown dist {op.dist!r}")
        if isinstance(owner, str) and owner in oses and op.dist not in oses[owner].dists:
            raise Skip(f"dist {op.dist!r} does not belong to os {owner}")
    old_family = ed.family()
    target = ed.section("target")
    changes: list[str] = []
    if op.os is not None:
        ed.update(target, "os", op.os, "target", changes)
        dist = op.dist or target.get("dist")
        if dist not in oses[op.os].dists:
            dist = oses[op.os].default_dist
            ed.update(target, "dist", dist, "target", changes)
    if op.dist is not None:
        ed.update(target, "dist", op.dist, "target", changes)
    if op.image_type is not None:
        ed.update(target, "imageType", op.image_type, "target", changes)
    old_arch = ed.arch()
    if op.arch is not None:
        ed.set_key(target, "arch", op.arch, "target")
        if old_arch != op.arch:
            changes.append(f"arch {show(old_arch)} -> {op.arch}")
    if not changes:
        raise AlreadySo("the target is already set that way")
    ed.applied.append("target " + ", ".join(changes))
    if op.arch is not None and old_arch != op.arch:
        _follow_arch(ed, old_arch, op.arch)
    if old_family is not None and ed.family() != old_family:
        ed.warnings.append(
            f"the target changed from a {old_family} to a {ed.family()} distribution: "
            "check that every package name exists there"
        )
    if op.image_type == "raw" and "disk" not in ed.doc:
        try:
            create_disk(ed, DEFAULT_RAW_SIZE)
        except Skip as skip:
            ed.warnings.append(f"a raw image needs a disk layout; none was created: {skip}")


def _follow_arch(ed: Editor, old: str | None, new: str) -> None:
    """Change what depends on the architecture: root type, consoles, names, packages."""
    targets = load_targets()
    notes: list[str] = []
    parts = partitions(ed) or CommentedSeq()
    for index, part in enumerate(parts):
        if not isinstance(part, CommentedMap):
            continue
        label = layout.partition_label(part, index)
        kind = part.get("type")
        if targets.arch_of_root_type(kind) not in (None, new):
            part["type"] = targets.root_type(new)
            notes.append(f"partition {label} type {kind} -> {targets.root_type(new)}")
        guid = part.get("typeUUID")
        if targets.arch_of_root_guid(guid) not in (None, new):
            part["typeUUID"] = targets.root_guid(new)
            notes.append(f"partition {label} typeUUID -> {targets.root_guid(new)}")
    system = ed.doc.get("systemConfig")
    kernel = system.get("kernel") if isinstance(system, CommentedMap) else None
    cmdline = kernel.get("cmdline") if isinstance(kernel, CommentedMap) else None
    if isinstance(kernel, CommentedMap) and isinstance(cmdline, str):
        updated = targets.follow_consoles(cmdline, new)
        if updated != cmdline:
            kernel["cmdline"] = updated
            notes.append(f"kernel cmdline consoles -> {targets.consoles()[new]}")
    old_arch = targets.arches.get(old or "")
    words = old_arch.name_words if old_arch else ()
    for section_key in ("image", "disk", "systemConfig"):
        section = ed.doc.get(section_key)
        name = section.get("name") if isinstance(section, CommentedMap) else None
        if not isinstance(section, CommentedMap) or not isinstance(name, str) or not words:
            continue
        renamed = _swap_words(name, words, targets.arches[new].name_words)
        if renamed != name:
            section["name"] = renamed
            notes.append(f"{section_key}.name {name} -> {renamed}")
    package_words = old_arch.package_words if old_arch else ()
    renamed_packages: list[str] = []
    if isinstance(system, CommentedMap) and package_words:
        lists = [system.get("packages")]
        if isinstance(kernel, CommentedMap):
            lists.append(kernel.get("packages"))
        for packages in lists:
            if not isinstance(packages, CommentedSeq):
                continue
            for i, name in enumerate(packages):
                if not isinstance(name, str):
                    continue
                renamed = _swap_package_arch(name, package_words, targets.arches[new].package_words)
                if renamed != name:
                    packages[i] = renamed
                    renamed_packages.append(f"{name} -> {renamed}")
    if renamed_packages:
        notes.append("packages " + ", ".join(renamed_packages))
    if notes:
        ed.applied.append(f"for {new}: " + "; ".join(notes))
    if old is not None:
        ed.warnings.append(
            f"the architecture changed from {old} to {new}: check that every package "
            f"exists for {new}"
        )


def set_image(ed: Editor, op: SetImage) -> None:
    """SetImage: set the image name and/or version."""
    if op.name is None and op.version is None:
        raise Skip("nothing to set")
    targets = load_targets()
    if op.name is not None and not targets.pattern("image_name").match(op.name):
        raise Skip(f"image name {op.name!r} must use letters, digits, '-' and '_'")
    if op.version is not None and not targets.pattern("image_version").match(op.version):
        raise Skip(f"image version {op.version!r} must look like 1, 1.2 or 1.2.3")
    image = ed.section("image")
    changes: list[str] = []
    if op.name is not None:
        old_name = image.get("name")
        ed.update(image, "name", op.name, "image", changes)
        followers = _follow_image_name(ed, old_name, op.name)
    if op.version is not None:
        ed.update(image, "version", op.version, "image", changes, quoted=True)
    if not changes:
        raise AlreadySo("the image is already set that way")
    ed.applied.append("image " + ", ".join(changes))
    if op.name is not None and followers:
        ed.applied.append(f"{' and '.join(followers)} follow the image name -> {op.name}")


def _follow_image_name(ed: Editor, old: object, new: str) -> list[str]:
    """Rename ``disk.name`` and ``systemConfig.name`` that were the image's name.

    Returns:
        The paths renamed ("disk.name"); a name that differed stays as it was.
    """
    if not isinstance(old, str) or not old or old == new:
        return []
    renamed: list[str] = []
    for key in ("disk", "systemConfig"):
        section = ed.doc.get(key)
        if isinstance(section, CommentedMap) and section.get("name") == old:
            ed.set_key(section, "name", new, key)
            renamed.append(f"{key}.name")
    return renamed


def _swap_words(text: str, old: Sequence[str], new: Sequence[str]) -> str:
    for before, after in zip(old, new, strict=True):
        text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(before)}(?![A-Za-z0-9])", after, text)
    return text


def _swap_package_arch(name: str, old: Sequence[str], new: Sequence[str]) -> str:
    for before, after in zip(old, new, strict=True):
        name = re.sub(rf"(?<=-){re.escape(before)}(?=-|$)", after, name)
    return name
