"""Random plans on real templates: the applier never raises, never loses an untouched key,
reports every change, and never leaves a partition layout broken that was sound."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oic_ai.tools import edit_plan as ep
from oic_ai.tools.applier import apply_plan
from oic_ai.tools.validate_template import validate_text
from tests.conftest import OUR_TEMPLATES

TEMPLATES = {p.name: p.read_text() for p in sorted(OUR_TEMPLATES.glob("*.yml"))}
LAYOUT_CODES = {"partition-overlap", "partition-exceeds-disk", "partition-empty"}

PACKAGES = st.sampled_from(
    ["htop", "curl", "vim*", "openssh-server", "nginx>=1.24", "bad name", "kernel", "*"]
)
SIZES = st.sampled_from(["512MiB", "1GiB", "2GiB", "8GiB", "64GiB", "3.5GiB", "lots", "0"])
PARTS = st.sampled_from(["/", "rootfs", "boot", "/boot/efi", "/var/log", "data", "/opt", "x"])
PATHS = st.sampled_from(
    [
        "systemConfig.hostname",
        "systemConfig.kernel.cmdline",
        "systemConfig.packages[0]",
        "systemConfig.packages[99]",
        "disk.partitions[id=rootfs].fsType",
        "disk.partitions[0]",
        "disk.size",
        "disk.artifacts[0].compression",
        "systemConfig.immutability",
        "metadata.keywords",
        "image.version",
        "new.section.key",
        "target",
        "bad..path",
    ]
)
VALUES = st.one_of(
    st.sampled_from(["xfs", "edge-01", "6.12", "", "0", "yes"]),
    st.integers(-3, 3),
    st.booleans(),
    st.none(),
    st.just({"a": 1, "b": ["x", "y"]}),
    st.just(["p", "q"]),
)
OPERATIONS = st.one_of(
    st.builds(
        ep.SetTarget,
        os=st.none() | st.sampled_from(["ubuntu", "azure-linux", "debian", "fedora"]),
        dist=st.none() | st.sampled_from(["ubuntu24", "azl3", "el10", "nope"]),
        arch=st.none() | st.sampled_from(["x86_64", "aarch64"]),
        image_type=st.none() | st.sampled_from(["raw", "iso", "img"]),
    ),
    st.builds(
        ep.SetImage, name=st.none() | st.sampled_from(["img-1", "bad name"]), version=st.none()
    ),
    st.builds(
        ep.AddPackages, packages=st.lists(PACKAGES, min_size=1, max_size=3), kernel=st.booleans()
    ),
    st.builds(ep.RemovePackages, packages=st.lists(PACKAGES, min_size=1, max_size=2)),
    st.builds(ep.SetDiskSize, size=SIZES),
    st.builds(
        ep.AddPartition,
        id=st.sampled_from(["data", "logs", "rootfs", "x"]),
        mount_point=st.sampled_from(["/data", "/var/log", "/", "/boot/efi", "relative"]),
        size=st.none() | SIZES,
        fs_type=st.sampled_from(["ext4", "xfs"]),
    ),
    st.builds(ep.ResizePartition, partition=PARTS, size=SIZES),
    st.builds(ep.RemovePartition, partition=PARTS),
    st.builds(
        ep.SetArtifacts,
        artifacts=st.lists(
            st.builds(
                ep.Artifact,
                type=st.sampled_from(["raw", "qcow2", "iso"]),
                compression=st.none() | st.sampled_from(["zstd", "rar"]),
            ),
            max_size=2,
        ),
    ),
    st.builds(ep.SetHostname, hostname=st.sampled_from(["edge-01", "a.b.c", "bad_host", ""])),
    st.builds(
        ep.SetKernel,
        version=st.none() | st.sampled_from(["6.12", "6"]),
        cmdline=st.none() | st.sampled_from(["quiet", "console=ttyS0 root=/dev/sda2"]),
        append_cmdline=st.lists(st.sampled_from(["isolcpus=2", "loglevel=7", "quiet"]), max_size=2),
    ),
    st.builds(
        ep.SetBootloader,
        provider=st.none() | st.sampled_from(["grub", "systemd-boot"]),
        boot_type=st.none() | st.sampled_from(["efi", "legacy"]),
    ),
    st.builds(ep.SetImmutability, enabled=st.booleans(), secure_boot=st.none() | st.booleans()),
    st.builds(
        ep.AddUser,
        name=st.sampled_from(["ops", "admin", "Bad User"]),
        groups=st.lists(st.sampled_from(["docker", "video"]), max_size=2),
        sudo=st.booleans(),
        shell=st.none() | st.just("/bin/bash"),
    ),
    st.builds(
        ep.AddRepository,
        url=st.sampled_from(["https://example.com/repo", "http://plain.example/x", ""]),
        codename=st.none() | st.just("extra"),
        pkey=st.none() | st.just("https://example.com/key"),
        allow_packages=st.lists(st.sampled_from(["a", "b c"]), max_size=1),
    ),
    st.builds(
        ep.SetMetadata,
        description=st.none() | st.just("A box"),
        use_cases=st.none() | st.lists(st.just("edge"), max_size=2),
        keywords=st.none() | st.lists(st.sampled_from(["a", "b"]), max_size=2),
    ),
    st.builds(ep.SetValue, path=PATHS, value=VALUES),
    st.builds(ep.DeleteValue, path=PATHS),
)


def key_paths(node: Any, prefix: str = "") -> Iterator[str]:
    """Every mapping key reachable through mappings only, as a dotted path."""
    if isinstance(node, dict):
        for key, value in node.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            yield path
            yield from key_paths(value, path)


def exempt(op: Any) -> list[str]:
    """Key paths an operation may legitimately remove (everything under them too)."""
    if op.op in ("set", "delete"):
        head = op.path.split("[", 1)[0].strip(".")
        return [head] if head else []
    if op.op == "set_immutability":
        return [f"systemConfig.immutability.secureBootDB{k}" for k in ("Key", "Crt", "Cer")]
    return []


def partition_ids(doc: dict[str, Any]) -> list[str]:
    disk = doc.get("disk")
    parts = disk.get("partitions") if isinstance(disk, dict) else None
    if not isinstance(parts, list):
        return []
    return [str(p.get("id")) for p in parts if isinstance(p, dict) and p.get("id")]


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    name=st.sampled_from(sorted(TEMPLATES)),
    operations=st.lists(OPERATIONS, min_size=1, max_size=5),
)
def test_random_plans_keep_what_they_do_not_touch(name: str, operations: list[Any]) -> None:
    text = TEMPLATES[name]
    result = apply_plan(text, ep.EditPlan(summary="fuzz", operations=operations))

    new = yaml.safe_load(result.text)
    assert isinstance(new, dict)
    old = yaml.safe_load(text)

    # every change is reported, and only changes are
    assert result.changed == (result.text != text)
    if result.changed:
        assert result.applied
    assert all(line.startswith("not applied: ") for line in result.not_applied)

    # keys nobody asked about survive
    exempted = [p for op in operations for p in exempt(op)]
    survivors = set(key_paths(new))
    for path in key_paths(old):
        if any(path == e or path.startswith(e + ".") for e in exempted):
            continue
        assert path in survivors, (path, [op.op for op in operations], result.diff)

    # partitions survive unless an operation removed them
    touched_partitions = any(
        op.op == "remove_partition"
        or (op.op in ("set", "delete") and op.path.startswith(("disk", "target")))
        for op in operations
    )
    if not touched_partitions:
        assert set(partition_ids(old)) <= set(partition_ids(new))

    # a sound layout stays sound unless the plan edits the disk by raw path
    if not any(op.op in ("set", "delete") and op.path.startswith("disk") for op in operations):
        broken = {f.code for f in validate_text(result.text).errors} & LAYOUT_CODES
        assert not broken, (broken, result.diff)
