"""Components named by their role, unpackaged applications, kernel tools, users said to be
like another (issue 21, round 23, helper p6).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with reworded forms and with near-misses that must not trigger.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner.component_asks import asks_for_component
from tests.tools.planner.helpers import added, plan_after, plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"
EMT = "emt3-x86_64-minimal-raw.yml"
ISO = "debian13-x86_64-installer-iso.yml"


def _ops(plan: object) -> list[str]:
    return [op.op for op in plan.operations]  # type: ignore[attr-defined]


# --- a clause that only names a component by its role ---------------------------------


@pytest.mark.parametrize(
    ("template", "said"),
    [
        (AZL, "also the labview runtime"),
        (AZL, "plus the acme sdk too"),
        (AZL, "we also need the zorblat agent"),
        (DEBIAN, "and the star tsp100 driver"),
        (UBUNTU, "the frobnicator toolkit as well"),
    ],
)
def test_a_component_named_by_its_role_is_reported(template: str, said: str) -> None:
    plan = plan_on(template, said)
    assert added(plan) == [], plan.operations
    assert len(plan.not_applied) == 1, plan.not_applied
    assert "names something to install" in plan.not_applied[0]


def test_the_component_beside_a_package_is_reported_and_the_package_added() -> None:
    plan = plan_on(DEBIAN, "cups for the label printers and the brother ql driver, hostname till-3")
    assert added(plan) == ["cups"]
    assert [n for n in plan.not_applied if "brother ql driver" in n], plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "the nvidia driver keeps crashing on these",  # says more than a name
        "and the same driver",  # no name of its own
        "for the printer driver",  # what something is for
        "the vendor runtime is certified on jammy",
    ],
)
def test_a_remark_about_a_component_is_no_component_asked_for(said: str) -> None:
    assert not asks_for_component(said)


def test_a_component_that_is_a_package_of_the_request_is_that_package() -> None:
    plan = plan_on(UBUNTU, "We need the oneAPI runtime. add intel-oneapi-runtime-libs")
    assert added(plan) == ["intel-oneapi-runtime-libs"]
    assert plan.not_applied == []


def test_a_known_driver_is_still_a_capability() -> None:
    assert added(plan_on(DEBIAN, "also the nvidia driver")) == ["nvidia-driver"]


# --- a word for a kind of software is never a package by itself --------------------------


@pytest.mark.parametrize(
    "said", ["add the acme sdk", "plus the acme toolkit", "add the sdk", "also the runtime"]
)
def test_a_kind_of_software_is_no_package(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert not {"sdk", "toolkit", "runtime"} & set(added(plan)), plan.operations


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("install the nvme-cli tool", ["nvme-cli"]),
        ("add the cockpit-podman plugin", ["cockpit-podman"]),
    ],
)
def test_a_package_before_its_kind_is_still_added(said: str, wanted: list[str]) -> None:
    assert added(plan_on(DEBIAN, said)) == wanted


# --- applications no distribution packages ------------------------------------------------


@pytest.mark.parametrize(
    ("template", "said", "wanted", "reported"),
    [
        (
            DEBIAN,
            "docker + compose + portainer + htop",
            ["docker.io", "docker-compose", "htop"],
            "portainer",
        ),
        (DEBIAN, "add portainer-ce and htop", ["htop"], "portainer"),
        (EMT, "need node-red and python3-pyserial", ["python3-pyserial"], "node-red"),
        (UBUNTU, "with nodered and jq", ["jq"], "node-red"),
    ],
)
def test_an_application_shipped_as_a_container_or_npm_package_is_reported(
    template: str, said: str, wanted: list[str], reported: str
) -> None:
    plan = plan_on(template, said)
    assert added(plan) == wanted
    assert [n for n in plan.not_applied if f"{reported} has no packages" in n], plan.not_applied


def test_a_remark_that_portainer_runs_as_a_container_adds_nothing() -> None:
    plan = plan_on(DEBIAN, "yeah portainer runs as a container np. add tailscale")
    assert added(plan) == ["tailscale"]


# --- kernel tools each family packages under its own name ---------------------------------


@pytest.mark.parametrize(
    ("template", "said", "wanted"),
    [
        (
            UBUNTU,
            "with stress-ng and the cpupower tool, whatever it's called here",
            ["stress-ng", "linux-tools-generic"],
        ),
        (UBUNTU, "we need cpupower for frequency scaling", ["linux-tools-generic"]),
        (DEBIAN, "add cpupower", ["linux-cpupower"]),
        (DEBIAN, "+ rt-tests, linux-cpupower, ethtool", ["rt-tests", "linux-cpupower", "ethtool"]),
        (AZL, "add cpupower", ["kernel-tools"]),
    ],
)
def test_cpupower_takes_the_family_name(template: str, said: str, wanted: list[str]) -> None:
    assert added(plan_on(template, said)) == wanted


def test_perf_said_of_a_team_is_no_package() -> None:
    assert added(plan_on(UBUNTU, "the perf team wants htop")) == ["htop"]


# --- snmpd on an rpm system ------------------------------------------------------------------


def test_snmpd_is_net_snmp_on_rpm_systems() -> None:
    assert added(plan_on(EL10, "snmpd and ptp4l please")) == ["net-snmp", "linuxptp"]
    assert added(plan_on(AZL, "add snmp")) == ["net-snmp-utils"]
    assert added(plan_on(DEBIAN, "add snmpd and snmp")) == ["snmpd", "snmp"]


# --- a sentence after kernel options that opens with "For ..." ----------------------------


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("Add hugepages=64. For debugging we need numactl.", ["numactl"]),
        ("isolcpus=2,3 nohz_full=2,3. For profiling we want numactl.", ["numactl"]),
        ("add quiet to the kernel line. For testing, install stress-ng", ["stress-ng"]),
    ],
)
def test_a_new_sentence_after_kernel_options_is_read(said: str, wanted: list[str]) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == wanted
    assert "set_kernel" in _ops(plan)


def test_a_purpose_right_after_kernel_options_still_describes_them() -> None:
    plan = plan_on(UBUNTU, "add isolcpus=2,3 for realtime")
    assert added(plan) == [] and plan.not_applied == []


# --- a new user said to be like another -----------------------------------------------------

USERS = (
    "Users: 'labadmin' (sudo, groups sudo, plugdev, dialout, shell /bin/bash) and "
    "'student' (no sudo, group plugdev)."
)


@pytest.mark.parametrize(
    ("said", "name", "like_admin"),
    [
        ("add student02 with the same settings as student", "student02", False),
        ("add student03, same as student", "student03", False),
        ("add lab2 like student", "lab2", False),
        ("also create bob, same settings as labadmin", "bob", True),
        ("add tkaplan: same as labadmin but with zsh", "tkaplan", True),
    ],
)
def test_a_user_like_another_copies_it(said: str, name: str, like_admin: bool) -> None:
    plan = plan_after(ISO, USERS, said)
    # nothing but the login shell's package ("but with zsh")
    assert [n for n in added(plan) if n != "zsh"] == [], plan.operations
    users = [op for op in plan.operations if op.op == "add_user"]
    assert [u.name for u in users] == [name]  # type: ignore[attr-defined]
    assert users[0].sudo is like_admin  # type: ignore[attr-defined]
    assert "plugdev" in users[0].groups  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "said",
    [
        "add htop with the same settings as before",  # no user named
        "add nginx same as the web server",
        "add jq like we had on the old image",
    ],
)
def test_a_package_said_like_something_stays_a_package(said: str) -> None:
    plan = plan_after(ISO, USERS, said)
    assert "add_user" not in _ops(plan)
    assert added(plan), plan.not_applied


# --- ROS tools named by their short name, and "can u" ----------------------------------------

ROS = "ubuntu24-x86_64-ros2-robotics-raw.yml"


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("can u add the turtlesim package and rviz2", ["ros-jazzy-turtlesim", "ros-jazzy-rviz2"]),
        ("could you add rviz", ["ros-jazzy-rviz2"]),
        ("add turtlesim", ["ros-jazzy-turtlesim"]),
    ],
)
def test_ros_tools_by_their_short_names(said: str, wanted: list[str]) -> None:
    plan = plan_on(ROS, said)
    assert added(plan) == wanted
    assert plan.not_applied == []


def test_rviz_off_ubuntu_is_reported() -> None:
    plan = plan_on(DEBIAN, "add rviz")
    assert added(plan) == [] and plan.not_applied


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("can u add htop", ["htop"]),
        ("could u add jq pls", ["jq"]),
        ("can u add htop and tmux", ["htop", "tmux"]),
    ],
)
def test_can_u_asks_as_can_you_does(said: str, wanted: list[str]) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == wanted
    assert plan.not_applied == []


def test_u_as_a_subject_asks_for_nothing() -> None:
    assert added(plan_on(UBUNTU, "u can add htop later yourself")) == []
