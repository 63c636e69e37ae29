"""A model's plan is held to the package rule and the clause accounting (issue 21)."""

from __future__ import annotations

from oic_ai.tools.edit_plan import AddPackages, EditPlan, SetHostname
from oic_ai.tools.planner.model_check import LEFT_OUT, check_model_plan
from tests.tools.planner.helpers import UBUNTU_MINIMAL, added, template_text

UBUNTU = template_text(UBUNTU_MINIMAL)


def check(request: str, *operations: object) -> EditPlan:
    plan = EditPlan(summary="model", operations=list(operations))  # type: ignore[arg-type]
    return check_model_plan(plan, request, UBUNTU, mode="refine")


def test_a_package_nothing_knows_and_nobody_asked_for_is_dropped_and_reported() -> None:
    result = check("add htop", AddPackages(packages=["htop", "qqzzx-agent"]))
    assert added(result) == ["htop"]
    assert result.not_applied and result.not_applied[0].startswith("'qqzzx-agent' — not added")


def test_an_account_or_a_host_name_never_becomes_a_package() -> None:
    result = check(
        "add a user ops with sudo and call the machine gw-7",
        AddPackages(packages=["ops", "gw-7", "sudo"]),
    )
    assert added(result) == ["sudo"]


def test_a_package_the_request_marks_stays_even_when_nothing_knows_it() -> None:
    result = check("install the package acme-agent", AddPackages(packages=["acme-agent"]))
    assert added(result) == ["acme-agent"] and result.not_applied == []


def test_every_clause_is_accounted_and_a_left_out_one_is_reported() -> None:
    result = check(
        "thanks! add htop and set the hostname to edge-3",
        AddPackages(packages=["htop"]),
    )
    outcomes = [(c.text, c.outcome) for c in result.clauses]
    assert outcomes == [
        ("thanks", "context"),
        ("add htop", "applied"),
        ("and set the hostname to edge-3", "not_applied"),
    ]
    assert any(LEFT_OUT in entry for entry in result.not_applied)


def test_a_clause_the_model_acted_on_is_applied() -> None:
    result = check("set the hostname to edge-3", SetHostname(hostname="edge-3"))
    assert [c.outcome for c in result.clauses] == ["applied"]
    assert result.not_applied == []
