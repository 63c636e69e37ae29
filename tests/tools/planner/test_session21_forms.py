"""Session 21's forms, reworded: "bake" puts a thing in the image, never names a package."""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("request_text", "packages"),
    [
        ("add htop and bake this into the template", ["htop"]),
        ("bake htop into the image", ["htop"]),
        ("bake in htop", ["htop"]),
        ("baking jq and curl in would be nice", ["jq", "curl"]),
    ],
)
def test_bake_is_a_verb_that_adds_what_it_names(request_text: str, packages: list[str]) -> None:
    plan = plan_on(UBUNTU, request_text)
    added = [name for op in plan.operations if op.op == "add_packages" for name in op.packages]
    assert added == packages
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "request_text", ["we bake images nightly in CI", "can you bake this into an image"]
)
def test_bake_with_no_thing_named_adds_nothing(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert [op for op in plan.operations if op.op == "add_packages"] == []


def _disk(plan: object) -> list[str]:
    return [op.size for op in plan.operations if op.op == "set_disk_size"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("request_text", "shell"),
    [
        ("add user svc-edge, shell /bin/bash.. nah make it /sbin/nologin", "/sbin/nologin"),
        ("add user ops, shell /usr/bin/fish. nah, make it /bin/bash", "/bin/bash"),
        ("new user ci with login shell /bin/sh, no wait, /usr/bin/zsh", "/usr/bin/zsh"),
        ("add user ops with shell /bin/bash, no, zsh", "/bin/zsh"),
    ],
)
def test_a_path_corrected_in_the_same_breath_keeps_one_leading_slash(
    request_text: str, shell: str
) -> None:
    plan = plan_on(UBUNTU, request_text)
    users = [op for op in plan.operations if op.op == "add_user"]
    assert [u.shell for u in users] == [shell]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        ("4 gig too small, make it 12. and qcow2 output too for the lab", "12GiB"),
        ("the 20 gig disk is not enough, make it 40", "40GiB"),
        ("10 gigs won't do, make it 30 gigs", "30GiB"),
        ("6G is way too small, actually 16", "16GiB"),
    ],
)
def test_a_size_judged_wrong_then_replaced_is_the_new_size(request_text: str, size: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert _disk(plan) == [size]
    assert plan.not_applied == []


@pytest.mark.parametrize("request_text", ["4 gig too small", "8G not enough"])
def test_a_size_judged_wrong_alone_asks_for_no_size_and_is_reported(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert _disk(plan) == []
    assert plan.not_applied and "not which to use" in plan.not_applied[0]


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        (
            "The eMMC on these modules is 64 gig but I want the image itself to be 6 gigs so "
            "flashing is fast",
            "6GiB",
        ),
        ("the SSDs in our boxes are 512 GB, keep the image at 20 gigs", "20GiB"),
        ("the NVMe on each node is 1 TB; the image should be 30 gigs", "30GiB"),
        ("I'd like the image to be 10 gigs", "10GiB"),
        ("the eMMC on the board is 32 gig", "32GiB"),  # alone, the device's size is the disk's
    ],
)
def test_a_device_capacity_beside_the_image_size_is_context(request_text: str, size: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert _disk(plan) == [size]
    assert plan.not_applied == []
