"""Several users in one request, each with its own rights (issue 21, round 5).

The sentences were written for these tests. They check how attributes bind to users:
to the user named nearest before them, to every user named before a distributive word
("both", "each", "all of them"), to a user named again later ("dave gets sudo"), and to
the one user of the template when a sentence points at it ("it", "the account").
"""

from __future__ import annotations

from functools import partial
from typing import Any

from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import plan_after, plan_on, set_values, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
_then = partial(plan_after, UBUNTU)  # a request planned after a first one


def _found(request: str) -> dict[str, dict[str, Any]]:
    result = plan_on(UBUNTU, request)
    assert not result.not_applied, (request, result.not_applied)
    return users(result)


def test_each_user_keeps_its_own_rights_across_sentences() -> None:
    found = _found(
        "account 'kasse', no sudo, groups lp and plugdev. also a 'helpdesk' login with sudo"
    )
    assert set(found) == {"kasse", "helpdesk"}, found
    assert found["kasse"].get("groups") == ["lp", "plugdev"] and not found["kasse"].get("sudo")
    assert found["helpdesk"].get("sudo") is True and not found["helpdesk"].get("groups")


def test_a_role_word_as_the_name_with_an_elliptic_without() -> None:
    found = _found("add user admin with sudo and user visitor without")
    assert set(found) == {"admin", "visitor"}, found
    assert found["admin"].get("sudo") is True and not found["visitor"].get("sudo")


def test_both_applies_to_every_user_named_and_a_later_mention_binds_to_its_user() -> None:
    found = _found("accounts: carol and dave, both in audio and video groups, dave gets sudo")
    assert set(found) == {"carol", "dave"}, found  # "video groups" names no user
    for name in ("carol", "dave"):
        assert found[name].get("groups") == ["audio", "video"], found
    assert found["dave"].get("sudo") is True and not found["carol"].get("sudo")


def test_each_after_users_with_their_own_rights() -> None:
    found = _found("users `ops` with sudo and `mon` without, each on zsh")
    assert found["ops"].get("shell") == found["mon"].get("shell") == "/bin/zsh", found
    assert found["ops"].get("sudo") is True and not found["mon"].get("sudo")


def test_a_quoted_name_before_its_role_word() -> None:
    found = _found("add a `deployer` login, sudo, in the adm group")
    assert found == {"deployer": {"name": "deployer", "groups": ["adm"], "sudo": True}}
    listed = _found("to do:\n1. disk 10GiB\n2. 'fieldtech' admin account")
    assert listed["fieldtech"].get("sudo") is True, listed
    # a name after the role word wins over a word before a role modifier
    assert set(_found("add a shop admin account shopadm that does have sudo")) == {"shopadm"}


def test_a_user_the_template_has_takes_groups_and_loses_sudo() -> None:
    result = _then("add a user kiosk with sudo", "kiosk needs input + video groups, no sudo")
    sets = set_values(result)
    assert sets["systemConfig.users[name=kiosk].groups"] == ["input", "video"], sets
    assert sets["systemConfig.users[name=kiosk].sudo"] is False
    refused = _then("add a user kiosk with sudo", "the kiosk account must not be able to sudo")
    assert set_values(refused)["systemConfig.users[name=kiosk].sudo"] is False
    later = _then("add a user kiosk with sudo", "kiosk user can't sudo. put it in the input group")
    assert set_values(later)["systemConfig.users[name=kiosk].groups"] == ["input"]


def test_it_means_the_one_user_of_the_template_and_nothing_when_there_are_two() -> None:
    result = _then("add a user ops", "fine, mark it as sudo then")
    assert set_values(result) == {"systemConfig.users[name=ops].sudo": True}
    assert not result.not_applied, result.not_applied
    two = _then("add users ops and dev", "fine, mark it as sudo then")
    assert not set_values(two)


def test_a_pasted_preseed_user_survives_password_redaction() -> None:
    pasted = (
        "our old installer answers:\n"
        "d-i passwd/username string clerk\n"
        "d-i passwd/user-password password Tr0ub4dor\n"
        "d-i pkgsel/include string htop\n"
        "make a debian 13 template like that"
    )
    base = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    result = plan_request(pasted, base, mode="refine")
    assert "clerk" in users(result), (result.operations, result.not_applied)
    assert "Tr0ub4dor" not in result.model_dump_json()
    assert not any("user-password" in n and "no rule" in n for n in result.not_applied)


def test_a_quoted_group_and_forgetting_a_user_by_name_before_its_role_word() -> None:
    first = "users `web` and `batch`, both with zsh"
    grouped = _then(first, "the user batch should be in a `spool` group as well")
    assert set_values(grouped) == {"systemConfig.users[name=batch].groups": ["spool"]}
    forgotten = _then(first, "forget the batch account altogether")
    assert [op.path for op in forgotten.operations] == ["systemConfig.users[name=batch]"]
    assert not users(forgotten), users(forgotten)  # "account altogether" is no new user


def test_a_quoted_role_word_is_a_name_and_a_name_said_again_takes_what_follows() -> None:
    found = _found("add a 'kiosk' user without sudo and an 'admin' user with sudo")
    assert found["admin"].get("sudo") is True and not found["kiosk"].get("sudo"), found
    found = _found("accounts for sam and eli, both zsh, sam in wheel")
    assert found["sam"].get("shell") == found["eli"].get("shell") == "/bin/zsh", found
    assert found["sam"].get("groups") == ["wheel"] and not found["eli"].get("groups")
