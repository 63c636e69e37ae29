"""Users said the way round 13's writers say them (issue 21, round 13).

The sentences were written for these tests: users that must not exist ("make sure
there's no demo or guest account") are removed when the template has them and need
nothing when it has not, and a word before the role word describes the account when a
name follows it ("a maintenance user svc1").
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import ops_of, plan_on, users

VIRT = "debian13-x86_64-virtualization-host-raw.yml"  # has the user hvadmin
DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "said",
    [
        "make sure there's no hvadmin or demo account on it",
        "ensure there are no accounts named demo, hvadmin",
        "it must ship with no user called hvadmin",
    ],
)
def test_a_user_that_must_not_exist_is_removed(said: str) -> None:
    result = plan_on(VIRT, said)
    deleted = [op["path"] for op in ops_of(result, "delete")]
    assert deleted == ["systemConfig.users[name=hvadmin]"], result
    assert not users(result) and not result.not_applied, result


def test_a_user_that_must_not_exist_and_is_not_there_needs_nothing() -> None:
    result = plan_on(DEBIAN, "make sure there's no demo or guest account in the image")
    assert not result.operations and not result.not_applied, result
    assert "There is no user demo in the template" in result.summary, result


def test_no_before_other_words_is_no_user() -> None:
    result = plan_on(DEBIAN, "add a user ops, no sudo")
    assert users(result) == {"ops": {"name": "ops"}}, result


@pytest.mark.parametrize(
    "said",
    ["add a maintenance user svc1", "we need a field-tech account svc1 in dialout"],
)
def test_a_word_before_the_role_word_describes_a_named_account(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert set(users(result)) == {"svc1"}, result
