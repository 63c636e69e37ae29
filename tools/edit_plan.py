"""The edit plan: a typed list of operations on a base template.

Every planner (builtin rules, an LLM through structured output) produces an
:class:`EditPlan`; :mod:`oic_ai.tools.applier` applies it deterministically to the YAML.
Field descriptions double as instructions for LLM planners, so they say what a value
looks like, not how the code uses it. Each operation also says what it does in words:
:meth:`describe` for a plan's summary and :meth:`label` for a "not applied" line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid")

    op: str

    def describe(self) -> str:
        """One short clause for a plan's summary (by default the operation's name)."""
        return self.op

    def label(self) -> str:
        """The operation in words, for a "not applied" line (by default its summary clause)."""
        return self.describe()


def _an(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _said(*phrases: tuple[str, object], sep: str = ", ") -> str:
    """Each ``(words, value)`` with a value that is set, the value put into its words."""
    return sep.join(words.format(value) for words, value in phrases if value)


def _artifact_words(artifacts: Sequence[Artifact]) -> str:
    return ", ".join(f"{a.type}+{a.compression}" if a.compression else a.type for a in artifacts)


class SetTarget(_Op):
    """Change the build target."""

    op: Literal["set_target"] = "set_target"
    os: str | None = Field(
        default=None,
        description="ubuntu, debian, wind-river-elxr, azure-linux, edge-microvisor-toolkit "
        "or redhat-compatible-distro",
    )
    dist: str | None = Field(
        default=None, description="ubuntu24, ubuntu26, debian13, elxr12, azl3, emt3 or el10"
    )
    arch: Literal["x86_64", "aarch64"] | None = None
    image_type: Literal["raw", "iso", "img"] | None = Field(
        default=None, description="raw disk image, iso installer, or img (initrd / network boot)"
    )

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return "retarget to " + _said(
            ("os {}", self.os),
            ("dist {}", self.dist),
            ("arch {}", self.arch),
            ("image type {}", self.image_type),
        )

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return "set target " + _said(
            ("os {}", self.os),
            ("dist {}", self.dist),
            ("arch {}", self.arch),
            ("imageType {}", self.image_type),
        )


class SetImage(_Op):
    """Set the image name and/or version."""

    op: Literal["set_image"] = "set_image"
    name: str | None = None
    version: str | None = None

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return _said(("name it {}", self.name), ("set version {}", self.version), sep=" and ")

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return "set image " + _said(("{}", self.name), ("{}", self.version))


class AddPackages(_Op):
    """Add packages to the system (or kernel) package list."""

    op: Literal["add_packages"] = "add_packages"
    packages: list[str] = Field(description="exact package names for the target distribution")
    kernel: bool = Field(default=False, description="true for systemConfig.kernel.packages")

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return ("add kernel packages " if self.kernel else "add ") + ", ".join(self.packages)

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return f"add {'kernel ' if self.kernel else ''}packages {', '.join(self.packages)}"


class RemovePackages(_Op):
    """Remove packages from the system and kernel package lists."""

    op: Literal["remove_packages"] = "remove_packages"
    packages: list[str]

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return "remove " + ", ".join(self.packages)

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return f"remove packages {', '.join(self.packages)}"


class SetDiskSize(_Op):
    """Set the total disk size."""

    op: Literal["set_disk_size"] = "set_disk_size"
    size: str = Field(description="a size with a unit, e.g. 8GiB or 512MiB")

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return f"set the disk to {self.size}"

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return f"set disk size {self.size}"


class AddPartition(_Op):
    """Add a partition, carved from the end of the disk."""

    op: Literal["add_partition"] = "add_partition"
    id: str = Field(description="short identifier, e.g. data")
    mount_point: str = Field(description="absolute mount point, e.g. /data")
    size: str | None = Field(default=None, description="e.g. 2GiB; null means the rest of the disk")
    fs_type: str = Field(default="ext4", description="ext4, xfs, btrfs, fat32 ...")
    type: str = Field(default="linux", description="partition type name, usually linux")

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        extent = self.size or "rest of disk"
        return f"add {_an(self.fs_type)} {self.mount_point} partition ({extent})"

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return f"add partition {self.mount_point}"


class ResizePartition(_Op):
    """Change a partition's size; later partitions move to make room."""

    op: Literal["resize_partition"] = "resize_partition"
    partition: str = Field(description="the partition id or its mount point")
    size: str = Field(description="new size, e.g. 4GiB")

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return f"resize partition {self.partition} to {self.size}"


class RemovePartition(_Op):
    """Remove a partition."""

    op: Literal["remove_partition"] = "remove_partition"
    partition: str = Field(description="the partition id or its mount point")

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return f"remove partition {self.partition}"


class Artifact(BaseModel):
    """One output artifact of the disk image."""

    model_config = ConfigDict(extra="forbid")
    type: str = Field(description="raw, qcow2, vhd, vhdx, vmdk, vdi ...")
    compression: str | None = Field(default=None, description="gz, xz or zstd; null for none")


class SetArtifacts(_Op):
    """Replace the disk's artifact list."""

    op: Literal["set_artifacts"] = "set_artifacts"
    artifacts: list[Artifact]

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return "write " + _artifact_words(self.artifacts)

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return "set artifacts " + ", ".join(a.type for a in self.artifacts)


class SetHostname(_Op):
    """Set the system hostname."""

    op: Literal["set_hostname"] = "set_hostname"
    hostname: str

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return f"set the hostname to {self.hostname}"

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return f"set hostname {self.hostname}"


class SetKernel(_Op):
    """Set the kernel version and/or command line."""

    op: Literal["set_kernel"] = "set_kernel"
    version: str | None = Field(default=None, description='e.g. "6.12"')
    cmdline: str | None = Field(default=None, description="the whole kernel command line")
    append_cmdline: list[str] = Field(
        default_factory=list, description="arguments to append, e.g. isolcpus=2-3"
    )

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        parts = [f"use kernel {self.version}" if self.version else ""]
        if self.cmdline is not None:
            parts.append(f"set the kernel cmdline to '{self.cmdline}'")
        if self.append_cmdline:
            parts.append("append " + " ".join(self.append_cmdline) + " to the kernel cmdline")
        return ", ".join(p for p in parts if p)

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return "set kernel"


class SetBootloader(_Op):
    """Set the bootloader."""

    op: Literal["set_bootloader"] = "set_bootloader"
    provider: Literal["grub", "systemd-boot"] | None = None
    boot_type: Literal["efi", "legacy"] | None = None

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return _said(("boot with {}", self.provider), ("{} boot", self.boot_type))

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return "set bootloader " + _said(("{}", self.provider), ("{}", self.boot_type))


class SetImmutability(_Op):
    """Turn immutability (dm-verity root) and secure boot on or off."""

    op: Literal["set_immutability"] = "set_immutability"
    enabled: bool
    secure_boot: bool | None = Field(
        default=None, description="true to add secure-boot key paths, false to remove them"
    )

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        words = ["immutability " + ("on" if self.enabled else "off")]
        if self.secure_boot is not None:
            words.append("secure boot " + ("on" if self.secure_boot else "off"))
        return "turn " + ", ".join(words)

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return f"{'enable' if self.enabled else 'disable'} immutability"


class AddUser(_Op):
    """Add a user. Never carries a password: the applier writes a placeholder and warns."""

    op: Literal["add_user"] = "add_user"
    name: str
    groups: list[str] = Field(default_factory=list)
    sudo: bool = False
    shell: str | None = None

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        detail = _said(("groups {}", ", ".join(self.groups)), ("sudo", self.sudo))
        return f"add user {self.name}" + (f" ({detail})" if detail else "")

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return f"add user {self.name}"


class AddRepository(_Op):
    """Add a package repository."""

    op: Literal["add_repository"] = "add_repository"
    url: str = Field(description="URL, or the absolute directory path of a local repository")
    codename: str | None = None
    component: str | None = None
    pkey: str | None = Field(default=None, description="URL or path of the signing key")
    allow_packages: list[str] = Field(default_factory=list)

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return f"add repository {self.url}"


class SetMetadata(_Op):
    """Set the template's descriptive metadata."""

    op: Literal["set_metadata"] = "set_metadata"
    description: str | None = None
    use_cases: list[str] | None = None
    keywords: list[str] | None = None

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return "set metadata"


class SetValue(_Op):
    """Set any value by path.

    Paths are dotted keys with list selectors: ``systemConfig.kernel.cmdline``,
    ``disk.partitions[id=rootfs].fsType``, ``disk.artifacts[0].type``.
    """

    op: Literal["set"] = "set"
    path: str
    value: Any

    def describe(self) -> str:
        """One short clause for a plan's summary."""
        return f"set {self.path} to {self.value}"

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return f"set {self.path}"


class DeleteValue(_Op):
    """Delete a value by path."""

    op: Literal["delete"] = "delete"
    path: str

    def label(self) -> str:
        """The operation in words, for a "not applied" line."""
        return f"delete {self.path}"


Operation = Annotated[
    SetTarget
    | SetImage
    | AddPackages
    | RemovePackages
    | SetDiskSize
    | AddPartition
    | ResizePartition
    | RemovePartition
    | SetArtifacts
    | SetHostname
    | SetKernel
    | SetBootloader
    | SetImmutability
    | AddUser
    | AddRepository
    | SetMetadata
    | SetValue
    | DeleteValue,
    Field(discriminator="op"),
]


ClauseOutcomeKind = Literal["applied", "base", "context", "reference", "not_applied"]


class ClauseOutcome(BaseModel):
    """What became of one clause of the request (the planner's accounting).

    ``applied``: an operation took it (``operations`` names them; none when the template
    already had it); ``base``: it chose the base template (create mode); ``context``: it
    asks no change ("thanks", "our boxes are fanless"); ``reference``: it refers to an
    earlier turn ("undo that"), which the conversation handles; ``not_applied``: the plan
    cannot express it, and ``reason`` says why and what to try.
    """

    model_config = ConfigDict(extra="forbid")
    text: str
    outcome: ClauseOutcomeKind
    operations: list[str] = Field(default_factory=list)
    reason: str | None = None


class EditPlan(BaseModel):
    """What to change in the base template, as typed operations."""

    model_config = ConfigDict(extra="forbid")
    summary: str = Field(description="one sentence saying what the plan does")
    operations: list[Operation] = Field(default_factory=list)
    not_applied: list[str] = Field(
        default_factory=list,
        description="parts of the request the operations cannot express, in words",
    )
    warnings: list[str] = Field(default_factory=list)
    notes: list[str] = Field(
        default_factory=list,
        description="what the request asked that was already so, in words (not sent to models)",
    )
    clauses: list[ClauseOutcome] = Field(
        default_factory=list,
        description="every clause of the request and what became of it (not sent to models)",
    )
