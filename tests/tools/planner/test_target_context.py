"""A system the user has, had or moves off is context; only the target asked for counts.

"our legacy CBL-Mariner 1.0 nodes run chrony, same on Azure Linux 3" asks for Azure Linux 3:
the old release is what the user comes from, not a target to refuse. The sentences are
written for these tests.
"""

from __future__ import annotations

from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES

AZL = (OUR_TEMPLATES / "azl3-x86_64-minimal-raw.yml").read_text("utf-8")
EL10 = (OUR_TEMPLATES / "el10-x86_64-minimal-raw.yml").read_text("utf-8")


def test_an_old_release_the_user_runs_today_is_not_reported() -> None:
    plan = plan_request(
        "our legacy CBL-Mariner 1.0 nodes run chrony, I need it on Azure Linux 3 too",
        AZL,
        mode="create",
    )
    assert not any("not a target" in entry for entry in plan.not_applied), plan.not_applied


def test_a_system_named_in_passing_leaves_the_asked_dist() -> None:
    plan = plan_request(
        "RHEL-compatible 10 with podman (the old CentOS hosts had docker)", EL10, mode="refine"
    )
    assert not any("CentOS" in entry for entry in plan.not_applied), plan.not_applied


def test_a_release_asked_for_is_still_reported() -> None:
    plan = plan_request("make it CBL-Mariner 2.0 instead", AZL, mode="refine")
    assert any("not a target the composer builds" in e for e in plan.not_applied)


UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text("utf-8")


def test_a_systems_name_that_names_a_program_is_no_target() -> None:
    from oic_ai.tools.retrieval.query_classifier import detect_target_spans

    text = "ubuntu 24.04 for our VMs, with the Azure Linux agent and the debian tools repo"
    assert [m.value for m in detect_target_spans(text) if m.kind == "dist"] == ["ubuntu24"]


def test_the_azure_agent_named_by_its_description_is_the_ubuntu_package() -> None:
    plan = plan_request(
        "a cloud VM image, plus the Azure Linux agent (walinuxagent)", UBUNTU, mode="refine"
    )
    assert not any(op.op == "set_target" for op in plan.operations), plan.operations
    added = [p for op in plan.operations if op.op == "add_packages" for p in op.packages]
    assert "walinuxagent" in added, plan.operations
