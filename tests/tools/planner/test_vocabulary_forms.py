"""Everyday forms of a change, swept by grammar (verbs x objects), not taken from turns.

``bench/vocabulary.py`` says each change in many ways; these are the forms it found
missed. Every sentence here is written for the test. The minimal Debian template's disk is
3GiB.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tools.planner.helpers import added, ops_of, plan_on, users

DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("said", "names"),
    [
        # a need said of the names
        ("htop is needed", ["htop"]),
        ("jq and htop are needed", ["jq", "htop"]),
        ("curl is also required for the health check", ["curl"]),
        ("tmux is a must", ["tmux"]),
        ("rsync and jq are essential", ["rsync", "jq"]),
        # verbs that put a thing in; the verb is no package
        ("pull in htop", ["htop"]),
        ("bake in jq and tmux", ["jq", "tmux"]),
        ("stick in rsync please", ["rsync"]),
        ("put in htop", ["htop"]),
        ("preinstall jq", ["jq"]),
        ("pre-install tmux", ["tmux"]),
    ],
)
def test_the_packages_a_form_adds(said: str, names: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert added(result) == names, result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    ("said", "kind", "value"),
    [
        # the machine's name, or a value before its label
        ("use kiosk-01 as the hostname", "set_hostname", {"hostname": "kiosk-01"}),
        ("go with edge-3 for the host name", "set_hostname", {"hostname": "edge-3"}),
        ("the device name is plc-22", "set_hostname", {"hostname": "plc-22"}),
        ("machine-name: gw7", "set_hostname", {"hostname": "gw7"}),
        ("box name: store-12-cam", "set_hostname", {"hostname": "store-12-cam"}),
        ("use golden-v2 as the image name", "set_image", {"name": "golden-v2"}),
        ("take edge_base for the template name", "set_image", {"name": "edge_base"}),
        # a size added to the disk, in its own unit
        ("add 4 GiB to the disk", "set_disk_size", {"size": "7GiB"}),
        ("4 more gigs of disk", "set_disk_size", {"size": "7GiB"}),
        ("the disk needs another 2 GiB", "set_disk_size", {"size": "5GiB"}),
        ("the disk needs 2 GiB more", "set_disk_size", {"size": "5GiB"}),
        ("give it 5 GiB more of storage", "set_disk_size", {"size": "8GiB"}),
        ("give it another 5 GiB", "set_disk_size", {"size": "8GiB"}),
        ("give the disk an extra 2GiB", "set_disk_size", {"size": "5GiB"}),
        # "give it" without "another" or "extra" says the size itself
        ("give it 20 gigs of disk, that's plenty", "set_disk_size", {"size": "20GiB"}),
        # a share of it, exact in MiB
        ("bump the disk up by 50%", "set_disk_size", {"size": "4608MiB"}),
        ("a 50% bigger disk", "set_disk_size", {"size": "4608MiB"}),
        ("make the disk 25% smaller", "set_disk_size", {"size": "2304MiB"}),
        # 3GiB + 2GB: KiB is the largest unit that holds the sum exactly
        (
            "add 2GB to the image",
            "set_disk_size",
            {"size": f"{3 * 1024**2 + 2 * 10**9 // 1024}KiB"},
        ),
    ],
)
def test_the_one_setting_a_form_sets(said: str, kind: str, value: dict[str, Any]) -> None:
    result = plan_on(DEBIAN, said)
    assert ops_of(result, kind) == [value], result
    assert [op.op for op in result.operations] == [kind], result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        # a need of something that is no package
        ("a reboot is required", "add_packages"),
        ("root access is needed", "add_packages"),
        ("no changes are needed", "add_packages"),
        # "for the ..." names a purpose: "health check" is not joined into a Debian name
        ("curl must be installed for the health check", "health-check"),
        ("jq is required for the health check script", "health-check"),
        # a device name that names no value
        ("the device name should come from the serial number", "set_hostname"),
        # a size added as a partition leaves the disk's size
        ("add a 4 GiB partition for /data", "set_disk_size"),
        ("add 4 GiB swap", "set_disk_size"),
    ],
)
def test_what_a_near_miss_leaves_alone(said: str, kind: str) -> None:
    result = plan_on(DEBIAN, said)
    assert kind not in [op.op for op in result.operations] + added(result), result


def test_a_replacement_with_no_package_on_either_side_is_reported() -> None:
    # before, "X instead of Y" took the words even when neither side named a package
    result = plan_on(DEBIAN, "Use the mirror at mirror.corp.local instead of the public one.")
    assert not result.operations, result
    assert result.not_applied, result


@pytest.mark.parametrize(
    ("said", "name", "sudo"),
    [
        ("ops should have sudo", "ops", True),
        ("kiosk must not have sudo", "kiosk", False),
        ("ci shouldn't get admin rights", "ci", False),
        ("add maria as an admin", "maria", True),
        ("create kiosk as a regular user", "kiosk", False),
        ("give jdoe admin rights", "jdoe", True),
        ("grant deploy sudo access", "deploy", True),
        ("svc-backup needs an account", "svc-backup", None),
    ],
)
def test_short_user_forms(said: str, name: str, sudo: bool | None) -> None:
    result = plan_on(DEBIAN, said)
    found = users(result)
    assert name in found, result
    assert found[name].get("sudo", False) == bool(sudo), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said",
    [
        "the image should have sudo",  # the package, said of the image
        "we should have sudo",
        "the ops team should have sudo",
        "give deploy sudo only for systemctl",  # limited rights: the sentence reader reports
    ],
)
def test_what_is_no_short_user_form(said: str) -> None:
    found = users(plan_on(DEBIAN, said))
    assert not ({"image", "we", "team", "ops"} & set(found)), found
    assert found.get("deploy", {}).get("sudo") is not True, found
