"""Users referred to by "one", by a role word used as the name, or by a pronoun (issue 21, round 9).

The sentences were written for these tests. They check that "one called X" after a user
names a second user, that "can do sudo" gives sudo, that a bare "admin" joined to a list
of users with attributes of its own is an account named admin, that "remove him" removes
the one user of the template the request named, and that "keep the X group" said after a
user keeps that group and is read.
"""

from __future__ import annotations

from functools import partial

import pytest

from oic_ai.tools.edit_plan import DeleteValue, SetValue
from tests.tools.planner.helpers import added, plan_after, plan_on, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
_then = partial(plan_after, UBUNTU)  # a request planned after a first one


def test_one_called_after_a_user_is_a_second_user_who_can_do_sudo() -> None:
    result = plan_on(
        UBUNTU, "Make a user named kasse, not an admin. And one called chef who can do sudo."
    )
    found = users(result)
    assert set(found) == {"kasse", "chef"}, (found, result.not_applied)
    assert not found["kasse"].get("sudo")
    assert found["chef"].get("sudo") is True
    assert not result.not_applied, result.not_applied


def test_one_called_without_a_user_before_is_no_user() -> None:
    result = plan_on(UBUNTU, "add one called htop")
    assert not users(result)
    assert added(result) == ["htop"]


def test_a_bare_admin_joined_to_a_user_is_an_account_named_admin() -> None:
    result = plan_on(UBUNTU, "account clerk with no sudo, plus admin with sudo in the wheel group")
    found = users(result)
    assert set(found) == {"clerk", "admin"}, found
    assert not found["clerk"].get("sudo")  # the role word gives no sudo to the user before
    assert found["admin"].get("sudo") is True
    assert found["admin"].get("groups") == ["wheel"]


@pytest.mark.parametrize(
    ("first", "said", "deleted"),
    [
        # "him" is the user named before
        (
            "users tom and ria, both with sudo",
            "tom moved to another site, delete him",
            ["systemConfig.users[name=tom]"],
        ),
        # "it" is the user the sentence before named (round 10)
        (
            "accounts 'kiosk' and 'tech', both without sudo",
            "We can't ship a 'tech' account on the units. Remove it. Keep kiosk.",
            ["systemConfig.users[name=tech]"],
        ),
        # "them" with no user named, "it" after a package: no user goes
        ("users tom and ria, both with sudo", "the packages are wrong, remove them", []),
        ("a user tech without sudo and add htop", "htop is not needed, remove it", []),
    ],
)
def test_a_pronoun_removes_the_user_named_before_or_none(
    first: str, said: str, deleted: list[str]
) -> None:
    result = _then(first, said)
    found = [op.path for op in result.operations if isinstance(op, DeleteValue)]
    assert found == deleted, (found, result.not_applied)
    assert not deleted or not result.not_applied, result.not_applied


def test_keep_the_group_after_a_user_is_read_as_the_users_group() -> None:
    result = _then(
        "add docker.io and a user builder, groups docker, no sudo",
        "builder needs sudo after all, the jobs install things. keep the docker group",
    )
    # "keep the docker" is no package to keep: the group belongs to the user
    assert not result.not_applied, result.not_applied
    changed = {op.path: op.value for op in result.operations if isinstance(op, SetValue)}
    assert changed.get("systemConfig.users[name=builder].sudo") is True, changed
    assert "docker" in changed.get("systemConfig.users[name=builder].groups", ["docker"])


def test_a_user_described_first_and_named_last_gets_its_device_group() -> None:
    result = plan_on(
        UBUNTU,
        "the account which reads the camera needs access to the webcam, the name is cam",
    )
    found = users(result)
    assert list(found) == ["cam"], (found, result.not_applied)
    assert found["cam"].get("groups") == ["video"]
    assert not result.not_applied, result.not_applied


def test_access_to_a_serial_device_is_the_dialout_group() -> None:
    result = plan_on(UBUNTU, "a user called meter who is allowed to read from the RS485 adapter")
    assert users(result)["meter"].get("groups") == ["dialout"], users(result)


def test_quoted_names_set_off_with_attributes_are_users() -> None:
    result = plan_on(
        UBUNTU,
        "We need a couple of logins. 'kasse': /bin/sh, in lp, no sudo. And 'backup-bot' with "
        "/usr/sbin/nologin as its shell.",
    )
    found = users(result)
    assert set(found) == {"kasse", "backup-bot"}, (found, result.not_applied)
    assert found["kasse"].get("groups") == ["lp"] and found["kasse"].get("shell") == "/bin/sh"
    assert found["backup-bot"].get("shell") == "/usr/sbin/nologin"
    assert not result.not_applied, result.not_applied


def test_a_user_of_the_template_referred_to_by_its_role_word_asks_nothing() -> None:
    result = _then("users: till (no sudo), boss (sudo)", "drop boss, the techs use the till acct")
    deleted = [op.path for op in result.operations if isinstance(op, DeleteValue)]
    assert deleted == ["systemConfig.users[name=boss]"], deleted
    assert not added(result), added(result)  # "acct" is no package here
    assert not result.not_applied, result.not_applied
