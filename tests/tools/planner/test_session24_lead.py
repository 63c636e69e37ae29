"""Session 24's planner forms, reworded, each beside near-misses that must not trigger.

A base named by the kind its template has ("start from your real-time variant"), and the
capacity of a device said as the last of what it has ("4GB ram and a 64GB ssd"). The
sentences are written for these tests.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan, SetDiskSize
from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import plan_on, template_text

RT = "emt3-x86_64-realtime-industrial-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"


def _disk(plan: EditPlan) -> list[str]:
    return [op.size for op in plan.operations if isinstance(op, SetDiskSize)]


@pytest.mark.parametrize(
    "request_text",
    [
        "EMT3 image for a RAN box, start from your real-time variant",
        "an EMT 3 image; base it on the realtime template please",
        "EMT3, build it from the real-time industrial one, hostname ran-7",
    ],
)
def test_a_base_named_by_its_kind_is_the_base_it_chose(request_text: str) -> None:
    plan = plan_on(RT, request_text, mode="create")
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "request_text",
    [
        # the chosen template is no cloud one: that is not quietly taken as said
        "start from your cloud variant",
        # a kind of template this one is not
        "start from your hardened variant",
    ],
)
def test_a_base_named_by_a_kind_the_template_lacks_is_reported(request_text: str) -> None:
    plan = plan_on(RT, request_text, mode="create")
    assert plan.not_applied != []


@pytest.mark.parametrize(
    "request_text",
    [
        "the machines have 4GB ram and a 64GB ssd. make the image 20 gigabytes",
        "our boxes come with 8GB of RAM, two NICs and a 128GB nvme; disk 20GB please",
    ],
)
def test_a_devices_capacity_listed_after_its_memory_is_context(request_text: str) -> None:
    plan = plan_request(request_text, template_text(DEBIAN), mode="refine")
    assert _disk(plan) == ["20GB"]
    assert plan.not_applied == []


def test_a_capacity_alone_is_still_the_disks() -> None:
    plan = plan_request("the boxes have a 64GB ssd", template_text(DEBIAN), mode="refine")
    assert _disk(plan) == ["64GB"]


UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "request_text",
    [
        "separate /var, /var/tmp and /home. 8GiB /var, 2GiB /var/tmp, /home gets 10GiB",
        "partitions for /srv and /opt please: /srv 4GiB, /opt 2GiB",
    ],
)
def test_mount_points_announced_before_their_sizes_ask_nothing_more(request_text: str) -> None:
    plan = plan_request(request_text, template_text(UBUNTU), mode="refine")
    assert plan.not_applied == []
    assert len([op for op in plan.operations if op.op == "add_partition"]) in (2, 3)


def test_a_mount_point_no_partition_was_added_for_is_still_reported() -> None:
    plan = plan_request(
        "add /srv of 4GiB, and /opt somehow", template_text(UBUNTU), mode="refine"
    )
    assert any("opt" in item for item in plan.not_applied)
