"""Targets the composer cannot build are recognised, with false positives kept out."""

from __future__ import annotations

import pytest

from oic_ai.stores.targets import load_targets
from oic_ai.tools.retrieval.query_classifier import detect_target_spans
from oic_ai.tools.target_support import find_unsupported, supported_targets_line
from tests.tools.planner.helpers import plan_on

REFUSED = [
    ("a Windows Server image", "Windows Server", None),
    ("Windows Server 2022 with IIS", "Windows Server 2022", None),
    ("build me a windows 11 image for kiosks", "windows 11", None),
    ("a macOS image for the build farm", "macOS", None),
    ("I would like a Windows Server image", "Windows Server", None),
    ("FreeBSD router image", "FreeBSD", None),
    ("an OpenBSD firewall", "OpenBSD", None),
    ("Arch Linux with docker", "Arch Linux", "ubuntu26"),
    ("a Gentoo image with nginx", "Gentoo", "ubuntu24"),
    ("an openSUSE Leap edge image", "openSUSE Leap", "el10"),
    ("SLES 15 for SAP", "SLES 15", "el10"),
    ("a Fedora server with podman", "Fedora", "el10"),
    ("alpine linux minimal image", "alpine linux", "debian13"),
    ("NixOS with k3s", "NixOS", "ubuntu24"),
    ("a Linux Mint desktop", "Linux Mint", "ubuntu24"),
    ("ubuntu 22.04 minimal for our tills", "ubuntu 22.04", "ubuntu24"),
    ("a jammy server with nginx", "jammy", "ubuntu24"),
    ("debian 12?", "debian 12", "debian13"),
    ("a CentOS 7 web server", "CentOS 7", "el10"),
    ("Rocky Linux 9 with podman", "Rocky Linux 9", "el10"),
    ("an armv7 image for our old boards", "armv7", None),
    # a release the composer has not got (round 14, h3)
    ("could you build me an EMT 4 image for the gateways", "EMT 4", "emt3"),
    ("Debian 14 for the NAS, with samba", "Debian 14", "debian13"),
    ("next we want rhel 11 on arm64", "rhel 11", "el10"),
    ("an ubuntu 28.04 desktop please", "ubuntu 28.04", "ubuntu26"),
    ("azure linux 4 raw image for the camera hubs", "azure linux 4", "azl3"),
    ("the smart meters get elxr-14", "elxr-14", "elxr12"),
]


@pytest.mark.parametrize(("request_text", "named", "nearest"), REFUSED)
def test_a_target_the_composer_has_no_configuration_for_is_found(
    request_text: str, named: str, nearest: str | None
) -> None:
    found = find_unsupported(request_text)
    assert found is not None, request_text
    assert found.named == named
    assert found.nearest == nearest
    if nearest is None:
        assert found.suggestion is None
    else:
        title = load_targets().title(nearest)
        assert found.suggestion is not None and title in found.suggestion
        assert named not in found.suggestion


def test_the_suggestion_keeps_the_rest_of_the_request() -> None:
    found = find_unsupported("Arch Linux with docker")
    assert found is not None and found.suggestion == "Ubuntu 26.04 with docker"


ACCEPTED = [
    "an ubuntu image with a maintenance window at 2am",
    "schedule maintenance windows for updates on a debian 13 image",
    "a kiosk image that shows windows of the web app full screen",
    "time windows for the real-time kernel",
    "a docker host that runs alpine containers",
    "ubuntu with fedora-based containers pulled at boot",
    "an ubuntu 24.04 image, not windows",
    "a linux image instead of windows server",
    "migrate from centos to rocky linux 10",
    "replace our fedora servers with an el10 image",
    "a minimal ubuntu image with docker",
    "add the arch-specific grub package",
    "set the arch to arm64",
    "an image with samba for windows file shares",
    "a debian image that can serve windows clients over rdp",
    "make the macaddress stable",
    "an azure linux image for a mac mini",
    "add their repository with suite bookworm, component main",
    "codename: jammy for the vendor repo",
    "url https://example.com/debian bookworm main",
    "a bookworm-based eLxr image",
    # a built release, or a count after the name (round 14, h3)
    "debian 13 for 4 nodes",
    "ubuntu 24.04 with a 16 GB disk",
    "eLxr 12 raw, x86_64",
    "we run debian on 3 servers, the new ones get debian 13",
    "azure linux 3.0 with vim",
    "EMT 3 for the edge boxes",
]


@pytest.mark.parametrize("request_text", ACCEPTED)
def test_words_that_only_look_like_a_target_are_left_alone(request_text: str) -> None:
    assert find_unsupported(request_text) is None


def test_a_supported_distribution_named_as_well_wins() -> None:
    assert find_unsupported("an ubuntu 24.04 image like our fedora one") is None


@pytest.mark.parametrize(
    ("request_text", "named"),
    [
        ("an Ubuntu 24.04 raw image for our armhf panels", "armhf"),
        ("Azure Linux 3 on the old armv6 sensors", "armv6"),
        ("debian 13 for the riscv64 dev kits", "riscv64"),
        ("move the el10 build over to RISC-V please", "RISC-V"),
        ("EMT 3 for a 32-bit x86 thin client (i686)", "32-bit x86"),
        ("ubuntu 26.04 on ppc64le", "ppc64le"),
    ],
)
def test_an_arch_no_dist_builds_is_refused_even_beside_a_supported_dist(
    request_text: str, named: str
) -> None:
    found = find_unsupported(request_text)
    assert found is not None and found.named == named
    assert found.nearest is None and found.suggestion is None


def test_the_supported_line_names_every_configured_distribution() -> None:
    line = supported_targets_line()
    targets = load_targets()
    for dist in targets.dists:
        assert targets.title(dist) in line and f"({dist})" in line
    assert "x86_64" in line and "aarch64" in line


@pytest.mark.parametrize(
    ("text", "source"),
    [
        ("please begin from debian 13 with ssh", False),
        ("we'd like it built from azl3", False),
        ("switch this from ubuntu 24.04 to emt3", True),
        ("upgrade it from ubuntu 24.04 to 26.04", True),
    ],
)
def test_from_after_a_building_verb_names_the_base_not_the_source(text: str, source: bool) -> None:
    first = next(m for m in detect_target_spans(text) if m.kind == "dist")
    assert first.source is source


@pytest.mark.parametrize(
    "text",
    [
        "could we stay on CBL-Mariner 2.0 for the gateways?",
        "a cbl-mariner 1.0 image",
        "pin it to cm2",
    ],
)
def test_an_older_azure_linux_named_by_its_old_name_is_refused(text: str) -> None:
    found = find_unsupported(text)
    assert found is not None and found.nearest == "azl3"


def test_the_old_name_beside_azure_linux_3_is_where_the_user_comes_from() -> None:
    assert find_unsupported("moving our CBL-Mariner 2.0 hosts to Azure Linux 3") is None
    assert find_unsupported("a cbl-mariner 3 image") is None


@pytest.mark.parametrize(
    "request_text",
    [
        "an el10 image for the render farm (the legacy Fedora nodes ran podman already)",
        "our existing CentOS 7 servers run nginx; build the same on RHEL-compatible 10",
        "we are migrating off CentOS, give me an el10 image",
        "Debian 13 for the kiosks, the old Ubuntu 22.04 devices had chromium",
        "the Fedora workstations had vim and git, I need those on ubuntu 24.04",
        # a system named in a comparison (round 14, h1)
        "user pi with sudo like on raspbian",
        "same groups as on our centos 7 boxes",
        "set the users up like we had it on fedora",
        "exactly as in ubuntu 20.04, add a user ops",
        # a refused system named in a comparison or as the past (round 14, h3)
        "add a user pi with sudo like on raspbian",
        "ext4 for the root, same as on fedora",
        "xfs for the data partition, that's what we ran on centos 7",
        "lay out the partitions as in the old windows server",
        # a system the user had (round 14, h2)
        "make the disk 20 gigabytes and the root filesystem xfs, that's what we had on CentOS",
        "xfs like we always used on RHEL 8 please",
        "same packages I had on SLES 15, add chrony",
        "the partition layout they were using with CentOS 7 was fine",
    ],
)
def test_a_system_the_user_has_had_or_moves_off_is_context_not_a_request(
    request_text: str,
) -> None:
    assert find_unsupported(request_text) is None


@pytest.mark.parametrize(
    "request_text",
    [
        # round 14, h1
        "give me fedora 40",
        "make it raspbian",
        "centos 7 like before",
        # round 14, h3
        "a fedora 41 image please",
        "I'd like centos 7 instead",
        "switch to alpine",
        # round 14, h2
        "make it centos 7",
        "I want it on CentOS 7",
        "we need CentOS 7 please",
    ],
)
def test_a_system_asked_for_beside_such_words_is_still_refused(request_text: str) -> None:
    assert find_unsupported(request_text) is not None, request_text


def test_a_system_asked_for_is_still_refused_when_another_one_is_context() -> None:
    found = find_unsupported("our current debian 13 boxes are fine, but now I need Fedora 41")
    assert found is not None and found.named == "Fedora 41"


def test_an_arch_stays_the_hardware_even_on_old_devices() -> None:
    found = find_unsupported("Debian 13 for our legacy armhf devices")
    assert found is not None and found.named == "armhf"


def test_a_dist_named_by_its_title_is_a_target() -> None:
    for title, dist in (("rhel-compatible 10", "el10"), ("RHEL compatible 10", "el10")):
        found = [m for m in detect_target_spans(f"a {title} image") if m.kind == "dist"]
        assert [m.value for m in found] == [dist] and not found[0].source


def test_a_context_mention_is_a_source_and_the_asked_one_is_not() -> None:
    text = "our current ubuntu 24.04 hosts have docker; I want debian 13 with podman"
    dists = {m.value: m.source for m in detect_target_spans(text) if m.kind == "dist"}
    assert dists == {"ubuntu24": True, "debian13": False}


def test_the_system_the_image_runs_on_is_context_in_the_planner() -> None:
    result = plan_on(
        "debian13-x86_64-minimal-raw.yml",
        "a Debian 13 guest for Hyper-V on our Windows Server 2019 hosts, as a vhdx",
    )
    assert result.not_applied == []
    assert [op.op for op in result.operations] == ["set_artifacts"]
    # asked for as the image itself, it is still refused
    assert find_unsupported("build me Windows Server 2019 for the hypervisor hosts") is not None
