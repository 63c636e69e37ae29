"""Nothing a request asks for is dropped or misread (issue 12, item 15).

Whatever the builtin planner does not fully use appears under "not applied"; a span one
rule leaves behind is never read by another rule as something else.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner.state import Mode
from tests.tools.planner.helpers import UBUNTU_MINIMAL, plan_on

MODES = pytest.mark.parametrize("mode", ["create", "refine"])


def plan(request: str, mode: Mode) -> EditPlan:
    return plan_on(UBUNTU_MINIMAL, request, mode=mode)


def ops(result: EditPlan, name: str) -> list[dict[str, Any]]:
    return [
        {"op": op.op, **op.model_dump(exclude_defaults=True)}
        for op in result.operations
        if op.op == name
    ]


@MODES
@pytest.mark.parametrize("request_text", ["remove all packages", "install everything you have"])
def test_a_clause_no_rule_used_is_not_applied(mode: str, request_text: str) -> None:
    result = plan(request_text, mode)
    assert not ops(result, "remove_packages") and not ops(result, "add_packages")
    assert any(request_text in entry for entry in result.not_applied), result.not_applied


@MODES
def test_the_unused_clause_is_reported_beside_the_used_one(mode: str) -> None:
    result = plan("add htop and remove all packages", mode)
    assert ops(result, "add_packages") == [{"op": "add_packages", "packages": ["htop"]}]
    assert [e.split(" — ")[0] for e in result.not_applied] == ["'remove all packages'"]


@MODES
def test_repository_options_are_not_read_as_kernel_arguments(mode: str) -> None:
    # [trusted=yes] is the template's own way to trust a repository without a key
    result = plan("add repository http://example.invalid/ubuntu [trusted=yes]", mode)
    assert ops(result, "add_repository") == [
        {"op": "add_repository", "url": "http://example.invalid/ubuntu", "pkey": "[trusted=yes]"}
    ]
    assert not ops(result, "set_kernel")
    assert result.not_applied == []


def test_options_before_the_url_are_reported_too() -> None:
    # an arch= that leaves out the image's own architecture (x86_64) is reported; one that
    # includes it asks nothing new and is read (round 12)
    result = plan("add repo [arch=arm64] https://x.example/apt codename noble", "refine")
    assert ops(result, "add_repository") == [
        {"op": "add_repository", "url": "https://x.example/apt", "codename": "noble"}
    ]
    assert len(result.not_applied) == 1 and "[arch=arm64]" in result.not_applied[0]
    result = plan("add repo [arch=amd64] https://x.example/apt codename noble", "refine")
    assert result.not_applied == []


@pytest.mark.parametrize(
    "request_text",
    ["add htop [trusted=yes]", "get http://x.example/?debug=1", "add htop (loglevel=3)"],
)
def test_a_key_value_inside_a_bracket_or_url_is_not_a_kernel_argument(request_text: str) -> None:
    result = plan(request_text, "refine")
    assert not ops(result, "set_kernel"), result.operations
    assert result.not_applied


def test_bare_kernel_arguments_still_work() -> None:
    result = plan("isolcpus=2-3 nohz_full=2-3", "refine")
    assert ops(result, "set_kernel") == [
        {"op": "set_kernel", "append_cmdline": ["isolcpus=2-3", "nohz_full=2-3"]}
    ]
    assert not result.not_applied


@pytest.mark.parametrize(
    "request_text", ["add htop and remove vim", "i need docker", "remove the vim package"]
)
def test_a_verb_whose_object_was_used_is_not_reported(request_text: str) -> None:
    assert not plan(request_text, "refine").not_applied
