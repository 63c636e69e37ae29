"""The disk's partition table type (gpt or mbr), as the composer builds it.

Found on dev14 (session 17): "mbr partition table" was read as a partition called mbr.
The composer accepts only primary, extended or logical partition types on an mbr disk
(internal/image/imagedisc) and marks every mbr partition as a Linux one, so mbr is
applied with legacy boot only, and the partitions become primary ones.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import ops_of, plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"


def _values(said: str) -> dict[str, object]:
    result = plan_on(DEBIAN, said)
    return {str(op["path"]): op["value"] for op in ops_of(result, "set")}


@pytest.mark.parametrize(
    "said",
    [
        "mbr partition table and legacy boot",
        "legacy bios boot with a dos disklabel",
        "partition table: mbr, boot via legacy bios",
        "msdos-style partitioning please, and bios boot",
    ],
)
def test_mbr_with_legacy_boot_sets_the_table_and_primary_partitions(said: str) -> None:
    values = _values(said)
    assert values["disk.partitionTableType"] == "mbr"
    types = {path: value for path, value in values.items() if path.endswith("].type")}
    assert types and set(types.values()) == {"primary"}, values
    result = plan_on(DEBIAN, said)
    assert not result.not_applied, result


def test_a_partition_added_with_mbr_is_a_primary_one() -> None:
    result = plan_on(DEBIAN, "a 2GiB /data partition, mbr partition table, legacy boot")
    added = ops_of(result, "add_partition")
    assert [op.get("type") for op in added] == ["primary"], result


def test_mbr_on_a_uefi_image_is_reported_not_applied() -> None:
    result = plan_on(DEBIAN, "use an mbr partition table")
    assert "disk.partitionTableType" not in _values("use an mbr partition table")
    assert any("legacy" in item for item in result.not_applied), result


def test_gpt_on_a_gpt_disk_changes_nothing() -> None:
    result = plan_on(DEBIAN, "partition table gpt, disk 8GiB")
    assert "disk.partitionTableType" not in _values("partition table gpt, disk 8GiB")
    assert not result.not_applied, result


def test_mbr_the_package_is_not_a_partition_table() -> None:
    assert "disk.partitionTableType" not in _values("add the mbr package")
