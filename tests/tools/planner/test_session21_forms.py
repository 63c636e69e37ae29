"""Session 21's forms, reworded: "bake" puts a thing in the image, never names a package."""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("request_text", "packages"),
    [
        ("add htop and bake this into the template", ["htop"]),
        ("bake htop into the image", ["htop"]),
        ("bake in htop", ["htop"]),
        ("baking jq and curl in would be nice", ["jq", "curl"]),
    ],
)
def test_bake_is_a_verb_that_adds_what_it_names(request_text: str, packages: list[str]) -> None:
    plan = plan_on(UBUNTU, request_text)
    added = [name for op in plan.operations if op.op == "add_packages" for name in op.packages]
    assert added == packages
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "request_text", ["we bake images nightly in CI", "can you bake this into an image"]
)
def test_bake_with_no_thing_named_adds_nothing(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert [op for op in plan.operations if op.op == "add_packages"] == []
