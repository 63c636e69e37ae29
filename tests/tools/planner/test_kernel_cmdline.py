"""Kernel command-line options are single tokens: a comma inside an option never splits it."""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import planned_cmdline, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
UBUNTU_CMDLINE = ["console=tty0", "console=ttyS0,115200", "loglevel=4"]  # its kernel cmdline


def _kernel_ops(request: str, text: str) -> list[dict[str, Any]]:
    plan = plan_request(request, text, mode="refine")
    return [{"op": op.op, **op.model_dump(exclude_defaults=True)} for op in plan.operations]


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("add isolcpus=2,3 to the kernel command line", ["isolcpus=2,3"]),
        ("append isolcpus=2,3 to the kernel cmdline", ["isolcpus=2,3"]),
        (
            "add isolcpus=2,3 and nohz_full=2,3 to the kernel command line",
            ["isolcpus=2,3", "nohz_full=2,3"],
        ),
        (
            "add nohz_full=2-3, rcu_nocbs=2-3 to the kernel command line",
            ["nohz_full=2-3", "rcu_nocbs=2-3"],
        ),
        ("isolcpus=2,3", ["isolcpus=2,3"]),
        ("kernel cmdline += isolcpus=1,5,7", ["isolcpus=1,5,7"]),
    ],
)
def test_an_option_with_a_comma_is_one_token(request_text: str, expected: list[str]) -> None:
    assert _kernel_ops(request_text, template_text(UBUNTU)) == [
        {"op": "set_kernel", "append_cmdline": expected}
    ]


def test_adding_isolcpus_with_a_comma_lands_whole_in_the_template() -> None:
    after = planned_cmdline("add isolcpus=2,3 to the kernel command line", template_text(UBUNTU))[0]
    assert after == [*UBUNTU_CMDLINE, "isolcpus=2,3"]


def _with_isolcpus() -> str:
    text = template_text(UBUNTU)
    return apply_plan(
        text, plan_request("add isolcpus=2,3 to the kernel cmdline", text, mode="refine")
    ).text


@pytest.mark.parametrize(
    ("request_text", "after"),
    [
        # an option with the same key replaces the old one
        ("set isolcpus=4-7", [*UBUNTU_CMDLINE, "isolcpus=4-7"]),
        ("set isolcpus=4-7 on the kernel command line", [*UBUNTU_CMDLINE, "isolcpus=4-7"]),
        ("change isolcpus to 4-7 on the kernel command line", [*UBUNTU_CMDLINE, "isolcpus=4-7"]),
        # an option is removed by its key or whole
        ("remove isolcpus from the kernel command line", UBUNTU_CMDLINE),
        ("remove isolcpus=2,3 from the kernel command line", UBUNTU_CMDLINE),
        ("drop isolcpus from the kernel cmdline", UBUNTU_CMDLINE),
    ],
)
def test_isolcpus_is_replaced_or_removed_by_its_key(request_text: str, after: list[str]) -> None:
    assert planned_cmdline(request_text, _with_isolcpus())[0] == after


def test_removing_an_absent_option_says_so_and_changes_nothing() -> None:
    plan = plan_request(
        "remove isolcpus from the kernel command line", template_text(UBUNTU), mode="refine"
    )
    assert plan.operations == []
    assert "isolcpus is not on the kernel command line" in plan.summary.lower()


def test_removing_a_console_option_with_a_comma_keeps_the_others() -> None:
    after = planned_cmdline(
        "remove console=ttyS0,115200 from the kernel command line", template_text(UBUNTU)
    )[0]
    assert after == ["console=tty0", "loglevel=4"]


@pytest.mark.parametrize(
    "request_text",
    [
        "the panel vendor wants 'nomodeset splash' on the kernel command line",
        'our QA lead would like "splash nomodeset" in the cmdline.',
    ],
)
def test_quoted_flags_said_where_they_go_are_all_added(request_text: str) -> None:
    after = planned_cmdline(request_text, template_text(UBUNTU))[0]
    assert "nomodeset" in after and "splash" in after, after
