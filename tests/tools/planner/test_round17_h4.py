"""Round 17 (h4): packages taken back, described, or said of something else.

Each class is tested with paraphrases that differ in verb, order and field from the dev14
sentence that showed it, and with near-misses that must not trigger.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, plan_after, removed

DEBIAN = "debian13-x86_64-minimal-raw.yml"
WITH_CUPS = "add cups and cloud-init"


# -- a pointer removal that takes back the request's own addition ------------------------


@pytest.mark.parametrize(
    "request_",
    [
        "install cowsay for the demo... on second thought, leave it out",
        "throw in nginx. hmm no, drop it",
        "add the barcode scanner stuff too, nah not needed, remove it",
        "also put in some printer drivers - actually no, skip it",
        "Include the label printer tools as well. Never mind, take it out.",
    ],
)
def test_a_pointer_after_a_change_of_mind_takes_back_the_addition(request_: str) -> None:
    result = plan_after(DEBIAN, WITH_CUPS, request_)
    assert added(result) == [], result.operations
    assert removed(result) == [], result.operations
    assert not result.not_applied, result.not_applied
    assert "taken back" in result.summary


@pytest.mark.parametrize(
    ("request_", "gone"),
    [
        ("add htop. cloud-init is junk, drop it", ["cloud-init"]),  # another thing named
        ("add htop, and cups is not needed, remove it", ["cups"]),
    ],
)
def test_a_pointer_at_another_named_package_still_removes_it(request_: str, gone: list[str]) -> None:
    result = plan_after(DEBIAN, WITH_CUPS, request_)
    assert added(result) == ["htop"], result.operations
    assert removed(result) == gone, result.operations


def test_no_change_of_mind_keeps_the_addition() -> None:
    # "the default site" is what "it" is, not nginx: nginx stays asked for
    result = plan_after(DEBIAN, WITH_CUPS, "add nginx and the default site is useless, remove it")
    assert added(result) == ["nginx"], result.operations
