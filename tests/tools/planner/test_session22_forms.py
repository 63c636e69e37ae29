"""Session 22's forms, reworded, each beside near-misses that must not trigger.

Courtesy and "understood" in other languages, a courtesy word before a name, one CPU for
every CPU list, sudo said by a pronoun, a group list joined by "+", "for everyone" after
one account, and a target named in a statement beside the one asked for. The sentences
are written for these tests.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from oic_ai.tools.references import find_reference
from tests.tools.planner.helpers import cmdline_of, plan_on, template_text, with_cmdline

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
UBUNTU_ARM = "ubuntu24-aarch64-minimal-raw.yml"


def _ops(plan: EditPlan, kind: str) -> list[Any]:
    return [op for op in plan.operations if op.op == kind]


def _after(request: str, text: str) -> tuple[dict[str, Any], list[str]]:
    """The template ``request`` makes of ``text``, and what was not applied."""
    plan = plan_request(request, text, mode="refine")
    return yaml.safe_load(apply_plan(text, plan).text), plan.not_applied


def _users(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {u["name"]: u for u in doc["systemConfig"].get("users") or []}


@pytest.mark.parametrize(
    "request_text",
    [
        "add htop. Yoroshiku onegaishimasu.",
        "hostname gw-9, yoroshiku",
        "OK, verstehe. add jq",
        "entendido, add curl",
    ],
)
def test_courtesy_and_understanding_in_other_languages_ask_nothing(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert plan.operations
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "request_text",
    [
        "add htop. zz9 plural",  # a digit: a value, not a word of a language
        "add htop, and gitea-runner please",  # a package's shape
        "add htop and fix the frobnicator",  # an English clause nobody can do
    ],
)
def test_a_clause_with_a_value_name_or_english_is_still_weighed(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert plan.not_applied or len(_ops(plan, "add_packages")[0].packages) > 1


@pytest.mark.parametrize("request_text", ["zorblax", "add htop. kiitos paljon", "jeez. add htop"])
def test_words_no_table_knows_are_still_reported(request_text: str) -> None:
    assert plan_on(UBUNTU, request_text).not_applied


@pytest.mark.parametrize(
    ("request_text", "target"),
    [
        ("Ahora lo mismo pero para Debian 13", {"dist": "debian13"}),
        ("jetzt dasselbe für arm64", {"arch": "aarch64"}),
        ("a teraz to samo dla Debian 13", {"dist": "debian13"}),
    ],
)
def test_the_same_in_another_language_is_a_reference(
    request_text: str, target: dict[str, str]
) -> None:
    reference = find_reference(request_text)
    assert reference is not None and reference.kind == "same"
    assert reference.targets == target


def test_lo_mismo_without_a_target_word_after_it_is_no_reference() -> None:
    assert find_reference("es lo mismo") is None


@pytest.mark.parametrize(
    ("request_text", "field", "value"),
    [
        ("Image name please emt-fab-ctrl", "image", "emt-fab-ctrl"),
        ("image name pls edge-golden, thanks", "image", "edge-golden"),
        ("hostname please gw-07", "hostname", "gw-07"),
        ("hostname plz kiosk-2", "hostname", "kiosk-2"),
    ],
)
def test_a_courtesy_word_before_a_name_is_no_name(
    request_text: str, field: str, value: str
) -> None:
    doc, not_applied = _after(request_text, template_text(UBUNTU))
    assert not_applied == []
    if field == "image":
        assert doc["image"]["name"] == value
    else:
        assert doc["systemConfig"]["hostname"] == value


def test_a_courtesy_word_alone_after_the_label_is_still_no_name() -> None:
    doc, _ = _after("call it please", template_text(UBUNTU))
    assert doc["image"]["name"] != "please"
    assert doc["systemConfig"]["hostname"] != "please"


CPUS = with_cmdline(extra="isolcpus=2,3 nohz_full=2,3 rcu_nocbs=2,3")


@pytest.mark.parametrize(
    "request_text",
    [
        "Please change to 3 for all three parameters.",
        "set them to 3 for all three options",
        "change each of them to 3",
    ],
)
def test_one_cpu_said_for_every_cpu_list(request_text: str) -> None:
    plan = plan_request(request_text, CPUS, mode="refine")
    line = cmdline_of(apply_plan(CPUS, plan).text)
    assert {"isolcpus=3", "nohz_full=3", "rcu_nocbs=3"} <= set(line)
    assert plan.not_applied == []


def test_one_cpu_for_all_three_of_a_line_with_two_lists_is_not_sure() -> None:
    text = with_cmdline(extra="isolcpus=2,3 nohz_full=2,3")
    plan = plan_request("change to 3 for all three parameters", text, mode="refine")
    assert "isolcpus=3" not in cmdline_of(apply_plan(text, plan).text)


USERS = apply_plan(
    template_text(UBUNTU),
    plan_request(
        "add user qa with no sudo and user svc with sudo", template_text(UBUNTU), mode="refine"
    ),
).text


@pytest.mark.parametrize(
    "request_text",
    [
        "svc must not have sudo, qa needs it for reading the logs",
        "no sudo for svc, but qa should have it",
        "svc no longer gets sudo, qa gets it",
    ],
)
def test_sudo_said_by_a_pronoun_in_the_next_clause(request_text: str) -> None:
    assert _users(yaml.safe_load(USERS))["svc"].get("sudo") is True
    doc, _ = _after(request_text, USERS)
    users = _users(doc)
    assert users["qa"].get("sudo") is True
    assert not users["svc"].get("sudo")


def test_it_with_no_user_before_it_is_left_alone() -> None:
    doc, _ = _after("sudo is installed already, the app needs it", USERS)
    assert not _users(doc)["qa"].get("sudo")


@pytest.mark.parametrize(
    ("request_text", "groups"),
    [
        ("admin user ops, wheel + docker, sudo", ["wheel", "docker"]),
        ("user ops, plugdev + docker, no sudo", ["plugdev", "docker"]),
        ("add user ci, plugdev + docker", ["plugdev", "docker"]),
    ],
)
def test_a_group_list_joined_by_plus_keeps_docker_a_group(
    request_text: str, groups: list[str]
) -> None:
    doc, _ = _after(request_text, template_text(UBUNTU))
    user = next(iter(_users(doc).values()))
    assert [g for g in groups if g not in user.get("groups", [])] == []
    assert not {"docker.io", "docker-ce"} & set(doc["systemConfig"]["packages"])


def test_a_package_alone_after_a_user_is_still_a_package() -> None:
    doc, _ = _after("user ops, sudo, nginx", template_text(UBUNTU))
    assert "nginx" not in _users(doc)["ops"].get("groups", [])


@pytest.mark.parametrize(
    "request_text",
    [
        "users: 'jump' for everyone, no sudo, shell /bin/bash.",
        "add user jump for everybody, no sudo",
    ],
)
def test_for_everyone_after_one_account_is_whom_it_serves(request_text: str) -> None:
    doc, not_applied = _after(request_text, template_text(UBUNTU))
    assert list(_users(doc)) == ["jump"]
    assert not _users(doc)["jump"].get("sudo")
    base = yaml.safe_load(template_text(UBUNTU))["systemConfig"]["packages"]
    assert set(base) <= set(doc["systemConfig"]["packages"])
    assert not_applied == []


def test_everyone_after_two_users_still_says_it_of_both() -> None:
    doc, _ = _after("add users alice and bob, everyone in the docker group", template_text(UBUNTU))
    users = _users(doc)
    assert sorted(users) == ["alice", "bob"]
    assert all("docker" in u.get("groups", []) for u in users.values())


def _arch(plan: EditPlan) -> list[str]:
    return [op.arch for op in _ops(plan, "set_target") if op.arch]


@pytest.mark.parametrize(
    "request_text",
    [
        "nah, keep it x86, the arm gateways are a different project",
        "x86_64 please; the arm64 boards are someone else's problem",
    ],
)
def test_a_target_named_in_a_statement_gives_way_to_the_one_asked_for(request_text: str) -> None:
    plan = plan_on(UBUNTU_ARM, request_text)
    assert _arch(plan) == ["x86_64"]
    assert not [n for n in plan.not_applied if "the request names" in n]


def test_two_targets_both_asked_for_are_still_reported() -> None:
    plan = plan_on(UBUNTU_ARM, "build it for x86 and for arm")
    assert [n for n in plan.not_applied if "the request names" in n]
