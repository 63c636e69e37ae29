"""Round 26 (p17): settings said in forms the planner misread, with near-misses.

A boot type said against ("legacy BIOS with grub, not UEFI"), a kernel value said with its
direction ("loglevel down to 3") and after a pasted command line, a serial console of one
kind among several, the system disk nobody may change, a size pointed back at ("the cards
are 8 gigabytes, so make the image that size"), wishes no template holds said tersely
("tz Australia/Perth", "firewall: only 22/80/443 open", Windows alongside for dual boot, a
Lustre mount), a comparison asked as a question, a statement of what a customer runs or
what a package the image has does, and "so I have something to look at". The sentences
are written for these tests.
"""

from __future__ import annotations

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from oic_ai.tools.questions import questions_of
from oic_ai.tools.target_support import find_unsupported
from tests.tools.planner.helpers import (
    cmdline_of,
    kernel_after,
    ops_of,
    plan_on,
    template_text,
)

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # efi, systemd-boot; loglevel=4
AZL = "azl3-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"
IOT = "debian13-aarch64-edge-iot-raw.yml"  # has mosquitto


def _added(plan: EditPlan) -> list[str]:
    return [p for op in plan.operations if op.op == "add_packages" for p in op.packages]


def _bootloader(plan: EditPlan) -> dict[str, str]:
    found = ops_of(plan, "set_bootloader")
    return found[0] if found else {}


# --- a boot type said against: the other one is asked


@pytest.mark.parametrize(
    "said",
    [
        "and they boot it in legacy BIOS mode with grub, not UEFI",
        "legacy bios with grub not uefi",
        "don't use uefi, use legacy bios",
        "no uefi, bios boot with grub",
        "boot it in legacy mode, no efi please",
    ],
)
def test_a_boot_type_said_against_leaves_the_other_one(said: str) -> None:
    plan = plan_on(AZL, said)
    assert _bootloader(plan).get("boot_type") == "legacy"
    assert plan.not_applied == []


def test_uefi_said_against_legacy_keeps_uefi() -> None:
    base = template_text(AZL)
    legacy = apply_plan(base, plan_request("legacy bios boot with grub", base, mode="refine")).text
    plan = plan_request("uefi please, not legacy bios", legacy, mode="refine")
    assert _bootloader(plan).get("boot_type") == "efi"


def test_a_boot_type_said_alone_is_still_read() -> None:
    assert _bootloader(plan_on(AZL, "switch to legacy boot")).get("boot_type") == "legacy"


# --- a kernel value said with its direction, and after a pasted command line


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("loglevel down to 3", "loglevel=3"),
        ("turn loglevel down to 2", "loglevel=2"),
        ("panic up to 60", "panic=60"),
        ("quiet loglevel down to 3", "loglevel=3"),
    ],
)
def test_a_value_after_down_or_up_to_is_the_options_new_value(said: str, wanted: str) -> None:
    line, not_applied = kernel_after(said)
    assert wanted in line
    assert not [a for a in line if a.startswith(wanted.split("=")[0] + "=") and a != wanted]
    assert not_applied == []


def test_scale_down_to_a_number_is_no_kernel_option() -> None:
    line, _ = kernel_after("scale down to 3 nodes")
    assert not any(a.startswith("scale=") or a.startswith("down=") for a in line)


@pytest.mark.parametrize(
    "change",
    [
        "and quiet loglevel down to 3",
        "set loglevel to 3",
        "loglevel 3 please",
    ],
)
def test_a_value_said_in_words_after_a_pasted_line_wins(change: str) -> None:
    said = (
        "this is the kernel block from our old template:\n\n  kernel:\n"
        '    cmdline: "console=ttyS0,115200 console=tty0 loglevel=7"\n\n'
        f"add hugepages=64, {change}"
    )
    base = template_text(DEBIAN)
    line = cmdline_of(apply_plan(base, plan_request(said, base, mode="refine")).text)
    assert "loglevel=3" in line
    assert "loglevel=7" not in line


def test_the_pasted_value_said_last_still_wins() -> None:
    base = template_text(DEBIAN)
    said = "loglevel 3, and kernel cmdline: loglevel=7 quiet"
    line = cmdline_of(apply_plan(base, plan_request(said, base, mode="refine")).text)
    assert "loglevel=7" in line and "loglevel=3" not in line


# --- a serial console of one kind among several consoles


@pytest.mark.parametrize(
    "said",
    [
        "serial console is ttyS1 on these boxes, fix the cmdline",
        "the serial console should be ttyS1",
        "serial console on ttyS1",
    ],
)
def test_a_new_serial_console_replaces_the_one_of_its_kind(said: str) -> None:
    line, not_applied = kernel_after(said, extra="console=ttyAMA0,115200")
    assert "console=ttyS1,115200" in line
    assert not any(a.startswith("console=ttyS0") for a in line)
    assert "console=ttyAMA0,115200" in line  # another kind stays
    assert not_applied == []


def test_an_added_serial_console_of_the_same_kind_is_added() -> None:
    line, _ = kernel_after("also add a console on ttyS1", extra="console=ttyAMA0,115200")
    assert "console=ttyS1,115200" in line and "console=ttyS0,115200" in line


# --- nobody may change the system disk: immutability


@pytest.mark.parametrize(
    "said",
    [
        "Security also says nobody should be able to change the system disk once deployed.",
        "no one can modify the os once it ships",
        "nobody can change the root filesystem",
        "no-one should be able to write to the system partition",
    ],
)
def test_nobody_changing_the_system_is_immutability(said: str) -> None:
    assert [o.get("enabled") for o in ops_of(plan_on(UBUNTU, said), "set_immutability")] == [True]


@pytest.mark.parametrize(
    "said",
    ["nobody should be able to change the hostname", "nobody can change the wallpaper"],
)
def test_nobody_changing_something_else_is_no_immutability(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert not any(op.op == "set_immutability" for op in plan.operations)


# --- a size pointed back at


@pytest.mark.parametrize(
    ("said", "size"),
    [
        ("The SD cards we bought are 8 gigabytes, so make the image that size.", "8GB"),
        ("our usb sticks are 16GB. make the disk the same size", "16GB"),
        ("the eMMC is 32GiB, size the image to that size please", "32GiB"),
    ],
)
def test_a_size_said_before_that_size_is_the_disks(said: str, size: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert [o["size"] for o in ops_of(plan, "set_disk_size")] == [size]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "said",
    [
        "add a /data partition of 2GiB and make the image that size",
        "swap of 4GB, and make the disk that big",
    ],
)
def test_a_partitions_size_is_not_the_disks(said: str) -> None:
    assert ops_of(plan_on(UBUNTU, said), "set_disk_size") == []


# --- wishes no template holds, said tersely


@pytest.mark.parametrize(
    "said",
    ["also tz Australia/Perth", "tz UTC", "Europe/Dublin please", "tz should be Asia/Tokyo"],
)
def test_a_time_zone_by_its_short_name_or_iana_name_is_reported(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert plan.operations == []
    assert any("timezone" in n for n in plan.not_applied)


def test_a_region_in_a_url_is_no_time_zone() -> None:
    plan = plan_on(UBUNTU, "add the repo https://mirror.example.com/europe/berlin")
    assert not any("timezone" in n for n in plan.not_applied)


@pytest.mark.parametrize(
    "said",
    ["also firewall: only 22/80/443 open", "keep only 22/443 open", "firewall: 22/tcp only"],
)
def test_open_ports_said_tersely_are_firewall_rules(said: str) -> None:
    plan = plan_on(EL10, said)
    assert _added(plan) == []
    assert any("firewall" in n for n in plan.not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "also can u preinstall windows 11 alongside it for dual boot",
        "dual boot with windows 10 please",
        "can you put windows next to it, we dual-boot the lab PCs",
    ],
)
def test_another_system_beside_the_image_is_reported_not_refused(said: str) -> None:
    assert find_unsupported(said) is None
    plan = plan_on(EL10, said)
    assert plan.operations == []
    assert any("dual boot" in n for n in plan.not_applied)


@pytest.mark.parametrize("said", ["build me a windows 11 image", "windows 11 please"])
def test_windows_asked_as_the_image_is_still_refused(said: str) -> None:
    assert find_unsupported(said) is not None


@pytest.mark.parametrize(
    "said",
    [
        "and have it mount our lustre fs at /lustre on boot",
        "mount beegfs at /scratch",
        "the gpfs filesystem should be mounted at /gpfs",
    ],
)
def test_a_cluster_file_system_mount_is_reported(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert ops_of(plan, "add_partition") == []
    assert any("network file system" in n for n in plan.not_applied)


def test_a_local_partition_named_like_one_is_laid_out() -> None:
    plan = plan_on(DEBIAN, "a /lustre partition of 20GiB")
    assert [o["mount_point"] for o in ops_of(plan, "add_partition")] == ["/lustre"]


# --- a comparison asked as a question


@pytest.mark.parametrize(
    "said",
    [
        "for PXE netbooting diskless nodes would the initrd image type be better than the ISO?",
        "would qcow2 be better than raw for our VMs?",
        "for our VMs would a qcow2 be smaller than the raw one?",
    ],
)
def test_a_comparison_is_a_question(said: str) -> None:
    assert questions_of(said).only_questions
    route = route_request(said, template_text(UBUNTU))
    assert route["intent"] == "explain"


@pytest.mark.parametrize(
    "said",
    ["for the kiosk can you add htop?", "would you be able to add htop?"],
)
def test_a_polite_change_after_a_purpose_is_no_question(said: str) -> None:
    assert not questions_of(said).only_questions


# --- what a customer runs, what a package the image has does, what the user gets


@pytest.mark.parametrize(
    "said",
    [
        "Brightlane runs openstack, give them a qcow2",
        "Northwind uses kubernetes. give them a qcow2",
    ],
)
def test_what_a_customer_runs_is_context_beside_the_change(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert [a["type"] for o in ops_of(plan, "set_artifacts") for a in o["artifacts"]] == ["qcow2"]
    assert plan.not_applied == []


@pytest.mark.parametrize("said", ["add openstack", "we need openstack"])
def test_a_use_case_asked_for_is_still_reported(said: str) -> None:
    assert any("use case" in n for n in plan_on(UBUNTU, said).not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "LoRa concentrator on SPI forwards readings to a local mosquitto broker",
        "Sensor hub on I2C pushes samples to the mosquitto broker",
    ],
)
def test_what_a_package_the_image_has_does_is_context(said: str) -> None:
    plan = plan_on(IOT, said)
    assert plan.not_applied == []
    assert _added(plan) == []


def test_what_a_package_the_image_lacks_does_is_still_reported() -> None:
    said = "LoRa concentrator on SPI forwards readings to a local rabbitmq broker"
    assert plan_on(IOT, said).not_applied


@pytest.mark.parametrize(
    "said",
    [
        "give me a raw image so I have something to look at",
        "give me a raw image so that we've got something to play with",
        "so I can have something to test on",
    ],
)
def test_something_the_user_gets_is_no_package(said: str) -> None:
    plan = plan_on(AZL, said)
    assert plan.not_applied == []
    assert _added(plan) == []


def test_something_that_does_a_job_is_still_read() -> None:
    plan = plan_on(UBUNTU, "so we have something to export prometheus metrics")
    assert _added(plan)


@pytest.mark.parametrize("said", ["can u add htop", "could u add htop pls"])
def test_can_u_asks_as_can_you_does(said: str) -> None:
    assert _added(plan_on(UBUNTU, said)) == ["htop"]
