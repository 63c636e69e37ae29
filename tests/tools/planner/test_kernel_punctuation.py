"""A kernel option at the end of a question or exclamation, and a console removed by its value."""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on

TEMPLATE = "debian13-x86_64-minimal-raw.yml"  # console=tty0 console=ttyS0,115200 loglevel=4


def _cmdline(request: str) -> list[str]:
    plan = plan_on(TEMPLATE, request)
    line = "console=tty0 console=ttyS0,115200 loglevel=4".split()
    for op in plan.operations:
        if op.op == "set_kernel":
            line = (op.cmdline.split() if op.cmdline is not None else line) + list(
                op.append_cmdline
            )
    return line


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("can you add loglevel=3?", "loglevel=3"),
        ("could you set quiet splash mitigations=off?", "mitigations=off"),
        ("add isolcpus=2,3!", "isolcpus=2,3"),
        ("pls put nohz_full=2-3 on the cmdline?!", "nohz_full=2-3"),
    ],
)
def test_the_sentence_end_is_no_part_of_the_option(request_text: str, wanted: str) -> None:
    line = _cmdline(request_text)
    assert wanted in line, line
    assert not any(arg.endswith(("?", "!")) for arg in line), line


@pytest.mark.parametrize(
    "request_text",
    [
        "remove console=ttyS0,115200",
        "could you drop console=ttyS0,115200?",
        "get rid of console=ttyS0,115200 please",
    ],
)
def test_a_console_removed_by_its_whole_value_goes(request_text: str) -> None:
    line = _cmdline(request_text)
    assert "console=ttyS0,115200" not in line and "console=tty0" in line, line


def test_a_console_set_by_its_value_is_still_set() -> None:
    line = _cmdline("set console=ttyS1,9600")
    assert "console=ttyS1,9600" in line and "console=ttyS0,115200" not in line, line
