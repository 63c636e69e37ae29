"""Disk size, partitions, users, kernel options and immutability (issue 21, round 15, h2).

The sentences were written for these tests, each class with paraphrases that differ in
verb, order and field from the labelled conversations, and near-misses that must not
trigger.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.configs import read_configs
from oic_ai.tools.references import keep_rest_spans, remainder
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import ops_of, plan_after, plan_on, set_values, users

AZL = "azl3-x86_64-minimal-raw.yml"  # immutability off
EMT_SB = "emt3-x86_64-immutable-secureboot-raw.yml"  # immutability and secure boot on
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # cmdline console=tty0 console=ttyS0 loglevel=4
CLOUD = "ubuntu24-x86_64-cloud-vm-qcow2.yml"  # rootfs takes the rest of a 4GiB disk
DEBIAN = "debian13-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-monitoring-web-raw.yml"  # root with a fixed end


def _immutable(plan: EditPlan) -> dict[str, Any]:
    found = ops_of(plan, "set_immutability")
    return found[0] if found else {}


def _cmdline(plan: EditPlan, base: str) -> list[str]:
    kernel = ops_of(plan, "set_kernel")
    if not kernel:
        return []
    op = kernel[0]
    line = op.get("cmdline")
    if line is None:
        from tests.conftest import OUR_TEMPLATES

        text = (OUR_TEMPLATES / base).read_text("utf-8")
        line = text.split('cmdline: "', 1)[1].split('"', 1)[0]
    return [*line.split(), *op.get("append_cmdline", [])]


# --- immutability said of the root file system -----------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "immutable root filesystem please",
        "could the root file system be read-only / immutable?",
        "hostname kiosk-3, and a read-only root filesystem",
        "we want the rootfs immutable so power cuts can't corrupt it",
    ],
)
def test_immutability_of_the_root_is_no_partition(said: str) -> None:
    plan = plan_on(AZL, said)
    assert _immutable(plan).get("enabled") is True, plan
    assert not ops_of(plan, "resize_partition") and not ops_of(plan, "add_partition"), plan
    assert not plan.not_applied, plan


def test_a_read_only_root_beside_a_new_partition_does_both() -> None:
    plan = plan_on(AZL, "a read-only root file system and a 2GiB /data partition")
    assert _immutable(plan).get("enabled") is True
    assert [op["mount_point"] for op in ops_of(plan, "add_partition")] == ["/data"]


@pytest.mark.parametrize(
    "said",
    [
        "let's not do immutable for now",
        "we don't want immutability after all",
        "never use an immutable root",
        "no need for immutability",
    ],
)
def test_immutability_refused_with_a_verb_between(said: str) -> None:
    assert _immutable(plan_on(EMT_SB, said)).get("enabled") is False


def test_a_slash_between_words_is_no_root_partition() -> None:
    plan = plan_on(UBUNTU, "add nginx / apache")
    assert not ops_of(plan, "resize_partition") and not ops_of(plan, "add_partition")


@pytest.mark.parametrize(
    "said",
    [
        "turn immutability off, but keep secure boot",
        "make it mutable but leave the secure boot on",
        "secure boot stays; disable immutability",
    ],
)
def test_secure_boot_kept_with_immutability_off_is_reported(said: str) -> None:
    plan = plan_on(EMT_SB, said)
    assert _immutable(plan).get("enabled") is False, plan
    assert any("secure boot" in item for item in plan.not_applied), plan


def test_immutability_and_secure_boot_both_off_report_nothing() -> None:
    plan = plan_on(EMT_SB, "disable immutability and secure boot")
    assert _immutable(plan) == {"enabled": False, "secure_boot": False}
    assert not plan.not_applied


# --- kernel options removed when there, pointed at, or said to go ----------------------


@pytest.mark.parametrize(
    "said",
    [
        "take 'quiet' out if it's there",
        "and remove 'quiet' if it's in there",
        "the quiet flag has to go",
        "if there's a quiet entry it can go",
    ],
)
def test_quiet_removed_is_never_added(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert "quiet" not in _cmdline(plan, UBUNTU), plan
    assert not plan.not_applied, plan


@pytest.mark.parametrize(
    "said",
    [
        "if there's a console=ttyS0 entry it can go",
        "the ttyS0 console can go",
        "console=ttyS0 should be removed",
        "ttyS0 isn't wired to anything, so the console=ttyS0 one has to go",
    ],
)
def test_a_console_said_to_go_is_removed_alone(said: str) -> None:
    line = _cmdline(plan_on(UBUNTU, said), UBUNTU)
    assert "console=tty0" in line and not any(a.startswith("console=ttyS0") for a in line)


def test_an_option_that_can_go_is_removed_and_a_package_is_left_alone() -> None:
    plan = plan_on(UBUNTU, "loglevel=4 should be dropped. htop can go too")
    assert "loglevel=4" not in _cmdline(plan, UBUNTU)


@pytest.mark.parametrize(
    "said",
    [
        "I read about nomodeset and iommu=pt on the kernel command line, please add both",
        "iommu=pt and intel_iommu=on for the cmdline. put them in too",
        "the vendor wants iommu=pt and nomodeset on the kernel line - add those two",
    ],
)
def test_add_both_after_options_asks_nothing_more(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert "iommu=pt" in _cmdline(plan, UBUNTU)
    assert not plan.not_applied, plan


@pytest.mark.parametrize(
    "said",
    [
        "lockdown breaks the display driver. take that one back out but keep sig_enforce",
        "QA says lockdown is a problem, remove it please",
        "hmm, lockdown hurts the GPU driver; drop that one, leave module.sig_enforce alone",
    ],
)
def test_an_option_named_by_its_key_then_that_one_removed(said: str) -> None:
    first = "add module.sig_enforce=1 and lockdown=integrity to the kernel command line"
    plan = plan_after(UBUNTU, first, said)
    line = [a for op in ops_of(plan, "set_kernel") for a in (op.get("cmdline") or "").split()]
    assert "module.sig_enforce=1" in line and "lockdown=integrity" not in line, plan
    assert not plan.not_applied, plan


def test_that_one_with_two_options_named_is_not_guessed() -> None:
    first = "add module.sig_enforce=1 and lockdown=integrity to the kernel command line"
    plan = plan_after(UBUNTU, first, "lockdown and sig_enforce both break it, remove that one")
    line = [a for op in ops_of(plan, "set_kernel") for a in (op.get("cmdline") or "").split()]
    assert not line, plan


# --- the disk: hardware sizes, adverbs, a cloud's root volume ---------------------------


@pytest.mark.parametrize(
    ("said", "size"),
    [
        ("nvme is 1.5 TB but image just 8GiB, we growpart on site", "8GiB"),
        ("the SSD holds 500GB; keep the disk only 12 GiB", "12GiB"),
        ("make the image about 6 GB", "6GB"),
    ],
)
def test_the_image_size_wins_over_the_hardware(said: str, size: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert ops_of(plan, "set_disk_size") == [{"size": size}], plan


@pytest.mark.parametrize(
    ("said", "size"),
    [
        ("Ubuntu 24.04, arm64, 8 GB root volume, output a raw image", "8GB"),
        ("root volume of 20GB please", "20GB"),
        ("make the EBS volume 30 GiB", "30GiB"),
    ],
)
def test_a_cloud_root_volume_is_the_disk(said: str, size: str) -> None:
    plan = plan_on(CLOUD, said)
    assert ops_of(plan, "set_disk_size") == [{"size": size}], plan
    assert not ops_of(plan, "resize_partition"), plan


# --- partitions: root sized in words, lists of mount points, mount options --------------


@pytest.mark.parametrize(
    "said",
    [
        "make root a fixed 12 GiB, add /var/www with the remaining space, disk 30 gigs",
        "disk 30GiB. /var/www takes the rest, root a static 12GiB",
        "give root 12 GiB and let /var/www fill the disk, 30 GiB in total",
    ],
)
def test_root_sized_lets_another_partition_take_the_rest(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert {"partition": "rootfs", "size": "12GiB"} in ops_of(plan, "resize_partition"), plan
    added = ops_of(plan, "add_partition")
    assert [(op["mount_point"], op.get("size")) for op in added] == [("/var/www", None)], plan
    assert not plan.not_applied, plan


def test_a_pasted_root_line_sizes_the_root() -> None:
    plan = plan_on(EL10, "part / --fstype=xfs --size=20480\npart /var --fstype=xfs --size=8192")
    assert {"partition": "rootfs", "size": "20GiB"} in ops_of(plan, "resize_partition"), plan
    assert not any("root partition already exists" in item for item in plan.not_applied)


def test_a_bare_root_partition_asked_for_is_still_reported() -> None:
    plan = plan_on(UBUNTU, "add a / partition")
    assert any("root partition already exists" in item for item in plan.not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "separate partitions for /var, /tmp and /home; 10 GiB for /var, 2 GiB for /tmp, "
        "and /home gets whatever is left. Total disk 64 GiB.",
        "64 GiB disk. The auditors want partitions for /var, /tmp and /home: /var 10GiB, "
        "/tmp 2GiB, rest for /home",
    ],
)
def test_listed_mount_points_are_one_partition_each(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    added = {op["mount_point"]: op.get("size") for op in ops_of(plan, "add_partition")}
    assert added == {"/var": "10GiB", "/tmp": "2GiB", "/home": None}, plan
    assert not plan.not_applied, plan
    assert any("keeps its current size" in w for w in plan.warnings), plan


def test_a_listed_mount_point_without_a_size_gets_the_default() -> None:
    plan = plan_on(UBUNTU, "disk 40GiB, separate partitions for /srv and /opt, 8GiB for /srv")
    added = {op["mount_point"]: op.get("size") for op in ops_of(plan, "add_partition")}
    assert added == {"/srv": "8GiB", "/opt": "2GiB"}, plan


@pytest.mark.parametrize(
    ("said", "values"),
    [
        (
            "mount /tmp with nodev,nosuid,noexec and /home with nodev please",
            {"tmp": "nodev,nosuid,noexec", "home": "nodev"},
        ),
        ("nodev and nosuid on /tmp", {"tmp": "nodev,nosuid"}),
        ("add noatime to /home", {"home": "noatime"}),
        ("/tmp: noexec", {"tmp": "noexec"}),
    ],
)
def test_mount_options_set_the_partition_field(said: str, values: dict[str, str]) -> None:
    first = "add a /tmp partition of 2GiB and a /home partition of 4GiB, disk 16GiB"
    plan = plan_after(UBUNTU, first, said)
    found = set_values(plan)
    assert {k: found.get(f"disk.partitions[id={k}].mountOptions") for k in values} == values
    assert not ops_of(plan, "add_packages"), plan


def test_root_mount_options_keep_the_ones_there() -> None:
    plan = plan_on(UBUNTU, "mount / with nodiratime")
    value = set_values(plan)["disk.partitions[id=rootfs].mountOptions"]
    assert value == "defaults,noatime,nodiratime"


def test_an_unknown_mount_option_is_never_a_package_or_an_option() -> None:
    plan = plan_on(UBUNTU, "mount /home with frobnicate")
    assert not any(v.endswith("mountOptions") for v in set_values(plan))


# --- users: admin work is sudo; a preseed's default groups ------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "add a second user 'storemgr' who can do admin stuff (sudo)",
        "create an account storemgr that should handle the administrative tasks",
        "new login storemgr, she will do admin work",
        "one more account, storemgr, who can perform admin duties",
    ],
)
def test_admin_work_is_sudo_not_a_user(said: str) -> None:
    found = users(plan_on(DEBIAN, said))
    assert set(found) == {"storemgr"}, found
    assert found["storemgr"].get("sudo") is True


def test_admin_work_refused_is_no_sudo() -> None:
    found = users(plan_on(DEBIAN, "add a user bob who cannot do admin stuff"))
    assert set(found) == {"bob"} and not found["bob"].get("sudo")


@pytest.mark.parametrize(
    "pasted",
    [
        "d-i passwd/username string ci\nd-i passwd/user-default-groups string sudo docker",
        "d-i passwd/user-default-groups string docker sudo\nd-i passwd/username string ci",
    ],
)
def test_preseed_default_groups_go_to_its_user(pasted: str) -> None:
    rewritten, _, unmapped = read_configs(pasted)
    assert "add a user ci in the groups" in rewritten
    assert not any("user-default-groups" in item for item in unmapped)
    found = users(plan_on(DEBIAN, rewritten))
    assert set(found["ci"]["groups"]) == {"sudo", "docker"}


def test_preseed_tasks_map_the_ssh_server_and_report_the_rest() -> None:
    rewritten, _, unmapped = read_configs("tasksel tasksel/first multiselect standard, ssh-server")
    assert "openssh-server" in rewritten and "ssh-server;" not in rewritten.replace("openssh", "")
    assert any("tasksel task standard" in item for item in unmapped)


# --- reasons and facts that ask nothing --------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "bump the disk to 40 gigabytes, runners need room for docker layers",
        "grow the disk to 30GiB; the builds need room",
        "disk 50 GiB please, the caches want more space",
    ],
)
def test_a_wish_for_room_after_a_size_is_its_reason(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert ops_of(plan, "set_disk_size"), plan
    assert not plan.not_applied and not ops_of(plan, "add_user"), plan


def test_a_wish_for_room_with_a_user_named_still_asks() -> None:
    plan = plan_on(DEBIAN, "grow the disk to 30GiB, and add a user ops")
    assert "ops" in users(plan)


@pytest.mark.parametrize(
    "said",
    [
        "user robot in dialout (lidar is on ttyUSB0, cams on /dev/video*)",
        "the GPS sits on ttyS1, add gpsd",
        "our modem shows up as ttyUSB2",
    ],
)
def test_where_a_device_is_attached_moves_no_console(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert not ops_of(plan, "set_kernel"), plan
    assert not plan.not_applied, plan


@pytest.mark.parametrize("said", ["the console is on ttyS1", "serial console on ttyS1 please"])
def test_the_console_said_on_a_device_still_moves(said: str) -> None:
    line = _cmdline(plan_on(UBUNTU, said), UBUNTU)
    assert "console=ttyS1,115200" in line


# --- keeping named parts on a re-target ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        (
            "now the same for Debian 13, keep all the partitions and packages",
            "now the same for Debian 13",
        ),
        ("arm64 please and keep the users and the kernel options", "arm64 please"),
        ("retain all of the packages, switch to el10", "switch to el10"),
        ("keep the partition layout, the hostname and the repos as they are. qcow2", "qcow2"),
    ],
)
def test_keeping_named_parts_asks_nothing(text: str, rest: str) -> None:
    assert remainder(text, keep_rest_spans(text)).strip(" ,;.") == rest


@pytest.mark.parametrize(
    "text", ["keep the packages", "leave the hostname alone", "keep the nginx package"]
)
def test_one_part_kept_alone_is_left_to_the_planner(text: str) -> None:
    assert keep_rest_spans(text) == ()


def test_root_keeps_its_size_only_when_the_disk_grows() -> None:
    grown = plan_on(UBUNTU, "disk 32GiB, /home takes the rest")
    assert {"partition": "rootfs", "size": "3327MiB"} in ops_of(grown, "resize_partition")
    assert not grown.not_applied, grown
    same = plan_on(UBUNTU, "/home takes the rest")
    assert any("takes the rest" in item for item in same.not_applied), same


@pytest.mark.parametrize("said", ["mount /home with nodev", "noexec on /scratch please"])
def test_mount_options_without_the_partition_are_reported_never_a_package(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert any("no /" in item and "mount options" in item for item in plan.not_applied), plan
    assert not ops_of(plan, "add_packages"), plan


@pytest.mark.parametrize(
    "said",
    [
        "raw image, 40 GiB disk, a /var partition of 8GiB and /home with the rest",
        "make it a raw disk: /srv takes whatever is left, disk 32GiB",
    ],
)
def test_a_layout_made_from_scratch_lets_another_partition_take_the_rest(said: str) -> None:
    base = (OUR_TEMPLATES / "ubuntu24-x86_64-installer-iso.yml").read_text("utf-8")

    plan = plan_request(said, base, mode="refine")
    assert not plan.not_applied, plan
    applied = apply_plan(base, plan)
    assert not applied.not_applied, applied.not_applied

    parts = {p["mountPoint"]: p for p in yaml.safe_load(applied.text)["disk"]["partitions"]}
    assert parts["/"]["end"] != "0"
    assert [m for m, p in parts.items() if p["end"] == "0"] in (["/home"], ["/srv"])
