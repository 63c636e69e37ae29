"""Pasted tickets and tables, asides, hostnames and users (issue 21, round 23, helper p5).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with reworded forms and with near-misses that must not trigger.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.tables import read_tables
from oic_ai.tools.questions import questions_of
from tests.tools.planner.helpers import added, plan_on, template_text, with_packages

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"


def _ops(plan: EditPlan) -> list[dict[str, object]]:
    return [op.model_dump(exclude_none=True) for op in plan.operations]


def _hostname(plan: EditPlan) -> str | None:
    return next((str(op["hostname"]) for op in _ops(plan) if op["op"] == "set_hostname"), None)


def _with_users(*users: tuple[str, bool]) -> str:
    data = yaml.safe_load(template_text(UBUNTU))
    data["systemConfig"]["users"] = [
        {"name": name, "sudo": sudo, "groups": []} for name, sudo in users
    ]
    return yaml.safe_dump(data, sort_keys=False)


# --- a pasted ticket's own fields are context ------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "hostname gw-7\nReviewer: @kim   Sprint 12   Labels: edge, gateway",
        "hostname gw-7. Target date Q4.",
        "hostname gw-7 (assignee: me, reporter: T. Ruiz)",
        "hostname gw-7\nStory points: 5\nPriority: high\nStatus: approved",
        "hostname gw-7 (owner: A. Chen, due 2026-01-31)",
    ],
)
def test_a_tickets_own_fields_are_context(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert _hostname(plan) == "gw-7"
    assert added(plan) == [], plan.operations
    assert plan.not_applied == []


def test_a_ticket_field_does_not_swallow_a_request_after_it() -> None:
    plan = plan_on(UBUNTU, "Priority: high; add htop")
    assert added(plan) == ["htop"]


@pytest.mark.parametrize(
    "said",
    [
        "the owner user should have sudo",  # a field word with no value of its kind
        "status of the build: add htop",
    ],
)
def test_field_words_in_a_sentence_are_no_ticket_field(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert plan.operations or plan.not_applied, "still read or reported"


# --- markdown tables: the key and value columns, not who and when ----------------------


_TABLE = """Requirements:

| # | Requirement | Value | Owner |
|---|---|---|---|
| 1 | Hostname | lobby-kiosk-2 | P. Novak |
| 2 | Packages | htop, tmux | app team |
| 3 | Disk | 10 GiB | infra |
"""


def test_a_requirements_table_is_read_by_its_value_column() -> None:
    plan = plan_on(DEBIAN, _TABLE)
    assert _hostname(plan) == "lobby-kiosk-2"
    assert sorted(added(plan)) == ["htop", "tmux"]
    assert {"op": "set_disk_size", "size": "10GiB"} in _ops(plan)
    assert plan.not_applied == []


def test_a_two_column_table_gives_users_their_sudo() -> None:
    said = "| item | value |\n|---|---|\n| users | builder (no sudo), admin2 (sudo) |\n"
    users = {op["name"]: op["sudo"] for op in _ops(plan_on(EL10, said)) if op["op"] == "add_user"}
    assert users == {"builder": False, "admin2": True}


def test_the_table_rewrite_names_the_columns_left_out() -> None:
    text, notices = read_tables(_TABLE)
    assert "Hostname: lobby-kiosk-2" in text
    assert "P. Novak" not in text and "|" not in text
    assert notices and "Owner" in notices[0]


@pytest.mark.parametrize(
    "table",
    [
        "| mount | size | fs |\n|---|---|---|\n| /data | 4G | xfs |\n",  # no value column
        "| a | value |\n| b | c |\n",  # no rule of dashes under the header
    ],
)
def test_a_table_without_a_key_and_value_is_left_as_written(table: str) -> None:
    assert read_tables(table)[0] == table


# --- asides: who the user is, the hedge "-ish" -----------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "linux noob here. hostname wx-1",
        "total beginner, hostname wx-1",
        "I'm a complete newbie. hostname wx-1",
        "hostname wx-1, for a pi-ish board",
        "hostname wx-1 (CIP-ish requirements)",
    ],
)
def test_who_the_user_is_and_a_hedge_are_context(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert _hostname(plan) == "wx-1"
    assert plan.not_applied == []


def test_a_beginner_word_before_a_thing_is_no_aside() -> None:
    plan = plan_on(UBUNTU, "add a beginner user account called learner")
    assert any(op["op"] == "add_user" and op["name"] == "learner" for op in _ops(plan))


# --- hostnames ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "hostname now edge-x-02",
        "the hostname is now edge-x-02",
        "PRD diff: add htop, hostname now edge-x-02",
    ],
)
def test_now_between_the_label_and_the_value_is_no_value(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert _hostname(plan) == "edge-x-02"
    assert "edge-x-02" not in added(plan)


def test_a_hostname_asked_about_then_named_with_call_it() -> None:
    plan = plan_on(UBUNTU, "whats a hostname? ok fine, call it pi-lab")
    assert _hostname(plan) == "pi-lab"
    cut = plan_on(UBUNTU, "ok whatever, name it pi-lab", earlier="what is a hostname")
    assert _hostname(cut) == "pi-lab"


@pytest.mark.parametrize(
    ("said", "earlier"),
    [
        ("ok, name it pi-lab", ""),  # nothing about the hostname: the image's name
        ("ok, name it pi-lab", "hostname gw-01"),  # the hostname got its value before
    ],
)
def test_call_it_without_a_hostname_question_names_the_image(said: str, earlier: str) -> None:
    plan = plan_on(UBUNTU, said, earlier=earlier)
    assert {"op": "set_image", "name": "pi-lab"} in _ops(plan)
    assert _hostname(plan) is None


def test_whether_the_hostname_matters_is_no_hostname() -> None:
    plan = plan_on(UBUNTU, "is the hostname important? fine, call it lab-3")
    assert _hostname(plan) == "lab-3"


# --- questions: "list the users and the hostname" ---------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "final check - list the users and the hostname",
        "list the packages and the disk size",
        "show me the users and hostname",
    ],
)
def test_a_tell_verb_over_several_fields_only_asks(said: str) -> None:
    assert questions_of(said).only_questions


@pytest.mark.parametrize(
    "said", ["list the users and add htop", "show the kernel line and drop quiet"]
)
def test_a_change_after_a_tell_verb_still_asks(said: str) -> None:
    assert questions_of(said).changes


# --- secure boot key files ----------------------------------------------------------------


def _key_values(plan: EditPlan) -> dict[str, object]:
    return {
        str(op["path"]).rsplit(".", 1)[-1]: op["value"] for op in _ops(plan) if op["op"] == "set"
    }


def test_secure_boot_keys_relative_to_the_template() -> None:
    plan = plan_on(UBUNTU, "secure boot, key sb/db.key, cert sb/db.crt and sb/db.cer")
    assert _key_values(plan) == {
        "secureBootDBKey": "sb/db.key",
        "secureBootDBCrt": "sb/db.crt",
        "secureBootDBCer": "sb/db.cer",
    }
    assert plan.not_applied == []


def test_secure_boot_keys_in_a_folder_said_before_them() -> None:
    plan = plan_on(UBUNTU, "secure boot. the keys are under /srv/sb/: db.key, db.crt, db.cer")
    assert _key_values(plan) == {
        "secureBootDBKey": "/srv/sb/db.key",
        "secureBootDBCrt": "/srv/sb/db.crt",
        "secureBootDBCer": "/srv/sb/db.cer",
    }


def test_a_key_path_up_a_folder_is_never_taken() -> None:
    plan = plan_on(UBUNTU, "secure boot with key ../keys/db.key")
    assert "secureBootDBKey" not in _key_values(plan)


# --- reasons ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "drop vim, security flagged it on the audit",
        "remove vim, the pen testers flagged it during the audit",
    ],
)
def test_a_reason_with_a_place_after_a_removal_is_context(said: str) -> None:
    plan = plan_request(said, with_packages("vim"), mode="refine")
    assert plan.not_applied == []


def test_a_reason_speaking_of_a_package_the_image_has_is_context() -> None:
    plan = plan_request(
        "add logrotate (nginx logs get big)", with_packages("nginx"), mode="refine"
    )
    assert added(plan) == ["logrotate"]
    assert plan.not_applied == []


def test_a_wish_then_the_change_that_grants_it() -> None:
    plan = plan_on(UBUNTU, "the auditors want SSH gone from prod. remove the ssh server.")
    assert plan.not_applied == []
    other = plan_on(UBUNTU, "the ops team wants a bigger disk. add htop")
    assert other.not_applied, "a wish the change after does not grant is still reported"


# --- users --------------------------------------------------------------------------------


def test_remove_that_user_by_a_demonstrative() -> None:
    text = _with_users(("till", False), ("boss", True))
    plan = plan_request(
        "drop that till account, the app handles logins itself", text, mode="refine"
    )
    assert {"op": "delete", "path": "systemConfig.users[name=till]"} in _ops(plan)
    assert not any(op["op"] == "add_user" for op in _ops(plan)), "'itself' is no user"


@pytest.mark.parametrize(
    "said",
    [
        "user should be called ops2 not ops",
        "the user should be ops2, not ops",
        "the username must be ops2 instead of ops",
    ],
)
def test_a_user_renamed_keeps_its_settings(said: str) -> None:
    plan = plan_request(said, _with_users(("ops", True)), mode="refine")
    assert _ops(plan) == [
        {"op": "set", "path": "systemConfig.users[name=ops].name", "value": "ops2"}
    ]


def test_a_new_name_for_a_user_the_template_lacks_renames_nothing() -> None:
    plan = plan_request("user should be called ops2 not ops", _with_users(), mode="refine")
    assert not any(op["op"] == "set" for op in _ops(plan))


def test_a_word_with_its_hedge_glued_is_left_to_the_rules() -> None:
    plan = plan_on(UBUNTU, "add isolcpus=3 and the rt-ish tweaks nohz_full=3")
    assert added(plan) == [], "'tweaks' is no package"
