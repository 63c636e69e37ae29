"""Questions, and remarks that give reasons or context (issue 21, round 24, helper p10).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with reworded forms and with near-misses that must not trigger.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from oic_ai.nodes.explain import _ASKS_WHAT_CHANGED, explain
from oic_ai.tools.edit_plan import AddPackages, AddUser, SetTarget
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.planner.asking import read_clause
from oic_ai.tools.questions import questions_of
from oic_ai.tools.target_support import find_unsupported
from tests.tools.planner.helpers import plan_on, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"
KIOSK = "ubuntu24-x86_64-desktop-kiosk-raw.yml"


def _added(plan: Any) -> list[str]:
    return [p for op in plan.operations if isinstance(op, AddPackages) for p in op.packages]


# --- remarks beside a change stay quiet ----------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "ok make it arm64, trying it on a spare pi first",
        "make it arm64 please, testing on the bench board before the rollout",
        "switch to arm64, running in the lab for a week",
    ],
)
def test_a_gerund_of_what_the_user_does_beside_a_change_is_context(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert plan.not_applied == []
    assert any(isinstance(op, SetTarget) for op in plan.operations)


def test_a_gerund_with_a_value_still_asks() -> None:
    assert read_clause("booting with console=ttyS1").asking == "asks"
    assert read_clause("testing on a NUC first").asking == "context"


@pytest.mark.parametrize(
    "said",
    [
        "the panel must never blank - add consoleblank=0",
        "the display should not go dark, add consoleblank=0 to the kernel line",
        "the root doesn't need to be that large, set the disk to 12 GiB",
    ],
)
def test_a_wish_about_behaviour_before_the_change_that_meets_it_is_context(said: str) -> None:
    assert plan_on(UBUNTU, said).not_applied == []


def test_a_wish_naming_a_package_or_an_unheld_field_still_asks() -> None:
    assert "docker.io" in _added(plan_on(UBUNTU, "docker must be there - add htop")) or (
        "docker-ce" in _added(plan_on(UBUNTU, "docker must be there - add htop"))
    )
    assert plan_on(UBUNTU, "the timezone has to be UTC, add htop").not_applied


@pytest.mark.parametrize(
    "said",
    [
        "ok never mind the wifi, add htop",
        "oh forget about the firewall, add htop",
        "nvm the proxy then. add htop",
    ],
)
def test_a_wish_taken_back_for_a_thing_no_template_holds_is_context(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert plan.not_applied == []
    assert _added(plan) == ["htop"]


def test_taking_back_what_a_template_may_hold_still_asks() -> None:
    assert read_clause("never mind the swap partition").asking == "asks"
    assert read_clause("ok never mind the wifi").asking == "context"


def test_a_place_after_onto_or_into_is_a_purpose() -> None:
    assert read_clause("onto one of the old laptops").asking == "purpose"
    assert read_clause("into the spare desktops in room 4").asking == "purpose"


@pytest.mark.parametrize(
    "said",
    [
        "give me a vhdx as well for testing in hyper-v",
        "and a qcow2 too, for trying it in virt-manager",
    ],
)
def test_a_purpose_after_as_well_naming_a_tool_is_context(said: str) -> None:
    plan = plan_on(KIOSK, said)
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "said",
    ["And htop, eu esqueci", "add htop, se me olvidó", "htop too, hab ich vergessen"],
)
def test_saying_one_forgot_in_another_language_is_no_request(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert plan.not_applied == []
    assert _added(plan) == ["htop"]


# --- questions answered from the template -------------------------------------------------


@pytest.mark.parametrize(
    "asked",
    [
        "wait what did u change",
        "what did you change?",
        "what exactly have you changed",
        "so what changed?",
    ],
)
def test_what_changed_is_asked(asked: str) -> None:
    assert _ASKS_WHAT_CHANGED.search(asked)


@pytest.mark.parametrize(
    "asked", ["change the hostname to what we agreed", "what did you drop?", "what can change?"]
)
def test_other_questions_do_not_ask_what_changed(asked: str) -> None:
    assert not _ASKS_WHAT_CHANGED.search(asked)


def test_what_changed_lists_the_last_change() -> None:
    state = {
        "template": template_text(UBUNTU),
        "request": "hm what did u change",
        "last_changes": ["hostname a -> b", "removed packages can-utils"],
        "last_not_applied": [],
    }
    answer = explain(cast(Any, state), cast(Any, None))["answer"]
    assert "can-utils" in answer and "hostname a -> b" in answer


@pytest.mark.parametrize(
    "asked",
    [
        "Is the thing that lets me log in remotely already in there or do I need to ask for it?",
        "is the thing that lets us log in remotely there, or should I add it?",
    ],
)
def test_a_thing_described_by_what_it_does_is_looked_up(asked: str) -> None:
    (question,) = questions_of(asked).questions
    answer = describe_template(template_text(UBUNTU), question)
    assert answer.startswith("Yes") and "openssh-server" in answer


def test_a_described_thing_the_template_lacks_is_said_missing() -> None:
    answer = describe_template(template_text(UBUNTU), "does it have something to print with?")
    assert answer.startswith("No") and "cups" in answer


def test_a_name_is_not_read_as_a_description() -> None:
    answer = describe_template(template_text(UBUNTU), "is numpy in there or not?")
    assert answer.startswith("No") and "reads as" not in answer


@pytest.mark.parametrize(
    "asked",
    [
        "what would I need to give you to turn on secure boot?",
        "what do you need from me for secure boot",
    ],
)
def test_a_secure_boot_question_says_which_keys_it_takes(asked: str) -> None:
    answer = describe_template(template_text(AZL), asked)
    assert "db.key" in answer and "key" in answer


def test_a_bootloader_question_says_nothing_of_keys() -> None:
    assert "db.key" not in describe_template(template_text(AZL), "which bootloader is it?")


@pytest.mark.parametrize(
    "asked",
    ["Whether rt kernel is available for ubuntu in this tool?", "whether docker is included?"],
)
def test_a_question_opened_by_whether_is_a_question(asked: str) -> None:
    found = questions_of(asked)
    assert found.questions and not found.changes


def test_whether_without_a_question_mark_is_no_question() -> None:
    assert questions_of("add htop, whether it fits we will see").changes


# --- requests the tool cannot do are reported ----------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "and for each user put the ssh key from our vault",
        "for every user add our ssh public key",
        "put my public key in authorized_keys for ops",
    ],
)
def test_ssh_keys_for_users_are_reported(said: str) -> None:
    plan = plan_on(AZL, said)
    assert plan.not_applied
    assert "SSH keys" in plan.not_applied[0]
    assert not [op for op in plan.operations if isinstance(op, AddUser)]


def test_a_statement_about_keys_is_no_request() -> None:
    assert plan_on(AZL, "users log in with their own ssh keys later").not_applied == []


@pytest.mark.parametrize(
    "said",
    [
        "Please configure also the firewall so that only port 22 and 8443 are open.",
        "set up the firewall so only port 443 is reachable",
    ],
)
def test_firewall_rules_are_reported_and_no_package_is_added(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert plan.not_applied and "firewall rules" in plan.not_applied[0]
    assert _added(plan) == []


def test_installing_a_firewall_still_adds_it() -> None:
    assert _added(plan_on(UBUNTU, "install nftables")) == ["nftables"]


@pytest.mark.parametrize(
    "said",
    [
        "the wifi network is called LabNet and the password is hunter22 - can you put that in?",
        "our wireless is named Shop-5G, could you add that in so it connects on boot",
    ],
)
def test_a_stated_network_asked_for_by_a_pointer_is_reported(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert plan.not_applied and "network settings" in plan.not_applied[0]
    assert "hunter22" not in " ".join(plan.not_applied)


def test_a_stated_network_beside_another_change_is_context() -> None:
    plan = plan_on(DEBIAN, "the wifi network is called LabNet. add htop")
    assert plan.not_applied == [] and _added(plan) == ["htop"]


@pytest.mark.parametrize(
    "said", ["need jetpack 6 image for orin nano", "a Jetson Linux build for the nano boards"]
)
def test_jetpack_is_a_distribution_the_composer_does_not_build(said: str) -> None:
    found = find_unsupported(said)
    assert found is not None and "JetPack" in found.system


@pytest.mark.parametrize(
    "said", ["fine, do the 10 one. add httpd", "ok go with the 10 one, and httpd"]
)
def test_a_release_picked_among_those_offered_is_the_targets_own(said: str) -> None:
    for mode in ("refine", "create"):
        plan = plan_on(EL10, said, mode=mode)  # type: ignore[arg-type]
        assert plan.not_applied == []
        assert _added(plan) == ["httpd"]


def test_a_number_of_things_is_no_release() -> None:
    assert plan_on(EL10, "take 10 users").not_applied


def test_what_changed_against_the_base_is_answered_from_the_template() -> None:
    state = {
        "template": template_text(UBUNTU),
        "base_text": template_text(UBUNTU),
        "request": "so what did we change compared to the minimal one? short list",
        "last_changes": ["hostname a -> b"],
        "last_not_applied": [],
    }
    answer = explain(cast(Any, state), cast(Any, None))["answer"]
    assert "hostname a -> b" not in answer


def test_a_repository_signing_key_is_no_ssh_key() -> None:
    plan = plan_on(
        UBUNTU, "add the repo https://example.com/apt with key https://example.com/PUB-KEY"
    )
    assert not any("SSH keys" in entry for entry in plan.not_applied)


def test_a_key_only_named_in_a_question_is_not_reported() -> None:
    from oic_ai.tools.planner.rules.beyond import beyond_template

    found = beyond_template("the ssh key bit, there's really no way to get it in?")
    assert not [item for item in found if item.label.name == "ssh-keys"]
