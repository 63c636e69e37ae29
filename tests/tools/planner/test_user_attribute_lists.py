"""A user said as a list of attributes after its role word (issue 21, round 7).

The sentences were written for these tests. They check the forms a user comes in when
people list its attributes: the name by its label ("username X", "login name: X"), the
speaker's own account ("and me: X, sudo"), a clause that is only the name and its role
word ("printer user pls"), a system group named without the word "group" ("in www-data"),
and that a role word or a shell after a group list is no group.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.edit_plan import DeleteValue, EditPlan, SetValue
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import added, assert_user, plan_on, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


def plan(request: str) -> EditPlan:
    return plan_on(UBUNTU, request)


@pytest.mark.parametrize(
    ("request_text", "name", "fields"),
    [
        # the name given by its label, after the role word
        (
            "A support account: username helpdesk, in the adm group, login shell /bin/sh.",
            "helpdesk",
            {"groups": ["adm"], "shell": "/bin/sh"},
        ),
        ("add a login, login name: tester, with sudo", "tester", {"sudo": True}),
        ("one more account, user name builder, member of wheel", "builder", {"sudo": True}),
        # the speaker's own account
        ("and me: rnovak, sudo, in groups adm and video", "rnovak", {"sudo": True}),
        ("Me (jlee) with sudo please", "jlee", {"sudo": True}),
        # a system group without the word "group"
        ("a user webdev in www-data, no sudo", "webdev", {"groups": ["www-data"]}),
        ("user scan in lpadmin and scanner", "scan", {"groups": ["lpadmin", "scanner"]}),
    ],
)
def test_a_user_said_as_a_list_of_attributes(
    request_text: str, name: str, fields: dict[str, Any]
) -> None:
    _one_user(request_text, name, fields)


@pytest.mark.parametrize(
    ("request_text", "name", "fields"),
    [
        # "key: value" fields, even split by semicolons
        (
            "User: qa-bot; groups: plugdev, video; sudo: no; shell: /bin/sh",
            "qa-bot",
            {"groups": ["plugdev", "video"], "shell": "/bin/sh"},
        ),
        ("login name: kiosk3, sudo: yes, groups: audio", "kiosk3", {"sudo": True}),
        # the name given later in the clause: by its label, between dashes, in parentheses
        (
            "an account for the testers: name qa, groups adm, shell /bin/sh",
            "qa",
            {"groups": ["adm"], "shell": "/bin/sh"},
        ),
        ("a login for myself — mira — with sudo", "mira", {"sudo": True}),
        ("and an account for me (tk) in wheel", "tk", {"groups": ["wheel"], "sudo": True}),
        ("me as well: olaf, with sudo", "olaf", {"sudo": True}),
        ("please create a login for me, sanna, with sudo", "sanna", {"sudo": True}),
        # "called" after a word that asks; a group set off by commas
        ("service account please, named svc-x, video group", "svc-x", {"groups": ["video"]}),
    ],
)
def test_a_user_given_as_fields_or_named_later(
    request_text: str, name: str, fields: dict[str, Any]
) -> None:
    _one_user(request_text, name, fields)


def _one_user(request_text: str, name: str, fields: dict[str, Any]) -> None:
    """The plan adds exactly the user ``name`` with ``fields`` and reports nothing."""
    result = plan(request_text)
    found = assert_user(result, name, fields, request_text)
    assert list(found) == [name], found
    assert not result.not_applied, result.not_applied


@pytest.mark.parametrize(
    ("request_text", "names"),
    [
        ("the lab needs three accounts, kim, lou and max, each with sudo", ["kim", "lou", "max"]),
        ("one account per operator: op1, op2 and op3", ["op1", "op2", "op3"]),
    ],
)
def test_several_users_after_a_counted_or_distributed_role_word(
    request_text: str, names: list[str]
) -> None:
    result = plan(request_text)
    assert sorted(users(result)) == names, users(result)
    assert not result.not_applied, result.not_applied


def test_add_a_name_with_brief_user_attributes_adds_users_not_packages() -> None:
    result = plan("add ana (sudo, zsh) and ben (no sudo)")
    found = users(result)
    assert set(found) == {"ana", "ben"}, found
    assert found["ana"].get("sudo") is True and not found["ben"].get("sudo")
    assert "ana" not in added(result) and "ben" not in added(result)


def test_a_word_before_shell_ends_a_group_list() -> None:
    found = users(plan("user eve, in groups sudo and video, default shell zsh"))
    assert found["eve"]["groups"] == ["sudo", "video"], found


@pytest.mark.parametrize(
    "request_text",
    ["printer user pls", "Auditor login too.", "lab account please, and htop"],
)
def test_a_clause_of_only_a_name_and_its_role_word_asks_for_the_user(request_text: str) -> None:
    result = plan(request_text)
    found = users(result)
    assert len(found) == 1, (request_text, found)
    name = next(iter(found))
    assert name in ("printer", "auditor", "lab"), found
    assert not result.not_applied, result.not_applied


@pytest.mark.parametrize("request_text", ["a human user too", "Non-root user pls"])
def test_a_word_that_describes_the_user_is_no_name(request_text: str) -> None:
    assert users(plan(request_text)) == {}


def test_a_politeness_word_is_never_a_user_name() -> None:
    found = users(plan("a user pls, called kiosk2"))
    assert list(found) == ["kiosk2"], found


def test_a_role_word_or_a_shell_after_a_group_list_is_no_group() -> None:
    found = users(plan("account ops2, member of wheel, login shell /bin/bash"))
    assert found["ops2"]["groups"] == ["wheel"], found
    found = users(plan("user ana, in groups adm and video, zsh as the login shell"))
    assert found["ana"]["groups"] == ["adm", "video"], found
    assert found["ana"]["shell"] == "/bin/zsh", found


def test_a_login_shell_the_image_lacks_is_installed_when_the_package_is_known() -> None:
    base = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    said = "a user ana with zsh as the login shell"
    result = plan_request(said, base, mode="refine", known=frozenset({"zsh"}))
    assert users(result)["ana"]["shell"] == "/bin/zsh"
    assert added(result) == ["zsh"]
    # never invented: a shell no index, catalog, library or Debian's list knows is not added
    said = "a user ana with fish as the login shell"
    result = plan_request(said, base, mode="refine", known=frozenset())
    assert users(result)["ana"]["shell"] == "/bin/fish"
    assert added(result) == []


def _with_user(first: str, request: str) -> EditPlan:
    """Plan ``request`` on the template that ``first`` made."""
    from oic_ai.tools.applier import apply_plan

    base = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    text = apply_plan(base, plan_request(first, base, mode="refine")).text
    return plan_request(request, text, mode="refine")


@pytest.mark.parametrize(
    ("request_text", "groups", "sudo"),
    [
        ("take builder out of the video group, the GPU box is gone", ["sudo", "dialout"], None),
        ("please remove builder from the dialout and video groups", ["sudo"], None),
        ("drop builder from the sudo group", ["video", "dialout"], False),
        ("remove builder from video and dialout", ["sudo"], None),
    ],
)
def test_leaving_a_group_keeps_the_user(
    request_text: str, groups: list[str], sudo: bool | None
) -> None:
    result = _with_user(
        "add a user builder with sudo in the sudo, video and dialout groups", request_text
    )
    values = {op.path: op.value for op in result.operations if isinstance(op, SetValue)}
    assert not any(isinstance(op, DeleteValue) for op in result.operations), result.operations
    assert values.get("systemConfig.users[name=builder].groups") == groups, values
    assert values.get("systemConfig.users[name=builder].sudo") == sudo, values
    assert not result.not_applied, result.not_applied


@pytest.mark.parametrize(
    ("request_text", "name", "fields"),
    [
        # system groups after the word "groups", separated by spaces only
        (
            "a user kiosk, groups audio video plugdev",
            "kiosk",
            {"groups": ["audio", "video", "plugdev"]},
        ),
        # system groups alone, set off by commas
        (
            "user tess, fish as shell, gpio + i2c",
            "tess",
            {"groups": ["gpio", "i2c"], "shell": "/bin/fish"},
        ),
        # the short role word "acct"
        ("a service acct svcmon in the adm group", "svcmon", {"groups": ["adm"]}),
        ("one admin acct, named rhea", "rhea", {"sudo": True}),
        # sudo's state said after the word
        ("Account qa-lead, sudo enabled.", "qa-lead", {"sudo": True}),
        # (a False sudo is left out of the plan)
        ("a user intern with sudo disabled", "intern", {"sudo": None}),
        # "add NAME:" and the user's attributes after the colon
        (
            "Add rescuer: groups adm and disk, shell /bin/bash",
            "rescuer",
            {"groups": ["adm", "disk"], "shell": "/bin/bash"},
        ),
    ],
)
def test_user_attributes_in_short_forms(
    request_text: str, name: str, fields: dict[str, Any]
) -> None:
    result = plan(request_text)
    found = assert_user(result, name, fields, request_text)
    assert list(found) == [name], found
    assert not result.not_applied, result.not_applied


def test_a_package_listed_after_a_user_is_no_group() -> None:
    result = plan("add a user ops with sudo, nginx, htop")
    found = assert_user(result, "ops", {"sudo": True}, "nginx")
    assert "groups" not in found["ops"], found
    assert added(result) == ["nginx", "htop"]
