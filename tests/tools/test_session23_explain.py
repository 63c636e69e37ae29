"""Session 23's questions: the package manager, what is beyond the base, and wishes on a clock.

The sentences are written for these tests.
"""

from __future__ import annotations

import pytest

from oic_ai.graph.agent import TemplateAgent
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.planner.rules.beyond import beyond_template
from tests.tools.planner.helpers import plan_on, template_text


@pytest.mark.parametrize(
    ("template", "manager"),
    [
        ("azl3-x86_64-minimal-raw.yml", "tdnf"),
        ("emt3-x86_64-minimal-raw.yml", "tdnf"),
        ("el10-x86_64-minimal-raw.yml", "dnf"),
        ("debian13-x86_64-minimal-raw.yml", "apt"),
    ],
)
@pytest.mark.parametrize(
    "question",
    [
        "what does yum look like on this thing, is it dnf or tdnf?",
        "which package manager does it use?",
        "is it apt-get or something else?",
    ],
)
def test_the_package_manager_is_named_for_the_images_os(
    template: str, manager: str, question: str
) -> None:
    answer = describe_template(template_text(template), question)
    assert answer.startswith(f"Package manager: {manager} ")


def test_a_question_about_apt_repositories_is_about_repositories() -> None:
    answer = describe_template(
        template_text("debian13-x86_64-minimal-raw.yml"), "which apt repos are configured?"
    )
    assert answer.startswith("Repositories:")


def test_whether_the_list_installs_the_manager_is_said() -> None:
    text = template_text("emt3-x86_64-minimal-raw.yml")  # lists tdnf
    assert "the package list installs it" in describe_template(text, "which package manager?")


@pytest.mark.parametrize(
    "question",
    [
        "what packages do we have beyond the base now?",
        "what's on top of the base template?",
        "which packages are different from the original template?",
    ],
)
def test_what_is_beyond_the_base_lists_the_changes(question: str) -> None:
    base = template_text("debian13-x86_64-minimal-raw.yml")
    current = base.replace("  packages:\n", "  packages:\n    - can-utils\n    - auditd\n", 1)
    answer = describe_template(current, question, base)
    assert "added: can-utils, auditd" in answer
    assert "removed" not in answer
    assert "\nPackages: " in answer  # the whole list: what was asked may be in the base


def test_nothing_beyond_the_base_says_so() -> None:
    base = template_text("debian13-x86_64-minimal-raw.yml")
    assert describe_template(base, "anything beyond the base?", base).startswith("Nothing beyond")


def test_without_a_base_the_question_lists_the_packages() -> None:
    base = template_text("debian13-x86_64-minimal-raw.yml")
    assert describe_template(base, "what packages beyond the base?").startswith("Packages:")


def test_the_base_comes_from_the_session(agent: TemplateAgent) -> None:
    first = agent.generate("eLxr 12 minimal raw image for x86_64")
    second = agent.generate("add can-utils and auditd", session=first.session)
    turn = agent.generate("what packages do we have beyond the base now?", session=second.session)
    assert turn.template == second.template
    assert "can-utils" in turn.message and "auditd" in turn.message


@pytest.mark.parametrize(
    "said", ["power it down at 11pm and back up at 6am", "shut it down every night at 11pm"]
)
def test_an_action_on_a_clock_is_reported_as_a_schedule(said: str) -> None:
    plan = plan_on("debian13-x86_64-minimal-raw.yml", said)
    assert plan.operations == []
    assert [item.split(" — ")[1][:22] for item in plan.not_applied] == ["actions at set times ("]


@pytest.mark.parametrize("said", ["we reboot at 3am", "add cron"])
def test_a_time_said_as_context_is_no_schedule(said: str) -> None:
    plan = plan_on("debian13-x86_64-minimal-raw.yml", said)
    assert not any("actions at set times" in item for item in plan.not_applied)


@pytest.mark.parametrize(
    ("said", "label"),
    [
        ("And the system clock uses UTC", "timezone"),
        ("the hardware clock should be in local time", "timezone"),
        ("a firewall blocking everything except 80/443/22", "firewall-rules"),
        ("blocking all inbound except ssh", "firewall-rules"),
    ],
)
def test_the_clock_and_a_blocking_firewall_are_beyond_the_template(said: str, label: str) -> None:
    assert [item.label.name for item in beyond_template(said)] == [label]


@pytest.mark.parametrize("said", ["add chrony for the clock", "the clock drifts on these boards"])
def test_the_clock_without_a_zone_is_no_timezone(said: str) -> None:
    assert not [item for item in beyond_template(said) if item.label.name == "timezone"]


@pytest.mark.parametrize(
    "said",
    ["register it with our Red Hat Satellite", "registering the devices with Intune"],
)
def test_registering_a_machine_with_a_service_is_enrolment(said: str) -> None:
    assert [item.label.name for item in beyond_template(said)] == ["enrolment"]


def test_a_registry_is_no_registration() -> None:
    assert not beyond_template("add the registry mirror to docker")


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("can it turn the screen off at 11pm and on again at 6am?", "actions at set times"),
        ("is it possible to set the timezone to Europe/Berlin?", "the timezone, locale"),
        ("could it log the kiosk user in by itself at boot?", "automatic login"),
    ],
)
def test_a_question_whether_it_can_do_what_no_template_holds_is_reported(
    agent: TemplateAgent, question: str, reason: str
) -> None:
    first = agent.generate("debian 13 minimal raw image with chromium and a user kiosk")
    turn = agent.generate(question, session=first.session)
    assert turn.template == first.template
    assert len(turn.not_applied) == 1 and reason in turn.not_applied[0]


@pytest.mark.parametrize("question", ["can it run docker?", "can it have more than one user?"])
def test_a_question_about_what_a_template_can_hold_is_answered(
    agent: TemplateAgent, question: str
) -> None:
    first = agent.generate("debian 13 minimal raw image")
    turn = agent.generate(question, session=first.session)
    assert turn.not_applied == []
    assert not turn.message.startswith("That cannot be done")
