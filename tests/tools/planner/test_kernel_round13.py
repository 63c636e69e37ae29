"""Kernel command line requests the way round 13's writers say them (issue 21, round 13).

The sentences were written for these tests: a serial console asked for without a device
when the command line already has one asks for nothing (a note says so).
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import ops_of, plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"  # console=tty0 console=ttyS0,115200


@pytest.mark.parametrize(
    "said",
    [
        "we need the kernel messages on serial when it boots",
        "make sure the boot output goes to the serial port",
        "serial console output is a must for the field techs",
    ],
)
def test_a_serial_console_already_there_asks_for_nothing(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert not ops_of(result, "set_kernel") and not result.not_applied, result
    assert "already has a serial console (console=ttyS0,115200)" in result.summary, result


def test_a_serial_console_said_gone_is_still_removed() -> None:
    result = plan_on(DEBIAN, "no serial console on the production boxes")
    assert [op.get("cmdline") for op in ops_of(result, "set_kernel")] == ["console=tty0 loglevel=4"]


def test_a_serial_device_the_image_talks_to_is_no_console() -> None:
    result = plan_on(DEBIAN, "add minicom, the controller reads its probes over serial lines")
    assert "serial console" not in result.summary, result
