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
