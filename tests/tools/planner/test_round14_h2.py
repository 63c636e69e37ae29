"""Users, kernel options, disk sizes and partitions as round 14's requests say them.

The sentences were written for these tests (issue 21, round 14); each class has several
paraphrases that differ in verb, order and field from the labelled turn it came from, and
near-misses that must not trigger.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import added, plan_after, plan_on, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
THREE = "users: alice with sudo, bob with sudo, carol without sudo"


def turns(template: str, *said: str) -> dict[str, Any]:
    """The template after each request in ``said`` was planned and applied in turn."""
    text = (OUR_TEMPLATES / template).read_text(encoding="utf-8")
    for request in said:
        text = apply_plan(text, plan_request(request, text, mode="refine")).text
    doc: dict[str, Any] = yaml.safe_load(text)
    return doc


def template_users(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {u["name"]: u for u in doc["systemConfig"].get("users") or []}


# names said one after another with only "and" share what follows them
@pytest.mark.parametrize(
    ("said", "names", "group"),
    [
        ("add docker and put alice and bob in the docker group", {"alice", "bob"}, "docker"),
        ("carol and bob should be in the video group", {"carol", "bob"}, "video"),
        ("add bob & carol to the dialout group", {"bob", "carol"}, "dialout"),
        ("move alice, carol into the render group please", {"alice", "carol"}, "render"),
    ],
)
def test_names_joined_by_and_share_the_group(said: str, names: set[str], group: str) -> None:
    found = template_users(turns(UBUNTU, THREE, said))
    got = {n for n, u in found.items() if group in u.get("groups", [])}
    assert got == names, found


def test_names_with_attributes_of_their_own_are_not_joined() -> None:
    said = "alice in the docker group and bob in the video group"
    found = template_users(turns(UBUNTU, THREE, said))
    assert "docker" in found["alice"]["groups"] and "video" not in found["alice"]["groups"]
    assert "video" in found["bob"]["groups"] and "docker" not in found["bob"]["groups"]


# a sentence that continues the user of the sentence before it
@pytest.mark.parametrize(
    ("said", "name", "shell"),
    [
        (
            "add a user runner, in the docker group, no sudo. bash as login shell",
            "runner",
            "/bin/bash",
        ),
        ("create user ops with sudo. zsh as the default shell please", "ops", "/bin/zsh"),
        ("new account ci-bot without sudo. /usr/bin/fish as its shell", "ci-bot", "/usr/bin/fish"),
        (
            "add a user kiosk, shell /usr/sbin/nologin... no wait, so keep /bin/bash",
            "kiosk",
            "/bin/bash",
        ),
    ],
)
def test_a_sentence_of_attributes_alone_is_said_of_the_user_before(
    said: str, name: str, shell: str
) -> None:
    result = plan_on(UBUNTU, said)
    assert users(result)[name].get("shell") == shell, result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    ("said", "second", "sudo"),
    [
        ("users: admin with sudo, in wheel. and monitor, no sudo", "monitor", False),
        ("a user deploy with sudo. and backup without sudo", "backup", False),
        ("add user ops, no sudo. plus audit-bot in the adm group", "audit-bot", None),
        ("account web1 in the www-data group. and web2 with sudo", "web2", True),
    ],
)
def test_a_further_user_after_and_in_the_next_sentence(
    said: str, second: str, sudo: bool | None
) -> None:
    result = plan_on(UBUNTU, said)
    found = users(result)
    assert second in found and len(found) == 2, result
    if sudo is not None:
        assert found[second].get("sudo", False) is sudo, result
    assert not result.not_applied, result


def test_a_package_after_and_in_the_next_sentence_is_no_user() -> None:
    result = plan_on(UBUNTU, "add a user ops with sudo. and htop, with the docker group")
    assert set(users(result)) == {"ops"}, result


def test_a_sentence_about_something_else_is_not_the_users() -> None:
    result = plan_on(UBUNTU, "add user ci. htop too")
    assert users(result)["ci"].get("shell") is None and added(result) == ["htop"], result


# a quoted name before "group" is the group; a reason after a group is no group
@pytest.mark.parametrize(
    "said",
    [
        "add a user 'clinician'. Put them in the 'audio' group so the speaker works",
        "add a user clinician, in the `audio` group because the speaker needs it",
        'new user clinician. put her in the "audio" group for the speakers',
        "user clinician in the audio group since it plays alarms",
    ],
)
def test_a_quoted_group_and_a_reason_after_it(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert set(users(result)) == {"clinician"}, result
    assert users(result)["clinician"]["groups"] == ["audio"], result


# a user created in place of one removed
@pytest.mark.parametrize(
    ("said", "name", "sudo"),
    [
        ("remove alice, create svc-plc instead, also with sudo", "svc-plc", True),
        ("drop carol, set up dana in her place", "dana", None),
        ("delete bob and add erin instead, no sudo", "erin", None),
        ("get rid of alice; create frank instead", "frank", None),
    ],
)
def test_a_user_created_instead_of_one_removed(said: str, name: str, sudo: bool | None) -> None:
    result = plan_after(UBUNTU, THREE, said)
    found = users(result)
    assert name in found, result
    if sudo:
        assert found[name]["sudo"] is True, result
    assert not result.not_applied, result


def test_create_a_name_instead_without_a_removal_is_no_user() -> None:
    result = plan_after(UBUNTU, THREE, "create backups instead of snapshots")
    assert "backups" not in users(result), result


# a new value for an option the command line has, said as what it must be (the options the
# line has after it, and after the same taking-out verbs, are rows of test_kernel_line)
EMT = "emt3-x86_64-minimal-raw"
TUNED = "add default_hugepagesz=1G hugepagesz=1G hugepages=16 isolcpus=4-7 rcu_nocbs=4-7"


@pytest.mark.parametrize(
    "said", ["isolcpus is wrong", "loglevel must be gone", "the cmdline is fine as it is"]
)
def test_an_option_said_of_without_a_value_changes_nothing(said: str) -> None:
    text = (OUR_TEMPLATES / f"{EMT}.yml").read_text(encoding="utf-8")
    text = apply_plan(text, plan_request(TUNED, text, mode="refine")).text
    result = plan_request(said, text, mode="refine")
    assert not result.operations, result


# one set of verbs that take a thing out, for every field (the kernel options': in
# test_kernel_line)
@pytest.mark.parametrize(
    ("said", "name"), [("scrap bob", "bob"), ("nuke the carol account", "carol")]
)
def test_the_same_verbs_remove_a_user(said: str, name: str) -> None:
    assert name not in template_users(turns(UBUNTU, THREE, said))


@pytest.mark.parametrize("verb", ["scrap", "yank", "nuke"])
def test_the_same_verbs_remove_a_partition(verb: str) -> None:
    first = "add a 2GiB /data partition, ext4"
    result = plan_after(UBUNTU, first, f"{verb} the /data partition")
    assert [op.op for op in result.operations] == ["remove_partition"], result


# the whole device for the disk size just read
@pytest.mark.parametrize(
    ("said", "size"),
    [
        ("the box has a 64 GB eMMC, use all of it", "64GB"),
        ("disk 32GB, use the whole thing please.", "32GB"),
        ("it's got a 128 GB SSD - take it all", "128GB"),
        ("make the disk 16GiB; claim all the space", "16GiB"),
    ],
)
def test_words_that_use_the_whole_device_belong_to_the_disk_size(said: str, size: str) -> None:
    result = plan_on(UBUNTU, said)
    ops = [op.model_dump() for op in result.operations]
    assert [(o["op"], o["size"]) for o in ops] == [("set_disk_size", size)], result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said", ["use all of it", "make the disk 16 GiB and fill it up with /data"]
)
def test_the_whole_device_without_a_disk_size_or_before_more_words_is_reported(said: str) -> None:
    assert plan_on(UBUNTU, said).not_applied


# the secure boot keys taken out, immutability kept
SECURE = "emt3-x86_64-immutable-secureboot-raw.yml"


@pytest.mark.parametrize(
    "said",
    [
        "ok for the engineering builds take the secure boot keys back out, but keep it immutable",
        "pull the secure boot certs out, immutability stays",
        "scrap secure boot please",
        "secure boot keys gone, the rootfs stays immutable",
    ],
)
def test_secure_boot_taken_out_keeps_immutability(said: str) -> None:
    result = plan_on(SECURE, said)
    ops = [op.model_dump() for op in result.operations]
    assert [(o["op"], o["enabled"], o["secure_boot"]) for o in ops] == [
        ("set_immutability", True, False)
    ], result
    assert not result.not_applied, result


def test_secure_boot_and_immutability_both_off_still_go_together() -> None:
    result = plan_on(SECURE, "disable secure boot and immutability")
    ops = [op.model_dump() for op in result.operations]
    assert [(o["op"], o["enabled"], o["secure_boot"]) for o in ops] == [
        ("set_immutability", False, False)
    ], result


# the root partition named by "rootfs" / "root" beside its file system
@pytest.mark.parametrize(
    ("said", "fs"),
    [
        ("rootfs as xfs please", "xfs"),
        ("root on btrfs", "btrfs"),
        ("use xfs for rootfs", "xfs"),
        ("make the disk 20 gigabytes and the root filesystem xfs", "xfs"),
    ],
)
def test_the_root_partition_named_beside_its_file_system(said: str, fs: str) -> None:
    result = plan_on(UBUNTU, said)
    sets = {op.path: op.value for op in result.operations if op.op == "set"}
    assert sets.get("disk.partitions[id=rootfs].fsType") == fs, result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    "said", ["give root access to ops", "no root login over ssh", "need an immutable rootfs"]
)
def test_root_beside_other_words_names_no_partition(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert not [op for op in result.operations if "partitions" in str(op)], result
