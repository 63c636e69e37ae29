"""Kernel command line, disks and users (issue 21, round 16, helper h2).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with paraphrases that differ in verb, order and field, and with
near-misses that must not trigger.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.courtesy import is_acknowledgement
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.proposals import resolve_setting
from tests.tools.planner.helpers import ops_of, plan_after

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
CPUS = "add isolcpus=2,3 nohz_full=2,3 rcu_nocbs=2,3 to the kernel command line"
FLAGGED = "add isolcpus=managed_irq,domain,2-7 nohz_full=2-7 rcu_nocbs=2-7 to the cmdline"
HUGE = "add default_hugepagesz=1G hugepagesz=1G hugepages=16 to the kernel command line"


def appended(result: EditPlan) -> list[str]:
    """The options a plan appends to the command line."""
    return [a for op in ops_of(result, "set_kernel") for a in op.get("append_cmdline") or []]


# --- a new value for an option, weighed by "only", "instead", "now" -----------------------


@pytest.mark.parametrize(
    ("said", "arg"),
    [
        ("nohz_full should only be 4-7, the rest are housekeeping", "nohz_full=4-7"),
        ("rcu_nocbs needs to only be 3-7", "rcu_nocbs=3-7"),
        ("sorry, isolcpus must simply be 5-7", "isolcpus=managed_irq,domain,5-7"),
        ("nohz_full has to be 6-7 instead", "nohz_full=6-7"),
    ],
)
def test_an_option_said_to_only_be_a_value_gets_it(said: str, arg: str) -> None:
    result = plan_after(UBUNTU, FLAGGED, said)
    assert arg.split("=")[0] + "=" in " ".join(appended(result))
    assert not result.not_applied


def test_only_a_remark_about_an_option_changes_nothing() -> None:
    result = plan_after(UBUNTU, FLAGGED, "isolcpus is only a test setting")
    assert appended(result) == []


# --- one CPU list for all the CPU-list options ----------------------------------------------


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("it's a 4 core box and I want 1-3 isolated, for all three options", "1-3"),
        ("use cores 0-1 for all of them", "0-1"),
        ("all three options should be 4 to 7 now", "4-7"),
        ("move each of them to cores 1,2", "1,2"),
    ],
)
def test_a_cpu_list_for_all_the_options_sets_each(said: str, value: str) -> None:
    result = plan_after(UBUNTU, CPUS, said)
    assert sorted(appended(result)) == sorted(
        f"{key}={value}" for key in ("isolcpus", "nohz_full", "rcu_nocbs")
    )
    assert not result.not_applied


def test_a_cpu_list_for_all_keeps_the_flags_before_it() -> None:
    result = plan_after(UBUNTU, FLAGGED, "put all of them on cores 1-3")
    assert "isolcpus=managed_irq,domain,1-3" in appended(result)


def test_a_count_that_is_not_the_options_sets_none() -> None:
    result = plan_after(UBUNTU, CPUS, "set all four options to 1-3")
    assert not any(a.startswith("nohz_full") for a in appended(result))


def test_a_range_said_isolated_is_isolcpus() -> None:
    assert "isolcpus=2-5" in appended(plan_after(UBUNTU, CPUS, "keep 2 to 5 isolated please"))
    assert appended(plan_after(UBUNTU, CPUS, "we have 3 isolated networks")) == []


# --- a page size said as the huge pages' value ----------------------------------------------


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("hugepages need to be 2M not 1G, and 8192 of them", "8192"),
        ("the huge pages should be 2MB instead, 4096 of them", "4096"),
        ("make the hugepages 2M, 1024 of them", "1024"),
        ("switch hugepages to 2M pages", None),
    ],
)
def test_a_size_for_the_huge_pages_is_the_page_size(said: str, count: str | None) -> None:
    result = plan_after(UBUNTU, HUGE, said)
    args = appended(result)
    assert "hugepagesz=2M" in args and "default_hugepagesz=2M" in args
    assert (
        (f"hugepages={count}" in args)
        if count
        else not any(a.startswith("hugepages=") for a in args)
    )
    assert not result.not_applied
    assert not ops_of(result, "set_disk_size")


def test_a_count_for_the_huge_pages_stays_a_count() -> None:
    assert appended(plan_after(UBUNTU, HUGE, "hugepages must be 8, not 16")) == ["hugepages=8"]


# --- FIPS mode on the kernel command line ---------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Also FIPS mode has to be enabled from first boot (kernel arg).",
        "FIPS mode on the kernel command line.",
        "turn on fips mode via the kernel cmdline",
        "the boot parameters need FIPS enabled",
    ],
)
def test_fips_said_with_the_command_line_is_fips_1(said: str) -> None:
    result = plan_after(AZL, "add htop", said)
    assert appended(result) == ["fips=1"]
    assert not result.not_applied


def test_fips_alone_is_a_compliance_wish() -> None:
    result = plan_after(AZL, "add htop", "enable FIPS mode")
    assert appended(result) == [] and result.not_applied


# --- acknowledgements ask nothing ----------------------------------------------------------


@pytest.mark.parametrize(
    "said", ["Got it", "gotcha", "ok, fair enough", "Understood!", "makes sense", "roger that"]
)
def test_an_acknowledgement_is_no_request(said: str) -> None:
    assert is_acknowledgement(said)


@pytest.mark.parametrize("said", ["got it working", "got nginx", "fair share scheduler"])
def test_an_acknowledgement_needs_to_be_all_the_clause(said: str) -> None:
    assert not is_acknowledgement(said)


def test_an_acknowledgement_before_a_change_is_context() -> None:
    result = plan_after(UBUNTU, "add htop", "Got it. Now bump the disk to 40 GiB.")
    assert not result.not_applied


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("ok, fair, leave it on", "ok, fair, leave immutability on"),
        ("got it, turn it off then", "got it, turn immutability off then"),
        ("makes sense, keep it enabled", "makes sense, keep immutability enabled"),
        ("I see. leave it off", "I see. leave immutability off"),
    ],
)
def test_a_setting_asked_about_is_named_after_an_acknowledgement(said: str, meant: str) -> None:
    assert resolve_setting(said, "immutability") == meant


def test_a_setting_reply_needs_a_state() -> None:
    assert resolve_setting("fair, leave it to me", "immutability") == "fair, leave it to me"
