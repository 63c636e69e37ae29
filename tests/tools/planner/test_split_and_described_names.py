"""Package names split by dictation, said by what they do, or under a condition.

The sentences are written for these tests, not copied from the labelled conversations.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, plan_on, removed

DEBIAN = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
AZURE = "azl3-x86_64-minimal-raw.yml"
AZURE_CLOUD = "azl3-x86_64-cloud-vm-qcow2.yml"
ELXR = "elxr12-x86_64-minimal-raw.yml"
EMT = "emt3-x86_64-minimal-raw.yml"
WEB = "debian13-x86_64-web-server-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("please add h top and also tcp dump", ["htop", "tcpdump"]),
        ("install can utils and t mux for the bench", ["can-utils", "tmux"]),
        ("we want linux ptp on it, install linux ptp", ["linuxptp"]),
        ("add v4l utils", ["v4l-utils"]),
    ],
)
def test_a_name_split_in_two_is_the_one_known_name_it_joins_into(
    said: str, names: list[str]
) -> None:
    result = plan_on(UBUNTU, said)
    assert added(result) == names, (said, result.not_applied)
    assert result.not_applied == []
    assert any("as" in w and names[0] in w for w in result.warnings)  # "read 'h top' as htop"


@pytest.mark.parametrize(
    ("said", "unwanted"),
    [
        ("install vim tmux", "vimtmux"),  # two names side by side stay two
        ("Data lives on a Cinder volume now, add htop", "cinder-volume"),  # a product's noun
        ("can u add htop", "canu"),  # texting shorthand is no half of a name
    ],
)
def test_words_that_are_not_a_split_name_stay_apart(said: str, unwanted: str) -> None:
    result = plan_on(UBUNTU, said)
    assert unwanted not in added(result), (said, added(result))


def test_a_capability_phrase_keeps_its_words_unless_the_join_is_its_package() -> None:
    # "docker compose" is the compose capability (docker-compose-v2 on Ubuntu 24.04)
    assert added(plan_on(UBUNTU, "add docker compose")) == ["docker-compose-v2"]


@pytest.mark.parametrize(
    ("template", "said", "names"),
    [
        (DEBIAN, "add lvm, we grow volumes later", ["lvm2"]),
        (DEBIAN, "the base station needs PTP for its clock", ["linuxptp"]),
        (ELXR, "it needs the 5G modem stack (ModemManager)", ["modemmanager"]),
        (DEBIAN, "it needs sound for the video calls", None),
        (EMT, "add the intel graphics firmware", ["linux-firmware-i915"]),
        (AZURE, "add kube control please", ["kubernetes-client"]),
        (AZURE, "and engine x in front of the app", ["nginx"]),
        (AZURE, "add sqlite3 for the local cache", ["sqlite"]),
    ],
)
def test_capabilities_said_by_what_they_do_or_how_they_are_said(
    template: str, said: str, names: list[str] | None
) -> None:
    result = plan_on(template, said)
    if names is None:  # sound: PipeWire and the ALSA tools
        assert {"pipewire", "alsa-utils"} <= set(added(result)), (said, result.not_applied)
    else:
        assert added(result) == names, (said, result.not_applied)


def test_a_full_screen_browser_is_a_kiosk_and_a_browser() -> None:
    result = plan_on(DEBIAN, "it should start up into a fullscreen browser showing our dashboard")
    assert {"cage", "firefox-esr"} <= set(added(result)), result.not_applied


@pytest.mark.parametrize(
    ("said", "minus"),
    [
        ("If tcpdump, socat or systemd-resolved are in there, remove them.", ["systemd-resolved"]),
        ("if socat is in the package list, take it out please", []),
        ("If tcpdump or socat is installed, drop them", []),
    ],
)
def test_a_removal_conditional_on_presence_removes_only_what_is_there(
    said: str, minus: list[str]
) -> None:
    result = plan_on(DEBIAN, said)
    assert removed(result) == minus, (said, result.not_applied)
    assert added(result) == []
    assert result.not_applied == [], said


@pytest.mark.parametrize(
    ("template", "said", "plus", "minus"),
    [
        (WEB, "nginx is overkill for this, use lighttpd", ["lighttpd"], ["nginx"]),
        (WEB, "no scratch nginx", [], ["nginx"]),
        (DEBIAN, "drop systemd-resolved actually", [], ["systemd-resolved"]),
    ],
)
def test_removals_said_by_judgement_or_with_a_second_verb(
    template: str, said: str, plus: list[str], minus: list[str]
) -> None:
    result = plan_on(template, said)
    assert added(result) == plus, (said, result.not_applied)
    assert removed(result) == minus, (said, result.not_applied)


@pytest.mark.parametrize(
    ("template", "said"),
    [
        # a reflexive pronoun says who installs it, and the thing named first is theirs
        (ELXR, "The kiosk app 'acme-ui' we install ourselves."),
        # a verb and its object: "tune it" names no package
        (DEBIAN, "Add auditd, and configure it to keep a year of logs."),
        # kernel options named without "=", and a pasted setting's field
        (DEBIAN, "and hugepages: 2M pages, 512 of them"),
        (EL10, 'the old build had disk_size = "40G" in it'),
        # the subject of a verb that states what it has
        (UBUNTU, "debootstrap also has a variant option. add htop"),
        # "+" joining a phrase that says what is used now
        (UBUNTU, "we net boot into a homemade initramfs image + squashfs today. add htop"),
    ],
)
def test_words_that_are_not_packages_are_never_added(template: str, said: str) -> None:
    result = plan_on(template, said)
    for word in ("ourselves", "acme-ui", "configure", "hugepages", "disk_size", "debootstrap"):
        assert word not in added(result), (said, added(result))
    assert "squashfs" not in added(result)


def test_a_name_said_before_the_repository_for_something_else_takes_the_target_spelling() -> None:
    said = (
        "add moby for containers. Their runtime comes from their rpm repo "
        "https://rpm.example.com/azl3, call it rt, key https://rpm.example.com/key.asc"
    )
    result = plan_on(AZURE, said)
    assert "moby-engine" in added(result) and "moby" not in added(result), result.operations


def test_a_name_said_after_its_repository_keeps_its_spelling() -> None:
    said = (
        "add repo https://rpm.example.com/azl3 with key https://rpm.example.com/key.asc. "
        "Then install moby from it"
    )
    assert "moby" in added(plan_on(AZURE, said))


@pytest.mark.parametrize(
    ("said", "plus"),
    [
        ("drop wireguard, we're moving to the corporate vpn client (openvpn)", ["openvpn"]),
        ("we are switching over to chrony for the clock", ["chrony"]),
        ("we moved to a bigger board last month, add htop", ["htop"]),
    ],
)
def test_what_a_request_switches_to_is_added_when_known(said: str, plus: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert added(result) == plus, (said, result.not_applied)
