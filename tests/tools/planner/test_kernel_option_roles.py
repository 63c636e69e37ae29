"""Kernel options by their role in the sentence: values that look like sizes, flags joined
to options, counts, several keys given one value, families removed by a word, options the
user only observes, and sizes of memory that are no disk size.

Where a check is only the options the line has after a request, it is a row of the
table in test_kernel_line.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.sizes import read_sizes
from tests.tools.planner.helpers import cmdline_applied, with_cmdline

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # cmdline: console=tty0 console=ttyS0,115200 loglevel=4
NETBOOT = "azl3-x86_64-netboot-initrd.yml"  # cmdline has console=ttyS0,115200 ip=dhcp


@pytest.mark.parametrize(
    "said", ["add mem=2G to the cmdline", "use crashkernel=512M please", "hugepagesz=2M"]
)
def test_a_size_inside_an_option_stays_as_written(said: str) -> None:
    assert read_sizes(said)[0] == said
    option = next(word for word in said.split() if "=" in word)
    assert option in cmdline_applied(said, with_cmdline())


def test_a_size_outside_an_option_is_still_read() -> None:
    assert read_sizes("disk 12G, swap=on")[0] == "disk 12GiB, swap=on"


@pytest.mark.parametrize(
    "said",
    [
        "make it 24GiB, the machine only has 2G of RAM",
        "make it 24GiB; RAM is 16 gigs",
        "make it 24GiB and add hugepagesz=2M for 2G hugepages",
    ],
)
def test_a_memory_size_is_no_disk_size(said: str) -> None:
    plan = plan_request(said, with_cmdline(), mode="refine")
    sizes = [op.size for op in plan.operations if op.op == "set_disk_size"]
    assert sizes == ["24GiB"]
    assert plan.not_applied == []


def test_other_options_in_a_console_clause_are_kept() -> None:
    args = cmdline_applied(
        "boot params: nfsroot=10.0.0.1:/srv rd.shell=0 console=ttyS1,9600", with_cmdline()
    )
    assert "nfsroot=10.0.0.1:/srv" in args and "rd.shell=0" in args
    assert "console=ttyS1,9600" in args and "console=ttyS0,115200" not in args


def test_several_keys_given_one_new_value() -> None:
    text = with_cmdline(extra="isolcpus=1-3 nohz_full=1-3 rcu_nocbs=1-3")
    args = cmdline_applied("isolcpus, nohz_full should be 2-7; keep rcu_nocbs as it is", text)
    assert {"isolcpus=2-7", "nohz_full=2-7", "rcu_nocbs=1-3"} <= set(args)
    assert "isolcpus=1-3" not in args


def test_keys_the_cmdline_lacks_get_no_value() -> None:
    plan = plan_request("htop and nginx should be there", with_cmdline(), mode="refine")
    assert not [op for op in plan.operations if op.op == "set_kernel"]


def test_an_option_the_user_only_observes_is_not_added_back() -> None:
    text = with_cmdline(extra="audit=0")
    args = cmdline_applied("I see audit=0 on the kernel command line; take audit=0 out", text)
    assert "audit=0" not in args


def test_a_number_before_a_key_that_is_no_count_sets_nothing() -> None:
    plan = plan_request("add 2 audit rules", with_cmdline(), mode="refine")
    assert not [op for op in plan.operations if op.op == "set_kernel"]
