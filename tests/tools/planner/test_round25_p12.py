"""Round 25 (p12): users and values said in forms the planner did not read, with near-misses.

Users listed under a header with numbers or dashes, a user renamed by its place, a shell's
package installed with it, an account asked with "login as", the word "sudo" by a user,
sudo taken "from" a user, an arrow after a field's label, a value pointed at by an earlier
turn, questions that read the image back, and the reason said beside an undo. The
sentences are written for these tests.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.nodes.classify import route_request
from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import EditPlan, SetValue
from oic_ai.tools.ordinals import resolve_turn_values
from oic_ai.tools.planner import plan_request
from oic_ai.tools.undo_reasons import bare_removals, undo_reasons
from tests.tools.planner.helpers import plan_after, plan_on, template_text, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
TWO_USERS = "users: deploy (sudo, groups docker,adm, shell /bin/bash) and jenkins (no sudo)"


def _added(plan: EditPlan) -> list[str]:
    return [p for op in plan.operations if op.op == "add_packages" for p in op.packages]


def _values(plan: EditPlan) -> dict[str, Any]:
    return {op.path: op.value for op in plan.operations if isinstance(op, SetValue)}


# --- users listed under a header, numbered or bulleted, name set off by a dash or colon


@pytest.mark.parametrize(
    "said",
    [
        "Users:\n1. ops - sudo, group dialout\n2. svc-plc - no sudo, shell /sbin/nologin\n",
        "accounts:\n* ops: sudo, in dialout\n* svc-plc: no sudo, shell /sbin/nologin",
        "Users to create:\n1) ops \u2014 sudo, group dialout\n2) svc-plc \u2014 /sbin/nologin",
        "users:\n(a) 'ops' - with sudo and the dialout group\n(b) svc-plc - /sbin/nologin",
    ],
)
def test_a_numbered_or_dashed_list_of_users_gives_each_its_attributes(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    found = users(plan)
    assert found["ops"].get("sudo") is True
    assert "dialout" in found["ops"]["groups"]
    assert found["svc-plc"]["shell"] == "/sbin/nologin"
    assert not found["svc-plc"].get("sudo")
    assert plan.not_applied == []


def test_a_numbered_list_under_no_users_header_is_no_list_of_users() -> None:
    plan = plan_on(UBUNTU, "Packages:\n1. htop - for debugging\n2. jq")
    assert users(plan) == {}
    assert "htop" in _added(plan)


def test_a_pasted_config_key_in_a_users_list_is_no_users_name() -> None:
    found = users(plan_on(UBUNTU, "users:\n- name: azureuser\n"))
    assert set(found) == {"azureuser"}


def test_a_users_item_without_attributes_is_still_a_user() -> None:
    found = users(plan_on(UBUNTU, "users:\n- ops - sudo\n- backup"))
    assert set(found) == {"ops", "backup"}


# --- a user renamed by its place ("the first user"), the old name given


@pytest.mark.parametrize(
    "said",
    [
        "actually make the first user 'devops' instead of deploy, same settings",
        "call the first account devops instead of deploy",
        "devops instead of deploy for the first user, keep everything else",
        # as the graph reads it once the ordinal names the user
        "make the user deploy 'devops' instead of deploy, same settings",
    ],
)
def test_a_user_renamed_by_its_place_keeps_its_settings(said: str) -> None:
    plan = plan_after(UBUNTU, TWO_USERS, said)
    assert _values(plan) == {"systemConfig.users[name=deploy].name": "devops"}
    assert plan.not_applied == []


def test_a_rename_to_a_word_that_names_no_user_renames_nothing() -> None:
    plan = plan_after(UBUNTU, TWO_USERS, "make the first user admin instead of jenkins")
    assert not any(path.endswith(".name") for path in _values(plan))


def test_a_rename_of_a_user_the_template_lacks_renames_nothing() -> None:
    plan = plan_after(UBUNTU, TWO_USERS, "make the first user devops instead of bob")
    assert not any(path.endswith(".name") for path in _values(plan))


# --- a shell's package asked for beside the shell


@pytest.mark.parametrize(
    ("said", "shell"),
    [
        ("three users: alice (sudo), bob (group docker), carol (shell /bin/zsh, so install zsh)",
         "zsh"),
        ("add user carol with shell /bin/fish, so install fish", "fish"),
        ("add user carol (shell /bin/zsh), and install zsh", "zsh"),
    ],
)  # fmt: skip
def test_a_shell_and_its_package_asked_together_installs_it(said: str, shell: str) -> None:
    plan = plan_on(AZL, said)
    assert shell in _added(plan)
    assert users(plan)["carol"]["shell"] == f"/bin/{shell}"
    assert "install" not in users(plan)


def test_a_bare_shell_after_a_user_is_still_its_shell() -> None:
    plan = plan_on(AZL, "add user carol, zsh")
    assert users(plan)["carol"]["shell"] == "/bin/zsh"


# --- an account asked with "login as"


@pytest.mark.parametrize(
    "said",
    [
        "and i want to login as tom with admin rights",
        "also, i would like to log in as tom, with sudo",
        "so we can login as tom with admin rights",
        "and i'd like to be able to log on as tom (admin)",
    ],
)
def test_logging_in_as_a_name_asks_for_that_user(said: str) -> None:
    plan = plan_on("debian13-x86_64-minimal-raw.yml", said)
    assert users(plan)["tom"].get("sudo") is True
    assert "login" not in _added(plan)


def test_logging_in_with_keys_names_no_user() -> None:
    plan = plan_on("debian13-x86_64-minimal-raw.yml", "and i want to login with ssh keys")
    assert users(plan) == {}


def test_a_login_wanted_as_well_is_no_user_named_well() -> None:
    plan = plan_on(UBUNTU, "and the auditors want a login as well, 'auditor', no sudo")
    assert "well" not in users(plan)


# --- the word "sudo" by a user, in whatever words around it


@pytest.mark.parametrize(
    "said",
    [
        "hostname conv-gw-pune rakh do, aur ek user 'ops' bana do sudo ke saath",
        "user ops bana do, sudo wala",
        "ein Benutzer ops, sudo bitte",
    ],
)
def test_the_word_sudo_by_a_user_gives_it_sudo(said: str) -> None:
    assert users(plan_on(AZL, said))["ops"].get("sudo") is True


@pytest.mark.parametrize(
    "said",
    [
        "a user ops and install sudo",
        "a user ops, the sudo package too",
        "add a user ops, sudo: no",
        "a user ops please. sudo is already installed",
    ],
)
def test_sudo_as_a_package_a_label_or_another_sentence_gives_none(said: str) -> None:
    assert not users(plan_on(AZL, said))["ops"].get("sudo")


# --- sudo taken "from" a user


@pytest.mark.parametrize(
    "said",
    [
        "and remove the sudo from the hub user, we'll use a separate admin",
        "remove the sudo rights from hub",
        "strip his admin rights from hub",
        "drop the sudo from hub, and add jq",
    ],
)
def test_sudo_removed_from_a_user_takes_it_away(said: str) -> None:
    plan = plan_after(UBUNTU, "add a user named hub with sudo", said)
    assert _values(plan)["systemConfig.users[name=hub].sudo"] is False
    assert plan.not_applied == []


def test_removing_the_sudo_package_changes_no_user() -> None:
    plan = plan_after(UBUNTU, "add a user named hub with sudo", "remove the sudo package")
    assert "systemConfig.users[name=hub].sudo" not in _values(plan)


# --- an arrow after a field's label


@pytest.mark.parametrize(
    ("said", "hostname"),
    [
        ("hostname -> pilot-edge-a", "pilot-edge-a"),
        ("hostname => edge-7", "edge-7"),
        ("Hostname \u2192 edge-7", "edge-7"),
        ("hostname pilot-edge-01 -> pilot-edge-a", "pilot-edge-a"),
    ],
)
def test_an_arrow_after_the_hostname_label_sets_it(said: str, hostname: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert [op.hostname for op in plan.operations if op.op == "set_hostname"] == [hostname]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("said", "size"), [("disk 8GiB -> 16GiB", "16GiB"), ("disk size -> 20GiB", "20GiB")]
)
def test_an_arrow_after_the_disk_label_sets_the_new_size(said: str, size: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert [op.size for op in plan.operations if op.op == "set_disk_size"] == [size]


def test_an_arrow_elsewhere_is_left_as_written() -> None:
    from oic_ai.tools.planner.arrows import read_arrows

    for said in ("boot flow: PXE -> kernel + initrd", "podman -> docker", "a -> b"):
        assert read_arrows(said) == said


# --- a value pointed at by an earlier turn


def _turns(*requests: str, template: str = UBUNTU) -> tuple[str, list[dict[str, Any]]]:
    text = template_text(template)
    entries: list[dict[str, Any]] = []
    for number, request in enumerate(requests, start=1):
        text = apply_plan(text, plan_request(request, text, mode="refine")).text
        entries.append({"turn": number, "request": request, "template": text, "image": 1})
    return text, entries


@pytest.mark.parametrize(
    "said",
    [
        "Ana, the hostname should really be the original one from the first message, thanks",
        "put the hostname back to what it was in turn 1",
        "use the hostname from my original request",
    ],
)
def test_a_hostname_pointed_at_by_its_turn_is_that_turns(said: str) -> None:
    current, entries = _turns("hostname scanhub, add jq", "rename the host to scanhub-east")
    rewritten = resolve_turn_values(said, current, entries)
    assert "hostname scanhub" in rewritten and "scanhub-east" not in rewritten
    plan = plan_request(rewritten, current, mode="refine")
    assert [op.hostname for op in plan.operations if op.op == "set_hostname"] == ["scanhub"]


@pytest.mark.parametrize(
    "said",
    [
        "what was the hostname in the first message?",  # a question sets nothing
        "the hostname from turn 7 please",  # no such turn
        "the first message was sent by Ana",  # no field named
    ],
)
def test_a_pointer_without_a_value_to_set_leaves_the_request(said: str) -> None:
    current, entries = _turns("hostname scanhub", "rename the host to scanhub-east")
    assert resolve_turn_values(said, current, entries) == said


def test_a_package_put_back_like_it_was_in_a_turn_drops_the_pointer() -> None:
    current, entries = _turns("add nginx and jq", "hostname sco", "remove nginx")
    said = "put nginx back like it was in turn 2, then add a qcow2 output"
    assert resolve_turn_values(said, current, entries) == "put nginx back, then add a qcow2 output"


def test_a_package_the_pointed_turn_lacked_keeps_the_pointer() -> None:
    current, entries = _turns("add jq", "hostname sco")
    said = "put nginx back like it was in turn 2"
    assert resolve_turn_values(said, current, entries) == said


# --- questions that read the image back, and a bare "status?"


@pytest.mark.parametrize(
    "said",
    [
        "Can you read back the users and their groups",
        "read me back the hostname",
        "could you go over the partitions?",
        "status?",
        "Status",
    ],
)
def test_reading_the_image_back_is_a_question(said: str) -> None:
    route = route_request(said, template_text(UBUNTU))
    assert route["intent"] == "explain", route


@pytest.mark.parametrize("said", ["status: waiting on QA, add htop", "read the docs and add htop"])
def test_those_words_inside_a_change_are_no_question(said: str) -> None:
    route = route_request(said, template_text(UBUNTU))
    assert route["intent"] != "explain", route


# --- the reason said beside an undo


@pytest.mark.parametrize(
    ("said", "reason"),
    [
        ("hmm, undo the last two changes, I checked with the team and we don't need them",
         "and we don't need them"),
        ("undo that, they're not needed after all", ", they're not needed after all"),
        ("undo the last change since we won't use it anymore", "since we won't use it anymore"),
    ],
)  # fmt: skip
def test_saying_the_undone_changes_are_not_needed_is_the_undos_reason(
    said: str, reason: str
) -> None:
    assert [said[a:b] for a, b in undo_reasons(said)] == [reason]
    assert [said[a:b] for a, b in bare_removals(said)] == [reason]


@pytest.mark.parametrize(
    "said",
    [
        "undo, we don't need nginx",
        "undo that and remove it",
        "undo it, we don't need it but keep htop",
    ],
)
def test_a_need_that_names_something_or_goes_on_is_no_reason(said: str) -> None:
    assert undo_reasons(said) == []


def test_an_undo_with_its_reason_only_undoes(agent: Any) -> None:
    session = None
    result = None
    for turn in (
        "debian 13 raw x86_64, hostname dock-1",
        "add a user 'dockadmin' with sudo",
        "also add nodejs",
        "hmm, undo the last two changes, I checked with the team and we don't need them",
    ):
        result = agent.generate(turn, session=session)
        session = result.session
    assert result is not None
    assert result.not_applied == []
    doc = yaml.safe_load(result.template or "")
    assert "nodejs" not in doc["systemConfig"]["packages"]
    assert "dockadmin" not in [u["name"] for u in doc["systemConfig"].get("users") or []]
