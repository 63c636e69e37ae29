"""Kernel parameters named without "=" (issue 21, round 10).

The sentences were written for these tests. A key the kernel takes a CPU list or a size
for, followed by such a value, is ``key=value`` ("isolcpus 4-11", "crashkernel 256M");
"X and Y on the same cores" copies the CPU list the command line has; "shd be" is
"should be"; "huge pages: 2M pages" is a page size; several keys joined by "/" take one
new value; a key removed without its value ("drop i2c_hid.polling_mode") that the line
does not have is noted, never read as a package.
"""

from __future__ import annotations

from functools import partial

from oic_ai.tools.edit_plan import EditPlan
from tests.tools.planner.helpers import added, plan_after, plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"
_then = partial(plan_after, DEBIAN)  # a request planned after a first one
REALTIME = "emt3-x86_64-realtime-industrial-raw.yml"  # isolcpus=managed_irq,domain,2,3 ...


def _appended(result: EditPlan) -> list[str]:
    return [a for op in result.operations if op.op == "set_kernel" for a in op.append_cmdline]


def test_a_cpu_list_key_and_its_value_without_equals() -> None:
    result = plan_on(DEBIAN, "for the packet cores we need isolcpus 4-11 and nohz_full 4-11")
    assert _appended(result) == ["isolcpus=4-11", "nohz_full=4-11"], result
    assert added(result) == [] and not result.not_applied, result


def test_a_size_key_and_its_value_without_equals() -> None:
    result = plan_on(DEBIAN, "set crashkernel 256M so we get dumps")
    assert _appended(result) == ["crashkernel=256M"], result
    assert added(result) == [], result


def test_a_value_of_the_wrong_kind_is_not_read() -> None:
    result = plan_on(DEBIAN, "isolcpus 2G")
    assert "isolcpus=2G" not in _appended(result), result


def test_keys_on_the_same_cores_copy_the_cpu_list_of_the_line() -> None:
    result = _then(
        "add isolcpus=2-5 to the kernel command line",
        "put rcu_nocbs and nohz_full on the same cores",
    )
    assert _appended(result) == ["rcu_nocbs=2-5", "nohz_full=2-5"], result
    assert not result.not_applied, result.not_applied


def test_the_same_cores_copy_only_the_cpus_of_a_list_with_flags() -> None:
    # the base has isolcpus=managed_irq,domain,2,3: its flags are no CPUs
    result = plan_on(REALTIME, "kthread_cpus on the same cpus as isolcpus")
    assert _appended(result) == ["kthread_cpus=2,3"], result


def test_shd_be_is_should_be_for_a_new_value() -> None:
    result = _then("add hugepages=128 to the kernel command line", "hugepages shd be 64 not 128")
    assert _appended(result) == ["hugepages=64"], result
    assert not result.not_applied, result.not_applied


def test_a_page_size_after_a_colon_and_a_count_of_them() -> None:
    result = plan_on(DEBIAN, "And huge pages: 2M pages, 256 of them.")
    assert _appended(result) == ["hugepagesz=2M", "hugepages=256"], result
    assert added(result) == [], result


def test_keys_joined_by_a_slash_take_one_new_value_after_a_package_removal() -> None:
    result = plan_on(REALTIME, "drop htop. and isolcpus / rcu_nocbs must be 1-2 from now on")
    assert _appended(result) == ["isolcpus=1-2", "rcu_nocbs=1-2"], result
    assert "isolcpus" not in added(result)


def test_to_the_same_after_a_list_set_in_the_same_sentence() -> None:
    result = plan_on(DEBIAN, "set isolcpus to 6-9 and rcu_nocbs to the same")
    assert _appended(result) == ["isolcpus=6-9", "rcu_nocbs=6-9"], result


def test_same_as_a_named_key_and_those_cores() -> None:
    named = _then("add isolcpus=1-3 to the kernel command line", "nohz_full same as isolcpus")
    assert _appended(named) == ["nohz_full=1-3"], named
    pointed = _then(
        "add isolcpus=1-3 to the kernel command line", "irqaffinity also on those cores"
    )
    assert _appended(pointed) == ["irqaffinity=1-3"], pointed


def test_a_count_times_a_page_size() -> None:
    result = plan_on(DEBIAN, "we want 8 x 1G hugepages for the dataplane")
    assert _appended(result) == ["hugepagesz=1G", "hugepages=8"], result


def test_a_cpu_range_said_with_to_or_through() -> None:
    said = plan_on(DEBIAN, "isolcpus 3 to 6 please")
    assert _appended(said) == ["isolcpus=3-6"], said
    described = plan_on(DEBIAN, "isolate the cores 8 through 11")
    assert _appended(described) == ["isolcpus=8-11"], described
    through = plan_on(DEBIAN, "nohz_full on cpus 1 thru 3, 5")
    assert _appended(through) == ["nohz_full=1-3,5"], through


def test_a_key_said_with_a_space_for_its_underscore_and_huge_pages_in_two_words() -> None:
    result = plan_on(DEBIAN, "for the rt box: nohz full 1-3, and 2048 huge pages")
    assert _appended(result) == ["nohz_full=1-3", "hugepages=2048"], result
    counted = plan_on(DEBIAN, "huge pages 512 please")
    assert _appended(counted) == ["hugepages=512"], counted
    same = _then("add isolcpus=1-3 to the kernel command line", "rcu nocbs on the same cpus")
    assert _appended(same) == ["rcu_nocbs=1-3"], same
