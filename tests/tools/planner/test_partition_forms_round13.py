"""Partitions said the way round 13's writers say them (issue 21, round 13).

The sentences were written for these tests: the EFI system partition named by its word
right before its size ("esp 300MiB") is that partition, never the disk; a clause that
keeps a partition's size after changing its file system ("..., same size") asks for
nothing more.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import ops_of, plan_after, plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"  # ESP 1MiB..257MiB, rootfs the rest, 3GiB disk
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "said",
    [
        "layout: esp 300MiB, / 2GiB, rest /srv",
        "disk 6GiB with efi 300MiB and root taking the rest",
    ],
)
def test_the_esp_by_its_word_is_resized_not_the_disk(said: str) -> None:
    result = plan_on(DEBIAN, said)
    resized = {op["partition"]: op["size"] for op in ops_of(result, "resize_partition")}
    assert resized.get("boot") == "300MiB", result
    assert all(op["size"] != "300MiB" for op in ops_of(result, "set_disk_size")), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said",
    [
        "reformat /srv as xfs, same size",
        "put /srv on xfs now but keep the size",
        "/srv goes btrfs, size unchanged",
    ],
)
def test_keeping_the_size_after_a_new_file_system_asks_nothing_more(said: str) -> None:
    result = plan_after(UBUNTU, "a 20GiB disk and a separate /srv partition of 6GiB, ext4", said)
    assert not ops_of(result, "resize_partition") and not ops_of(result, "set_disk_size")
    fs = [op["value"] for op in ops_of(result, "set") if op["path"].endswith("fsType")]
    assert fs and fs[0] in ("xfs", "btrfs"), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said",
    [
        "keep /srv, and the disk at 20GiB",
        "leave root as a single big partition but make the disk 20GiB",
        "the /srv partition stays as it is; disk 20GiB",
    ],
)
def test_a_partition_kept_as_it_is_asks_for_nothing(said: str) -> None:
    result = plan_after(UBUNTU, "a 16GiB disk and a separate /srv partition of 6GiB, ext4", said)
    assert [op["size"] for op in ops_of(result, "set_disk_size")] == ["20GiB"], result
    assert not ops_of(result, "resize_partition") and not result.not_applied, result
