"""Everyday forms from the writer's set a, reworded: where a name goes is no package."""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("request_text", "added"),
    [
        ("put tcpdump on the list", ["tcpdump"]),
        ("add jq to the install list", ["jq"]),
        ("stick htop onto the package list please", ["htop"]),
    ],
)
def test_the_list_a_name_goes_on_is_no_package(request_text: str, added: list[str]) -> None:
    plan = plan_on(DEBIAN, request_text)
    assert [o.model_dump()["packages"] for o in plan.operations] == [added]
    assert plan.not_applied == []


def test_a_name_already_listed_is_said_so() -> None:
    plan = plan_on(DEBIAN, "Add openssh-server to the list.")  # the template has it
    assert plan.operations == [] and plan.not_applied == []
    assert "Already present: openssh-server" in plan.summary
