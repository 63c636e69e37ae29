"""Users said the way round 11's writers say them (issue 21, round 11).

The sentences were written for these tests: a name given to the account just mentioned
("the build user, call it 'builder'"), a name set off after "too", a name taken back for
another at once ("a user bob, no, call it 'rob'": the last one wins, the first leaves no
trace), sudo given through a group ("sudo via wheel"), and a shell "as the shell" before
more words.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "said",
    [
        "and the build user, call it 'builder', goes in the docker group, no sudo",
        "plus a build account - name it builder - in the docker group without sudo",
    ],
)
def test_a_name_given_to_the_account_just_mentioned(said: str) -> None:
    result = plan_on(UBUNTU, said)
    found = users(result)
    assert set(found) == {"builder"}, (found, result.not_applied)
    assert found["builder"].get("groups") == ["docker"] and not found["builder"].get("sudo")
    assert not [op for op in result.operations if op.op == "set_metadata"], result.operations


def test_a_name_set_off_after_too_is_the_account_asked_for() -> None:
    result = plan_on(UBUNTU, "the auditors want a login as well, 'auditor', no sudo")
    found = users(result)
    assert set(found) == {"auditor"}, (found, result.not_applied)
    assert not found["auditor"].get("sudo")


@pytest.mark.parametrize(
    "said",
    [
        "add a user bob, no, call it 'rob', with sudo",
        "user bob - actually rob - with sudo",
        "create a user called bob, sorry, 'rob', with sudo",
        "a user bob, no, make it rob, with sudo",
    ],
)
def test_a_name_taken_back_for_another_leaves_only_the_last(said: str) -> None:
    result = plan_on(UBUNTU, said)
    found = users(result)
    assert set(found) == {"rob"}, (found, result.not_applied)
    assert found["rob"].get("sudo") is True
    assert not [n for n in result.not_applied if "bob" in n], result.not_applied


@pytest.mark.parametrize("said", ["add a user ops, no, with sudo", "user ops, actually in wheel"])
def test_an_attribute_after_a_change_of_mind_is_no_new_name(said: str) -> None:
    found = users(plan_on(UBUNTU, said))
    assert set(found) == {"ops"}, found
    assert found["ops"].get("sudo") is True


@pytest.mark.parametrize(
    "said", ["user root2, sudo via wheel", "a user root2, sudo through the wheel group"]
)
def test_sudo_through_a_group_puts_the_user_in_it(said: str) -> None:
    result = plan_on(UBUNTU, said)
    found = users(result)
    assert set(found) == {"root2"}, (found, result.not_applied)
    assert found["root2"].get("groups") == ["wheel"] and found["root2"].get("sudo") is True
    assert not result.not_applied, result.not_applied


def test_a_role_word_named_as_the_user_with_sudo_alone_after_it() -> None:
    found = users(plan_on(UBUNTU, "user admin, sudo"))
    assert set(found) == {"admin"} and found["admin"].get("sudo") is True, found


def test_a_shell_named_as_the_shell_before_more_words() -> None:
    result = plan_on(UBUNTU, "a user kai with fish as the login shell so install it too")
    found = users(result)
    assert found.get("kai", {}).get("shell") == "/bin/fish", (found, result.not_applied)


def test_a_group_set_off_after_a_name_given_later_is_no_second_user() -> None:
    result = plan_on(UBUNTU, "we need a service account for the CI, name it 'ci-bot', docker group")
    found = users(result)
    assert set(found) == {"ci-bot"}, (found, result.not_applied)
    assert found["ci-bot"].get("groups") == ["docker"]
    assert not result.not_applied, result.not_applied


def test_call_them_after_an_account_for_people_and_groups_set_off_by_dashes() -> None:
    result = plan_on(UBUNTU, "make a user for the operators - call them 'ops' - wheel, zsh")
    found = users(result)
    assert set(found) == {"ops"}, (found, result.not_applied)
    assert found["ops"].get("groups") == ["wheel"] and found["ops"].get("shell") == "/bin/zsh"


@pytest.mark.parametrize(
    "said",
    [
        "add a user qa in the video group, actually the render group",
        "a user qa in the video group, no, in render",
    ],
)
def test_a_group_taken_back_for_another_leaves_only_the_last(said: str) -> None:
    found = users(plan_on(UBUNTU, said))
    assert found.get("qa", {}).get("groups") == ["render"], found


def test_sudo_said_again_the_other_way_keeps_the_last() -> None:
    found = users(plan_on(UBUNTU, "add a user qa with sudo, no, no sudo, in the video group"))
    assert not found.get("qa", {}).get("sudo") and found["qa"].get("groups") == ["video"], found


def test_without_root_in_a_purpose_after_sudo_takes_nothing_back() -> None:
    said = "user lee with sudo, put him in dialout so he can read the modem without root"
    found = users(plan_on(UBUNTU, said))
    assert found.get("lee", {}).get("sudo") is True, found
