"""Everyday forms of a change, swept by grammar (verbs x objects), not taken from turns.

``bench/vocabulary.py`` says each change in many ways; these are the forms it found
missed. Every sentence here is written for the test.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, ops_of, plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("htop is needed", ["htop"]),
        ("jq and htop are needed", ["jq", "htop"]),
        ("curl is also required for the health check", ["curl"]),
        ("tmux is a must", ["tmux"]),
        ("rsync and jq are essential", ["rsync", "jq"]),
    ],
)
def test_a_need_said_of_the_names_adds_them(said: str, names: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert added(result) == names, result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said", ["a reboot is required", "root access is needed", "no changes are needed"]
)
def test_a_need_of_something_that_is_no_package_adds_nothing(said: str) -> None:
    assert not added(plan_on(DEBIAN, said))


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("pull in htop", ["htop"]),
        ("bake in jq and tmux", ["jq", "tmux"]),
        ("stick in rsync please", ["rsync"]),
        ("put in htop", ["htop"]),
        ("preinstall jq", ["jq"]),  # the verb is no package
        ("pre-install tmux", ["tmux"]),
    ],
)
def test_verbs_that_put_a_thing_in(said: str, names: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert added(result) == names, result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("use kiosk-01 as the hostname", "kiosk-01"),
        ("go with edge-3 for the host name", "edge-3"),
        ("the device name is plc-22", "plc-22"),
        ("machine-name: gw7", "gw7"),
        ("box name: store-12-cam", "store-12-cam"),
    ],
)
def test_a_hostname_said_as_the_machines_name_or_before_its_label(said: str, name: str) -> None:
    result = plan_on(DEBIAN, said)
    assert ops_of(result, "set_hostname") == [{"hostname": name}], result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("use golden-v2 as the image name", "golden-v2"),
        ("take edge_base for the template name", "edge_base"),
    ],
)
def test_an_image_name_said_before_its_label(said: str, name: str) -> None:
    result = plan_on(DEBIAN, said)
    assert ops_of(result, "set_image") == [{"name": name}], result
    assert not ops_of(result, "set_hostname"), result


def test_a_device_name_that_names_no_value_is_not_a_hostname() -> None:
    result = plan_on(DEBIAN, "the device name should come from the serial number")
    assert not ops_of(result, "set_hostname"), result


@pytest.mark.parametrize(
    "said",
    [
        "curl must be installed for the health check",
        "jq is required for the health check script",
    ],
)
def test_words_after_for_name_a_purpose_not_a_split_package(said: str) -> None:
    # "health check" joins to a Debian name, but "for the ..." says what it is for
    assert "health-check" not in added(plan_on(DEBIAN, said))


@pytest.mark.parametrize(
    ("said", "size"),
    [
        # the minimal Debian template's disk is 3GiB: a size added to it, in its own unit
        ("add 4 GiB to the disk", "7GiB"),
        ("4 more gigs of disk", "7GiB"),
        ("the disk needs another 2 GiB", "5GiB"),
        ("the disk needs 2 GiB more", "5GiB"),
        ("give it 5 GiB more of storage", "8GiB"),
        # a share of it: exact in MiB
        ("bump the disk up by 50%", "4608MiB"),
        ("a 50% bigger disk", "4608MiB"),
        ("make the disk 25% smaller", "2304MiB"),
    ],
)
def test_a_size_added_to_the_disk_or_a_share_of_it(said: str, size: str) -> None:
    result = plan_on(DEBIAN, said)
    assert ops_of(result, "set_disk_size") == [{"size": size}], result
    assert not result.not_applied, result


def test_a_size_added_in_another_unit_is_exact() -> None:
    # 3GiB + 2GB: KiB is the largest unit that holds the sum exactly
    result = plan_on(DEBIAN, "add 2GB to the image")
    assert ops_of(result, "set_disk_size") == [{"size": f"{3 * 1024**2 + 2 * 10**9 // 1024}KiB"}]


@pytest.mark.parametrize("said", ["add a 4 GiB partition for /data", "add 4 GiB swap"])
def test_a_size_added_as_a_partition_leaves_the_disk_size(said: str) -> None:
    assert not ops_of(plan_on(DEBIAN, said), "set_disk_size")


@pytest.mark.parametrize(
    ("said", "size"),
    [
        ("give it 20 gigs of disk, that's plenty", "20GiB"),  # a size, not an addition
        ("give it another 5 GiB", "8GiB"),
        ("give the disk an extra 2GiB", "5GiB"),
    ],
)
def test_give_it_adds_only_with_another_or_extra(said: str, size: str) -> None:
    assert ops_of(plan_on(DEBIAN, said), "set_disk_size") == [{"size": size}]
