"""Target words the request sets aside, and "img" used as a plain word for image (round 3).

"never mind arm64, stay on x86_64" asks for x86_64 only; "skip the installer" asks for no
ISO; "a raw img" is a raw image. The sentences are written for these tests.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES

UBUNTU_ARM = (OUR_TEMPLATES / "ubuntu24-aarch64-edge-container-raw.yml").read_text("utf-8")
UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text("utf-8")


def targets(plan: EditPlan) -> list[dict[str, Any]]:
    return [op.model_dump(exclude_defaults=True) for op in plan.operations if op.op == "set_target"]


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("never mind arm64, x86_64 it is. add htop", {"arch": "x86_64"}),
        ("forget about aarch64; amd64 only", {"arch": "x86_64"}),
        ("drop the arm idea, build it for x64 with tmux", {"arch": "x86_64"}),
    ],
)
def test_a_target_set_aside_is_not_asked_for(request_text: str, wanted: dict[str, str]) -> None:
    plan = plan_request(request_text, UBUNTU_ARM, mode="refine")
    assert not plan.not_applied, plan.not_applied
    assert [{k: v for k, v in t.items() if k in wanted} for t in targets(plan)] == [wanted]


def test_skipping_an_image_type_keeps_the_one_the_template_has() -> None:
    plan = plan_request("ok, skip the installer. hostname dock-2", UBUNTU_ARM, mode="refine")
    assert not plan.not_applied, plan.not_applied
    assert targets(plan) == []


@pytest.mark.parametrize("request_text", ["a raw img for the lab, x86_64", "img file, raw please"])
def test_img_beside_another_image_type_is_the_word_image(request_text: str) -> None:
    plan = plan_request(request_text, UBUNTU, mode="create")
    assert not plan.not_applied, plan.not_applied
    assert all(t.get("image_type") in (None, "raw") for t in targets(plan))


def test_img_alone_is_the_network_boot_image() -> None:
    plan = plan_request("make it an img for pxe", UBUNTU, mode="refine")
    assert any(t.get("image_type") == "img" for t in targets(plan))


@pytest.mark.parametrize(
    "request_text",
    [
        "the hostname should come from the asset tag on each unit",
        "hostname must be derived from the MAC",
        "hostnames should be unique per box",
    ],
)
def test_a_rule_for_deriving_hostnames_is_reported_not_taken_as_a_name(request_text: str) -> None:
    plan = plan_request(request_text, UBUNTU, mode="refine")
    assert not [op for op in plan.operations if op.op == "set_hostname"]
    assert plan.not_applied


def test_a_hostname_after_should_be_is_still_a_name() -> None:
    plan = plan_request("the hostname should be yard-7", UBUNTU, mode="refine")
    assert [op.model_dump()["hostname"] for op in plan.operations if op.op == "set_hostname"] == [
        "yard-7"
    ]


DEBIAN = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text("utf-8")


@pytest.mark.parametrize(
    "request_text",
    ["never mind buster, stay on trixie and add htop", "ok skip the bookworm plan. add htop"],
)
def test_a_release_the_composer_lacks_set_aside_is_not_refused(request_text: str) -> None:
    plan = plan_request(request_text, DEBIAN, mode="refine")
    assert not plan.not_applied, plan.not_applied
    assert any(getattr(op, "op", "") == "add_packages" for op in plan.operations), plan


def test_a_release_the_composer_lacks_is_still_refused_when_asked_for() -> None:
    plan = plan_request("move it to bookworm and add htop", DEBIAN, mode="refine")
    assert any("bookworm" in item for item in plan.not_applied)


@pytest.mark.parametrize(
    ("template", "request_text"),
    [
        ("el10-x86_64-minimal-raw.yml", "never mind, we'll stick with 10"),
        ("debian13-x86_64-minimal-raw.yml", "hmm no, keep 13 for now"),
        ("el10-x86_64-minimal-raw.yml", "alright, release 10 is fine"),
    ],
)
def test_the_templates_own_release_said_by_its_number_changes_nothing(
    template: str, request_text: str
) -> None:
    plan = plan_request(request_text, (OUR_TEMPLATES / template).read_text("utf-8"), mode="refine")
    assert not plan.not_applied, plan.not_applied
    assert plan.operations == []


def test_a_number_that_is_no_release_of_the_template_is_not_read_as_one() -> None:
    el10 = (OUR_TEMPLATES / "el10-x86_64-minimal-raw.yml").read_text("utf-8")
    assert plan_request("stay on 9", el10, mode="refine").not_applied
    assert plan_request("make the disk 10", el10, mode="refine").not_applied


def test_a_release_named_in_a_statement_about_something_else_is_no_request() -> None:
    said = "the scanner driver is only validated on focal. add htop"
    plan = plan_request(said, UBUNTU, mode="refine")
    assert not plan.not_applied, plan.not_applied
    assert [op.model_dump() for op in plan.operations] == [
        {"op": "add_packages", "packages": ["htop"], "kernel": False}
    ]
    still = plan_request("we need focal for the scanner driver", UBUNTU, mode="refine")
    assert still.not_applied  # asked for: refused
