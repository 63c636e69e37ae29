"""Kernel options said the way round 11's writers say them (issue 21, round 11).

The sentences were written for these tests: options after a short label with signs that
add or take away ("kargs: +nosmt -quiet"), options in parentheses after the words the
kernel rule read for them, huge pages said as a count "of" a size, CPUs named for
housekeeping next to a new isolated list, and a console the request keeps.

Where a check is only the options the line has after a request, it is a row of the
table in test_kernel_line.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import kernel_after

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # cmdline: console=tty0 console=ttyS0,115200 loglevel=4


@pytest.mark.parametrize(
    "said",
    [
        "kargs: +nosmt -loglevel=4",
        "kernel_cmdline: -loglevel=4, +nosmt",
        "kcmdline +nosmt -loglevel",
    ],
)
def test_signs_after_a_command_line_label_add_and_take_away(said: str) -> None:
    cmdline, not_applied = kernel_after(said)
    assert "nosmt" in cmdline and not any(t.startswith("loglevel") for t in cmdline), cmdline
    assert "console=ttyS0,115200" in cmdline
    assert not not_applied, not_applied


def test_a_signed_option_replaces_the_value_of_its_key() -> None:
    cmdline, not_applied = kernel_after("kopts: +isolcpus=1-3", extra="isolcpus=domain,5,6")
    assert cmdline.count("isolcpus=1-3") == 1 and "isolcpus=domain,5,6" not in cmdline, cmdline
    assert not not_applied, not_applied


def test_a_signed_removal_of_an_option_not_there_changes_nothing() -> None:
    cmdline, _ = kernel_after("kargs: -panic=5 +quiet")
    assert "quiet" in cmdline and "loglevel=4" in cmdline and "panic=5" not in cmdline


def test_options_in_parentheses_after_words_the_kernel_read_are_all_added() -> None:
    cmdline, not_applied = kernel_after(
        "we want 2M hugepages (default_hugepagesz=2M hugepagesz=2M hugepages=512) please"
    )
    for option in ("default_hugepagesz=2M", "hugepagesz=2M", "hugepages=512"):
        assert cmdline.count(option) == 1, (option, cmdline)
    assert not not_applied, not_applied


@pytest.mark.parametrize(
    "said", ["Hugepages: 32 pages of 2M.", "huge pages - 32 x 2M", "hugepages 32 of 2MB each"]
)
def test_a_count_of_huge_pages_of_a_size_is_no_disk_size(said: str) -> None:
    data = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    plan = plan_request(said, data, mode="refine")
    cmdline = yaml.safe_load(apply_plan(data, plan).text)["systemConfig"]["kernel"]["cmdline"]
    assert "hugepagesz=2M" in cmdline.split() and "hugepages=32" in cmdline.split(), cmdline
    assert not [op for op in plan.operations if "disk" in op.op], plan.operations
    assert not plan.not_applied, plan.not_applied


def test_a_kept_console_the_line_lacks_is_reported() -> None:
    _, not_applied = kernel_after("keep tty1 though")
    assert not_applied, not_applied


@pytest.mark.parametrize(
    "said",
    [
        "buildroot used console=ttymxc0,115200 — so add nosmt to the kernel command line",
        "the old image had quiet loglevel=3, add nosmt to the kernel command line",
    ],
)
def test_options_the_old_setup_used_are_context(said: str) -> None:
    cmdline, _ = kernel_after(said)
    assert "nosmt" in cmdline, cmdline
    assert not [t for t in cmdline if t.startswith(("console=ttymxc", "loglevel=3"))], cmdline
    assert "quiet" not in cmdline and "loglevel=4" in cmdline, cmdline


def test_a_bare_value_after_a_take_back_of_another_shape_is_no_new_value() -> None:
    cmdline, _ = kernel_after("panic=10, actually 2-5")
    assert "panic=10" in cmdline and "panic=2-5" not in cmdline, cmdline


def test_options_the_old_setup_used_and_asked_for_again_are_added() -> None:
    cmdline, _ = kernel_after("the old boxes always ran with nosmt mitigations=off, add those")
    assert "nosmt" in cmdline and "mitigations=off" in cmdline, cmdline


def test_an_operator_after_the_label_signs_every_option_after_it() -> None:
    cmdline, not_applied = kernel_after("cmdline -= nosmt, loglevel", extra="nosmt")
    assert "nosmt" not in cmdline and not [t for t in cmdline if t.startswith("loglevel")]
    assert "console=tty0" in cmdline and not not_applied, (cmdline, not_applied)


def test_a_count_before_the_words_and_a_size_after_them() -> None:
    cmdline, not_applied = kernel_after("we need 256 hugepages of 2M")
    assert "hugepagesz=2M" in cmdline and "hugepages=256" in cmdline, cmdline
    assert not not_applied, not_applied


def test_the_virtual_one_kept_while_the_serial_console_goes() -> None:
    cmdline, not_applied = kernel_after("remove the serial console but leave the VGA one")
    assert "console=tty0" in cmdline and "console=ttyS0,115200" not in cmdline, cmdline
    assert not not_applied, not_applied
