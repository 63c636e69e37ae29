"""Users named around their role word, in any order and shorthand (issue 21, round 3).

The sentences were written for these tests; they check where a user's name may stand
(before "user"/"account", after a role word of another language), the "w/" shorthand,
and that a hyphenated name holding a role word ("admin-it") is one name.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.text import RequestText
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import assert_user, plan_on, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


def plan(request: str, template: str = UBUNTU) -> EditPlan:
    return plan_on(template, request)


@pytest.mark.parametrize(
    ("request_text", "name", "fields"),
    [
        # the name before the role word, said of with attributes
        ("backup user, no sudo, shell /bin/sh", "backup", {"shell": "/bin/sh"}),
        ("builder account with sudo, in the kvm group", "builder", {"sudo": True}),
        ("the grafana login goes in the video group", "grafana", {"groups": ["video"]}),
        ("the bot account needs to be in the plugdev group", "bot", {"groups": ["plugdev"]}),
        ("qa user with sudo, member of adm group", "qa", {"sudo": True, "groups": ["adm"]}),
        # "w/" is "with", a role word of another language names a user
        ("add a user maint w/ sudo", "maint", {"sudo": True}),
        ("benutzer werkstatt with sudo", "werkstatt", {"sudo": True}),
        ("utilisateur caisse, no sudo", "caisse", {}),
    ],
)
def test_a_users_name_around_its_role_word(
    request_text: str, name: str, fields: dict[str, Any]
) -> None:
    result = plan(request_text)
    found = assert_user(result, name, fields, request_text)
    assert list(found) == [name]  # "member", "account" or "group" is no second user
    assert not result.not_applied, result.not_applied


def test_a_name_holding_a_role_word_is_one_name() -> None:
    result = plan("add users: kasse (no sudo) and admin-lab (sudo)")
    found = users(result)
    assert set(found) == {"kasse", "admin-lab"}, found
    assert not found["kasse"].get("sudo")
    assert found["admin-lab"].get("sudo") is True


def test_with_and_without_shorthand_read_as_words() -> None:
    text = RequestText("image w/ docker, w/o nano; see a/w/o and W/ x")
    assert text.original == "image with docker, without nano; see a/w/o and With x"


def test_a_name_before_the_role_word_needs_attributes() -> None:
    # "the main user" or "default account" says nothing about a new user
    for request_text in ("the main user, no sudo", "same user, in the video group"):
        assert not users(plan(request_text)), request_text


def test_rm_removes_a_user_the_template_has() -> None:
    text = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    first = plan_request("add a user kiosk", text, mode="refine")
    assert "kiosk" in users(first)
    changed = apply_plan(text, first).text
    result = plan_request("rm the kiosk user", changed, mode="refine")
    assert any(op.op == "delete" and "kiosk" in op.path for op in result.operations), (
        result.operations
    )
    assert not result.not_applied


def test_a_user_called_x_is_no_repository_codename() -> None:
    result = plan(
        "add a login called ops-bot with sudo. Also add our repo at "
        "https://deb.example.com/tools with the key https://deb.example.com/key.asc"
    )
    assert "ops-bot" in users(result), result.operations
    repos = [op for op in result.operations if op.op == "add_repository"]
    assert repos and all(getattr(r, "codename", None) != "ops-bot" for r in repos), repos


def test_her_account_is_the_user_the_request_named_before() -> None:
    text = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    first = plan_request("add users mara and tobi", text, mode="refine")
    changed = apply_plan(text, first).text
    result = plan_request("mara left the lab. Please delete her login.", changed, mode="refine")
    deleted = [op.path for op in result.operations if op.op == "delete"]
    assert deleted == ["systemConfig.users[name=mara]"], result.operations
    assert not result.not_applied
    # with no user named before it, the pronoun names nobody: reported, nothing removed
    alone = plan_request("delete his account", changed, mode="refine")
    assert not [op for op in alone.operations if op.op == "delete"], alone.operations
    assert alone.not_applied
