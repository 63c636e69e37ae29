"""Deterministic fixes: turn validation findings into an :class:`EditPlan`.

The graph's fix step calls :func:`plan_fixes` before (or instead of) asking a model. Only
problems with one right answer are fixed here; each fix is an ordinary plan operation, so
:func:`oic_ai.tools.applier.apply_plan` applies it and re-validating proves it. Everything
else is left alone for the LLM fix or the final "invalid" status.

This module reads the template with the position-keeping PyYAML loader, not ruamel, so
importing it stays cheap.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from oic_ai.stores.disk_units import format_size, parse_size
from oic_ai.stores.targets import TargetRegistry, load_targets
from oic_ai.stores.yaml_document import YamlSyntaxError, load_data
from oic_ai.tools import partition_layout as layout
from oic_ai.tools.edit_plan import (
    AddPackages,
    DeleteValue,
    EditPlan,
    Operation,
    RemovePackages,
    SetDiskSize,
    SetValue,
)
from oic_ai.tools.findings import Finding
from oic_ai.tools.template_keys import (
    KEY_ORDER,
    PASSWORD_PLACEHOLDER,
    PUBLIC_KEY_PLACEHOLDER,
)

_KEY = re.compile(r"^\$((?:\.[A-Za-z_][A-Za-z0-9_-]*|\[[0-9]+\]|\['[^']*'\])*)$")
# A name followed by a version: nginx>=1.24, docker-ce=5:24.0.7, nginx (>= 1.24), nginx 1.24
_PINNED = re.compile(
    r"^\s*(?P<name>[^\s<>=!~()]+)\s*"
    r"(?:(?:[<>=!]=?|~=)\s*\S+|\(\s*[<>=!~]=?[^)]*\)|\s[0-9]\S*)\s*$"
)
_SCALAR_ON_LINE = re.compile(r"^\s*(?:-\s+)?[A-Za-z_]+:\s*([^\s#'\"][^#]*?)\s*(?:#.*)?$")


def _target_enums(targets: TargetRegistry) -> dict[str, tuple[tuple[str, ...], dict[str, str]]]:
    """The target enums of the registry, with the spellings that mean each value."""
    return {
        "target-os-unknown": (
            tuple(targets.oses),
            {word: os.name for os in targets.oses.values() for word in os.spellings},
        ),
        "target-arch-unknown": (
            tuple(targets.arches),
            {word: arch.name for arch in targets.arches.values() for word in arch.spellings},
        ),
        "image-type-unknown": (tuple(targets.image_types), {}),
    }


# Allowed values per finding code, and spellings that mean one of them.
_ENUMS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    **_target_enums(load_targets()),
    "artifact-type-unknown": (("raw", "qcow2", "vhd", "vhdx", "vmdk", "vdi"), {}),
    "compression-unknown": (
        ("gz", "gzip", "xz", "zstd", "bz2"),
        {"zst": "zstd", "bzip2": "bz2"},
    ),
    "partition-table-unknown": (("gpt", "mbr"), {"msdos": "mbr", "dos": "mbr"}),
    "bootloader-unknown": (("grub", "grub2", "systemd-boot"), {"systemdboot": "systemd-boot"}),
    "bootloader-unknown.bootType": (("efi", "legacy"), {"uefi": "efi", "bios": "legacy"}),
}
_RAW_ARTIFACTS = frozenset({"raw", "qcow2", "vhd", "vhdx", "vmdk", "vdi"})


def plan_fixes(
    text: str,
    errors: Sequence[Finding],
    *,
    missing_packages: Mapping[str, Sequence[str]] | None = None,
) -> EditPlan:
    """Plan the deterministic fixes for ``errors`` (and packages missing from the index).

    Args:
        text: the template YAML the findings are about.
        errors: findings from :func:`tools.validate_template.validate_text` (warnings
            such as ``plaintext-password`` are fixed too when passed).
        missing_packages: package name -> ranked suggestions, best first. A package with
            suggestions is replaced by the first; one without is removed, with a warning.

    Returns:
        A plan whose operations fix what can be fixed without guessing; ``not_applied``
        names each finding it leaves alone. An empty plan when nothing is fixable.
    """
    try:
        data = load_data(text)
    except YamlSyntaxError:
        data = None
    if not isinstance(data, Mapping):
        return EditPlan(
            summary="no deterministic fixes: the template is not a YAML mapping",
            not_applied=[f"{f.code} at {f.path}: not fixed deterministically" for f in errors],
        )
    fixer = _Fixer(data, text.splitlines())
    for finding in errors:
        fixer.fix(finding)
    fixer.packages(missing_packages or {})
    return fixer.plan()


def _parts(path: str) -> list[str | int] | None:
    if _KEY.match(path) is None:
        return None
    parts: list[str | int] = []
    for match in re.finditer(r"\.([A-Za-z_][A-Za-z0-9_-]*)|\[([0-9]+)\]|\['([^']*)'\]", path):
        key, index, quoted = match.groups()
        if index is not None:
            parts.append(int(index))
        else:
            parts.append(key if key is not None else quoted)
    return parts


def _dotted(parts: Sequence[str | int]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + part
    return out


def _get(data: Any, parts: Sequence[str | int]) -> Any:
    node = data
    for part in parts:
        if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
            node = node[part]
        elif isinstance(part, str) and isinstance(node, Mapping) and part in node:
            node = node[part]
        else:
            return None
    return node


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


@dataclass
class _Fixer:
    data: Mapping[str, Any]
    text_lines: list[str] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    deletions: list[list[str | int]] = field(default_factory=list)
    package_ops: list[Operation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    done: dict[str, bool] = field(default_factory=dict)
    fit_disk: bool = False
    relaid: list[layout.Span] | None = None

    def plan(self) -> EditPlan:
        """Order the operations so that none shifts the list index another one uses.

        Edits by path come first, then deletions by index (highest index first), then
        package edits by name, which may remove list items.
        """
        if self.fit_disk or self.relaid is not None:
            spans = self.relaid if self.relaid is not None else self._spans()
            if spans is not None:
                self._fit_disk(spans)
        summary = "; ".join(self.notes) if self.notes else "no deterministic fixes"
        deletions = sorted(self.deletions, key=_deletion_order)
        operations = [
            *self.operations,
            *(DeleteValue(path=_dotted(parts)) for parts in deletions),
            *self.package_ops,
        ]
        return EditPlan(
            summary=summary,
            operations=operations,
            not_applied=self.left,
            warnings=self.warnings,
        )

    def _set(self, parts: Sequence[str | int], value: Any) -> None:
        self.operations.append(SetValue(path=_dotted(parts), value=value))

    def _placeholder(self, parts: Sequence[str | int], value: str, note: str, warning: str) -> bool:
        """Set a placeholder the user must replace: note the fix and warn about the placeholder."""
        self._set(parts, value)
        self.notes.append(note)
        self.warnings.append(warning)
        return True

    def fix(self, finding: Finding) -> None:
        handler = _HANDLERS.get(finding.code)
        parts = _parts(finding.path)
        if handler is None or parts is None or not handler(self, finding, parts):
            self.left.append(f"{finding.code} at {finding.path}: not fixed deterministically")

    # missing packages

    def packages(self, missing: Mapping[str, Sequence[str]]) -> None:
        system = _mapping(self.data.get("systemConfig"))
        kernel = _mapping(system.get("kernel"))
        lists = {
            False: [p for p in system.get("packages") or [] if isinstance(p, str)],
            True: [p for p in kernel.get("packages") or [] if isinstance(p, str)],
        }
        for name, suggestions in missing.items():
            where = [k for k, names in lists.items() if name in names]
            if not where:
                continue
            self.package_ops.append(RemovePackages(packages=[name]))
            choice = next((s for s in suggestions if s and s != name), None)
            if choice is None:
                self.notes.append(f"removed {name} (not in the package index)")
                self.warnings.append(
                    f"package {name} is not in the package index and nothing close was found; "
                    "it was removed"
                )
                continue
            already = any(choice in lists[k] for k in where)
            if not already:
                self.package_ops.append(AddPackages(packages=[choice], kernel=where[0]))
                lists[where[0]].append(choice)
            self.notes.append(f"replaced {name} (not in the package index) with {choice}")

    # handlers: each returns True when it planned a fix

    def _package_at(self, parts: list[str | int]) -> tuple[list[Any], int] | None:
        """The package list a finding points into and the index in it, if it does."""
        values = _get(self.data, parts[:-1])
        index = parts[-1]
        if not isinstance(values, list) or not isinstance(index, int) or index >= len(values):
            return None
        return values, index

    def package_duplicate(self, finding: Finding, parts: list[str | int]) -> bool:
        if (at := self._package_at(parts)) is None:
            return False
        values, index = at
        name = values[index]
        if name not in values[:index]:
            return False
        self.deletions.append(parts)
        self.notes.append(f"removed the second {name}")
        return True

    def package_versioned(self, finding: Finding, parts: list[str | int]) -> bool:
        if (at := self._package_at(parts)) is None:
            return False
        values, index = at
        pinned = values[index]
        if not isinstance(pinned, str):
            return False
        match = _PINNED.match(pinned)
        bare = match.group("name") if match else ""
        if not load_targets().pattern("package_name").match(bare):
            return False
        if bare in values:
            self.deletions.append(parts)
            self.notes.append(f"removed {pinned} ({bare} is listed already)")
            return True
        self._set(parts, bare)
        self.notes.append(f"{pinned} -> {bare} (the composer takes bare package names)")
        return True

    def partition_exceeds_disk(self, finding: Finding, parts: list[str | int]) -> bool:
        # The disk grows once, in plan(), to fit the layout as any relayout leaves it.
        spans = self._spans()
        size = parse_size(_mapping(self.data.get("disk")).get("size"))
        if spans is None or size is None:
            return False
        self.fit_disk = True
        return True

    def partition_overlap(self, finding: Finding, parts: list[str | int]) -> bool:
        if "relayout" in self.done:
            return self.done["relayout"]
        self.done["relayout"] = self._relayout()
        return self.done["relayout"]

    def _relayout(self) -> bool:
        spans = self._spans()
        if spans is None:
            return False
        changes = layout.relayout_contiguous(spans)
        if not changes:
            return False
        moved = []
        for index, (start, end) in sorted(changes.items()):
            old = _get(self.data, ["disk", "partitions", index])
            label = layout.partition_label(_mapping(old), index)
            if parse_size(_mapping(old).get("start")) != start:
                self._set(["disk", "partitions", index, "start"], layout.mib(start))
            new_end = "0" if end is None else layout.mib(end)
            if parse_size(_mapping(old).get("end")) != (0 if end is None else end):
                self._set(["disk", "partitions", index, "end"], new_end)
            moved.append(f"{label} {layout.mib(start)}-{new_end}")
        self.notes.append("laid partitions end to start: " + ", ".join(moved))
        self.relaid = [
            replace(s, start=changes[s.index][0], end=changes[s.index][1])
            if s.index in changes
            else s
            for s in spans
        ]
        return True

    def _spans(self) -> list[layout.Span] | None:
        partitions = _get(self.data, ["disk", "partitions"])
        if not isinstance(partitions, list):
            return None
        try:
            return layout.read_spans(partitions)
        except layout.LayoutError:
            return None

    def _fit_disk(self, spans: Sequence[layout.Span]) -> None:
        disk = _mapping(self.data.get("disk"))
        size = parse_size(disk.get("size"))
        need = layout.required_disk_size(spans)
        if size is None or need <= size:
            return
        grown = format_size(layout.round_up(need, layout.GIB))
        self.operations.append(SetDiskSize(size=grown))
        self.notes.append(f"disk size {disk.get('size')} -> {grown} to hold every partition")

    def root_type_arch_mismatch(self, finding: Finding, parts: list[str | int]) -> bool:
        arch = _mapping(self.data.get("target")).get("arch")
        targets = load_targets()
        if not isinstance(arch, str) or arch not in targets.arches or len(parts) < 3:
            return False
        partition = _get(self.data, parts[:3])
        if not isinstance(partition, Mapping):
            return False
        if f"root-{parts[2]}" in self.done:
            return True
        self.done[f"root-{parts[2]}"] = True
        kind = partition.get("type")
        want = targets.root_type(arch)
        if kind != want and (targets.arch_of_root_type(kind) or kind in (None, "linux")):
            self._set([*parts[:3], "type"], want)
        guid = partition.get("typeUUID")
        if targets.arch_of_root_guid(guid) and str(guid).lower() != targets.root_guid(arch):
            self._set([*parts[:3], "typeUUID"], targets.root_guid(arch))
        self.notes.append(f"root partition type set for {arch}")
        return True

    def plaintext_password(self, finding: Finding, parts: list[str | int]) -> bool:
        if parts[-1] != "password" or not isinstance(_get(self.data, parts), str):
            return False
        user = _mapping(_get(self.data, parts[:-1])).get("name")
        return self._placeholder(
            parts,
            PASSWORD_PLACEHOLDER,
            f"replaced user {user}'s plaintext password with a placeholder",
            f"user {user} now has the placeholder password {PASSWORD_PLACEHOLDER}: set a crypt "
            "hash (openssl passwd -6) or provide an SSH key at deploy time",
        )

    def legacy_systemconfigs(self, finding: Finding, parts: list[str | int]) -> bool:
        legacy = self.data.get("systemConfigs")
        if "systemConfig" in self.data:
            return False
        if isinstance(legacy, list) and len(legacy) == 1 and isinstance(legacy[0], Mapping):
            config = legacy[0]
        elif isinstance(legacy, Mapping):
            config = legacy
        else:
            return False
        self.operations.append(SetValue(path="systemConfig", value=dict(config)))
        self.operations.append(DeleteValue(path="systemConfigs"))
        self.notes.append("moved the single systemConfigs entry to systemConfig")
        return True

    def metadata_unsupported_key(self, finding: Finding, parts: list[str | int]) -> bool:
        if len(parts) != 2 or parts[0] != "metadata" or not isinstance(parts[1], str):
            return False
        self.operations.append(DeleteValue(path=_dotted(parts)))
        self.notes.append(f"removed metadata.{parts[1]} (the composer rejects it)")
        return True

    def unknown_key(self, finding: Finding, parts: list[str | int]) -> bool:
        # A key that differs from a known one only in case, '-' or '_' is a typo.
        key = parts[-1]
        if not isinstance(key, str):
            return False
        parent = _get(self.data, parts[:-1])
        shape = _shape(parts[:-1])
        known = KEY_ORDER.get(shape)
        if not isinstance(parent, Mapping) or known is None:
            return False
        matches = [k for k in known if _loose(k) == _loose(key)]
        if len(matches) != 1 or matches[0] in parent:
            return False
        target = [*parts[:-1], matches[0]]
        self.operations.append(SetValue(path=_dotted(target), value=_plain(parent[key])))
        self.operations.append(DeleteValue(path=_dotted(parts)))
        self.notes.append(f"renamed {key} to {matches[0]}")
        return True

    def enum_value(self, finding: Finding, parts: list[str | int]) -> bool:
        table = f"{finding.code}.{parts[-1]}"
        allowed, aliases = _ENUMS[table if table in _ENUMS else finding.code]
        value = _get(self.data, parts)
        if not isinstance(value, str):
            return False
        loose = _loose(value)
        matches = [a for a in allowed if _loose(a) == loose]
        fixed = matches[0] if len(matches) == 1 else aliases.get(loose)
        if fixed is None or fixed == value:
            return False
        self._set(parts, fixed)
        self.notes.append(f"{_dotted(parts)} {value} -> {fixed}")
        return True

    def missing_key(self, finding: Finding, parts: list[str | int]) -> bool:
        default = self._default(parts)
        if default is None:
            return False
        self._set(parts, default)
        self.notes.append(f"set {_dotted(parts)} to {str(default).lower()}")
        return True

    def _default(self, parts: list[str | int]) -> str | bool | None:
        target = _mapping(self.data.get("target"))
        disk = _mapping(self.data.get("disk"))
        if parts == ["target", "os"]:
            return load_targets().os_of(target.get("dist"))
        if parts == ["target", "dist"]:
            os = load_targets().oses.get(str(target.get("os")))
            return os.dists[0] if os and len(os.dists) == 1 else None
        if parts == ["target", "arch"]:
            arches = set()
            for part in disk.get("partitions") or []:
                part = _mapping(part)
                arches.add(load_targets().arch_of_root_type(part.get("type")))
                arches.add(load_targets().arch_of_root_guid(part.get("typeUUID")))
            arches.discard(None)
            return arches.pop() if len(arches) == 1 else None
        if parts == ["target", "imageType"]:
            artifacts = [_mapping(a).get("type") for a in disk.get("artifacts") or []]
            if disk.get("partitions") or (artifacts and set(artifacts) <= _RAW_ARTIFACTS):
                return "raw"
            return None
        if parts == ["disk", "name"]:
            for section in ("systemConfig", "image"):
                name = _mapping(self.data.get(section)).get("name")
                if isinstance(name, str) and name:
                    return name
            return None
        if parts == ["systemConfig", "immutability", "enabled"]:
            # secure boot keys are only valid with immutability on
            immutability = _mapping(_mapping(self.data.get("systemConfig")).get("immutability"))
            return True if any(k.startswith("secureBoot") for k in immutability) else None
        return None

    def image_version_invalid(self, finding: Finding, parts: list[str | int]) -> bool:
        # An unquoted 24.04 loads as a number; the text on the line is the version meant.
        value = _get(self.data, parts)
        if isinstance(value, str) or value is None or isinstance(value, bool):
            return False
        return self._quote_from_line(finding, parts)

    def _quote_from_line(self, finding: Finding, parts: list[str | int]) -> bool:
        if finding.line is None or not self.text_lines:
            return False
        line = self.text_lines[finding.line - 1] if finding.line <= len(self.text_lines) else ""
        match = _SCALAR_ON_LINE.match(line)
        key = parts[-1]
        if match is None or not isinstance(key, str) or f"{key}:" not in line:
            return False
        literal = match.group(1)
        self._set(parts, literal)
        self.notes.append(f'{_dotted(parts)} quoted as "{literal}"')
        return True

    def repository_key_missing(self, finding: Finding, parts: list[str | int]) -> bool:
        repo = _get(self.data, parts)
        if not isinstance(repo, Mapping) or "pkey" in repo or "pkeys" in repo:
            return False
        name = repo.get("codename") or repo.get("url")
        return self._placeholder(
            [*parts, "pkey"],
            PUBLIC_KEY_PLACEHOLDER,
            f"repository {name} got a placeholder signing key",
            f"repository {name} has the placeholder key {PUBLIC_KEY_PLACEHOLDER}: set pkey to "
            "the URL of its signing key",
        )

    def composer_hostname_unset(self, finding: Finding, parts: list[str | int]) -> bool:
        """No hostname: the composer would keep the build host's; name the host after the image."""
        from oic_ai.tools.composer_fit import hostname_for

        hostname = hostname_for(self.data)
        if hostname is None:
            return False
        self._set(["systemConfig", "hostname"], hostname)
        self.notes.append(
            f"set the hostname to {hostname} (the composer would keep the build host's)"
        )
        return True

    def composer_password_hash_without_algo(self, finding: Finding, parts: list[str | int]) -> bool:
        """A crypt hash without hash_algo: the composer would make the hash the password."""
        from oic_ai.tools.composer_fit import hash_algo_for

        password = _get(self.data, parts)
        if parts[-1] != "password" or not isinstance(password, str):
            return False
        self._set([*parts[:-1], "hash_algo"], hash_algo_for(password))
        self.notes.append("set hash_algo beside the password hash (the composer needs it)")
        return True

    def secureboot_keys_incomplete(self, finding: Finding, parts: list[str | int]) -> bool:
        # The three files are one key pair in one folder: derive the missing paths.
        node = _mapping(_get(self.data, parts[:-1]))
        key = parts[-1]
        suffixes = {"secureBootDBKey": ".key", "secureBootDBCrt": ".crt", "secureBootDBCer": ".cer"}
        if not isinstance(key, str) or key not in suffixes or key in node:
            return False
        stems = {
            str(node[k]).rsplit(".", 1)[0]
            for k in suffixes
            if isinstance(node.get(k), str) and "." in str(node[k])
        }
        if len(stems) != 1:
            return False
        path = stems.pop() + suffixes[key]
        if ".." in path:
            return False
        self._set(parts, path)
        self.notes.append(f"{_dotted(parts)} set to {path} beside the other key files")
        return True


def _deletion_order(parts: Sequence[str | int]) -> tuple[str, int]:
    last = parts[-1]
    return (_dotted(parts[:-1]), -last if isinstance(last, int) else 0)


def _loose(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _shape(parts: Sequence[str | int]) -> str:
    out = ""
    for part in parts:
        out += "[]" if isinstance(part, int) else ("." if out else "") + part
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _enum(fixer: _Fixer, finding: Finding, parts: list[str | int]) -> bool:
    return fixer.enum_value(finding, parts)


_HANDLERS: dict[str, Any] = {
    "package-duplicate": _Fixer.package_duplicate,
    "package-versioned": _Fixer.package_versioned,
    "partition-exceeds-disk": _Fixer.partition_exceeds_disk,
    "partition-overlap": _Fixer.partition_overlap,
    "root-type-arch-mismatch": _Fixer.root_type_arch_mismatch,
    "plaintext-password": _Fixer.plaintext_password,
    "legacy-systemconfigs": _Fixer.legacy_systemconfigs,
    "metadata-unsupported-key": _Fixer.metadata_unsupported_key,
    "unknown-key": _Fixer.unknown_key,
    "missing-key": _Fixer.missing_key,
    "image-version-invalid": _Fixer.image_version_invalid,
    "repository-key-missing": _Fixer.repository_key_missing,
    "secureboot-keys-incomplete": _Fixer.secureboot_keys_incomplete,
    "composer-hostname-unset": _Fixer.composer_hostname_unset,
    "composer-password-hash-without-algo": _Fixer.composer_password_hash_without_algo,
    **{code: _enum for code in _ENUMS if "." not in code},
}


def fix_template(text: str) -> dict[str, Any]:
    """Validate ``text``, apply every deterministic fix to its errors, and validate again.

    The graph's fix step in one call, without a model: what cannot be fixed without
    guessing is left alone and named in ``not_applied``.

    Args:
        text: the template YAML.

    Returns:
        ``template`` (the new text), ``changed``, ``applied`` and ``not_applied`` (one line
        each), ``warnings``, ``diff``, and ``validation`` (the ``validate --json`` entry of
        the new text).
    """
    from oic_ai.tools.applier import apply_plan
    from oic_ai.tools.validate_template import validate_text

    before = validate_text(text)
    applied = apply_plan(text, plan_fixes(text, before.errors), label="template.yml")
    return {
        "template": applied.text,
        "changed": applied.changed,
        "applied": list(applied.applied),
        "not_applied": list(applied.not_applied),
        "warnings": list(applied.warnings),
        "diff": applied.diff,
        "validation": validate_text(applied.text).to_json(),
    }
