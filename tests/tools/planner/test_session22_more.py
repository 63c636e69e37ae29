"""Session 22's forms, second part: sizes, settings, answers and routes, with near-misses.

A size judged wrong beside its revision ("half a gig for /boot/efi is overkill, make it 256
megs"), "double it" after a turn about the disk, a root size after "stay", "the read-only
thing", a bare "name:" beside an image name, a CA certificate (no template field),
questions answered with the part they ask about, and a described device asked "what would
the image look like?". The sentences are written for these tests.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.nodes.classify import route_request
from oic_ai.tools.applier import apply_plan
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.planner import plan_request
from tests.support.conversations import size_bytes
from tests.tools.planner.helpers import template_text

UBUNTU = template_text("ubuntu24-x86_64-minimal-raw.yml")
EL10 = template_text("el10-x86_64-minimal-raw.yml")
EMT = template_text("emt3-x86_64-minimal-raw.yml")
GIB = 1024**3


def _after(request: str, text: str, earlier: str = "") -> tuple[dict[str, Any], list[str]]:
    plan = plan_request(request, text, mode="refine", earlier=earlier)
    return yaml.safe_load(apply_plan(text, plan).text), plan.not_applied


def _apply(request: str, text: str) -> str:
    return apply_plan(text, plan_request(request, text, mode="refine")).text


def _partition(doc: dict[str, Any], mount: str) -> dict[str, Any]:
    return next(p for p in doc["disk"]["partitions"] if p.get("mountPoint") == mount)


def _size(part: dict[str, Any]) -> int:
    end, start = size_bytes(part["end"]), size_bytes(part["start"])
    assert end is not None and start is not None
    return end - start


BIG_EFI = _apply("give /boot/efi 512 megs and a /var partition of 2 GiB", UBUNTU)


@pytest.mark.parametrize(
    "request_text",
    [
        "half a gig for /boot/efi is overkill, make it 256 megs",
        "512 megs for /boot/efi is way too much, set it to 256 megs",
        "/boot/efi at 512 MiB is overkill, 256 MiB please",
    ],
)
def test_a_judged_partition_size_gives_way_to_the_revision(request_text: str) -> None:
    assert _size(_partition(yaml.safe_load(BIG_EFI), "/boot/efi")) == 512 * 1024**2
    doc, not_applied = _after(request_text, BIG_EFI)
    assert _size(_partition(doc, "/boot/efi")) == 256 * 1024**2
    assert doc["disk"]["size"] == yaml.safe_load(BIG_EFI)["disk"]["size"]
    assert not_applied == []


def test_a_judged_partition_size_alone_is_reported_and_changes_nothing() -> None:
    doc, not_applied = _after("half a gig for /boot/efi is overkill", BIG_EFI)
    assert doc == yaml.safe_load(BIG_EFI)
    assert [n for n in not_applied if "which size of /boot/efi is wrong" in n]


@pytest.mark.parametrize(
    "request_text", ["root can stay small at 8 gigs", "root should be at 8 GiB", "root is 8 gigs"]
)
def test_a_root_size_after_a_verb_of_being_is_the_root_partition(request_text: str) -> None:
    doc, _ = _after(request_text, EL10)
    assert _size(_partition(doc, "/")) == 8 * GIB


@pytest.mark.parametrize("request_text", ["hmm. bigger. double it", "double it please"])
def test_double_it_after_a_turn_about_the_disk(request_text: str) -> None:
    eight = _apply("make the disk 8 gigs", UBUNTU)
    doc, _ = _after(request_text, eight, earlier="make the disk 8 gigs")
    assert size_bytes(doc["disk"]["size"]) == 16 * GIB


def test_double_it_with_no_disk_in_sight_is_not_the_disk() -> None:
    doc, not_applied = _after("double it", UBUNTU, earlier="add isolcpus=2")
    assert doc["disk"]["size"] == yaml.safe_load(UBUNTU)["disk"]["size"]
    assert not_applied


@pytest.mark.parametrize(
    "request_text",
    ["ok turn on the read-only thing. not secure boot yet", "enable the read-only mode"],
)
def test_the_read_only_thing_is_immutability(request_text: str) -> None:
    doc, _ = _after(request_text, EMT)
    assert doc["systemConfig"]["immutability"]["enabled"] is True


def test_a_bare_name_beside_an_image_name_is_the_hostname() -> None:
    doc, not_applied = _after("name: vend-ctrl. image name vendco-arm-controller", UBUNTU)
    assert doc["systemConfig"]["hostname"] == "vend-ctrl"
    assert doc["image"]["name"] == "vendco-arm-controller"
    assert not_applied == []


def test_a_bare_name_alone_is_not_guessed_as_the_hostname() -> None:
    doc, _ = _after("name: foo-1", UBUNTU)
    assert doc["systemConfig"]["hostname"] != "foo-1"


_CERTIFICATES = "CA certificates and trust stores"
_UPLOADS = "uploading the built image"


@pytest.mark.parametrize(
    ("request_text", "reason"),
    [
        ("add our company root CA to the trust store", _CERTIFICATES),
        ("and our CA bundle for the internal registry harbor.example.lan, thanks", _CERTIFICATES),
        ("we need our hospital root CA certificate to be trusted in the system", _CERTIFICATES),
        ("can it also push the built image to our artifactory when it's done?", _UPLOADS),
        ("upload the qcow2 to the s3 bucket after the build", _UPLOADS),
        ("and publish the finished image to our registry", _UPLOADS),
    ],
)
def test_no_template_field_is_reported_with_what_to_do(request_text: str, reason: str) -> None:
    doc, not_applied = _after(request_text, UBUNTU)
    assert doc == yaml.safe_load(UBUNTU)
    assert [n for n in not_applied if reason in n]


def test_the_ca_certificates_package_is_still_a_package() -> None:
    doc, not_applied = _after("add ca-certificates and curl", UBUNTU)
    assert {"ca-certificates", "curl"} <= set(doc["systemConfig"]["packages"])
    assert not_applied == []
    _, not_applied = _after(
        "please remove ca certificates", doc_text := _apply("add ca-certificates", UBUNTU)
    )
    assert "ca-certificates" in doc_text
    assert not [n for n in not_applied if "trust stores" in n]


def test_how_big_a_mount_point_is_answers_with_its_partition() -> None:
    answer = describe_template(BIG_EFI, "How big is /boot/efi in this image?")
    assert "/boot/efi" in answer and "512MiB" in answer


def test_a_second_question_after_a_comma_is_no_package_asked_about() -> None:
    answer = describe_template(UBUNTU, "What does the image contain then, is everything in there?")
    assert "openssh-server" in answer
    assert "nothing in the package list" not in answer


def test_a_list_of_packages_asked_about_is_still_checked() -> None:
    assert "No" in describe_template(UBUNTU, "does it have docker, nginx and curl?")


def test_what_a_template_cannot_hold_is_answered_with_each_limit() -> None:
    answer = describe_template(UBUNTU, "Which things cannot be set by this template?")
    for word in ("NTP", "proxy", "CA certificates", "firewall"):
        assert word in answer
    assert "Packages:" not in answer


@pytest.mark.parametrize(
    ("request_text", "intent"),
    [
        # a statement of who wants the answer asks for no change
        ("What all is included in this image? Our IT department wants the list first.", "explain"),
        ("which packages are in it? my manager needs the details", "explain"),
        # "it" in lower case acts on what the question named; "IT" is a department
        ("why is curl in there? Remove it.", "refine"),
    ],
)
def test_a_question_beside_a_wish_for_information(request_text: str, intent: str) -> None:
    assert route_request(request_text, UBUNTU)["intent"] == intent


@pytest.mark.parametrize(
    "request_text",
    [
        "We make vending machines; the board is ARM64. Debian is our OS. What would the "
        "image look like?",
        "Our kiosks run Ubuntu 24.04 on x86. How would such an image look?",
        "A small eLxr 12 box for the lab. What would you suggest?",
    ],
)
def test_a_described_device_asked_how_its_image_looks_starts_one(request_text: str) -> None:
    assert route_request(request_text, None)["intent"] == "create"


@pytest.mark.parametrize(
    "request_text", ["which Debian releases can you build?", "what would a debian iso need?"]
)
def test_a_question_about_what_is_built_is_still_answered(request_text: str) -> None:
    assert route_request(request_text, None)["intent"] == "explain"


SECURE = _apply(
    "make it immutable with secure boot, keys /opt/sb/db.key /opt/sb/db.crt /opt/sb/db.cer",
    template_text("azl3-x86_64-minimal-raw.yml"),
)


@pytest.mark.parametrize(
    "request_text",
    [
        "Secure Boot we don't do in the first batch after all. Immutable stays.",
        "secure boot we won't need, the firmware has no keys enrolled",
    ],
)
def test_a_fronted_setting_with_a_negated_verb_is_turned_off(request_text: str) -> None:
    assert yaml.safe_load(SECURE)["systemConfig"]["immutability"].get("secureBootDBKey")
    doc, _ = _after(request_text, SECURE)
    immutability = doc["systemConfig"]["immutability"]
    assert not immutability.get("secureBootDBKey")
    assert immutability["enabled"] is True


def test_a_fronted_setting_that_is_wanted_stays_on() -> None:
    doc, _ = _after("secure boot we want, definitely", SECURE)
    assert doc["systemConfig"]["immutability"].get("secureBootDBKey")


@pytest.mark.parametrize(
    ("request_text", "outcome"),
    [
        ("No keyboard, nobody ever logs in locally. Ubuntu 24.04 please", "context"),
        ("We start the new pilot project on Ubuntu 26.04, raw please", "applied"),
        ("Need a Debian 13 base. Start from the minimal one and add fail2ban", "base"),
    ],
)
def test_a_described_clause_asks_nothing_in_a_new_request(request_text: str, outcome: str) -> None:
    plan = plan_request(request_text, UBUNTU, mode="create")
    assert plan.not_applied == []
    assert outcome in {c.outcome for c in plan.clauses}


@pytest.mark.parametrize(
    ("clause", "asking"),
    [
        ("no keyboard or mouse", "context"),
        ("no keyboard layout change", "asks"),  # the layout is a setting, said to stay
        ("we start the new project", "context"),
        ("start the new project", "asks"),
    ],
)
def test_what_a_clause_says_of_a_device_or_its_speaker(clause: str, asking: str) -> None:
    from oic_ai.tools.planner.asking import read_clause

    assert read_clause(clause).asking == asking


def test_a_repository_from_an_artifactory_is_no_upload() -> None:
    _, not_applied = _after("add the repo https://art.example.lan/debian noble main", UBUNTU)
    assert not [n for n in not_applied if "uploading" in n]


@pytest.mark.parametrize(
    ("request_text", "target"),
    [
        (
            "Could you also give me the raw disk version for the ones we flash in the factory?",
            {"image_type": "raw"},
        ),
        ("give me an arm64 variant for the lab boards", {"arch": "aarch64"}),
    ],
)
def test_another_version_for_someone_is_the_same_image_there(
    request_text: str, target: dict[str, str]
) -> None:
    from oic_ai.tools.references import find_reference, reference_spans, remainder

    reference = find_reference(request_text)
    assert reference is not None and reference.kind == "same"
    assert reference.targets == target
    rest = remainder(request_text, reference_spans(request_text))
    assert "give" not in rest and "version" not in rest


def test_a_version_asked_about_is_no_reference() -> None:
    from oic_ai.tools.references import find_reference

    assert find_reference("what is the kernel version for ubuntu?") is None


@pytest.mark.parametrize(
    "request_text", ["ok forget the pi 2. add jq", "Fiji isn't packaged, so skip that one. add jq"]
)
def test_setting_aside_what_was_talked_about_asks_nothing(request_text: str) -> None:
    doc, not_applied = _after(request_text, UBUNTU)
    assert "jq" in doc["systemConfig"]["packages"]
    assert not_applied == []


def test_forgetting_a_package_the_template_has_still_removes_it() -> None:
    with_htop = _apply("add htop", UBUNTU)
    doc, _ = _after("forget htop", with_htop)
    assert "htop" not in doc["systemConfig"]["packages"]


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("it has a 4G modem and an RFID reader", "it has a 4G modem and an RFID reader"),
        ("a 5G uplink at every site", "a 5G uplink at every site"),
        ("the 4G/LTE router", "the 4G/LTE router"),
        ("disk 4G please", "disk 4GiB please"),
        ("4G of swap", "4GiB of swap"),
    ],
)
def test_a_mobile_network_generation_is_no_size(said: str, read: str) -> None:
    from oic_ai.tools.planner.sizes import read_sizes

    assert read_sizes(said)[0] == read
