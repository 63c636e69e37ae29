"""Why a change is asked, said beside it: context, never reported (tools/planner/reasons.py)."""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on

TEMPLATE = "debian13-x86_64-minimal-raw.yml"


def _outcomes(request: str) -> dict[str, str]:
    plan = plan_on(TEMPLATE, request)
    return {c.text: c.outcome for c in plan.clauses}


@pytest.mark.parametrize(
    ("request_text", "reason"),
    [
        ("drop less, security review flagged it", "security review flagged it"),
        ("remove less, the techs never use it", "the techs never use it"),
        ("remove cloud-init, the hubs never see a metadata service", "the hubs never see"),
        ("scrap isolcpus=2, last time it broke the lidar driver", "last time it broke"),
        ("take out quiet, we need the boot messages while debugging", "we need the boot"),
        ("remove less, corporate wants their own pager", "corporate wants their own pager"),
        ("add htop because the night shift keeps asking for it", "because the night shift"),
        ("set the hostname to yard-1, our MDM renames them anyway", "our MDM renames them"),
        ("drop less; apparently it leaks memory", "apparently it leaks memory"),
    ],
)
def test_a_reason_beside_a_change_is_context(request_text: str, reason: str) -> None:
    outcomes = _outcomes(request_text)
    said = [text for text in outcomes if text.startswith(reason) or reason in text]
    assert said, outcomes
    # context, or taken with the change it explains ("it" is what was removed): never reported
    assert all(outcomes[text] in ("context", "applied") for text in said), outcomes
    assert any(o == "applied" for o in outcomes.values()), outcomes


@pytest.mark.parametrize(
    "request_text",
    [
        # a wish for a thing no template holds is still reported
        "add htop, we also need the timezone set",
        # an imperative of its own asks
        "remove less, set the timezone to something sensible",
        # a value said in it asks
        "remove less, we need the disk at 64 gig",
    ],
)
def test_an_ask_beside_a_change_is_still_read_or_reported(request_text: str) -> None:
    plan = plan_on(TEMPLATE, request_text)
    second = plan.clauses[-1]
    assert second.outcome in ("applied", "not_applied"), plan.clauses


def test_a_package_wished_for_beside_a_removal_is_added() -> None:
    plan = plan_on(TEMPLATE, "remove less, we need tmux")
    added = [p for op in plan.operations if op.op == "add_packages" for p in op.packages]
    assert "tmux" in added, plan.operations


def test_a_statement_with_no_change_before_it_is_not_a_reason() -> None:
    # nothing was changed: the statement is not explaining anything, and it is not dropped
    # silently as a reason (the accounting's other readers decide)
    plan = plan_on(TEMPLATE, "bbbbbb qqqq, last time it broke the zzzz driver")
    assert any(c.outcome == "not_applied" for c in plan.clauses), plan.clauses


def _target_ops(request_text: str) -> list[object]:
    plan = plan_on(TEMPLATE, request_text)
    return [op for op in plan.operations if op.op in ("set_target", "set_artifacts")]


@pytest.mark.parametrize(
    "request_text",
    [
        "add htop, it runs fine on arm too",
        "drop less; apparently it leaks memory on arm",
        "remove less, it was slow on the old ubuntu boxes",
        "add htop. our old images were qcow2",
        "add tmux, we used it on the previous arm64 fleet",
    ],
)
def test_a_target_or_format_in_what_was_or_what_it_does_changes_nothing(
    request_text: str,
) -> None:
    assert _target_ops(request_text) == [], request_text
    plan = plan_on(TEMPLATE, request_text)
    assert not plan.not_applied, plan.not_applied


@pytest.mark.parametrize(
    "request_text",
    [
        "add htop and make it arm",
        "add htop; the boards are arm64",
        "add htop, and we need qcow2 as well",
        "add htop, then switch to ubuntu 24.04",
        "arm64 please",
    ],
)
def test_a_target_or_format_asked_for_beside_a_change_is_still_set(request_text: str) -> None:
    assert _target_ops(request_text), request_text
