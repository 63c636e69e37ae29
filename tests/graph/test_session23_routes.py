"""Session 23's targets in a conversation, reworded, beside near-misses.

A target taken back by "no wait", a network-boot word naming the servers, a release left
behind by its number, a correction of this image's os ("should be eLxr not Azure Linux"),
a point release of an unsupported system, and a build system asked for as what builds the
image. The sentences are written for these tests.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.nodes.classify import route_request
from oic_ai.tools.retrieval.target_mentions import detect_target_spans
from oic_ai.tools.target_support import find_unsupported
from tests.tools.planner.helpers import template_text


def _target(template: str | None) -> dict[str, str]:
    return dict(yaml.safe_load(template or "")["target"])


@pytest.mark.parametrize(
    "request_text",
    [
        "the kiosks are the same arm boxes as the signage... no wait, they're x86 like we "
        "said, so no change there. add cups",
        "make it arm64... no wait, x86 is fine. add htop",
        "arm64 - scratch that, keep it as is. add jq",
    ],
)
def test_a_target_taken_back_by_no_wait_is_not_asked_for(request_text: str) -> None:
    route = route_request(request_text, template_text("ubuntu24-x86_64-minimal-raw.yml"), None)
    assert route["intent"] == "refine"


def test_a_target_said_after_the_take_back_still_counts() -> None:
    current = template_text("ubuntu24-x86_64-minimal-raw.yml")
    route = route_request("x86 for now... no wait, make it arm64", current, None)
    assert route["intent"] == "retarget"


@pytest.mark.parametrize(
    "request_text",
    [
        "also use my kickstart file ks.cfg from our pxe server",
        "the PXE boot server needs to reach it",
        "our netboot infrastructure serves it",
    ],
)
def test_a_network_boot_word_naming_the_servers_is_no_image_type(request_text: str) -> None:
    assert not [m for m in detect_target_spans(request_text) if m.kind == "image_type"]


@pytest.mark.parametrize("request_text", ["a pxe image for debian", "make it pxe bootable"])
def test_a_network_boot_image_is_still_one(request_text: str) -> None:
    kinds = {m.kind: m.value for m in detect_target_spans(request_text)}
    assert kinds["image_type"] == "img"


def test_a_release_left_behind_by_its_number_is_no_leftover(agent: TemplateAgent) -> None:
    first = agent.generate("ubuntu 24.04 minimal for arm64")
    turn = agent.generate(
        "go with 26.04 instead of 24, hostname kds, disk 8 gigs", session=first.session
    )
    assert turn.not_applied == []
    doc = yaml.safe_load(turn.template or "")
    assert doc["target"]["dist"] == "ubuntu26"
    assert doc["systemConfig"]["hostname"] == "kds"


def test_a_correction_of_this_images_os_keeps_its_customisations(agent: TemplateAgent) -> None:
    first = agent.generate("an Azure Linux 3 network-boot initrd with tpm2-tools and jq")
    turn = agent.generate(
        "Reviewer comment: 'should be eLxr not Azure Linux, per platform decision'",
        session=first.session,
    )
    assert _target(turn.template) == {
        "os": "wind-river-elxr",
        "dist": "elxr12",
        "arch": "x86_64",
        "imageType": "img",
    }
    packages = yaml.safe_load(turn.template or "")["systemConfig"]["packages"]
    assert {"tpm2-tools", "jq"} <= set(packages)


def test_another_os_named_without_ruling_out_this_one_is_a_new_image() -> None:
    route = route_request(
        "eLxr 12 minimal with htop", template_text("azl3-x86_64-minimal-raw.yml"), None
    )
    assert route["intent"] == "create"


@pytest.mark.parametrize(
    "request_text",
    ["Need a Rocky Linux 9.4 image for x86, minimal", "alma linux 8.10 please", "centos 7.9 box"],
)
def test_a_point_release_before_10_is_refused(request_text: str) -> None:
    found = find_unsupported(request_text)
    assert found is not None and found.nearest == "el10"


def test_rocky_10_is_built() -> None:
    assert find_unsupported("rocky linux 10 image") is None


@pytest.mark.parametrize(
    "request_text",
    [
        "build it for Yocto instead, that's what production uses",
        "switch it to buildroot",
        "can you build it with yocto?",
    ],
)
def test_a_build_system_asked_to_build_the_image_is_refused(request_text: str) -> None:
    found = find_unsupported(request_text)
    assert found is not None and found.system == "Yocto or Buildroot"


@pytest.mark.parametrize(
    "request_text",
    ["we build with yocto today", "they still build on yocto", "our yocto layers have it"],
)
def test_a_build_system_someone_uses_is_no_request(request_text: str) -> None:
    assert find_unsupported(request_text) is None


@pytest.mark.parametrize(
    "request_text",
    [
        "Requirements from our ISO 21434 cybersecurity case: read-only root. eLxr 12, x86_64",
        "debian 13 for a device certified to ISO/IEC 27001",
        "ubuntu 24.04, our iso-26262 process wants auditd",
    ],
)
def test_a_standard_named_by_its_number_is_no_installer(request_text: str) -> None:
    route = route_request(request_text, None, None)
    assert route["targets"].get("image_type") != "iso"


@pytest.mark.parametrize("request_text", ["a debian iso, 8 GB", "an iso 2 times smaller"])
def test_an_iso_said_as_the_image_is_still_one(request_text: str) -> None:
    assert route_request(request_text, None, None)["targets"]["image_type"] == "iso"


def test_the_iso_version_of_the_same_thing_re_targets_this_image(agent: TemplateAgent) -> None:
    first = agent.generate("debian 13 raw kiosk image with firefox-esr, hostname kiosk-lobby")
    turn = agent.generate(
        "give me the ISO version of the same thing for installing onto the lobby PCs",
        session=first.session,
    )
    doc = yaml.safe_load(turn.template or "")
    assert doc["target"]["imageType"] == "iso"
    assert doc["systemConfig"]["hostname"] == "kiosk-lobby"
    assert "firefox-esr" in doc["systemConfig"]["packages"]
    assert turn.not_applied == []


@pytest.mark.parametrize(
    "request_text",
    [
        "register it with our Red Hat Satellite and add tmux",
        "the Red Hat Insights client is not needed",
        "we manage them with Ubuntu Landscape",
    ],
)
def test_a_vendors_management_product_is_no_target(request_text: str) -> None:
    current = template_text("azl3-x86_64-minimal-raw.yml")
    route = route_request(request_text, current, None)
    assert route["intent"] in ("refine", "explain")
    assert not {"dist", "os"} & set(route["targets"])


def test_red_hat_itself_is_still_a_target() -> None:
    route = route_request("a red hat compatible image", None, None)
    assert route["targets"].get("dist") == "el10"
