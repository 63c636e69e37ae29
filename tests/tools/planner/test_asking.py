"""Which clauses ask for something, and which are context (issue 21, round 2).

Who asked, headers, small talk, purposes and reasons ask for nothing and are never
reported as not applied; a wish the template cannot hold still is. The sentences are
written for these tests, not copied from the labelled conversations.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner.asking import is_bullet_line, read_clause
from oic_ai.tools.planner.state import Mode
from tests.tools.planner.helpers import UBUNTU_MINIMAL, plan_on


def plan(request: str, mode: Mode = "refine") -> EditPlan:
    return plan_on(UBUNTU_MINIMAL, request, mode=mode)


@pytest.mark.parametrize(
    "clause",
    [
        "my supervisor",  # who
        "Priyanka",
        "the Kestrel squad",
        "ticket OPS-993",  # headers
        "Checklist item four",
        "ty",  # small talk
        "rofl",
        "its raining here",
        "for the lab interns",  # purposes
        "to act as a print server",
        "per Ahmed from networking",
        "she retired",  # reasons and statements
        "nobody ever logs in there",
        "we only ever use the console",
        "the firewall appliance does routing",
        "vim isn't allowed on those hosts",
        "the spare laptops have 500 GB drives",
    ],
)
def test_clauses_that_ask_for_nothing(clause: str) -> None:
    assert read_clause(clause).asking != "asks", read_clause(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "bump the root partition",  # an imperative heads it
        "and then point chrony at our clock server",
        "the machines should sync their clocks hourly",  # a wish
        "we'd like a login banner",
        "auto-login for the kiosk user",  # a field noun a template cannot hold
        "static ip 10.1.2.3",  # a value
        "disk 12 gigs",
        "the syslog to our collector",
    ],
)
def test_clauses_that_ask(clause: str) -> None:
    assert read_clause(clause).asking == "asks", read_clause(clause)


def test_a_list_item_under_a_header_asks() -> None:
    text = "Needs:\n- the blue box\n- hostname x"
    assert is_bullet_line(text, text.index("the blue"))
    assert not is_bullet_line(text, text.index("Needs"))
    assert read_clause("the blue box", bullet=True).asking == "asks"
    assert read_clause("the blue box").asking == "context"


def test_who_asked_and_why_are_context_in_a_real_request() -> None:
    result = plan(
        "Hey, our architect (Ingrid) reviewed it. Ticket NET-51:\n"
        "- add htop\n"
        "- hostname relay-3\n"
        "She says the old relays are retired, which is why this came up. Cheers"
    )
    assert result.not_applied == []
    kinds = {c.text: c.outcome for c in result.clauses}
    assert kinds["Ingrid"] == "context"
    assert kinds["Ticket NET-51"] == "context"
    assert kinds["add htop"] == "applied"


def test_a_wish_the_template_cannot_hold_is_still_reported() -> None:
    result = plan("for the night shift: set the time zone to Asia/Seoul, if you can")
    assert len(result.not_applied) == 1
    assert "time zone" in result.not_applied[0]
    assert result.operations == []


def test_an_unknown_item_of_a_list_under_a_verb_is_reported() -> None:
    result = plan("install htop, tmux, and the Zorblax suite")
    assert any("Zorblax" in entry for entry in result.not_applied)


def test_a_header_with_a_field_noun_is_context_when_its_list_was_read() -> None:
    result = plan("Kernel arguments:\n- nomodeset\n- add quiet")
    assert result.not_applied == []


def test_the_rest_of_a_clause_that_was_read_is_context() -> None:
    result = plan("raw disk image for the lab's sd cards, with htop")
    assert result.not_applied == []


@pytest.mark.parametrize(
    "clause",
    [
        "nvm",  # chat shorthand
        "tbh idk",
        "because the vendor only certifies that kernel",  # a reason, not an imperative
        "since our uplink is metered",
        "although the old boxes never had it",
        "somebody's bound to complain",  # a subject's contraction
        "turns out the lab never used it",
        "we've got two racks of boards that need the identical build",  # relative clause
        "the remaining settings stay",  # what stays as it is
        "our procurement team approved the budget",  # a definite subject, a past verb
        "operators prefer nano over vim",  # people and their verb
        "NUC-class",  # a description made from a name
        "I need it for the audit binder",  # what the answer before it is for
    ],
)
def test_more_clauses_that_ask_for_nothing(clause: str) -> None:
    assert read_clause(clause).asking != "asks", read_clause(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "we need a login that can sudo",  # the wish comes before the relative clause
        "the disk must stay at 16 GiB",  # a wish, and a value
        "operators need sudo",
        "the account named ops gets sudo",  # a field noun, not a past statement
        "I need it removed",  # a pronoun and what to do with it
    ],
)
def test_clauses_like_them_that_still_ask(clause: str) -> None:
    assert read_clause(clause).asking == "asks", read_clause(clause)


def test_a_reason_before_so_and_a_change_is_context() -> None:
    result = plan("The NOC wants dashboards to work, so the image needs prometheus-node-exporter")
    assert result.not_applied == []
    kinds = {c.text: c.outcome for c in result.clauses}
    assert kinds["The NOC wants dashboards to work"] == "context"
    # no change after "so": the wish is still reported
    assert plan("The NOC wants dashboards to work").not_applied


@pytest.mark.parametrize(
    "clause",
    [
        "extra pkgs from it land later",  # put off to later
        "lidar support afterwards",
        "the test rigs dont have keys enrolled",  # a negation typed without its apostrophe
        "the camera already streams over rtsp",  # what already is
        "Procurement pushed back on the disk",  # what someone did (a past verb)
        "please don't pull the vendor agent in yet",  # put off: "not ... yet"
        "core 0 we need for the fieldbus master",  # a fronted object and its purpose
    ],
)
def test_deferred_and_stated_clauses_ask_for_nothing(clause: str) -> None:
    assert read_clause(clause).asking != "asks", read_clause(clause)


def test_a_statement_before_a_change_is_its_reason_but_a_field_still_asks() -> None:
    result = plan("the nginx access log swallows everything, bump the disk to 90 gig")
    assert result.not_applied == []
    assert plan("ops gets sudo, add htop").not_applied  # a field with a verb: a request


def test_a_header_before_a_numbered_list_is_context_when_its_items_were_read() -> None:
    # its words lean towards a report ("compliance review"), but it only introduces
    result = plan(
        "Thanks! A couple of items from the security review:\n\n"
        "1. Please add auditd.\n2. The hostname should be sec-01."
    )
    assert result.not_applied == []
    assert result.clauses[0].outcome == "context"


def test_a_fronted_package_with_its_purpose_still_asks() -> None:
    result = plan("mosquitto we need for the telemetry")
    assert [n for op in result.operations for n in getattr(op, "packages", [])] == ["mosquitto"]
