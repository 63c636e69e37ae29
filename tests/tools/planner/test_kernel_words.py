"""Kernel options said in words, removed in lists or by pronoun, and consoles dropped by name.

Each sentence here is the test's own: the same meaning said the way a user might.

Where a check is only the options the line has after a request, it is a row of the
table in test_kernel_line.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import kernel_after

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # cmdline: console=tty0 console=ttyS0,115200 loglevel=4
KIOSK = "ubuntu24-x86_64-desktop-kiosk-raw.yml"  # cmdline has quiet splash


@pytest.mark.parametrize(
    "said",
    [
        "strip out nosmt and mitigations=off, the firmware fixed it",
        "drop nosmt, mitigations=off and panic=10",
        "please remove nosmt as well as mitigations=off",
    ],
)
def test_a_removal_takes_every_option_of_its_list(said: str) -> None:
    cmdline, not_applied = kernel_after(said, extra="nosmt mitigations=off panic=10")
    assert "nosmt" not in cmdline and "mitigations=off" not in cmdline, cmdline
    assert "loglevel=4" in cmdline
    assert not [n for n in not_applied if "nosmt" in n or "mitigations" in n], not_applied


def test_a_removal_list_stops_at_a_word_the_command_line_lacks() -> None:
    text = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    plan = plan_request("drop loglevel and htop", text, mode="refine")
    # htop is not an option: it stays for the package rule, never a kernel removal
    kernel = [op for op in plan.operations if op.op == "set_kernel"]
    assert kernel and "htop" not in str(kernel), plan.operations


def test_a_system_word_without_the_command_line_is_no_kernel_option() -> None:
    # IPv6 is also a system setting: without the kernel line named it is no ipv6.disable=1
    cmdline, _ = kernel_after("ipv6 disabled, we only route v4 here")
    assert not any(a.startswith("ipv6.") for a in cmdline), cmdline


def test_a_switch_said_on_or_off_takes_its_number() -> None:
    cmdline, _ = kernel_after("apparmor off")
    assert "apparmor=0" in cmdline and "apparmor=off" not in cmdline, cmdline


def test_a_new_range_and_the_same_range_for_named_options() -> None:
    cmdline, not_applied = kernel_after(
        "isolate cores 6-11 rather than 2-11, with the same range for nohz_full",
        extra="isolcpus=2-11 nohz_full=2-11 rcu_nocbs=2-11",
    )
    assert "isolcpus=6-11" in cmdline and "nohz_full=6-11" in cmdline, cmdline
    assert "isolcpus=2-11" not in cmdline and "rcu_nocbs=2-11" in cmdline, cmdline
    assert not_applied == [], not_applied


def test_options_only_observed_are_not_added_and_both_removes_them() -> None:
    cmdline, not_applied = kernel_after(
        "Looks like the kernel cmdline has quiet and splash on it. Please drop both of them.",
        template=KIOSK,
    )
    assert "quiet" not in cmdline and "splash" not in cmdline, cmdline
    assert not_applied == [], not_applied


def test_options_observed_that_are_not_there_are_not_added() -> None:
    cmdline, _ = kernel_after("I guess the command line has quiet and splash in it? remove them")
    assert "quiet" not in cmdline and "splash" not in cmdline, cmdline


def test_where_the_options_go_is_no_request_of_its_own() -> None:
    cmdline, not_applied = kernel_after(
        "add nosmt and also disable THP, all of them on the kernel command line"
    )
    assert {"nosmt", "transparent_hugepage=never"} <= set(cmdline), cmdline
    assert not_applied == [], not_applied


def test_the_same_range_is_the_one_said_last_not_the_one_read_last() -> None:
    # the count is read by another rule after the isolated cores: the words' order decides
    cmdline, not_applied = kernel_after(
        "bump hugepages to 32 and isolate cpus 3-9, same range for rcu_nocbs",
        extra="hugepages=8 isolcpus=2-9 rcu_nocbs=2-9",
    )
    assert {"hugepages=32", "isolcpus=3-9", "rcu_nocbs=3-9"} <= set(cmdline), cmdline
    assert not_applied == [], not_applied


def test_a_verbose_boot_that_is_already_verbose_changes_nothing() -> None:
    text = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    plan = plan_request("need the noisy boot while we debug", text, mode="refine")
    assert not [op for op in plan.operations if op.op == "set_kernel"], plan.operations
    assert plan.not_applied == [], plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "for the boot line the auditors want pti=on, init_on_free=1 and no_hash_pointers",
        "we need pti=on and no_hash_pointers as well",
    ],
)
def test_a_snake_case_word_beside_kernel_options_is_a_flag_not_a_package(said: str) -> None:
    text = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    plan = plan_request(said, text, mode="refine")
    packages = [n for op in plan.operations if op.op == "add_packages" for n in op.packages]
    assert "no_hash_pointers" not in packages, plan.operations
    cmdline, not_applied = kernel_after(said)
    assert {"pti=on", "no_hash_pointers"} <= set(cmdline), (cmdline, not_applied)
    assert not_applied == [], not_applied
