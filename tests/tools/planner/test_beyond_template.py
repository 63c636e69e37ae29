"""Wishes no template can hold are reported, and nothing of them reaches the template.

Before this rule, such clauses were read by the other rules: a Wi-Fi network's name became
a disk size, a login banner a user account, a setting "in the BIOS" legacy boot. The
wordings here are the test's own, not the bank's.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner.rules.beyond import beyond_template
from oic_ai.tools.planner.state import Mode
from tests.tools.planner.helpers import plan_on


def plan(request: str, mode: Mode = "refine") -> EditPlan:
    return plan_on("debian13-x86_64-minimal-raw.yml", request, mode=mode)


BEYOND = [
    ("network: ssid LAB-7G for the shop floor", "network-config"),
    ("join the wireless with WPA2 key in the handbook", "network-config"),
    ("turn the onboard serial port off in the firmware", "firmware"),
    ("enable VT-x in the UEFI setup menu", "firmware"),
    ("show the usual legal warning banner before login", "login-messages"),
    ("write our support number into /etc/motd", "login-messages"),
    ("the operator should be logged in automatically on the console", "autologin"),
    ("autologin for the kiosk account", "autologin"),
    ("enroll the units in our device management", "enrolment"),
    ("they must be joined to the corp domain", "enrolment"),
    ("forbid root logins over SSH", "ssh-settings"),
]


@pytest.mark.parametrize(("request_text", "label"), BEYOND)
def test_a_wish_no_template_holds_is_reported_and_changes_nothing(
    request_text: str, label: str
) -> None:
    found = beyond_template(request_text)
    assert [item.label.name for item in found] == [label]
    result = plan(request_text)
    assert result.operations == [], result.operations
    assert len(result.not_applied) == 1
    assert found[0].label.reason in result.not_applied[0]
    assert all(c.outcome == "not_applied" for c in result.clauses)


def test_a_network_name_is_no_disk_size_and_its_heading_goes_with_it() -> None:
    result = plan("and wifi: ssid HALL-5G pw opensesame42")
    assert result.operations == []
    assert result.not_applied and result.not_applied[0].startswith("'and wifi: ssid HALL-5G'")
    assert [c.outcome for c in result.clauses] == ["not_applied", "not_applied"]
    assert "opensesame42" not in " ".join([*result.not_applied, *result.warnings])


def test_the_rest_of_the_request_is_still_applied() -> None:
    result = plan("add htop, and switch the fan curve to silent in the BIOS; hostname dock-3")
    kinds = {op.op for op in result.operations}
    assert kinds == {"add_packages", "set_hostname"}
    assert len(result.not_applied) == 1 and "BIOS" in result.not_applied[0]


@pytest.mark.parametrize(
    "request_text",
    [
        "boot it in BIOS mode",
        "use legacy bios boot",
        "add wpasupplicant and iw",
        "add the linux-firmware package",
        "add a user named ssh-admin with sudo",
    ],
)
def test_ordinary_requests_with_nearby_words_are_still_read(request_text: str) -> None:
    assert beyond_template(request_text) == []
    assert plan(request_text).operations


def test_a_create_head_clause_whose_target_words_chose_the_base_is_the_base() -> None:
    # the target rule read "raw image", so the head word was gone; "VMs" is an acronym
    result = plan(
        "Kindly prepare a Debian 13 x86_64 raw image for our weather sandbox VMs. Add git.",
        mode="create",
    )
    assert result.not_applied == []
    assert result.clauses[0].outcome == "base"


@pytest.mark.parametrize(
    "request_text",
    [
        "no secure boot yet, the test boards dont have keys enrolled",
        "the kiosks already join the domain through our imaging server",
    ],
)
def test_a_statement_about_such_a_thing_is_context_not_a_report(request_text: str) -> None:
    result = plan_on("emt3-x86_64-immutable-secureboot-raw.yml", request_text)
    assert not [n for n in result.not_applied if "enrol" in n or "domain" in n]


@pytest.mark.parametrize(
    ("request_text", "topic"),
    [
        ("Our manager asked whether we can pin the timezone to Asia/Tokyo.", "timezone"),
        ("Tomasz wondered if you could put the guest wifi passphrase in the image", "network"),
    ],
)
def test_a_question_relayed_in_a_statement_is_still_answered(request_text: str, topic: str) -> None:
    # someone "asked whether we can" is a question the answer must take up: it cannot
    result = plan(request_text)
    assert result.operations == []
    assert len(result.not_applied) == 1 and topic in result.not_applied[0]


def test_a_relayed_statement_without_a_question_stays_context() -> None:
    result = plan("Our manager said the timezone is handled by the provisioning team.")
    assert result.operations == [] and result.not_applied == []


@pytest.mark.parametrize(
    "request_text",
    [
        "Hello, I need image for industrial gateway, debian 13 on x86.",
        "elxr12 amd64 raw, telco edge box.",
        "k8s worker node image. Debian 13 x86_64, qcow2 artifact.",
        "amr robot, debian 13, add htop",
    ],
)
def test_a_create_request_saying_what_the_machine_is_chose_the_base(request_text: str) -> None:
    # "I need image for X" without its article; a word before the machine noun ("telco")
    # says what kind of machine, it is no package
    result = plan(request_text, mode="create")
    assert result.not_applied == []
    assert "base" in [c.outcome for c in result.clauses]


def test_an_unknown_word_that_is_no_kind_of_machine_is_still_reported() -> None:
    assert plan("foobarctl for the boxes, debian 13", mode="create").not_applied
