"""Terse and second-language ways to name packages: signs, objects first, modals, slips.

The sentences are written for these tests, not copied from the labelled conversations.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, plan_on, removed

DEBIAN = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
EMT_NETBOOT = "emt3-x86_64-netboot-initrd.yml"
ROS = "ubuntu24-x86_64-ros2-robotics-raw.yml"


@pytest.mark.parametrize(
    ("said", "plus", "minus"),
    [
        # shell and slang verbs
        ("rm less, +rsync", ["rsync"], ["less"]),
        ("and pull rsync in too", ["rsync"], []),
        # a name said to be enough is wanted
        ("drop systemd-resolved, dnsmasq is enough for us", ["dnsmasq"], ["systemd-resolved"]),
        ("rsync will do", ["rsync"], []),
    ],
)
def test_the_packages_added_and_removed(said: str, plus: list[str], minus: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert added(result) == plus
    assert removed(result) == minus
    assert result.not_applied == []


@pytest.mark.parametrize(
    "said",
    [
        "systemd-resolved remove, we run our own resolver",
        "systemd-resolved out please",
        "systemd-resolved we don't need anymore",
        "sudo stays. systemd-resolved we no longer need",
    ],
)
def test_the_object_before_its_verb_removes_it(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert removed(result) == ["systemd-resolved"], (said, result.operations, result.not_applied)
    assert added(result) == []


@pytest.mark.parametrize(
    "said",
    [
        "It must carry rsync and curl for the sync job.",
        "The image has to include rsync, curl.",
        "should have rsync and curl",
    ],
)
def test_a_modal_with_a_verb_of_having_asks_for_the_names(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert sorted(added(result)) == ["curl", "rsync"], (said, result.not_applied)


def test_replace_it_takes_the_one_other_name_the_request_says() -> None:
    said = "systemd-resolved is not needed, the team uses dnsmasq. Replace it please."
    result = plan_on(DEBIAN, said)
    assert removed(result) == ["systemd-resolved"]
    assert added(result) == ["dnsmasq"]


def test_keeping_a_known_package_the_template_lacks_adds_it_with_a_notice() -> None:
    result = plan_on(DEBIAN, "changed my mind on one thing: keep rsync after all")
    assert added(result) == ["rsync"]
    assert any("keeping it adds it" in w for w in result.warnings), result.warnings


@pytest.mark.parametrize(
    ("said", "gone"),
    [
        ("Please ensure there is no ssh server on the box.", ["openssh-server"]),
        # a reason that says something is missing asks nothing
        ("drop sudo, since there is no ssh server anyway", ["sudo"]),
    ],
)
def test_there_is_no_x_after_make_sure(said: str, gone: list[str]) -> None:
    assert removed(plan_on(DEBIAN, said)) == gone


def test_an_unknown_name_one_letter_from_a_known_one_is_asked_about() -> None:
    result = plan_on(DEBIAN, "packages: mosquito, rsync")
    assert added(result) == ["rsync"]
    assert any("did you mean mosquitto" in n for n in result.not_applied), result.not_applied


def test_a_slip_marked_as_the_users_own_package_is_kept() -> None:
    assert added(plan_on(DEBIAN, "install the package mosquito")) == ["mosquito"]


def test_the_c_compiler_by_itself_is_gcc_on_debian() -> None:
    assert added(plan_on(UBUNTU, "tools: git, gcc and make")) == ["git", "gcc", "make"]
    assert added(plan_on(UBUNTU, "add a compiler")) == ["build-essential", "git", "cmake", "gdb"]


def test_mariadb_is_its_server_package() -> None:
    assert added(plan_on(DEBIAN, "add mariadb as well")) == ["mariadb-server"]


@pytest.mark.parametrize(
    ("said", "package"),
    [
        ("The till computers must print tickets on a thermal USB printer.", "cups"),
        ("we need a machine that shares files with the Windows laptops", "samba"),
        ("and something that shows which programs are running, like a task manager", "htop"),
    ],
)
def test_a_machine_said_to_do_something_reads_the_capability(said: str, package: str) -> None:
    result = plan_on(DEBIAN, said)
    assert package in added(result), (said, result.operations, result.not_applied)


def test_a_phrase_of_name_parts_removes_the_packages_it_describes() -> None:
    result = plan_on(ROS, "drop the nav2 bringup packages if they are in")
    assert removed(result) == ["ros-jazzy-nav2-bringup"]
    result = plan_on(ROS, "remove the ros demo node packages")
    assert removed(result) == ["ros-jazzy-demo-nodes-cpp"]


def test_the_language_of_a_pasted_block_is_no_package() -> None:
    result = plan_on(DEBIAN, "start from this:\n```yaml\nsystemConfig:\n  hostname: pos-9\n```")
    assert added(result) == []
    assert not any("yaml" in n for n in result.not_applied), result.not_applied


def test_a_header_saying_where_the_packages_come_from_lists_them() -> None:
    # the ROS template has a package repository of its own: its names need no index
    result = plan_on(ROS, "packages from our repo: acme-fleet-agent, acme-maps")
    assert added(result) == ["acme-fleet-agent", "acme-maps"], result.not_applied
    assert added(plan_on(ROS, "pkgs from it: acme-fleet-agent")) == ["acme-fleet-agent"]


def test_a_slip_is_read_when_the_request_spells_the_name_elsewhere() -> None:
    result = plan_on(DEBIAN, "install mosquito, with mosquitto-clients for testing")
    assert added(result) == ["mosquitto", "mosquitto-clients"], result.not_applied
    assert any("read 'mosquito' as mosquitto" in w for w in result.warnings), result.warnings


def test_a_number_range_is_no_package() -> None:
    assert added(plan_on(DEBIAN, "the cpu list change to 2-3")) == []
