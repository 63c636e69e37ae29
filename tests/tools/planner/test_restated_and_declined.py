"""Values said twice, plain adjectives, declined options and the end of a list of users.

The wordings here were written for these tests, not taken from the labelled conversations.
"""

from __future__ import annotations

from oic_ai.tools.edit_plan import EditPlan
from tests.tools.planner.helpers import ops_of, plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


def plan(request: str) -> EditPlan:
    return plan_on(UBUNTU, request)


def test_the_same_disk_size_said_twice_is_one_change_and_no_miss() -> None:
    result = plan("the target boards carry 20 gig of flash. size it to precisely 20 gig")
    assert [o["size"] for o in ops_of(result, "set_disk_size")] == ["20GiB"]
    assert result.not_applied == []


def test_two_different_disk_sizes_are_not_both_taken() -> None:
    result = plan("the target boards carry 20 gig of flash. size it to precisely 30 gig")
    assert len(ops_of(result, "set_disk_size")) <= 1
    assert result.not_applied  # the second size is reported, never silently dropped


def test_a_plain_adjective_before_what_was_read_asks_for_nothing_more() -> None:
    result = plan("could you make it a normal installer iso instead")
    assert ops_of(result, "set_target")[0]["image_type"] == "iso"
    assert result.not_applied == []


def test_no_supplementary_groups_belongs_to_the_user() -> None:
    result = plan("create an account viewer without sudo and in no supplementary groups")
    users = ops_of(result, "add_user")
    assert [u["name"] for u in users] == ["viewer"]
    assert "groups" not in users[0] and "sudo" not in users[0]
    assert result.not_applied == []


def test_an_option_the_user_asks_about_and_declines_is_context() -> None:
    result = plan("gui? nope. add htop")
    assert ops_of(result, "add_packages")[0]["packages"] == ["htop"]
    assert result.not_applied == []
    assert ("gui", "context") in [(c.text, c.outcome) for c in result.clauses]


def test_an_option_asked_about_without_an_answer_is_not_declined() -> None:
    result = plan("timezone? set it to Europe/Oslo")
    assert result.not_applied  # a wish the template cannot hold is still reported


def test_a_list_of_users_ends_where_another_change_starts() -> None:
    result = plan("accounts: ops (sudo), viewer no sudo, hostname rig-4, install curl and jq")
    assert sorted(u["name"] for u in ops_of(result, "add_user")) == ["ops", "viewer"]
    assert ops_of(result, "add_packages")[0]["packages"] == ["curl", "jq"]
    assert result.not_applied == []


def test_a_list_item_ends_at_the_end_of_its_line() -> None:
    # a numbered list of wishes, one per line: the last name of a line is never joined to
    # the first word of the next ("jq" then "Priya wants ...", "curl" then "2) ...")
    result = plan("1) Priya wants tmux and jq\n2) Omar wants curl\n3) add a user omar")
    assert ops_of(result, "add_packages")[0]["packages"] == ["tmux", "jq", "curl"]
    assert [u["name"] for u in ops_of(result, "add_user")] == ["omar"]
    assert result.not_applied == []


def test_a_verb_at_the_end_of_a_line_still_governs_the_next() -> None:
    result = plan("please install\nstrace and lsof")
    assert ops_of(result, "add_packages")[0]["packages"] == ["strace", "lsof"]


def test_add_it_points_back_to_what_the_request_named() -> None:
    result = plan("the old image had a 3 GiB /srv partition, xfs. please add that")
    assert [o["mount_point"] for o in ops_of(result, "add_partition")] == ["/srv"]
    assert result.not_applied == []


def test_add_it_with_nothing_named_before_is_still_reported() -> None:
    result = plan("it is what we always had. add that one")
    assert result.not_applied
