"""A typed, forgiving model of one os-image-composer template.

The model is for reading and searching: it never raises on odd values, it just
keeps what it can understand. Validation is the validator's job.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from oic_ai.stores.vocabulary import (
    ARCH_WORDS,
    CAPABILITY_USE_CASES,
    DIST_WORDS,
    IMAGE_TYPE_CONTEXT,
    capabilities_for_packages,
)
from oic_ai.stores.yaml_document import load_data

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
    """One entry of ``disk.partitions``."""

    id: str = ""
    type: str = ""
    type_uuid: str = ""
    fs_type: str = ""
    start: str = ""
    end: str = ""
    mount_point: str = ""


@dataclass(frozen=True)
class Disk:
    """``disk:`` — layout and output artifacts."""

    name: str = ""
    size: str = ""
    partition_table_type: str = ""
    artifacts: tuple[str, ...] = ()
    partitions: tuple[Partition, ...] = ()


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


@dataclass(frozen=True)
class Template:
    """One parsed template with both declared and inferred search facts."""

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
    inferred_keywords: tuple[str, ...] = ()
    inferred_use_cases: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = field(default=())

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
        if self.target.dist or self.target.os:
            family = ", ".join(DIST_WORDS.get(self.target.dist, ()))
            lines.append(
                f"Distribution: {self.target.os} {self.target.dist}"
                + (f" ({family})" if family else "")
            )
        if self.target.arch:
            lines.append(
                f"Architecture: {' '.join(ARCH_WORDS.get(self.target.arch, (self.target.arch,)))}"
            )
        if self.target.image_type:
            context = ", ".join(IMAGE_TYPE_CONTEXT.get(self.target.image_type, ()))
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
    capabilities = tuple(capabilities_for_packages(packages + kernel_model.packages))
    keywords, use_cases = _inferred(path, parsed_target, capabilities)
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
            _repository(item)
            for item in _list(data.get("packageRepositories"))
            if isinstance(item, Mapping)
        ),
        system_name=_text(system.get("name")),
        system_description=_text(system.get("description")),
        hostname=_text(system.get("hostname")),
        immutable=immutability.get("enabled") is True,
        bootloader=_text(bootloader.get("provider")),
        inferred_keywords=keywords,
        inferred_use_cases=use_cases,
        capabilities=capabilities,
    )


def _inferred(
    path: str, target: Target, capabilities: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    keywords = [t for t in _NAME_TOKEN.findall(stem) if t not in _NOISE_TOKENS and not t.isdigit()]
    keywords += list(DIST_WORDS.get(target.dist, ()))
    keywords += list(ARCH_WORDS.get(target.arch, ()))
    keywords += list(IMAGE_TYPE_CONTEXT.get(target.image_type, ()))
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
    artifacts = []
    for item in _list(raw.get("artifacts")):
        if isinstance(item, Mapping) and item.get("type"):
            kind = _text(item.get("type"))
            compression = _text(item.get("compression"))
            artifacts.append(f"{kind}+{compression}" if compression else kind)
    partitions = tuple(
        Partition(
            id=_text(p.get("id")),
            type=_text(p.get("type")),
            type_uuid=_text(p.get("typeUUID")),
            fs_type=_text(p.get("fsType")),
            start=_text(p.get("start")),
            end=_text(p.get("end")),
            mount_point=_text(p.get("mountPoint")),
        )
        for p in _list(raw.get("partitions"))
        if isinstance(p, Mapping)
    )
    return Disk(
        name=_text(raw.get("name")),
        size=_text(raw.get("size")),
        partition_table_type=_text(raw.get("partitionTableType")),
        artifacts=tuple(artifacts),
        partitions=partitions,
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
    )


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(value: Any) -> str:
    if value is None or isinstance(value, (Mapping, list)):
        return ""
    return str(value).strip()


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(
        str(item).strip()
        for item in _list(value)
        if isinstance(item, (str, int, float)) and not isinstance(item, bool) and str(item).strip()
    )


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for item in items:
        if item and item not in seen:
            seen[item] = None
    return tuple(seen)
