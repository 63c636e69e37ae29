"""The disk format of the place an image is brought to, when no format is named.

The sentences are written for these tests, not taken from the labelled conversations.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES

DEBIAN = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text("utf-8")


def _artifacts(said: str) -> list[str] | None:
    plan = plan_request(said, DEBIAN, mode="refine")
    ops = [o for o in plan.operations if o.op == "set_artifacts"]
    assert plan.not_applied == [], plan.not_applied
    return [a.type for a in ops[0].artifacts] if ops else None


@pytest.mark.parametrize(
    ("said", "fmt"),
    [
        ("we will upload it to Azure ourselves", "vhd"),
        ("it gets imported into Proxmox VE by the ops team", "qcow2"),
        ("the image runs on our Hyper-V cluster", "vhdx"),
        ("plan is to deploy the image onto OpenStack", "qcow2"),
    ],
)
def test_the_place_an_image_goes_adds_its_format(said: str, fmt: str) -> None:
    assert _artifacts(said) == ["raw", fmt]


def test_a_format_named_wins_over_the_place() -> None:
    assert _artifacts("upload it to azure as a vhdx") == ["vhdx"]


def test_azure_linux_is_a_distribution_not_a_place() -> None:
    assert _artifacts("add htop, it runs on azure linux hosts later") is None


def test_memory_asked_of_the_vm_is_reported_not_dropped() -> None:
    plan = plan_request("also give the guest 2 cores and 6 gigs of memory", DEBIAN, mode="refine")
    assert plan.operations == [] or all(o.op != "set_disk_size" for o in plan.operations)
    assert len(plan.not_applied) == 1 and "hypervisor" in plan.not_applied[0]


def test_memory_the_machine_has_is_context() -> None:
    plan = plan_request("the boxes only have 2GiB of RAM, so add zram-tools", DEBIAN, mode="refine")
    assert plan.not_applied == []
