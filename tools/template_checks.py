"""Checks a JSON Schema cannot express, the security lint, and the composer's behaviours.

Semantic checks report errors; the security lint and the composer behaviours (fields
the composer ignores or changes) report warnings only, so a template that trips them
stays valid. Every check tolerates wrongly typed input,
because the schema reports types separately.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from oic_ai.stores.disk_units import format_size, parse_size
from oic_ai.stores.yaml_document import PathPart, YamlDocument
from oic_ai.tools.findings import Finding, json_path

_NOT_A_MOUNT = frozenset({"", "none", "swap"})
# $id$[params$]salt$hash: a "$6$hunter2" with no hash part is a plaintext password
_CRYPT_HASH = re.compile(r"^\$(1|2[abxy]?|5|6|y|gy|7)\$(?:[^$\s]+\$)+[./A-Za-z0-9]{16,}$")
_PLACEHOLDER = re.compile(r"^<[A-Z][A-Z0-9_]*>$")


@dataclass
class _Context:
    data: Mapping[str, Any]
    doc: YamlDocument
    findings: list[Finding]

    def add(
        self, path: tuple[PathPart, ...], code: str, message: str, *, warning: bool = False
    ) -> None:
        self.findings.append(
            Finding(
                path=json_path(path),
                line=self.doc.line_of(path),
                message=message,
                code=code,
                severity="warning" if warning else "error",
            )
        )

    def warn(self, path: tuple[PathPart, ...], code: str, message: str) -> None:
        self.add(path, code, message, warning=True)

    def system(self, key: str) -> Any:
        """``systemConfig.<key>``, or None."""
        return _mapping(self.data.get("systemConfig")).get(key)

    def system_fields(
        self, key: str, field: str
    ) -> Iterator[tuple[tuple[PathPart, ...], Mapping[str, Any], Any]]:
        """``(path, item, item[field])`` for each mapping in the list ``systemConfig.<key>``."""
        for index, item in _items(self.system(key)):
            yield ("systemConfig", key, index, field), item, item.get(field)


def semantic_findings(data: Mapping[str, Any], doc: YamlDocument) -> list[Finding]:
    """Run every semantic check and return its errors."""
    ctx = _Context(data, doc, [])
    for check in _SEMANTIC_CHECKS:
        check(ctx)
    return ctx.findings


def security_findings(data: Mapping[str, Any], doc: YamlDocument) -> list[Finding]:
    """Run the security lint and return its warnings."""
    ctx = _Context(data, doc, [])
    for check in _SECURITY_CHECKS:
        check(ctx)
    return ctx.findings


def composer_findings(data: Mapping[str, Any], doc: YamlDocument) -> list[Finding]:
    """Warnings where the template runs into a composer behaviour the agent warns about.

    The behaviours are data (``stores/data/composer_behaviour.yaml``); those whose
    ``agent`` is ``warn`` or ``alternative`` are reported here, each at its field.
    """
    from oic_ai.tools.composer_fit import behaviour_hits

    ctx = _Context(data, doc, [])
    for hit in behaviour_hits(data, agent=("alternative", "warn")):
        ctx.warn(hit.path, hit.behaviour.code, hit.message())
    return ctx.findings


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _items(value: Any) -> Iterator[tuple[int, Mapping[str, Any]]]:
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, Mapping):
                yield index, item


# --- semantic checks -------------------------------------------------------------------


# the partition types the composer's disk build accepts on an mbr disk
_MBR_TYPES = frozenset({"primary", "extended", "logical"})


def _check_partitions(ctx: _Context) -> None:
    disk = _mapping(ctx.data.get("disk"))
    disk_size = parse_size(disk.get("size"))
    spans: list[tuple[int, int, int]] = []  # (start, end, index)
    rest_of_disk: list[int] = []
    labels: dict[int, str] = {}
    mbr = disk.get("partitionTableType") == "mbr"
    for index, part in _items(disk.get("partitions")):
        where = ("disk", "partitions", index)
        if mbr and part.get("type") not in _MBR_TYPES:
            ctx.add(
                (*where, "type"),
                "partition-type-mbr",
                f"partition {part.get('id') or index} has type {part.get('type')!r} on an mbr "
                "disk; the composer builds mbr partitions of type primary, extended or "
                "logical only",
            )
        start = parse_size(part.get("start"))
        end = parse_size(part.get("end"))
        if start is None or end is None:
            continue  # the schema reports malformed sizes
        label = str(part.get("id") or part.get("name") or f"#{index}")
        labels[index] = label
        if end == 0:
            rest_of_disk.append(index)
            end = disk_size if disk_size is not None else 2**63
        elif end <= start:
            ctx.add(
                (*where, "end"),
                "partition-empty",
                f"partition {label!s} ends ({part.get('end')}) at or before it starts "
                f"({part.get('start')})",
            )
            continue
        if disk_size is not None and end > disk_size:
            ctx.add(
                (*where, "end"),
                "partition-exceeds-disk",
                f"partition {label!s} ends at {format_size(end)}, past disk.size "
                f"{disk.get('size')}; grow disk.size or shrink the partition",
            )
        elif disk_size is not None and start >= disk_size:
            ctx.add(
                (*where, "start"),
                "partition-exceeds-disk",
                f"partition {label!s} starts at {part.get('start')}, outside disk.size "
                f"{disk.get('size')}",
            )
        spans.append((start, end, index))
    spans.sort()
    for (a_start, a_end, a_index), (b_start, _b_end, b_index) in zip(
        spans, spans[1:], strict=False
    ):
        if b_start < a_end:
            a_label = labels[a_index]
            b_label = labels[b_index]
            ctx.add(
                ("disk", "partitions", b_index, "start"),
                "partition-overlap",
                f"partition {b_label} starts at {format_size(b_start)}, inside partition "
                f"{a_label} (which ends at {format_size(a_end)})",
            )
    if len(rest_of_disk) > 1:
        for index in rest_of_disk[:-1]:
            ctx.add(
                ("disk", "partitions", index, "end"),
                "partition-overlap",
                'only the last partition may use end: "0" (the rest of the disk)',
            )


def _check_root_arch(ctx: _Context) -> None:
    from oic_ai.stores.targets import load_targets  # deferred: keeps validate start-up flat

    arch = _mapping(ctx.data.get("target")).get("arch")
    targets = load_targets()
    if not isinstance(arch, str) or arch not in targets.arches:
        return  # an unknown (or non-string) arch is the schema's finding, not this check's
    cmdline = _mapping(_mapping(ctx.data.get("systemConfig")).get("kernel")).get("cmdline")
    # With root= on the cmdline the kernel never looks at the type GUID, so it boots.
    pinned_root = isinstance(cmdline, str) and re.search(r"(^|\s)root=\S", cmdline) is not None
    disk = _mapping(ctx.data.get("disk"))
    for index, part in _items(disk.get("partitions")):
        kind = part.get("type")
        guid = part.get("typeUUID")
        meant = targets.arch_of_root_type(kind) if isinstance(kind, str) else None
        field = "type"
        if meant is None and isinstance(guid, str):
            meant = targets.arch_of_root_guid(guid)
            field = "typeUUID"
        if meant is not None and meant != arch:
            want = targets.root_type(arch)
            message = (
                f"root partition {field} is for {meant}, but target.arch is {arch}; use type {want}"
            )
            if pinned_root:
                message += (
                    " (the kernel cmdline sets root=, so it still boots, but tools that "
                    "discover partitions by type will misread it)"
                )
            ctx.add(
                ("disk", "partitions", index, field),
                "root-type-arch-mismatch",
                message,
                warning=pinned_root,
            )


def _report_repeats(
    ctx: _Context,
    entries: Iterator[tuple[int, str, str]],
    path: Callable[[int], tuple[PathPart, ...]],
    code: str,
    message: Callable[[str, int], str],
) -> None:
    """Report every entry whose key an earlier entry already had.

    Args:
        ctx: Where the findings go.
        entries: ``(index, key, shown)``: the key compares, ``shown`` names the entry.
        path: The document path of the entry at an index.
        code: The finding's code.
        message: The message for a repeat, from its ``shown`` and the first index.
    """
    seen: dict[str, int] = {}
    for index, key, shown in entries:
        if key in seen:
            ctx.add(path(index), code, message(shown, seen[key]))
        else:
            seen[key] = index


def _check_duplicate_users(ctx: _Context) -> None:
    _report_repeats(
        ctx,
        (
            (index, name, name)
            for index, user in _items(ctx.system("users"))
            if isinstance(name := user.get("name"), str)
        ),
        lambda index: ("systemConfig", "users", index, "name"),
        "user-duplicate",
        lambda name, first: f"user {name!r} is defined twice (first at users[{first}])",
    )


def _check_duplicate_mounts(ctx: _Context) -> None:
    disk = _mapping(ctx.data.get("disk"))
    _report_repeats(
        ctx,
        (
            (index, mount.rstrip("/") or "/", mount)
            for index, part in _items(disk.get("partitions"))
            if isinstance(mount := part.get("mountPoint"), str)
            and mount.strip().lower() not in _NOT_A_MOUNT
        ),
        lambda index: ("disk", "partitions", index, "mountPoint"),
        "mountpoint-duplicate",
        lambda mount, first: f"mount point {mount} is used twice (first by partitions[{first}])",
    )


def _check_duplicate_packages(ctx: _Context) -> None:
    values = ctx.system("packages")
    if not isinstance(values, list):
        return
    _report_repeats(
        ctx,
        ((index, name, name) for index, name in enumerate(values) if isinstance(name, str)),
        lambda index: ("systemConfig", "packages", index),
        "package-duplicate",
        lambda name, first: f"package {name!r} is listed twice (first at packages[{first}])",
    )


def _check_json_values(ctx: _Context) -> None:
    """What the composer cannot turn into JSON: keys that are not strings, NaN, infinity.

    The composer loads a template into generic data and marshals it to JSON before any
    schema check; a mapping with a number, boolean, null or date key, or a NaN or an
    infinite float anywhere, fails there ("unable to process template").
    """
    seen: set[int] = set()

    def walk(value: Any, path: tuple[PathPart, ...]) -> None:
        if id(value) in seen:  # aliases share nodes
            return
        if isinstance(value, Mapping):
            seen.add(id(value))
            for key, item in value.items():
                if not isinstance(key, str):
                    ctx.add(
                        (*path, str(key)),
                        "key-not-string",
                        f"key {key!r} is read as a {type(key).__name__}, not a string; the "
                        "composer turns a template into JSON, where keys are strings: quote it",
                    )
                walk(item, (*path, str(key)))
        elif isinstance(value, list):
            seen.add(id(value))
            for index, item in enumerate(value):
                walk(item, (*path, index))
        elif isinstance(value, float) and not math.isfinite(value):
            ctx.add(
                path,
                "value-not-json",
                f"{value} is not a number JSON can hold; the composer turns a template into "
                "JSON and stops here: write a finite number or quote it",
            )

    walk(ctx.data, ())


_SEMANTIC_CHECKS: tuple[Callable[[_Context], None], ...] = (
    _check_json_values,
    _check_partitions,
    _check_root_arch,
    _check_duplicate_users,
    _check_duplicate_mounts,
    _check_duplicate_packages,
)


# --- security lint (warnings) ----------------------------------------------------------


def _lint_passwords(ctx: _Context) -> None:
    for path, user, password in ctx.system_fields("users", "password"):
        # a <PLACEHOLDER> is not a password; the placeholder lint reports it instead
        if (
            isinstance(password, str)
            and password
            and not _CRYPT_HASH.match(password)
            and not _PLACEHOLDER.match(password.strip())
        ):
            ctx.warn(
                path,
                "plaintext-password",
                f"user {user.get('name')!s} has a plaintext password in the template; "
                "use a crypt hash or set it at first boot",
            )


def _lint_repositories(ctx: _Context) -> None:
    for index, repo in _items(ctx.data.get("packageRepositories")):
        where: tuple[PathPart, ...] = ("packageRepositories", index)
        if repo.get("pkey") == "[trusted=yes]":
            ctx.warn(
                (*where, "pkey"),
                "repository-trusted-yes",
                f"repository {repo.get('codename')!s} skips signature checks "
                "([trusted=yes]); give it a GPG key",
            )
        urls: list[tuple[tuple[PathPart, ...], Any]] = [
            ((*where, "url"), repo.get("url")),
            ((*where, "pkey"), repo.get("pkey")),
        ]
        keys = repo.get("pkeys")
        if isinstance(keys, list):
            urls += [((*where, "pkeys", i), key) for i, key in enumerate(keys)]
        for path, url in urls:
            if isinstance(url, str) and url.lower().startswith("http://"):
                ctx.warn(
                    path,
                    "insecure-http",
                    f"{url} is plain http; use https so packages and keys cannot be "
                    "swapped in transit",
                )


def _lint_additional_files(ctx: _Context) -> None:
    for path, _item, local in ctx.system_fields("additionalFiles", "local"):
        if isinstance(local, str) and local.startswith(("/", "~")):
            ctx.warn(
                path,
                "additional-file-host-path",
                f"additionalFiles local {local} is an absolute host path; the build host's "
                "file would be copied into the image. Use a path relative to the template",
            )


def _lint_placeholders(ctx: _Context) -> None:
    def walk(value: Any, path: tuple[PathPart, ...]) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                if key != "metadata" or path:
                    walk(item, (*path, str(key)))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))
        elif isinstance(value, str) and _PLACEHOLDER.match(value.strip()):
            ctx.warn(
                path,
                "placeholder-value",
                f"{value} is a placeholder; replace it before building",
            )

    walk(ctx.data, ())


_SECURITY_CHECKS: tuple[Callable[[_Context], None], ...] = (
    _lint_passwords,
    _lint_repositories,
    _lint_additional_files,
    _lint_placeholders,
)
