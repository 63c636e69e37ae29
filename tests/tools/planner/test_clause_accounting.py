"""Every clause of a request ends as exactly one outcome, and only real misses are reported.

Issue 21, item 1: applied (which operation), chose the base (create mode), context (no
change asked), a reference to an earlier turn (the conversation's job), or not applied
with the reason and a suggestion. The wordings here are not the bank's examples.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner.clauses import sentence_at, sentence_spans, split_clauses
from oic_ai.tools.planner.state import Mode
from tests.tools.planner.helpers import plan_on

EL10 = "el10-x86_64-minimal-raw.yml"


def plan(request: str, mode: Mode = "refine") -> EditPlan:
    return plan_on("ubuntu24-x86_64-minimal-raw.yml", request, mode=mode)


def outcomes(result: EditPlan) -> list[tuple[str, str]]:
    return [(c.text, c.outcome) for c in result.clauses]


def test_a_request_splits_into_clauses_with_their_spans() -> None:
    text = "Add htop, then make the disk 8GiB (it is small). Repo https://x.example/a,b thanks!"
    clauses = split_clauses(text)
    assert [c.text for c in clauses] == [
        "Add htop",
        "then make the disk 8GiB",
        "it is small",
        "Repo https://x.example/a,b thanks",
    ]
    assert all(text[c.start : c.end] == c.text for c in clauses)
    assert [c.parenthetical for c in clauses] == [False, False, True, False]
    assert [c.sentence for c in clauses] == [0, 0, 0, 1]


def test_every_clause_gets_one_outcome_and_only_misses_are_reported() -> None:
    result = plan(
        "Hello! Add htop, our kiosks are offline anyway, undo the previous change, "
        "and set the time zone to Asia/Tokyo. Many thanks"
    )
    assert outcomes(result) == [
        ("Hello", "context"),
        ("Add htop", "applied"),
        ("our kiosks are offline anyway", "context"),
        ("undo the previous change", "reference"),
        ("and set the time zone to Asia/Tokyo", "not_applied"),
        ("Many thanks", "context"),
    ]
    assert result.clauses[1].operations == ["packages"]
    assert len(result.not_applied) == 1
    # (read by the timezone label's words: the clause is quoted whole, "and" included)
    assert "set the time zone to Asia/Tokyo' — the timezone" in result.not_applied[0]
    assert "earlier turn" in result.summary  # the reference is named, not dropped


def test_a_clause_that_chose_the_base_says_so_in_create_mode() -> None:
    result = plan("an ubuntu image for the kiosks in our museum, with htop", mode="create")
    base = [c for c in result.clauses if c.outcome == "base"]
    assert base and base[0].reason == "chose the base: started from ubuntu24-x86_64-minimal-raw"
    assert result.not_applied == []


def test_a_colon_that_introduces_applied_clauses_is_context() -> None:
    result = plan("tighten it up: hostname gw-4 and add fail2ban")
    assert outcomes(result)[0] == ("tighten it up", "context")
    assert result.not_applied == []


def test_a_value_said_twice_is_not_reported() -> None:
    result = plan("and please, dev needs an admin account named 'dev'")
    assert [op.op for op in result.operations] == ["add_user"]
    assert result.not_applied == []


def test_the_accounting_round_trips_and_never_reaches_a_model() -> None:
    from oic_ai.tools.plan_schema import plan_schema

    result = plan("add htop, thanks")
    assert EditPlan.model_validate_json(result.model_dump_json()) == result
    assert "clauses" not in plan_schema()["properties"]


def test_text_with_control_characters_is_read_by_no_rule_and_reported() -> None:
    # a terminal escape or a bidi override is nobody's typing: nothing in it becomes a
    # package, a size or context, and the answer says what was left unread
    result = plan("add jq and \x1b]2;owned\x07 then \u202egrow the disk to 9GiB \x9b40m")
    added = [n for op in result.operations if op.op == "add_packages" for n in op.packages]
    assert added == ["jq"]
    assert not any(op.op == "set_disk_size" for op in result.operations)
    unread = [n for n in result.not_applied if "not text" in n]
    assert len(unread) == 2 and any("owned" in n for n in unread)


def test_a_clause_about_the_field_the_request_changed_is_applied() -> None:
    result = plan(
        "I want the serial console on ttyS1 at 57600. Please don't add the console entry "
        "twice if it's already there"
    )
    assert result.not_applied == []
    # a field no change of the request covers is still reported
    result = plan("add a user ops with sudo, and the account should be locked after 3 failures")
    assert result.not_applied


def test_a_value_after_a_clause_that_named_the_hostname_sets_it() -> None:
    result = plan("the hostname in the old image was edge-$ROW, just use edge-r12 from now on")
    assert [op.model_dump(exclude_defaults=True) for op in result.operations] == [
        {"hostname": "edge-r12"}
    ]
    assert result.not_applied == []


@pytest.mark.parametrize(
    "said", ["the hostname was wrong last time", "the hostname looks odd", "hostname stays"]
)
def test_a_verb_after_hostname_is_no_hostname(said: str) -> None:
    assert not [op for op in plan(said).operations if op.op == "set_hostname"]


@pytest.mark.parametrize(
    ("said", "name"), [("hostname: was-01", "was-01"), ("hostname is gw1", "gw1")]
)
def test_a_hostname_that_starts_like_such_a_verb_is_still_one(said: str, name: str) -> None:
    ops = [op.model_dump(exclude_defaults=True) for op in plan(said).operations]
    assert ops == [{"hostname": name}]


def test_a_clause_naming_only_what_an_applied_value_holds_explains_it() -> None:
    result = plan("radeon must stay out of the way; modprobe.blacklist=radeon on the cmdline is ok")
    assert result.not_applied == []
    # another name than the value's is still a request of its own
    assert plan("add modprobe.blacklist=radeon, and radeon must leave the initramfs").not_applied


@pytest.mark.parametrize(
    "request_text",
    [
        "Bastion box for the OpenShift estate. el10 raw, x86_64",
        "Self-hosted k3s edge nodes on Ampere Altra (arm64) hardware. el10, aarch64, raw",
    ],
)
def test_an_opening_title_that_says_what_the_machine_is_chose_the_base(request_text: str) -> None:
    result = plan_on(EL10, request_text, mode="create")
    assert result.not_applied == []
    assert result.clauses[0].outcome == "base"


def test_an_unknown_lower_case_name_in_an_opening_title_is_still_reported() -> None:
    result = plan_on(EL10, "zorblatt for the OpenShift estate. el10 raw", mode="create")
    assert result.not_applied


@pytest.mark.parametrize(
    "said",
    ["Configure journald to keep a month of logs", "Configure the logs to persist across reboots"],
)
def test_an_imperative_the_bank_finds_near_a_remark_is_still_reported(said: str) -> None:
    # the bank's context examples are statements ("logs can live on ..."); a clause headed
    # by a verb that asks for a change no template field holds is a miss, not a remark
    result = plan(said)
    assert result.operations == []
    assert [o for _, o in outcomes(result)] == ["not_applied"]
    assert result.not_applied and said.split()[0] in result.not_applied[0]


@pytest.mark.parametrize(
    "said", ["keep it simple", "leave the rest as is", "go with the defaults", "start from this"]
)
def test_an_imperative_that_asks_for_no_change_stays_context(said: str) -> None:
    result = plan(said)
    assert result.operations == [] and result.not_applied == []


def test_refusing_anything_of_a_kind_after_a_removal_is_its_reason() -> None:
    result = plan("drop avahi, we don't need anything announcing itself on the network")
    assert result.not_applied == []
    assert outcomes(result)[-1][1] == "context"
    # said alone it asks for something no rule reads, and is reported
    alone = plan("we don't want anything announcing itself on the network")
    assert [o for _, o in outcomes(alone)] == ["not_applied"]


def test_a_past_statement_about_a_named_package_is_a_reason() -> None:
    result = plan("drop chrony, the ops team replaced it with systemd-timesyncd years ago")
    assert result.not_applied == []
    assert outcomes(result)[-1][1] == "context"


@pytest.mark.parametrize(
    "said",
    [
        "it has to come up straight into a fullscreen browser",
        "the unit must power on into a fullscreen browser, nothing else",
    ],
)
def test_a_clause_ending_on_a_preposition_heads_the_applied_clause_after_it(said: str) -> None:
    result = plan(said)
    assert result.operations  # the browser (the kiosk) was read
    assert result.not_applied == []


def test_a_remark_with_one_unknown_word_beside_a_change_is_context() -> None:
    result = plan("add i2c-tools, the sensors hang off a pca9548 mux")
    assert result.operations and result.not_applied == []
    # words that are not English at all are still reported, beside a change or not
    assert plan("add htop, wibbly flonk").not_applied
    assert plan("the sensors hang off a pca9548 mux").not_applied


def test_a_sentence_is_found_by_any_position_in_its_clauses() -> None:
    said = "add docker.io, jq and htop. then a 4G swap partition"
    clauses = split_clauses(said)
    first, second = sentence_spans(clauses)
    assert said[slice(*first)] == "add docker.io, jq and htop"  # the dot in a name ends none
    assert said[slice(*second)] == "then a 4G swap partition"
    assert sentence_at(clauses, said.index("htop")) == first
    assert sentence_at(clauses, said.index("swap")) == second
    assert sentence_at(clauses, said.index(". ") + 1) is None  # between two sentences
