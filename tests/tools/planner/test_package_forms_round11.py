"""Package requests as support tickets, shell-ish notes and run-on sentences put them.

sed's substitution, a bare list of names after the target, a sibling written as its last
part, "X instead" after a removal, tickets' MUST NOT, a tool named for its package, the
software named in parentheses after what the machine does, and words that are no packages
(the subject of "need them", someone's own app, a pasted template's keys, what a partition
holds). The sentences are written for these tests, not copied from the labelled
conversations.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, plan_on, removed

DEBIAN = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
WEB = "ubuntu24-x86_64-web-server-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
EMT = "emt3-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"


@pytest.mark.parametrize("said", ["s/less/htop/", "ok s|less|htop|g, thx", "s#less#htop#"])
def test_seds_substitution_replaces_one_package_with_another(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert removed(result) == ["less"], (said, result.operations, result.not_applied)
    assert added(result) == ["htop"]
    assert result.not_applied == []


@pytest.mark.parametrize(
    ("said", "plus", "minus"),
    [
        ("pkgs += htop,jq", ["htop", "jq"], []),
        ("packages -= less sudo", [], ["less", "sudo"]),
    ],
)
def test_a_package_list_updated_as_a_variable(said: str, plus: list[str], minus: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert added(result) == plus, (said, result.operations, result.not_applied)
    assert removed(result) == minus
    assert result.not_applied == []


@pytest.mark.parametrize(
    ("template", "said", "names"),
    [
        (AZL, "nano tmux jq", ["nano", "jq"]),  # tmux is no name the rpm family knows here
        (EL10, "x86_64 raw, nano curl jq", ["nano", "curl", "jq"]),
        (DEBIAN, "raw image. nano htop jq", ["nano", "htop", "jq"]),
    ],
)
def test_a_sentence_of_known_names_lists_them(template: str, said: str, names: list[str]) -> None:
    result = plan_on(template, said)
    assert all(n in added(result) for n in names), (said, result.operations, result.not_applied)
    assert removed(result) == []


@pytest.mark.parametrize(
    ("said", "names"),
    [
        (
            "add gstreamer1.0-plugins-good and -ugly",
            ["gstreamer1.0-plugins-good", "gstreamer1.0-plugins-ugly"],
        ),
        ("put python3-smbus, -usb on it", ["python3-smbus", "python3-usb"]),
        (
            "with gstreamer1.0-plugins-base, -good and -bad",
            ["gstreamer1.0-plugins-base", "gstreamer1.0-plugins-good", "gstreamer1.0-plugins-bad"],
        ),
    ],
)
def test_a_sibling_written_as_its_last_part(said: str, names: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert added(result) == names, (said, result.operations, result.not_applied)


@pytest.mark.parametrize(
    ("said", "plus", "minus"),
    [
        ("rm nginx, apache instead", ["apache2"], ["nginx"]),
        (
            "drop prometheus-node-exporter, collectd instead",
            ["collectd"],
            ["prometheus-node-exporter"],
        ),
        # without a comma "instead" goes with the whole removal
        ("remove nginx and fail2ban instead", [], ["nginx", "fail2ban"]),
    ],
)
def test_a_name_with_instead_after_a_removal_replaces_it(
    said: str, plus: list[str], minus: list[str]
) -> None:
    result = plan_on(WEB, said)
    assert added(result) == plus, (said, result.operations, result.not_applied)
    assert removed(result) == minus


@pytest.mark.parametrize(
    "said",
    [
        "- MUST NOT include openssh-server (per the pentest)",
        "the image shouldn't ship with openssh-server",
        "it must never contain: openssh-server or sudo",
    ],
)
def test_a_ticket_s_must_not_removes(said: str) -> None:
    result = plan_on(AZL, said)
    assert "openssh-server" in removed(result), (said, result.operations, result.not_applied)
    assert added(result) == []


def test_own_software_named_before_its_description_is_reported_not_added() -> None:
    result = plan_on(DEBIAN, "include zorbit-nav, that's our in-house routing stack")
    assert "zorbit-nav" not in added(result), result.operations
    assert result.not_applied, "the request is reported, not dropped"


def test_own_software_from_a_repository_the_request_gives_is_added() -> None:
    said = (
        "add our repo url https://apt.example.com/zorbit codename stable component main "
        "key https://apt.example.com/k.gpg, then install zorbit-nav from it, that's our "
        "in-house routing stack"
    )
    assert added(plan_on(DEBIAN, said)) == ["zorbit-nav"]


def test_a_negation_ends_where_the_sentence_moves_on() -> None:
    said = (
        "arm64 for the jetsons, or no not jetsons, its the rockchip boards, anyway "
        "python3, python3-smbus and i2c-tools"
    )
    result = plan_on(DEBIAN, said)
    assert added(result) == ["python3", "python3-smbus", "i2c-tools"], (
        result.operations,
        result.not_applied,
    )
    assert removed(result) == []


@pytest.mark.parametrize(
    "said", ["and the Intel VA-API driver", "plus the intel media driver for decode"]
)
def test_the_intel_media_driver_by_its_description(said: str) -> None:
    assert added(plan_on(DEBIAN, said)) == ["intel-media-va-driver"]


def test_the_intel_media_driver_on_a_family_without_it_is_reported() -> None:
    result = plan_on(AZL, "add the intel vaapi driver")
    assert added(result) == []
    assert any("intel-media-driver" in n for n in result.not_applied), result.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "whatever package gives me jstest",
        "add the package that provides jscal, for the steering wheel",
        "whichever package has jstest for checking the controller",
    ],
)
def test_a_package_asked_for_by_a_tool_it_ships(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert added(result) == ["joystick"], (said, result.operations, result.not_applied)


def test_a_pasted_templates_keys_are_no_packages() -> None:
    said = "pasted from the old one:\ndist: debian13\npackages:\n- htop\nkernel:\nversion: 6.12"
    result = plan_on(DEBIAN, said)
    assert "dist" not in added(result) and "kernel" not in added(result), result.operations
    assert "htop" in added(result)


def test_what_the_image_is_for_still_asks_for_software() -> None:
    assert added(plan_on(UBUNTU, "ubuntu 24.04 raw, for docker")) == ["docker.io"]


def test_own_software_asked_for_without_a_repository_says_what_to_do() -> None:
    result = plan_on(
        DEBIAN, "include shelfscan, that's our in-house scanning service. The repo comes later."
    )
    assert "shelfscan" not in added(result)
    assert any("your own software" in entry for entry in result.not_applied), result.not_applied


def test_the_place_an_image_runs_in_is_not_what_it_holds() -> None:
    # a VM image for a KVM lab is a guest; a KVM host is asked for as one
    cloud = "azl3-x86_64-cloud-vm-qcow2.yml"
    assert added(plan_on(cloud, "a qcow2 for our KVM lab with podman")) == ["podman"]
    assert "qemu-kvm" not in added(plan_on(cloud, "for the customer's KVM cluster, add git"))
    assert "qemu-kvm" in added(plan_on(cloud, "make it a kvm host"))
