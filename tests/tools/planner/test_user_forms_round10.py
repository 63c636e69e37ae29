"""Users said the way field engineers and product managers say them (issue 21, round 10).

The sentences were written for these tests. They check a name after an adding verb
("set up builder account"), a kind word between the article and a quoted name ("a
dedicated 'maint' account"), a name given with "should be called", a quoted name before
"account for ...", groups a user must not be in ("but not in wheel"), "needs to be able
to sudo", the name people "log in as" with the sentences after it that leave out their
subject, "Remove it" for the user the sentence before named, "Keep X" for a user that
stays, and "its shell" for the one user of the template.
"""

from __future__ import annotations

from functools import partial

from tests.tools.planner.helpers import added, plan_after, plan_on, set_values, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
_then = partial(plan_after, UBUNTU)  # a request planned after a first one


def test_a_name_right_after_an_adding_verb_is_a_user_with_its_group() -> None:
    result = plan_on(UBUNTU, "set up builder account with the podman group, no sudo")
    found = users(result)
    assert set(found) == {"builder"}, (found, result.not_applied)
    assert found["builder"].get("groups") == ["podman"]
    assert not found["builder"].get("sudo")
    assert not result.not_applied, result.not_applied


def test_a_kind_word_before_a_quoted_name_starts_a_second_user() -> None:
    result = plan_on(
        UBUNTU,
        "Add a user 'front' without sudo and a dedicated 'maint' account that should have sudo",
    )
    found = users(result)
    assert set(found) == {"front", "maint"}, (found, result.not_applied)
    assert not found["front"].get("sudo")  # the second user's sudo is its own
    assert found["maint"].get("sudo") is True


def test_a_name_given_with_should_be_called_and_the_word_before_the_role() -> None:
    result = plan_on(
        UBUNTU,
        "the lab account should be called 'student', no admin rights, and put it in the "
        "plugdev group",
    )
    found = users(result)
    assert set(found) == {"student"}, (found, result.not_applied)
    assert found["student"].get("groups") == ["plugdev"]
    assert not found["student"].get("sudo")
    assert added(result) == []  # "lab" describes the account; it is no package
    assert not result.not_applied, result.not_applied


def test_a_quoted_name_before_account_for_is_the_name() -> None:
    result = plan_on(UBUNTU, "we also need a 'relay' account for the bridge daemon, no sudo")
    assert set(users(result)) == {"relay"}, (users(result), result.not_applied)


def test_not_in_a_group_takes_the_user_out_of_it_and_its_sudo() -> None:
    result = _then(
        "a user clerk in the wheel and adm groups",
        "clerk should stay in adm but not in wheel",
    )
    changed = set_values(result)
    assert changed.get("systemConfig.users[name=clerk].groups") == ["adm"], changed
    assert changed.get("systemConfig.users[name=clerk].sudo") is False, changed


def test_not_in_a_group_for_a_new_user_keeps_it_out() -> None:
    result = plan_on(UBUNTU, "user reader in the adm group, not in the sudo group")
    found = users(result)
    assert found["reader"].get("groups") == ["adm"], found
    assert not found["reader"].get("sudo")


def test_able_to_sudo_gives_sudo_and_not_able_takes_it() -> None:
    given = _then("a user tech without sudo", "tech needs to be able to sudo now")
    assert set_values(given).get("systemConfig.users[name=tech].sudo") is True, given
    taken = _then("a user tech with sudo", "tech must not be able to sudo")
    assert set_values(taken).get("systemConfig.users[name=tech].sudo") is False, taken


def test_the_name_people_log_in_as_is_a_user_and_the_next_sentences_are_its() -> None:
    result = plan_on(
        UBUNTU, "the drivers log in as 'fleet'. must be in the dialout group, and plugdev. no sudo"
    )
    found = users(result)
    assert set(found) == {"fleet"}, (found, result.not_applied)
    assert found["fleet"].get("groups") == ["dialout", "plugdev"]
    assert not found["fleet"].get("sudo")
    assert not result.not_applied, result.not_applied


def test_its_shell_is_the_shell_of_the_one_user() -> None:
    result = _then("user rover in the dialout group", "make its shell zsh")
    assert set_values(result).get("systemConfig.users[name=rover].shell") == "/bin/zsh", result
    assert not result.not_applied, result.not_applied


def test_a_quoted_name_said_to_be_the_account() -> None:
    result = plan_on(UBUNTU, "the backup login should be 'vault', no sudo")
    assert set(users(result)) == {"vault"}, (users(result), result.not_applied)
    admin = plan_on(UBUNTU, "the admin account is 'boss', with sudo")
    assert users(admin).get("boss", {}).get("sudo") is True, (users(admin), admin.not_applied)
    assert added(admin) == []  # "with sudo" is the account's, not the sudo package


def test_a_capability_word_after_an_adding_verb_with_user_attributes_is_a_user() -> None:
    result = plan_on(UBUNTU, "please add kiosk user without sudo rights")
    assert set(users(result)) == {"kiosk"}, (users(result), result.not_applied)
    assert added(result) == []


def test_does_not_need_sudo_takes_sudo_and_give_name_sudo_gives_it() -> None:
    taken = _then("a user mech with sudo", "mech doesnt need sudo anymore")
    assert set_values(taken).get("systemConfig.users[name=mech].sudo") is False, taken
    given = _then("a user mech without sudo", "give mech sudo")
    assert set_values(given).get("systemConfig.users[name=mech].sudo") is True, given
    assert added(given) == []  # the sudo of the user, not the sudo package
    short = _then("a user mech without sudo", "mech shd have sudo too")
    assert set_values(short).get("systemConfig.users[name=mech].sudo") is True, short


def test_a_group_name_split_in_two_by_dictation_is_joined() -> None:
    result = plan_on(UBUNTU, "user radio in the dial out group, and groups plug dev and www data")
    found = users(result)
    assert found.get("radio", {}).get("groups") == ["dialout", "plugdev", "www-data"], (
        found,
        result.not_applied,
    )
    removed_from = _then(
        "user radio in dialout and plugdev", "take radio out of the plug dev group"
    )
    assert set_values(removed_from).get("systemConfig.users[name=radio].groups") == ["dialout"]


def test_logging_in_with_a_thing_names_no_user() -> None:
    result = plan_on(UBUNTU, "the night crew log in with keys")
    assert not users(result), users(result)
    named = plan_on(UBUNTU, "we sign in with the account relay2, in dialout")
    assert users(named).get("relay2", {}).get("groups") == ["dialout"], users(named)
