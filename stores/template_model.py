"""A typed, forgiving model of one os-image-composer template: the one template reader.

The model is for reading and searching: it never raises on odd values, it just
keeps what it can understand (a value of the wrong type reads as empty). Validation
is the validator's job.

Entry points:

- :func:`template_from_text` reads template text for the planner, explain and checks; it
  never raises, and an unreadable text gives an empty :class:`Template` whose
  ``error`` says why.
- :func:`parse_template` reads a library file and raises on text that is not a YAML
  mapping (the library skips such files).
- :func:`template_from_data` builds the model from already-loaded YAML data.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from oic_ai.stores.disk_units import parse_size
from oic_ai.stores.vocabulary import CAPABILITY_USE_CASES, capabilities_for_packages
from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

_NAME_TOKEN = re.compile(r"x86_64|[a-z0-9]+(?:\.[0-9]+)?")
_NOISE_TOKENS = frozenset({"yml", "yaml", "template", "image", "os"})


@dataclass(frozen=True)
class TemplateMetadata:
    """What the template says about itself, in either spelling.

    The composer's spelling is ``description``/``use_cases``/``keywords``; the ADR's
    adds ``useCase``, ``capabilities`` and ``recommendedFor``. Both are read.
    """

    description: str = ""
    use_cases: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()
    recommended_for: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        """True when the template carries no metadata at all."""
        return not (
            self.description
            or self.use_cases
            or self.keywords
            or self.capabilities
            or self.recommended_for
        )


@dataclass(frozen=True)
class ImageInfo:
    """``image:`` — the output name and version."""

    name: str = ""
    version: str = ""


@dataclass(frozen=True)
class Target:
    """``target:`` — what the image is built for."""

    os: str = ""
    dist: str = ""
    arch: str = ""
    image_type: str = ""


@dataclass(frozen=True)
class Partition:
    """One entry of ``disk.partitions``.

    ``start`` and ``end`` are the values as written; ``start_bytes`` and ``end_bytes``
    are the same in bytes, or None when they are not sizes. An ``end`` of 0 means
    "the rest of the disk".
    """

    id: str = ""
    type: str = ""
    type_uuid: str = ""
    fs_type: str = ""
    start: str = ""
    end: str = ""
    mount_point: str = ""
    start_bytes: int | None = None
    end_bytes: int | None = None
    mount_options: str = ""

    @property
    def ref(self) -> str:
        """How a plan names this partition: its id, else its mount point."""
        return self.id or self.mount_point

    def size_bytes(self, disk_size: int | None) -> int | None:
        """The partition's size in bytes, or None when it cannot be known.

        Args:
            disk_size: The disk's size in bytes, needed when the partition runs to the
                end of the disk.
        """
        if self.start_bytes is None or self.end_bytes is None:
            return None
        end = disk_size if self.end_bytes == 0 else self.end_bytes
        return None if end is None else end - self.start_bytes


@dataclass(frozen=True)
class DiskArtifact:
    """One entry of ``disk.artifacts``: an output format and its compression."""

    type: str
    compression: str | None = None

    def __str__(self) -> str:
        """``qcow2+zstd``, or just the format when it is not compressed."""
        return f"{self.type}+{self.compression}" if self.compression else self.type


@dataclass(frozen=True)
class Disk:
    """``disk:`` — layout and output artifacts.

    ``artifacts`` spells each artifact as ``format+compression`` (for search text);
    ``artifact_specs`` holds the same entries as :class:`DiskArtifact`.
    """

    name: str = ""
    size: str = ""
    partition_table_type: str = ""
    artifacts: tuple[str, ...] = ()
    partitions: tuple[Partition, ...] = ()
    size_bytes: int | None = None
    artifact_specs: tuple[DiskArtifact, ...] = ()


@dataclass(frozen=True)
class Kernel:
    """``systemConfig.kernel``."""

    version: str = ""
    cmdline: str = ""
    packages: tuple[str, ...] = ()


@dataclass(frozen=True)
class Repository:
    """One entry of ``packageRepositories``."""

    codename: str = ""
    url: str = ""
    path: str = ""
    component: str = ""
    priority: int = 0
    allow_packages: tuple[str, ...] = ()
    pkey: str = ""


@dataclass(frozen=True)
class User:
    """One entry of ``systemConfig.users``."""

    name: str
    groups: tuple[str, ...] = ()
    sudo: bool = False
    shell: str = ""


@dataclass(frozen=True)
class Immutability:
    """``systemConfig.immutability``.

    ``enabled`` is None when the section does not say ``enabled: true`` or ``false``.
    """

    enabled: bool | None = None
    secure_boot: bool = False


@dataclass(frozen=True)
class Template:
    """One parsed template with both declared and inferred search facts.

    The inferred facts (capabilities, keywords, use cases) are worked out on first
    use, so reading a template for planning does not pay for search.

    ``error`` is set (and everything else empty) when :func:`template_from_text` could not
    read the text; see :attr:`readable`.
    """

    path: str
    content_hash: str
    metadata: TemplateMetadata
    image: ImageInfo
    target: Target
    disk: Disk | None
    packages: tuple[str, ...]
    kernel: Kernel
    repositories: tuple[Repository, ...]
    system_name: str = ""
    system_description: str = ""
    hostname: str = ""
    immutable: bool = False
    bootloader: str = ""
    boot_type: str = ""
    users: tuple[User, ...] = ()
    immutability: Immutability | None = None
    error: str = ""

    @cached_property
    def capabilities(self) -> tuple[str, ...]:
        """Capabilities inferred from the packages (worked out on first use)."""
        return tuple(capabilities_for_packages(self.all_packages))

    @cached_property
    def _inference(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return _inferred(self.path, self.target, self.capabilities)

    @property
    def inferred_keywords(self) -> tuple[str, ...]:
        """Keywords inferred from the file name, target and capabilities."""
        return self._inference[0]

    @property
    def inferred_use_cases(self) -> tuple[str, ...]:
        """Use cases inferred from the capabilities and image type."""
        return self._inference[1]

    @property
    def readable(self) -> bool:
        """False when the text could not be read as a template mapping."""
        return not self.error

    @property
    def description(self) -> str:
        """``metadata.description``, else ``systemConfig.description``."""
        return self.metadata.description or self.system_description

    @property
    def partitions(self) -> tuple[Partition, ...]:
        """The disk's partitions; none without a disk."""
        return self.disk.partitions if self.disk else ()

    @property
    def disk_size_bytes(self) -> int | None:
        """The disk's size in bytes; None without a disk or a readable size."""
        return self.disk.size_bytes if self.disk else None

    @property
    def artifact_specs(self) -> tuple[DiskArtifact, ...]:
        """The disk's output artifacts; none without a disk."""
        return self.disk.artifact_specs if self.disk else ()

    @property
    def immutability_enabled(self) -> bool | None:
        """``immutability.enabled`` when it is a boolean, else None."""
        return self.immutability.enabled if self.immutability else None

    @property
    def secure_boot(self) -> bool:
        """True when the immutability section sets secure boot keys."""
        return self.immutability.secure_boot if self.immutability else False

    @property
    def repository_locations(self) -> tuple[str, ...]:
        """Each package repository's URL, else its path."""
        return tuple(r.url or r.path for r in self.repositories)

    @property
    def file_name(self) -> str:
        """The file name without folders."""
        return self.path.rsplit("/", 1)[-1]

    @property
    def all_packages(self) -> tuple[str, ...]:
        """System and kernel packages together."""
        return self.packages + self.kernel.packages

    @property
    def keywords(self) -> tuple[str, ...]:
        """Declared keywords first, then inferred ones, without repeats."""
        return _unique((*self.metadata.keywords, *self.inferred_keywords))

    @property
    def use_cases(self) -> tuple[str, ...]:
        """Declared use cases first, then inferred ones, without repeats."""
        declared = (*self.metadata.use_cases, *self.metadata.recommended_for)
        if self.metadata.capabilities:
            declared = (*declared, *self.metadata.capabilities)
        return _unique((*declared, *self.inferred_use_cases))

    def searchable_text(self, max_packages: int = 60) -> str:
        """Build the human-readable text that gets embedded (selected fields, not YAML).

        The most telling fields come first, since embedding models truncate long input.
        """
        lines = [f"Template: {self.file_name}"]
        if self.image.name:
            lines.append(f"Name: {self.image.name}")
        if self.use_cases:
            lines.append("Use cases: " + ", ".join(self.use_cases))
        description = self.metadata.description or self.system_description
        if description:
            lines.append(f"Description: {description}")
        words = _target_words(self.target)
        if self.target.dist or self.target.os:
            family = ", ".join(words.dist)
            lines.append(
                f"Distribution: {self.target.os} {self.target.dist}"
                + (f" ({family})" if family else "")
            )
        if self.target.arch:
            arch_words = words.arch if words.arch is not None else (self.target.arch,)
            lines.append(f"Architecture: {' '.join(arch_words)}")
        if self.target.image_type:
            context = ", ".join(words.image_type)
            lines.append(
                f"Image type: {self.target.image_type}" + (f" ({context})" if context else "")
            )
        if self.keywords:
            lines.append("Keywords: " + ", ".join(self.keywords))
        if self.capabilities:
            lines.append("Capabilities: " + ", ".join(self.capabilities))
        if self.packages:
            shown = list(self.packages[:max_packages])
            more = len(self.packages) - len(shown)
            lines.append("Packages: " + ", ".join(shown) + (f" (+{more} more)" if more > 0 else ""))
        if self.kernel.version or self.kernel.packages:
            kernel = " ".join(filter(None, (self.kernel.version, *self.kernel.packages)))
            lines.append(f"Kernel: {kernel}")
        if self.disk and self.disk.artifacts:
            lines.append("Artifacts: " + ", ".join(self.disk.artifacts))
        if self.immutable:
            lines.append("Immutable root filesystem")
        return "\n".join(lines)


def content_hash(raw: bytes) -> str:
    """SHA-256 of the whole file: any change at all means a new hash."""
    return hashlib.sha256(raw).hexdigest()


def empty_template(path: str = "", error: str = "") -> Template:
    """A template with nothing in it; ``error`` says why, when it stands for a failed read."""
    return Template(
        path=path,
        content_hash="",
        metadata=TemplateMetadata(),
        image=ImageInfo(),
        target=Target(),
        disk=None,
        packages=(),
        kernel=Kernel(),
        repositories=(),
        error=error,
    )


@lru_cache(maxsize=64)
def template_from_text(text: str, path: str = "template.yml") -> Template:
    """Read template text forgivingly; never raises.

    Reads are cached per text: a conversation reads the same template many times.

    Args:
        text: The template's YAML text.
        path: The name to give the template (shown in search text).

    Returns:
        The model; when the text is empty, not YAML or not a mapping, an empty
        template whose ``error`` says which (and ``readable`` is False).
    """
    if not text.strip():
        return empty_template(path, "no template text")
    try:
        data = load_data(text)
    except YamlSyntaxError as exc:
        return empty_template(path, f"the template is not valid YAML ({exc})")
    if not isinstance(data, Mapping):
        return empty_template(path, "the template is not a YAML mapping")
    return template_from_data(data, path, content_hash(text.encode("utf-8")))


def parse_template(raw: bytes | str, path: str) -> Template:
    """Parse template text into a :class:`Template`.

    Raises:
        ValueError: the text is not YAML, or its document is not a mapping.
    """
    data_bytes = raw.encode("utf-8") if isinstance(raw, str) else raw
    text = raw if isinstance(raw, str) else raw.decode("utf-8")
    data = load_data(text)
    if not isinstance(data, Mapping):
        raise ValueError(f"the document is a {type(data).__name__}, not a mapping")
    return template_from_data(data, path, content_hash(data_bytes))


def template_from_data(data: Mapping[str, Any], path: str, digest: str) -> Template:
    """Build a :class:`Template` from already-loaded YAML data."""
    metadata = _metadata(data.get("metadata"))
    image = _mapping(data.get("image"))
    target = _mapping(data.get("target"))
    system = _mapping(data.get("systemConfig"))
    kernel = _mapping(system.get("kernel"))
    immutability = _mapping(system.get("immutability"))
    bootloader = _mapping(system.get("bootloader"))

    parsed_target = Target(
        os=_text(target.get("os")),
        dist=_text(target.get("dist")),
        arch=_text(target.get("arch")),
        image_type=_text(target.get("imageType")),
    )
    packages = _strings(system.get("packages"))
    kernel_model = Kernel(
        version=_text(kernel.get("version")),
        cmdline=_text(kernel.get("cmdline")),
        packages=_strings(kernel.get("packages")),
    )
    return Template(
        path=path,
        content_hash=digest,
        metadata=metadata,
        image=ImageInfo(name=_text(image.get("name")), version=_text(image.get("version"))),
        target=parsed_target,
        disk=_disk(data.get("disk")),
        packages=packages,
        kernel=kernel_model,
        repositories=tuple(
            _repository(item) for item in _mappings(data.get("packageRepositories"))
        ),
        system_name=_text(system.get("name")),
        system_description=_text(system.get("description")),
        hostname=_text(system.get("hostname")),
        immutable=immutability.get("enabled") is True,
        bootloader=_text(bootloader.get("provider")),
        boot_type=_text(bootloader.get("bootType")),
        users=tuple(
            User(
                name=_text(u.get("name")),
                groups=_strings(u.get("groups")),
                sudo=u.get("sudo") is True,
                shell=_text(u.get("shell")),
            )
            for u in _mappings(system.get("users"))
            if _text(u.get("name"))
        ),
        immutability=_immutability(system.get("immutability")),
    )


def _immutability(raw: Any) -> Immutability | None:
    if not isinstance(raw, Mapping):
        return None
    enabled = raw.get("enabled")
    return Immutability(
        enabled=enabled if isinstance(enabled, bool) else None,
        secure_boot=bool(raw.get("secureBootDBKey")),
    )


@dataclass(frozen=True)
class _TargetWords:
    dist: tuple[str, ...]
    arch: tuple[str, ...] | None  # None: not an arch the registry knows
    image_type: tuple[str, ...]


def _target_words(target: Target) -> _TargetWords:
    """The registry's words for a target: dist keywords, arch keywords, image type context."""
    from oic_ai.stores.targets import load_targets  # deferred: keeps validate start-up flat

    targets = load_targets()
    dist = targets.dists.get(target.dist)
    arch = targets.arches.get(target.arch)
    kind = targets.image_types.get(target.image_type)
    return _TargetWords(
        dist=dist.keywords if dist else (),
        arch=arch.keywords if arch else None,
        image_type=kind.context if kind else (),
    )


def _inferred(
    path: str, target: Target, capabilities: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    keywords = [t for t in _NAME_TOKEN.findall(stem) if t not in _NOISE_TOKENS and not t.isdigit()]
    words = _target_words(target)
    keywords += [*words.dist, *(words.arch or ()), *words.image_type]
    keywords += list(capabilities)
    use_cases = [CAPABILITY_USE_CASES[c] for c in capabilities if c in CAPABILITY_USE_CASES]
    if target.image_type == "iso":
        use_cases.append("installer")
    elif target.image_type == "img":
        use_cases.append("network boot")
    for word in ("minimal", "edge", "iot", "gateway", "kiosk", "desktop", "cloud"):
        if word in keywords:
            use_cases.append(word)
    return _unique(keywords), _unique(use_cases)


def _metadata(raw: Any) -> TemplateMetadata:
    data = _mapping(raw)
    use_cases = _strings(data.get("use_cases")) + _strings(data.get("useCases"))
    use_case = data.get("useCase")
    if isinstance(use_case, str) and use_case.strip():
        use_cases = (use_case.strip(), *use_cases)
    return TemplateMetadata(
        description=_text(data.get("description")),
        use_cases=_unique(use_cases),
        keywords=_unique(k.lower() for k in _strings(data.get("keywords"))),
        capabilities=_strings(data.get("capabilities")),
        recommended_for=_strings(data.get("recommendedFor")),
    )


def _disk(raw: Any) -> Disk | None:
    if not isinstance(raw, Mapping):
        return None
    artifacts = tuple(
        DiskArtifact(
            type=_text(item.get("type")), compression=_text(item.get("compression")) or None
        )
        for item in _mappings(raw.get("artifacts"))
        if _text(item.get("type"))
    )
    partitions = tuple(
        Partition(
            id=_text(p.get("id")),
            type=_text(p.get("type")),
            type_uuid=_text(p.get("typeUUID")),
            fs_type=_text(p.get("fsType")),
            start=_text(p.get("start")),
            end=_text(p.get("end")),
            mount_point=_text(p.get("mountPoint")),
            start_bytes=_size(p.get("start")),
            end_bytes=_size(p.get("end")),
            mount_options=_text(p.get("mountOptions")),
        )
        for p in _mappings(raw.get("partitions"))
    )
    return Disk(
        name=_text(raw.get("name")),
        size=_text(raw.get("size")),
        partition_table_type=_text(raw.get("partitionTableType")),
        artifacts=tuple(str(a) for a in artifacts),
        partitions=partitions,
        size_bytes=_size(raw.get("size")),
        artifact_specs=artifacts,
    )


def _repository(raw: Mapping[str, Any]) -> Repository:
    priority = raw.get("priority")
    return Repository(
        codename=_text(raw.get("codename")),
        url=_text(raw.get("url")),
        path=_text(raw.get("path")),
        component=_text(raw.get("component")),
        priority=priority if isinstance(priority, int) and not isinstance(priority, bool) else 0,
        allow_packages=_strings(raw.get("allowPackages")),
        pkey=_text(raw.get("pkey")),
    )


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _mappings(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in _list(value) if isinstance(item, Mapping)]


def _text(value: Any) -> str:
    """A scalar as stripped text; empty for None, booleans, mappings and lists."""
    if value is None or isinstance(value, (Mapping, list, bool)):
        return ""
    return str(value).strip()


def _strings(value: Any) -> tuple[str, ...]:
    """The non-empty scalar items of a list, as text."""
    return tuple(text for item in _list(value) if (text := _text(item)))


def _size(value: Any) -> int | None:
    """A size value (``8GiB``, ``"0"``, bytes) in bytes, or None."""
    return parse_size(_text(value) or value)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for item in items:
        if item and item not in seen:
            seen[item] = None
    return tuple(seen)
