"""Users, hostnames and packages said in long, chatty or non-native messages (round 24, p9).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with reworded forms and with near-misses that must not trigger.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.edit_plan import AddUser, EditPlan, SetHostname, SetImage
from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import added, plan_on, removed, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"


def _on(template: str, names: list[str], said: str) -> EditPlan:
    """Plan ``said`` on ``template`` with ``names`` installed too."""
    data = yaml.safe_load(template_text(template))
    data["systemConfig"]["packages"] += names
    return plan_request(said, yaml.safe_dump(data, sort_keys=False), mode="refine")


def _users(plan: EditPlan) -> list[tuple[str, bool]]:
    return [(op.name, op.sudo) for op in plan.operations if isinstance(op, AddUser)]


def _hostname(plan: EditPlan) -> str | None:
    return next((op.hostname for op in plan.operations if isinstance(op, SetHostname)), None)


def _image_name(plan: EditPlan) -> str | None:
    return next((op.name for op in plan.operations if isinstance(op, SetImage)), None)


# --- users listed after "for CLIENT:" ------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "users for Acme: deploy (sudo), monitor (no sudo)",
        "accounts for Globex: deploy with sudo and monitor without sudo",
        "logins for the Initech box: deploy (sudo), monitor (no sudo)",
    ],
)
def test_users_for_a_client_are_the_names_after_the_colon(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert _users(plan) == [("deploy", True), ("monitor", False)]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("said", "users"),
    [
        ("make an account for priya: she needs sudo", [("priya", True)]),
        ("a user for bob: with sudo", [("bob", True)]),
        ("users for alice and bob, both with sudo", [("alice", True), ("bob", True)]),
    ],
)
def test_a_name_after_for_stays_the_user(said: str, users: list[tuple[str, bool]]) -> None:
    assert _users(plan_on(UBUNTU, said)) == users


# --- one more account, and a name corrected inside its clause ------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "an admin account for me, name it pmorales. And one for the dentist, dr.chen? no "
        "wait I don't think usernames can have dots, make it drchen. He should NOT have "
        "admin rights",
        "I need an admin account pmorales. and one for the dentist, drchen, no admin",
        "admin account pmorales please, and one for the hygienist, drchen, without sudo",
    ],
)
def test_one_more_account_for_someone_with_a_corrected_name(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert _users(plan) == [("pmorales", True), ("drchen", False)]
    assert added(plan) == []


@pytest.mark.parametrize(
    ("said", "user"),
    [
        ("a user dr.chen, no wait, make it drchen", "drchen"),
        ("add a user j.doe, no wait, dots are trouble, call it jdoe", "jdoe"),
    ],
)
def test_a_take_back_then_make_it_gives_the_new_name(said: str, user: str) -> None:
    assert [name for name, _ in _users(plan_on(UBUNTU, said))] == [user]


def test_a_take_back_to_another_package_still_swaps() -> None:
    assert added(plan_on(UBUNTU, "add nginx, no wait, make it caddy")) == ["caddy"]


@pytest.mark.parametrize(
    "said",
    ["one for the road, htop", "add htop and one for the lab, tmux"],
)
def test_one_for_something_then_a_package_names_no_user(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert _users(plan) == []
    assert "htop" in added(plan) or "tmux" in added(plan)


# --- "call it X" after one machine was named ------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "I want an Ubuntu image for the new box in the back office. Its job is file "
        "sharing. Could you call it office-nas?",
        "make an image I can put on the gateway box. call it office-nas",
        "the image goes on the little server under the desk, name it office-nas",
    ],
)
def test_call_it_after_a_machine_names_the_host(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert _hostname(plan) == "office-nas"
    assert _image_name(plan) is None


@pytest.mark.parametrize(
    "said",
    [
        "a server image for the lab, call it nuc-img",
        "I need an image for the NUC in the lab; call it nuc-img",
        "name it nuc-img, version 2.1.0",
        "hostname lab-01 and the box is small, image name nuc-img",
    ],
)
def test_call_it_after_the_image_names_the_image(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert _image_name(plan) == "nuc-img"
    assert _hostname(plan) in (None, "lab-01")


# --- a package named as what the described job is -------------------------------------------


@pytest.mark.parametrize(
    ("said", "package"),
    [
        ("its job is to share a folder with the Windows PCs (I think that's samba?)", "samba"),
        ("it runs the printers for the room, that's cups right?", "cups"),
        ("the box shares files with the office PCs, I guess that's samba", "samba"),
    ],
)
def test_a_tentative_name_for_the_described_job_is_added(said: str, package: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert added(plan) == [package]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "said",
    ["add htop, that's all", "that's fine", "the old box ran nfs, I think that's it"],
)
def test_that_is_without_a_name_adds_nothing_more(said: str) -> None:
    assert set(added(plan_on(DEBIAN, said))) <= {"htop"}


# --- a tool used later, or by others, is not installed -------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Then leave it. Instead install nftables, we make the rules later with Ansible.",
        "install nftables, we create the rules afterwards using Puppet",
        "add nftables please, we apply the ruleset later via ansible",
    ],
)
def test_a_tool_the_job_is_done_with_later_is_not_added(said: str) -> None:
    assert added(plan_on(UBUNTU, said)) == ["nftables"]


@pytest.mark.parametrize(
    ("said", "packages"),
    [
        ("install nftables and ansible", ["nftables", "ansible"]),
        ("we build the firmware with cmake, add it", ["cmake"]),
        ("we make the images with mkosi, add it", ["mkosi"]),
    ],
)
def test_a_tool_asked_for_is_still_added(said: str, packages: list[str]) -> None:
    assert added(plan_on(UBUNTU, said)) == packages


# --- what does the job after a removal stays ------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "drop chrony, ptp4l + phc2sys handle the clock",
        "remove chrony, linuxptp does the timing now",
        "get rid of chrony, ptp4l and phc2sys take care of the clock",
    ],
)
def test_names_said_to_do_the_job_after_a_removal_stay(said: str) -> None:
    plan = _on(UBUNTU, ["linuxptp", "chrony"], said)
    assert removed(plan) == ["chrony"]
    assert "linuxptp" not in removed(plan)


def test_names_said_to_do_the_job_are_added_when_missing() -> None:
    plan = _on(UBUNTU, ["chrony"], "drop chrony, ptp4l + phc2sys handle the clock")
    assert (added(plan), removed(plan)) == (["linuxptp"], ["chrony"])


@pytest.mark.parametrize(
    "said",
    ["drop chrony, ptp4l and phc2sys", "drop chrony, drop ptp4l", "remove chrony, linuxptp too"],
)
def test_a_list_after_a_removal_is_still_removed(said: str) -> None:
    assert removed(_on(UBUNTU, ["linuxptp", "chrony"], said)) == ["chrony", "linuxptp"]


# --- idioms and openings of other Englishes ----------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Please do the needful for docker also, and python3-pip.",
        "kindly do the necessary for docker and python3-pip",
    ],
)
def test_do_the_needful_for_a_package_sets_it_up(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert added(plan) == ["docker.io", "python3-pip"]
    assert plan.not_applied == []


def test_do_the_needful_alone_asks_nothing() -> None:
    assert plan_on(DEBIAN, "please do the needful").operations == []


@pytest.mark.parametrize(
    "said",
    [
        "no wait i wanted tmux, just not the realsense stuff",
        "no wait, i want tmux too",
        "no actually i want tmux too",
    ],
)
def test_no_wait_opening_a_request_negates_nothing(said: str) -> None:
    plan = _on(UBUNTU, ["ros-jazzy-ros-base"], said)
    assert (added(plan), removed(plan)) == (["tmux"], [])


def test_no_before_a_name_still_removes() -> None:
    assert removed(_on(UBUNTU, ["htop"], "no htop")) == ["htop"]


# --- catalog names: realsense, DHCP server, automatic updates --------------------------------


def test_realsense_is_the_ros_repositorys_camera_package() -> None:
    plan = _on(UBUNTU, ["ros-jazzy-ros-base"], "+ realsense, slam toolbox")
    assert added(plan) == ["ros-jazzy-realsense2-camera", "ros-jazzy-slam-toolbox"]


def test_realsense_is_reported_where_the_catalog_has_none() -> None:
    plan = plan_on(DEBIAN, "add realsense")
    assert added(plan) == []
    assert any("realsense" in line for line in plan.not_applied)


@pytest.mark.parametrize("said", ["remove realsense", "remove rviz", "not the slam toolbox"])
def test_removing_a_missing_ros_part_keeps_the_rest_of_ros(said: str) -> None:
    assert removed(_on(UBUNTU, ["ros-jazzy-ros-base"], said)) == []


@pytest.mark.parametrize(
    "said",
    [
        "and also something so it hands out IP addresses to the lab pcs",
        "add a dhcp server",
        "we need something that hands out ip addresses, our router died",
    ],
)
def test_a_dhcp_server_by_name_or_by_its_job(said: str) -> None:
    assert added(plan_on(DEBIAN, said)) == ["kea-dhcp4-server"]


@pytest.mark.parametrize(
    "said", ["the lab pcs get static ip addresses", "add something so it is quiet"]
)
def test_addresses_said_otherwise_add_no_dhcp_server(said: str) -> None:
    assert "kea-dhcp4-server" not in added(plan_on(DEBIAN, said))


@pytest.mark.parametrize(
    ("template", "said", "package"),
    [
        (EL10, "add whatever package does automatic updates on that family", "dnf-automatic"),
        (EL10, "the package that handles automatic updates please", "dnf-automatic"),
        (DEBIAN, "add automatic security updates", "unattended-upgrades"),
    ],
)
def test_automatic_updates_by_the_family(template: str, said: str, package: str) -> None:
    assert added(plan_on(template, said)) == [package]


# --- a vague description, then its name after a comma -----------------------------------------


@pytest.mark.parametrize(
    ("said", "package"),
    [
        ("ok. also the printer stuff please, cups", "cups"),
        ("and the scanner bits too, sane-utils", "sane-utils"),
    ],
)
def test_a_vague_description_spelled_out_after_a_comma(said: str, package: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert added(plan) == [package]
    assert plan.not_applied == []
