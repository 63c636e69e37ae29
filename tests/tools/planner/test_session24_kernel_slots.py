"""Session 24: kernel values read by their shape in the sentence that names the option.

Huge pages with their size and count in any order of words, the default page size, and a
value corrected wherever the kernel line has it. The sentences are written for these tests;
the near-misses must leave the line as it was.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import kernel_after

ISOLATED = "isolcpus=managed_irq,domain,4-31 nohz_full=4-31 skew_tick=1"


def _huge(line: list[str]) -> list[str]:
    return [a for a in line if "hugepage" in a]


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("and 1G hugepages x16 please", ["hugepagesz=1G", "hugepages=16"]),
        ("huge pages: 2M, x 4096", ["hugepagesz=2M", "hugepages=4096"]),
        ("and hugepages, 2048 of the 2M ones", ["hugepagesz=2M", "hugepages=2048"]),
        ("reserve hugepages - 64 of the 1GiB size", ["hugepagesz=1G", "hugepages=64"]),
        ("hugepages x 32", ["hugepages=32"]),
    ],
)
def test_huge_pages_take_their_size_and_count_in_any_order(
    request_text: str, expected: list[str]
) -> None:
    line, not_applied = kernel_after(request_text)
    assert _huge(line) == expected
    assert not_applied == []


def test_the_default_page_size_is_its_own_option_beside_the_pool() -> None:
    line, not_applied = kernel_after(
        "Additionally 8 hugepages of 1G, and the default hugepage size also 1G."
    )
    assert sorted(_huge(line)) == ["default_hugepagesz=1G", "hugepages=8", "hugepagesz=1G"]
    assert not_applied == []


def test_a_default_page_size_said_alone_moves_with_a_new_pool_size() -> None:
    line, _ = kernel_after(
        "and hugepages, 512 of the 2M ones", "default_hugepagesz=1G hugepagesz=1G hugepages=8"
    )
    assert sorted(_huge(line)) == ["default_hugepagesz=2M", "hugepages=512", "hugepagesz=2M"]


@pytest.mark.parametrize(
    "request_text",
    [
        # two pools in one sentence: which count is whose is not guessed
        "hugepages: 2M and 1G, 512 and 4",
        # a size no huge page has is the disk's or nothing, never a page size
        "hugepages x 20G",
        # memory, not pages
        "the box has 16G of RAM and no hugepages",
        # transparent huge pages are another option
        "transparent hugepages x 2 off",
    ],
)
def test_values_not_beside_huge_pages_or_ambiguous_are_not_read_as_a_pool(
    request_text: str,
) -> None:
    line, _ = kernel_after(request_text)
    assert not [a for a in _huge(line) if a.startswith(("hugepagesz=", "hugepages="))]


def test_a_number_away_from_the_huge_pages_is_not_their_count() -> None:
    line, _ = kernel_after("an EMT 3 image with hugepages of 1G")
    assert _huge(line) == ["hugepagesz=1G"]


@pytest.mark.parametrize(
    "request_text",
    [
        "Sorry, I wrote wrong. The isolated cores are 2-31, not 4-31. In both places.",
        "my mistake: 2-31 instead of 4-31, everywhere",
        "the cpu range is 2-31 rather than 4-31 for both",
    ],
)
def test_a_corrected_value_is_replaced_wherever_the_line_has_it(request_text: str) -> None:
    line, not_applied = kernel_after(request_text, ISOLATED)
    assert "isolcpus=managed_irq,domain,2-31" in line
    assert "nohz_full=2-31" in line
    assert not any(a.endswith("4-31") for a in line)
    assert "skew_tick=1" in line
    assert not_applied == []


def test_a_corrected_value_said_of_one_named_option_changes_only_that_one() -> None:
    line, _ = kernel_after("nohz_full needs 2-31, not 4-31", ISOLATED)
    assert "nohz_full=2-31" in line
    assert "isolcpus=managed_irq,domain,4-31" in line


@pytest.mark.parametrize(
    "request_text",
    [
        # the old value is not on the line: nothing to correct
        "the isolated cores are 2-31, not 5-31",
        # a size is no correction of a CPU list
        "2G, not 4-31",
        # a version, not an option's value
        "use kernel 6.12, not 6.6",
    ],
)
def test_a_correction_of_a_value_the_line_lacks_changes_no_option(request_text: str) -> None:
    line, _ = kernel_after(request_text, ISOLATED)
    assert "isolcpus=managed_irq,domain,4-31" in line
    assert "nohz_full=4-31" in line
