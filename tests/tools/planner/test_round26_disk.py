"""Disk, partitions and mount options said in everyday words (issue 21, round 26 probe).

The sentences were written for these tests. Mount options for a partition named by a word
("mount root with noatime,nodiratime", "noatime on the root partition") or said at the end
of a clause that adds the partition ("a /tmp partition of 1GiB with noexec,nosuid") used
to become packages; btrfs's "compress=zstd" went to the kernel line; "bigger by 2GB" set
the size to 2GB; "drop the esp" said the template had no package esp.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, ops_of, plan_on, set_values

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # 3584MiB; ESP 1..257MiB; / the rest, noatime
ROOT_OPTIONS = "disk.partitions[id=rootfs].mountOptions"


@pytest.mark.parametrize(
    "said",
    [
        "mount root with noatime,nodiratime",
        "mount the root filesystem with noatime and nodiratime",
        "nodiratime on the root partition",
        "set nodiratime for root",
        "the root fs: nodiratime",
    ],
)
def test_mount_options_of_a_partition_named_by_a_word(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert set_values(result).get(ROOT_OPTIONS) == "defaults,noatime,nodiratime", result
    assert not added(result), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said", ["noatime on the root partition", "use noatime for root", "mount / with noatime"]
)
def test_options_the_partition_has_are_a_note(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert not result.operations and not result.not_applied, result
    assert any("already mounted" in note for note in result.notes), result


def test_a_keyed_option_replaces_the_one_with_its_key() -> None:
    result = plan_on(UBUNTU, "mount the esp with umask=0022")
    assert set_values(result) == {"disk.partitions[id=boot].mountOptions": "umask=0022"}


@pytest.mark.parametrize(
    "said", ["add nodev,nosuid to the swap partition", "mount the data partition with nodev"]
)
def test_options_for_a_partition_the_disk_lacks_are_reported(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert not result.operations, result
    assert any("has no" in reason for reason in result.not_applied), result


@pytest.mark.parametrize(
    ("said", "mount", "options"),
    [
        ("need a separate /tmp partition of 1 GiB with noexec,nosuid", "tmp", "noexec,nosuid"),
        ("add a 2G /var/tmp partition, mounted with nodev and nosuid", "var-tmp", "nodev,nosuid"),
        (
            "add an 8GB /srv partition formatted btrfs mounted with compress=zstd",
            "srv",
            "compress=zstd",
        ),
    ],
)
def test_options_that_end_a_clause_adding_a_partition(said: str, mount: str, options: str) -> None:
    result = plan_on(UBUNTU, said)
    assert [op["id"] for op in ops_of(result, "add_partition")] == [mount], result
    assert set_values(result) == {f"disk.partitions[id={mount}].mountOptions": options}, result
    assert not added(result) and not ops_of(result, "set_kernel"), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said", ["add a /data partition of 10GB with xfs", "add a 4GB /var partition with ext4"]
)
def test_a_file_system_after_with_is_no_mount_option(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert not set_values(result), result
    assert len(ops_of(result, "add_partition")) == 1, result


@pytest.mark.parametrize(
    ("said", "size"),
    [
        ("make the disk bigger by 1 GiB", "4608MiB"),
        ("the disk should be larger by 1 GiB", "4608MiB"),
        ("make the disk smaller by 512MiB", "3GiB"),
        ("grow the disk by 1GiB", "4608MiB"),
    ],
)
def test_bigger_or_smaller_by_a_size_is_relative(said: str, size: str) -> None:
    assert [op["size"] for op in ops_of(plan_on(UBUNTU, said), "set_disk_size")] == [size]


@pytest.mark.parametrize(
    ("said", "partition", "size"),
    [
        ("make the esp larger by 256MiB", "boot", "512MiB"),
        ("make the efi partition bigger by 256MiB", "boot", "512MiB"),
        ("make the esp smaller by 128MiB", "boot", "128MiB"),
    ],
)
def test_a_partition_bigger_or_smaller_by_a_size(said: str, partition: str, size: str) -> None:
    result = plan_on(UBUNTU, said)
    assert [(op["partition"], op["size"]) for op in ops_of(result, "resize_partition")] == [
        (partition, size)
    ], result
    assert not ops_of(result, "set_disk_size"), result


@pytest.mark.parametrize("said", ["drop the esp", "get rid of rootfs", "delete the ESP"])
def test_a_partition_needed_to_boot_by_its_kind_alone(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert not result.operations, result
    assert any("needed to boot" in reason for reason in result.not_applied), result


def test_swap_the_template_lacks_is_a_note() -> None:
    result = plan_on(UBUNTU, "remove swap")
    assert not result.operations and not result.not_applied, result
    assert any("no swap partition" in note for note in result.notes), result


@pytest.mark.parametrize(
    "said", ["remove openssh-server", "actually drop docker", "drop the boot text, add quiet"]
)
def test_other_words_after_a_removal_verb_are_no_partitions(said: str) -> None:
    result = plan_on("ubuntu24-aarch64-edge-container-raw.yml", said)
    assert not ops_of(result, "remove_partition"), result
    assert not any("needed to boot" in reason for reason in result.not_applied), result
