"""A partition resized in shorthand, and one grown into the space a removal leaves.

The sentences are written for these tests, not taken from the labelled conversations.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES

DEBIAN = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text("utf-8")
# a 40GiB disk: root 12GiB, then /srv 10GiB, then /var/cache taking the rest
LAID_OUT = apply_plan(
    DEBIAN,
    plan_request(
        "disk 40GiB, / 12GiB, a /srv partition of 10GiB, and /var/cache with the rest",
        DEBIAN,
        mode="refine",
    ),
).text


def _ops(plan: EditPlan, kind: str) -> list[dict[str, Any]]:
    return [o.model_dump(exclude_defaults=True) for o in plan.operations if o.op == kind]


def test_the_layout_the_tests_start_from() -> None:
    assert "/srv" in LAID_OUT and "/var/cache" in LAID_OUT


@pytest.mark.parametrize(
    "said", ["srv part -> 14GiB", "the srv partition: 14GiB", "/srv partition becomes 14GiB"]
)
def test_a_partition_named_then_its_size_is_resized(said: str) -> None:
    plan = plan_request(said, LAID_OUT, mode="refine")
    assert [(o["partition"], o["size"]) for o in _ops(plan, "resize_partition")] == [
        ("srv", "14GiB")
    ]
    assert _ops(plan, "set_disk_size") == []
    assert plan.not_applied == []


def test_a_partition_grown_without_a_size_takes_what_a_removal_frees() -> None:
    plan = plan_request("drop /srv after all and grow root instead", LAID_OUT, mode="refine")
    assert [o["partition"] for o in _ops(plan, "remove_partition")] == ["srv"]
    assert [(o["partition"], o["size"]) for o in _ops(plan, "resize_partition")] == [
        ("rootfs", "22GiB")
    ]
    assert plan.not_applied == []


def test_a_partition_grown_without_a_size_and_nothing_freed_asks_for_one() -> None:
    plan = plan_request("grow root", LAID_OUT, mode="refine")
    assert _ops(plan, "resize_partition") == []
    assert len(plan.not_applied) == 1 and "how large / should be" in plan.not_applied[0]


@pytest.mark.parametrize(
    "said",
    [
        "the render nodes mount /shared from our NFS box at startup",
        "mount nas01:/export/media on /media",
    ],
)
def test_a_network_share_is_reported_not_made_a_partition(said: str) -> None:
    plan = plan_request(said, LAID_OUT, mode="refine")
    assert _ops(plan, "add_partition") == [] and _ops(plan, "resize_partition") == []
    assert len(plan.not_applied) == 1 and "network file system" in plan.not_applied[0]


def test_a_repository_url_beside_a_path_is_no_network_share() -> None:
    plan = plan_request(
        "add the repo https://apt.example.com/debian trixie main, and a /srv/www partition of 2GiB",
        LAID_OUT,
        mode="refine",
    )
    assert not any("network file system" in line for line in plan.not_applied)
