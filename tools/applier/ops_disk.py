"""Handlers for the disk: its size, its partitions and its artifacts.

Partition edits follow :mod:`oic_ai.tools.partition_layout`: new partitions take space
from the end of the disk and keep exactly the size asked for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from oic_ai.stores.disk_units import format_size, parse_size
from oic_ai.stores.targets import load_targets
from oic_ai.tools import partition_layout as layout
from oic_ai.tools.applier.comments import insert_item, remove, replace_items
from oic_ai.tools.applier.editor import AlreadySo, Editor, Skip
from oic_ai.tools.applier.yaml_values import flow, plain, scalar, seq, show
from oic_ai.tools.edit_plan import (
    AddPartition,
    RemovePartition,
    ResizePartition,
    SetArtifacts,
    SetDiskSize,
)
from oic_ai.tools.template_keys import ARTIFACT_TYPES, COMPRESSIONS

# A new raw disk: its size when none is asked for, and where its ESP ends.
DEFAULT_RAW_SIZE = "8GiB"
ESP_END = "513MiB"


@contextmanager
def _layout_errors() -> Iterator[None]:
    """Turn a layout refusal into a :class:`Skip` with its reason."""
    try:
        yield
    except layout.LayoutError as exc:
        raise Skip(str(exc)) from None


def partitions(ed: Editor) -> CommentedSeq | None:
    """The disk's partition list, or None when there is none (or it is empty)."""
    disk = ed.doc.get("disk")
    parts = disk.get("partitions") if isinstance(disk, CommentedMap) else None
    return parts if isinstance(parts, CommentedSeq) and len(parts) else None


def _partitions(ed: Editor) -> CommentedSeq:
    parts = partitions(ed)
    if parts is None:
        raise Skip("the template has no disk partitions")
    return parts


# the size an installer's target disk is taken to have while a partition is carved
_UNBOUNDED = 64 * 1024**4


def _disk_size(ed: Editor) -> int | None:
    disk = ed.doc.get("disk")
    size = parse_size(disk.get("size")) if isinstance(disk, CommentedMap) else None
    return size or None


def _spans(ed: Editor) -> list[layout.Span]:
    parts = _partitions(ed)
    with _layout_errors():
        return layout.read_spans(parts)


def _find_partition(ed: Editor, ref: str) -> tuple[int, CommentedMap]:
    parts = _partitions(ed)
    wanted = ref.strip()
    mount = wanted.rstrip("/") or "/"
    for index, part in enumerate(parts):
        if not isinstance(part, CommentedMap):
            continue
        if str(part.get("id", "")) == wanted or str(part.get("name", "")) == wanted:
            return index, part
    for index, part in enumerate(parts):
        if not isinstance(part, CommentedMap):
            continue
        point = part.get("mountPoint")
        if (
            isinstance(point, str)
            and wanted.startswith("/")
            and (point.rstrip("/") or "/") == mount
        ):
            return index, part
    raise Skip("no such partition")


def _write_spans(ed: Editor, changes: dict[int, tuple[int, int | None]]) -> list[str]:
    parts = _partitions(ed)
    notes: list[str] = []
    for index, (start, end) in sorted(changes.items()):
        part = parts[index]
        label = layout.partition_label(part, index)
        before = f"{part.get('start')}-{part.get('end')}"
        if parse_size(part.get("start")) != start:
            part["start"] = scalar(layout.mib(start), part.get("start"))
        old_end = parse_size(part.get("end"))
        if end is None and old_end != 0:
            part["end"] = DoubleQuotedScalarString("0")
        elif end is not None and old_end != end:
            part["end"] = scalar(layout.mib(end), part.get("end"))
        notes.append(f"{label} {before} -> {part.get('start')}-{part.get('end')}")
    return notes


def set_disk_size(ed: Editor, op: SetDiskSize) -> None:
    """SetDiskSize: set the total disk size."""
    size = parse_size(op.size)
    if not size:
        raise Skip(f"{op.size!r} is not a size; write e.g. 8GiB")
    text = op.size.strip().replace(" ", "")
    disk = ed.doc.get("disk")
    if disk is None:
        image_type = ed.target().get("imageType")
        if image_type in ("iso", "img"):
            raise Skip(
                f"imageType {image_type} images have no disk layout; set imageType raw first"
            )
        create_disk(ed, text)
        return
    if not isinstance(disk, CommentedMap):
        raise Skip("disk is not a mapping")
    if parse_size(disk.get("size")) == size:
        raise AlreadySo(f"the disk is already {disk.get('size')}")
    parts = partitions(ed)
    shrunk: list[str] = []
    moved: list[str] = []
    if parts is not None:
        spans = _spans(ed)
        with _layout_errors():
            changes = layout.shrink_to_fit(spans, _disk_size(ed), size)
        shrunk = _shrunk(spans, changes, _disk_size(ed), size)
        moved = _write_spans(ed, changes)
    old = ed.set_key(disk, "size", text, "disk")
    line = f"disk size {show(old) if old is not None else 'unset'} -> {text}"
    if shrunk:
        line += "; " + "; ".join(moved)
        ed.warnings.append(
            f"assumed: on the smaller {text} disk "
            + " and ".join(shrunk)
            + " (the other partitions keep their sizes); ask for partition sizes if you "
            "want others"
        )
    ed.applied.append(line)


def _shrunk(
    spans: list[layout.Span],
    changes: dict[int, tuple[int, int | None]],
    old_size: int | None,
    disk_size: int,
) -> list[str]:
    """Say how each partition that shrinks changes ("... rootfs shrinks from 12GiB to 4725MiB")."""
    said: list[str] = []
    for span in spans:
        if span.index not in changes:
            continue
        start, end = changes[span.index]
        old_end = span.end if span.end is not None else old_size
        if old_end is None:
            continue
        before = old_end - span.start
        after = (end if end is not None else disk_size) - start
        if after < before:
            what = "the root filesystem" if span.is_root else "partition"
            said.append(
                f"{what} {span.label} shrinks from {format_size(before)} to {format_size(after)}"
            )
    return said


def create_disk(ed: Editor, size_text: str | None) -> None:
    """Add a gpt disk of ``size_text``: an ESP and a root filesystem for the arch.

    With no size (an installer ISO, whose defaults lay out the target disk with these two
    partitions, "optional for ISO"), the layout has neither a size nor an artifact: it is
    what the installer writes to whatever disk it installs on.
    """
    if size_text is not None and (parse_size(size_text) or 0) < layout.GIB:
        raise Skip("a disk with an ESP and a root filesystem needs at least 1GiB")
    arch = ed.arch()
    targets = load_targets()
    if arch is None or arch not in targets.arches:
        raise Skip(f"target.arch {arch!r} has no known root partition type")
    system = ed.doc.get("systemConfig")
    image = ed.doc.get("image")
    name = None
    for section in (system, image):
        if isinstance(section, CommentedMap) and isinstance(section.get("name"), str):
            name = section["name"]
            break
    disk = CommentedMap()
    disk["name"] = scalar(str(name or "disk"))
    if size_text is not None:
        artifact = CommentedMap()
        artifact["type"] = "raw"
        disk["artifacts"] = seq([artifact])
        disk["size"] = size_text
    disk["partitionTableType"] = "gpt"
    esp = CommentedMap()
    esp["id"] = "boot"
    esp["type"] = "esp"
    esp["typeUUID"] = layout.ESP_GUID
    esp["fsType"] = "fat32"
    esp["start"] = "1MiB"
    esp["end"] = ESP_END
    esp["mountPoint"] = "/boot/efi"
    esp["mountOptions"] = "umask=0077"
    esp["flags"] = flow(["esp", "boot"])
    root = CommentedMap()
    root["id"] = "rootfs"
    root["type"] = targets.root_type(arch)
    root["typeUUID"] = targets.root_guid(arch)
    root["fsType"] = "ext4"
    root["start"] = ESP_END
    root["end"] = DoubleQuotedScalarString("0")
    root["mountPoint"] = "/"
    root["mountOptions"] = "defaults"
    disk["partitions"] = seq([esp, root])
    ed.insert(ed.doc, "disk", disk, "", blank=ed.style.blank_sections)
    if size_text is None:
        ed.applied.append(
            f"wrote the installer's target disk layout (the composer's ISO default): ESP "
            f"/boot/efi (1MiB-{ESP_END}) and an ext4 root for {arch} on the rest"
        )
        return
    ed.applied.append(
        f"created a {size_text} gpt disk: ESP /boot/efi (1MiB-{ESP_END}) and an ext4 root "
        f"for {arch} on the rest, raw artifact"
    )


def add_partition(ed: Editor, op: AddPartition) -> None:
    """AddPartition: add a partition, carved from the end of the disk."""
    ident = op.id.strip()
    mount = op.mount_point.strip()
    if not ident:
        raise Skip("the partition needs an id")
    if not (mount.startswith("/") or mount in ("none", "swap")):
        raise Skip(f"mount point {mount!r} must be an absolute path")
    size = None
    if op.size is not None:
        size = parse_size(op.size)
        if not size or size < layout.MIB:
            raise Skip(f"{op.size!r} is not a size of at least 1MiB")
        size = layout.whole_size(size)
    installer = ed.target().get("imageType") == "iso"
    if ed.doc.get("disk") is None:
        if not installer:
            raise Skip("the template has no disk layout; set a disk size first")
        create_disk(ed, None)  # the installer's target layout, then the partition in it
    parts = _partitions(ed)
    normal = mount.rstrip("/") or "/"
    for index, part in enumerate(parts):
        if not isinstance(part, CommentedMap):
            continue
        if str(part.get("id", "")) == ident:
            raise Skip(f"partition id {ident} is already used")
        point = part.get("mountPoint")
        if (
            mount.startswith("/")
            and isinstance(point, str)
            and (point.rstrip("/") or "/") == normal
        ):
            raise Skip(f"{mount} is already the mount point of partitions[{index}]")
    spans = _spans(ed)
    # an installer's target disk has no size here: the fixed partitions must fit the disk
    # it installs on, which the installer checks
    disk_size = _disk_size(ed) or (_UNBOUNDED if installer else None)
    shrunk: list[str] = []
    try:
        carve = layout.carve_from_end(spans, disk_size, size)
    except layout.LayoutError as exc:
        kept = _shrink_root_to_fit(ed, spans, size, mount) if "disk" in ed.sized else None
        if kept is None:
            carve = _grow_to_fit(ed, spans, size, mount, exc)
        else:
            shrink, carve = kept
            root = next(s for s in spans if s.is_root)
            new_end = shrink[root.index][1] or 0
            shrunk = [
                f"resized partition {root.label} to {format_size(new_end - root.start)}: "
                + "; ".join(_write_spans(ed, shrink))
            ]
    moved = _write_spans(ed, carve.changes)
    part = CommentedMap()
    part["id"] = scalar(ident)
    part["type"] = scalar(op.type)
    part["fsType"] = scalar(op.fs_type)
    part["start"] = layout.mib(carve.start)
    part["end"] = DoubleQuotedScalarString("0") if carve.end is None else layout.mib(carve.end)
    part["mountPoint"] = scalar(mount)
    insert_item(parts, carve.insert_at, part)
    if carve.end is None:
        extent = "the rest of the disk"
    else:
        extent = f"{format_size(carve.end - carve.start)}"
    line = (
        f"added partition {ident} ({op.fs_type}, {mount}, {extent}) at "
        f"{layout.mib(carve.start)}-{part['end']}"
    )
    if moved:
        line += "; " + "; ".join(moved)
    ed.applied.extend([*shrunk, line])


def _shrink_root_to_fit(
    ed: Editor, spans: list[layout.Span], size: int | None, mount: str
) -> tuple[dict[int, tuple[int, int | None]], layout.Carve] | None:
    """Make room on a disk whose size the user set by shrinking a fixed-size root.

    "disk 12 gig", then "add /data 4G": the user sized the disk and wants the partition on
    it, so the root the template sized gives the space (down to a floor) rather than the
    disk growing past what was asked. A root the user sized keeps its size. Said as an
    assumption; None when it cannot.
    """
    disk_size = _disk_size(ed)
    root = next((s for s in spans if s.is_root), None)
    if size is None or disk_size is None or root is None:
        return None
    if {"/", root.label} & {name.rstrip("/") or "/" for name in ed.sized}:
        return None  # the user sized the root too: the disk grows instead
    found = layout.carve_shrinking_root(spans, disk_size, size)
    if found is None or not found[0]:
        return None
    old_end, new_end = root.end or 0, found[0][root.index][1] or 0
    ed.warnings.append(
        f"assumed: partition {root.label} shrinks from {format_size(old_end - root.start)} to "
        f"{format_size(new_end - root.start)} so the new {mount} partition fits on the "
        f"{ed.doc['disk'].get('size')} disk you set; ask for a bigger disk to keep it"
    )
    return found


def _grow_to_fit(
    ed: Editor, spans: list[layout.Span], size: int | None, mount: str, exc: Exception
) -> layout.Carve:
    """Grow the disk so a new partition that does not fit does; say so as an assumption.

    A partition asked for is what the user wants; a disk size it does not fit in is
    usually the template's default, so the disk grows to the smallest whole size that
    holds it (in the disk size's own units: GB stays GB) rather than the edit being
    refused. Without a disk size, or when no size would do, the refusal stands.
    """
    need = layout.disk_size_for_new(spans, size)
    text = _grown_size(ed, need, exc)
    with _layout_errors():
        carve = layout.carve_from_end(spans, parse_size(text), size)
    _grow_disk(ed, text, f"the new {mount} partition")
    return carve


def _grown_size(ed: Editor, need: int | None, exc: Exception) -> str:
    """The disk size to grow to for ``need`` bytes, in the disk size's own units.

    Raises:
        Skip: with ``exc``'s reason when the disk has no size or no size would do.
    """
    disk = ed.doc.get("disk")
    if not isinstance(disk, CommentedMap) or _disk_size(ed) is None or need is None:
        raise Skip(str(exc)) from None
    old_text = str(disk.get("size")).strip()
    if old_text.upper().endswith(("GB", "TB")) and not old_text.upper().endswith("IB"):
        return f"{-(-need // 10**9)}GB"  # a decimal disk size stays decimal
    return f"{layout.round_up(need, layout.GIB) // layout.GIB}GiB"


def _grow_disk(ed: Editor, text: str, what: str) -> None:
    """Set the grown disk size ``text`` and say so as an assumption."""
    disk = ed.doc["disk"]
    old_text = str(disk.get("size")).strip()
    ed.set_key(disk, "size", text, "disk")
    ed.applied.append(f"disk size {old_text} -> {text}")
    ed.warnings.append(
        f"assumed: the disk grows from {old_text} to {text} so {what} fits (it does not on "
        f"{old_text}); ask for another disk size if you want one"
    )


def resize_partition(ed: Editor, op: ResizePartition) -> None:
    """ResizePartition: change a partition's size; later partitions move to make room."""
    index, part = _find_partition(ed, op.partition)
    size = parse_size(op.size)
    if not size:
        raise Skip(f"{op.size!r} is not a size")
    spans = _spans(ed)
    wanted = layout.whole_size(size)
    try:
        changes = layout.resize(spans, _disk_size(ed), index, wanted)
    except layout.LayoutError as exc:
        # a partition asked to grow past the disk: the disk grows to hold it, as for a new one
        try:
            grown = layout.resize(spans, None, index, wanted)
        except layout.LayoutError:
            raise Skip(str(exc)) from None
        moved = [replace_span(s, grown) for s in spans]
        # grown by what the partition gains, so the others keep their room
        target = next(s for s in spans if s.index == index)
        gain = wanted - ((target.end or 0) - target.start) if target.end is not None else 0
        need = max(layout.required_disk_size(moved), (_disk_size(ed) or 0) + gain)
        text = _grown_size(ed, need, exc)
        with _layout_errors():
            changes = layout.resize(spans, parse_size(text), index, wanted)
        _grow_disk(
            ed, text, f"partition {layout.partition_label(part, index)} at {op.size.strip()}"
        )
    if not changes:
        raise AlreadySo("it already has that size")
    notes = _write_spans(ed, changes)
    label = layout.partition_label(part, index)
    ed.applied.append(f"resized partition {label} to {op.size.strip()}: " + "; ".join(notes))


def replace_span(span: layout.Span, changes: dict[int, tuple[int, int | None]]) -> layout.Span:
    """``span`` with its new start and end from ``changes``, if it has any."""
    if span.index not in changes:
        return span
    start, end = changes[span.index]
    return dataclasses.replace(span, start=start, end=end)


def remove_partition(ed: Editor, op: RemovePartition) -> None:
    """RemovePartition: remove a partition."""
    index, part = _find_partition(ed, op.partition)
    label = layout.partition_label(part, index)
    with _layout_errors():
        changes, note = layout.remove(_spans(ed), _disk_size(ed), index)
    notes = _write_spans(ed, changes)
    parts = _partitions(ed)
    remove(parts, index)
    ed.applied.append(f"removed partition {label}; {note}" + "".join(f"; {n}" for n in notes))


def set_artifacts(ed: Editor, op: SetArtifacts) -> None:
    """SetArtifacts: replace the disk's artifact list."""
    if not op.artifacts:
        raise Skip("an image needs at least one artifact")
    for artifact in op.artifacts:
        if artifact.type not in ARTIFACT_TYPES:
            raise Skip(f"unknown artifact type {artifact.type!r}")
        if artifact.compression is not None and artifact.compression not in COMPRESSIONS:
            raise Skip(f"unknown compression {artifact.compression!r}")
    disk = ed.doc.get("disk")
    if not isinstance(disk, CommentedMap):
        raise Skip("the template has no disk section (iso and img images have none)")
    wanted = [
        {"type": a.type, **({"compression": a.compression} if a.compression else {})}
        for a in op.artifacts
    ]
    current = disk.get("artifacts")
    if isinstance(current, list) and plain(current) == wanted:
        raise AlreadySo("the artifacts are already set that way")
    items = []
    for spec in wanted:
        node = CommentedMap()
        for key, value in spec.items():
            node[key] = value
        items.append(node)
    if isinstance(current, CommentedSeq):
        replace_items(current, items)
    else:
        ed.set_key(disk, "artifacts", seq(items), "disk")
    shown = ", ".join(
        a.type + (f" ({a.compression})" if a.compression else "") for a in op.artifacts
    )
    ed.applied.append(f"artifacts -> {shown}")
