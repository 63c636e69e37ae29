"""Kernel options named before their verb, flags with a purpose, consoles listed (round 9).

The sentences were written for these tests. They check the object-before-verb order of
second-language English and terse admins ("loglevel drop", "the nohz_full change to 4-7",
"hugepages make 64 instead of 32"), that a word the command line has no option for is left
to the other rules, that "quiet and splash for a calmer boot" adds both flags, and that
two ``console=`` options written out put each on the line once.

Where a check is only the options the line has after a request, it is a row of the
table in test_kernel_line.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import cmdline_applied

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # cmdline: console=tty0 console=ttyS0,115200 loglevel=4


def _text(extra: str = "", tty: str = "tty0") -> str:
    data = yaml.safe_load((OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8"))
    line = data["systemConfig"]["kernel"]["cmdline"].replace("console=tty0", f"console={tty}")
    data["systemConfig"]["kernel"]["cmdline"] = f"{line} {extra}".strip()
    return yaml.safe_dump(data, sort_keys=False)


@pytest.mark.parametrize(
    ("said", "new", "old"),
    [
        ("hugepages make 64 instead of 32", "hugepages=64", "hugepages=32"),
        ("the nohz_full change to 5-7, core 4 does housekeeping", "nohz_full=5-7", "nohz_full=4-7"),
        ("nohz_full should be 6-7", "nohz_full=6-7", "nohz_full=4-7"),
    ],
)
def test_an_option_named_before_its_new_value(said: str, new: str, old: str) -> None:
    plan = plan_request(said, _text("hugepagesz=1G hugepages=32 nohz_full=4-7"), mode="refine")
    applied = apply_plan(_text("hugepagesz=1G hugepages=32 nohz_full=4-7"), plan)
    line = str(yaml.safe_load(applied.text)["systemConfig"]["kernel"]["cmdline"]).split()
    assert new in line and old not in line, (line, plan.not_applied)
    assert line.count(new) == 1
    assert "hugepagesz=1G" in line  # the size stays when only the count changes


def test_a_word_the_line_has_no_option_for_is_no_option() -> None:
    plan = plan_request("zram remove", _text(), mode="refine")
    assert all(op.op != "set_kernel" for op in plan.operations), plan.operations


def test_only_the_option_kept_is_read_as_context() -> None:
    line = cmdline_applied("sorry, nohz_full remove. only loglevel keep", _text("nohz_full=4-7"))
    assert "nohz_full=4-7" not in line and "loglevel=4" in line


def test_flags_joined_and_followed_by_their_purpose() -> None:
    line = cmdline_applied("kernel: I'd like quiet and splash for a calmer boot", _text())
    assert "quiet" in line and "splash" in line, line


def test_two_consoles_written_out_are_each_on_the_line_once() -> None:
    line = cmdline_applied(
        "boot args: console=ttyS0,115200 console=tty0, each only once", _text(tty="tty1")
    )
    assert line.count("console=tty0") == 1, line
    assert line.count("console=ttyS0,115200") == 1, line


def test_a_virtual_console_alone_moves_no_serial_console() -> None:
    line = cmdline_applied("console=tty0 on the kernel command line too", _text(tty="tty1"))
    assert "console=ttyS0,115200" in line and "console=tty0" in line, line


def test_an_option_removed_on_a_condition() -> None:
    text = _text("quiet")
    line = cmdline_applied(
        "and if quiet is on the kernel line, take it out; boot logs help us", text
    )
    assert "quiet" not in line, line
    # not there: nothing to remove, nothing added, nothing reported
    line = cmdline_applied("in case splash is set, drop it", _text())
    assert "splash" not in line and "loglevel=4" in line, line


def test_several_options_named_before_one_removal() -> None:
    line = cmdline_applied("nohz_full and loglevel remove", _text("nohz_full=4-7"))
    assert not any(a.startswith(("nohz_full", "loglevel")) for a in line), line
    line = cmdline_applied("nohz_full remove please, also loglevel", _text("nohz_full=4-7"))
    assert not any(a.startswith(("nohz_full", "loglevel")) for a in line), line


def test_a_from_to_pair_needs_the_value_the_line_has() -> None:
    # "nohz_full 2 to 5" names a range, not a change from 2: nothing is changed silently
    plan = plan_request("nohz_full 2 to 5", _text("nohz_full=4-7"), mode="refine")
    applied = apply_plan(_text("nohz_full=4-7"), plan)
    assert "nohz_full=5" not in applied.text
