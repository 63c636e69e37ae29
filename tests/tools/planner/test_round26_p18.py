"""Round 26 (p18): users and access said in forms the planner misread, with near-misses.

A password cut before the rules read the request leaves its word, so "create ops with a
password" still names a user; pronouns and verbs are never user names ("give him sudo",
"give them sudo"); every user removed at once ("all users except ops"); a user's SSH key
said with the user is reported alone; renaming or grouping a user the template does not
have is reported (never an image name or a package); a user asked for with sudo but no
name is reported (never the sudo package). The sentences are written for these tests.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import DeleteValue, EditPlan, SetValue
from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import added, plan_on, template_text, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


def _with_users() -> str:
    """The Ubuntu minimal template with users ops (sudo, docker, adm) and deploy."""
    base = template_text(UBUNTU)
    first = "add user ops with sudo in groups docker and adm, shell /bin/bash. add user deploy"
    return apply_plan(base, plan_request(first, base, mode="refine")).text


def _deleted(plan: EditPlan) -> list[str]:
    return sorted(v.path for v in plan.operations if isinstance(v, DeleteValue))


def _set(plan: EditPlan) -> dict[str, object]:
    return {v.path: v.value for v in plan.operations if isinstance(v, SetValue)}


# --- a password cut from the request still says the name before it is a user


@pytest.mark.parametrize(
    ("request_", "name", "sudo"),
    [
        ("create ops with a password", "ops", None),
        ("create ops, password from the vault, sudo", "ops", True),
        ("set up deploy with password s3cret", "deploy", None),
        ("create builder with the password Tr0ub4dor and sudo", "builder", True),
    ],
)
def test_a_cut_password_leaves_a_user(request_: str, name: str, sudo: bool | None) -> None:
    plan = plan_on(UBUNTU, request_)
    assert list(users(plan)) == [name]
    assert users(plan)[name].get("sudo") is sudo
    assert "sudo" not in added(plan)
    assert not plan.not_applied
    said = plan.model_dump_json()
    assert "s3cret" not in said and "Tr0ub4dor" not in said


@pytest.mark.parametrize(
    "request_", ["set the root password to hunter2", "the password for the kiosk is hunter2"]
)
def test_a_password_alone_adds_no_user(request_: str) -> None:
    plan = plan_on(UBUNTU, request_)
    assert not users(plan)
    assert "hunter2" not in plan.model_dump_json()


# --- pronouns and verbs are never user names


@pytest.mark.parametrize(
    ("request_", "names"),
    [
        ("add user bob, give him sudo", ["bob"]),
        ("add user bob and give him sudo", ["bob"]),
        ("add user ed, grant him root access", ["ed"]),
        ("add users ann and ben, give them sudo", ["ann", "ben"]),
    ],
)
def test_pronoun_points_back(request_: str, names: list[str]) -> None:
    plan = plan_on(UBUNTU, request_)
    assert sorted(users(plan)) == names
    assert all(u.get("sudo") is True for u in users(plan).values())
    assert "sudo" not in added(plan)


# --- every user at once


@pytest.mark.parametrize(
    ("request_", "gone"),
    [
        ("remove all users except ops", ["deploy"]),
        ("delete every account except for deploy", ["ops"]),
        ("remove every user but ops", ["deploy"]),
        ("drop both users", ["deploy", "ops"]),
        ("remove all the users", ["deploy", "ops"]),
    ],
)
def test_every_user_removed(request_: str, gone: list[str]) -> None:
    plan = plan_request(request_, _with_users(), mode="refine")
    assert _deleted(plan) == [f"systemConfig.users[name={n}]" for n in gone]
    assert not users(plan)
    assert not plan.not_applied


def test_all_users_but_a_name_not_there_removes_nobody() -> None:
    plan = plan_request("remove all users but admins", _with_users(), mode="refine")
    assert not _deleted(plan)
    assert not users(plan)  # "admins" is no user to add either


# --- a user's SSH key, said with the user: the key is reported, the user is added


@pytest.mark.parametrize(
    ("request_", "sudo"),
    [
        ("add user ops with ssh key ~/.ssh/id_ed25519.pub", None),
        ("add user ops with the public key at https://github.com/ops.keys, sudo", True),
        ("create ops with sudo and ssh key from /srv/keys/ops.pub", True),
        ("add user ops with an ssh key", None),
    ],
)
def test_ssh_key_with_the_user(request_: str, sudo: bool | None) -> None:
    plan = plan_on(UBUNTU, request_)
    assert list(users(plan)) == ["ops"]
    assert users(plan)["ops"].get("sudo") is sudo
    assert len(plan.not_applied) == 1 and "SSH keys" in plan.not_applied[0]
    assert not added(plan)


def test_a_repository_key_is_no_ssh_key() -> None:
    plan = plan_on(UBUNTU, "add the gpg key from https://example.com/key.asc")
    assert not any("SSH keys" in n for n in plan.not_applied)


# --- a user the template does not have: renamed or grouped, reported


@pytest.mark.parametrize(
    "request_", ["rename user ops to operator", "rename the ops account to sre"]
)
def test_renaming_a_missing_user_is_reported(request_: str) -> None:
    plan = plan_on(UBUNTU, request_)
    assert not plan.operations
    assert plan.not_applied and "no user ops" in plan.not_applied[0]


def test_renaming_a_user_there_still_renames() -> None:
    plan = plan_request("rename user ops to operator", _with_users(), mode="refine")
    assert _set(plan) == {"systemConfig.users[name=ops].name": "operator"}


def test_renaming_the_image_is_no_user() -> None:
    plan = plan_on(UBUNTU, "rename the image to edge-gw")
    assert not plan.not_applied


@pytest.mark.parametrize(
    "request_",
    [
        "put ops in the docker group",
        "add ops to the docker group",
        "ops should be in the wheel group",
        "add jenkins to groups docker and adm",
    ],
)
def test_grouping_a_missing_user_is_reported(request_: str) -> None:
    plan = plan_on(UBUNTU, request_)
    assert not added(plan) and not users(plan)
    assert len(plan.not_applied) == 1 and "has no user" in plan.not_applied[0]


@pytest.mark.parametrize(
    ("request_", "groups"),
    [
        ("add user ops. put ops in the docker group", ["docker"]),
        ("add user ops, then add ops to the video group", ["video"]),
    ],
)
def test_grouping_a_user_just_added(request_: str, groups: list[str]) -> None:
    plan = plan_on(UBUNTU, request_)
    assert users(plan)["ops"]["groups"] == groups
    assert not plan.not_applied


def test_grouping_a_user_there() -> None:
    plan = plan_request("put deploy in the docker group", _with_users(), mode="refine")
    assert _set(plan) == {"systemConfig.users[name=deploy].groups": ["docker"]}


def test_putting_a_package_in_the_image_is_no_group() -> None:
    plan = plan_on(UBUNTU, "put htop in the image")
    assert added(plan) == ["htop"] and not plan.not_applied


# --- a user asked for with sudo but no name: reported, never the sudo package


@pytest.mark.parametrize(
    "request_",
    [
        "create an admin with sudo",
        "add a user with sudo",
        "add an admin user with sudo",
        "set up another admin account with root access",
    ],
)
def test_nameless_user_with_sudo(request_: str) -> None:
    plan = plan_on(UBUNTU, request_)
    assert not added(plan) and not users(plan)
    assert any("without a name" in n for n in plan.not_applied)


def test_nameless_user_beside_a_package() -> None:
    plan = plan_on(UBUNTU, "add a user with sudo and htop")
    assert added(plan) == ["htop"]
    assert any("without a name" in n for n in plan.not_applied)


@pytest.mark.parametrize(
    ("request_", "packages"),
    [("install sudo", ["sudo"]), ("add htop and sudo", ["htop", "sudo"])],
)
def test_the_sudo_package_asked_alone(request_: str, packages: list[str]) -> None:
    plan = plan_on(UBUNTU, request_)
    assert added(plan) == packages and not plan.not_applied


def test_a_user_named_after_its_rights_is_no_nameless_user() -> None:
    plan = plan_on(UBUNTU, "add a user named admin with sudo")
    assert users(plan)["admin"]["sudo"] is True
    assert not any("without a name" in n for n in plan.not_applied)


# --- questions about users: a question naming a user answers with the users, shells too


@pytest.mark.parametrize(
    "question",
    ["which groups is ops in?", "what shell does ops use?", "who has sudo?", "list the users"],
)
def test_questions_about_users(question: str) -> None:
    from oic_ai.tools.explain_template import explain_template

    answer = explain_template.invoke({"template": _with_users(), "question": question})
    assert answer.startswith("Users: ops (sudo; groups docker, adm")
    assert "deploy" in answer


def test_a_question_naming_no_user_is_no_user_question() -> None:
    from oic_ai.tools.explain_template import explain_template

    answer = explain_template.invoke({"template": _with_users(), "question": "does it have htop?"})
    assert not answer.startswith("Users:")


# --- rights given to a pronoun: the one user of the template, else reported


def test_pronoun_with_the_one_user_there() -> None:
    base = template_text(UBUNTU)
    text = apply_plan(base, plan_request("add user bob", base, mode="refine")).text
    plan = plan_request("give him sudo", text, mode="refine")
    assert _set(plan) == {"systemConfig.users[name=bob].sudo": True}
    assert not added(plan)


@pytest.mark.parametrize("request_", ["give him sudo", "give them admin rights"])
def test_pronoun_with_no_user_is_reported(request_: str) -> None:
    plan = plan_on(UBUNTU, request_)
    assert not plan.operations
    assert any("no user is named" in n for n in plan.not_applied)


def test_pronoun_among_two_users_is_reported() -> None:
    plan = plan_request("give him sudo", _with_users(), mode="refine")
    assert not plan.operations and not users(plan)
