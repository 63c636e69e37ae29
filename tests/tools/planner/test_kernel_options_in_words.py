"""Kernel options however they are written: quoted, as a device value said in words, flags
side by side, huge pages as a size and a count, a new count for a counted option, and a
removal of an option that is not there (which never adds it).

Where a check is only the options the line has after a request, it is a row of the
table in test_kernel_line.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import kernel_after, with_cmdline

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # cmdline: console=tty0 console=ttyS0,115200 loglevel=4


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("on the cmdline we also need 'nosmt' and 'mitigations=auto'", ["mitigations=auto"]),
        ('boot args please: "panic=30" plus "oops=panic"', ["panic=30", "oops=panic"]),
        ("put `audit=1` `audit_backlog_limit=8192` on it", ["audit=1", "audit_backlog_limit=8192"]),
    ],
)
def test_quoted_options_are_options(said: str, wanted: list[str]) -> None:
    cmdline, not_applied = kernel_after(said)
    assert set(wanted) <= set(cmdline), (cmdline, not_applied)
    assert not any(("'" in a or '"' in a or "`" in a) for a in cmdline), cmdline


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("and earlyprintk on ttyS1 as well", "earlyprintk=ttyS1"),
        ("kgdboc over ttyS0 at 115200 for the debugger", "kgdboc=ttyS0,115200"),
    ],
)
def test_an_option_whose_value_is_a_device(said: str, wanted: str) -> None:
    cmdline, _ = kernel_after(said)
    assert wanted in cmdline
    # the device is the option's value, not a console of its own
    assert [a for a in cmdline if a.startswith("console=")] == [
        "console=tty0",
        "console=ttyS0,115200",
    ]


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("huge pages of 2M size, 2048 pages", ["hugepagesz=2M", "hugepages=2048"]),
        ("reserve 1 GB hugepages, 4 of them", ["hugepagesz=1G", "hugepages=4"]),
        ("hugepage size 1G, count 32", ["hugepagesz=1G", "hugepages=32"]),
    ],
)
def test_huge_pages_in_words_are_a_page_size_and_a_count(said: str, wanted: list[str]) -> None:
    text = with_cmdline()
    plan = plan_request(said, text, mode="refine")
    ops = {op.op for op in plan.operations}
    assert "set_disk_size" not in ops, plan.operations  # a page's size, never the disk's
    cmdline, _ = kernel_after(said)
    assert set(wanted) <= set(cmdline), cmdline


@pytest.mark.parametrize(
    "said", ["get rid of panic=10 please", "elimina el panic=10 del kernel, gracias"]
)
def test_removing_an_option_that_is_not_there_never_adds_it(said: str) -> None:
    cmdline, _ = kernel_after(said)
    assert not any(a.startswith("panic") for a in cmdline), cmdline


def test_words_after_a_verb_on_the_kernel_line_are_no_options() -> None:
    cmdline, _ = kernel_after("cmdline: add rcu_nocbs=1-3 for the rt cores")
    assert "rcu_nocbs=1-3" in cmdline
    assert not {"add", "for", "the", "rt", "cores"} & set(cmdline), cmdline


def test_a_console_the_architecture_change_moves_is_no_change_of_its_own() -> None:
    text = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    said = "switch it to aarch64; the serial console is ttyAMA0 at 115200"
    plan = plan_request(said, text, mode="refine")
    applied = apply_plan(text, plan)
    cmdline = str(yaml.safe_load(applied.text)["systemConfig"]["kernel"]["cmdline"]).split()
    assert [a for a in cmdline if a.startswith("console=ttyAMA0")] == ["console=ttyAMA0,115200"]
    assert "console=ttyS0,115200" not in cmdline
    # nothing the user asked for is reported as not applied
    assert plan.not_applied == [] and applied.not_applied == [], applied.not_applied


@pytest.mark.parametrize(
    ("said", "gone"),
    [
        ("take out console=tty0", "console=tty0"),
        ("kernel params: add 'nosmt', remove 'loglevel=4'", "loglevel=4"),
        ("no more loglevel on the cmdline", "loglevel=4"),
    ],
)
def test_an_option_removed_in_other_words(said: str, gone: str) -> None:
    cmdline, not_applied = kernel_after(said)
    assert gone not in cmdline, (cmdline, not_applied)
    # "on the cmdline" says where, it is no value
    assert not any(a.endswith("=on") for a in cmdline), cmdline


def test_a_description_that_names_something_else_is_not_swallowed() -> None:
    plan = plan_request("install btop (panic=5)", with_cmdline(), mode="refine")
    packages = [n for op in plan.operations if op.op == "add_packages" for n in op.packages]
    assert packages == ["btop"]


def test_a_pasted_grub_default_line_is_the_kernel_command_line() -> None:
    cmdline, not_applied = kernel_after('GRUB_CMDLINE_LINUX_DEFAULT="quiet splash apparmor=0"')
    assert {"quiet", "splash", "apparmor=0"} <= set(cmdline), (cmdline, not_applied)
    assert not_applied == []


@pytest.mark.parametrize(
    "said",
    [
        "put rcu_nocbs=1-3 on the kernel line for realtime work",
        "nohz_full=1-3 for realtime, thanks",
    ],
)
def test_what_an_option_is_for_asks_for_nothing_more(said: str) -> None:
    plan = plan_request(said, with_cmdline(), mode="refine")
    assert [op.op for op in plan.operations] == ["set_kernel"], plan.operations
    assert plan.not_applied == []
