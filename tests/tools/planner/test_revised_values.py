"""A size or file system revised in the same breath: the last value said wins, silently.

The wordings here were written for these tests, not taken from the labelled conversations.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import ops_of, plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


def plan(request: str) -> EditPlan:
    return plan_on(UBUNTU, request)


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        ("set the disk to 30 gigs, the flash is small, actually 24 gigs, 24 will do", "24GiB"),
        ("disk image 40GB, no 32, let's say 32", "32GB"),
        ("make it 12 gig, hmm, make that 14", "14GiB"),
        ("the drive should be 100 GiB, sorry, I mean 120 GiB", "120GiB"),
        ("disk 20 gigs, no wait, 18 gigs is enough", "18GiB"),
    ],
)
def test_the_last_disk_size_said_wins_and_the_first_leaves_no_trace(
    request_text: str, size: str
) -> None:
    result = plan(request_text)
    assert [o["size"] for o in ops_of(result, "set_disk_size")] == [size]
    assert result.not_applied == []


def test_a_second_size_naming_something_else_is_no_revision() -> None:
    result = plan("make the disk 20 gigs, actually 3 gigs for a /srv partition")
    assert [o["size"] for o in ops_of(result, "set_disk_size")] == ["20GiB"]


def test_a_partition_file_system_answered_with_another_is_the_answer() -> None:
    result = plan("give /srv a partition of its own, 3 gig, btrfs? no xfs, stick with xfs")
    parts = ops_of(result, "add_partition")
    assert [(p["mount_point"], p["size"], p.get("fs_type")) for p in parts] == [
        ("/srv", "3GiB", "xfs")
    ]
    assert result.not_applied == []


def test_a_file_system_declined_without_a_question_is_not_a_revision() -> None:
    result = plan("add a /srv partition of 3GiB, ext4, no xfs")
    parts = ops_of(result, "add_partition")
    assert [p.get("fs_type", "ext4") for p in parts] == ["ext4"]


@pytest.mark.parametrize(
    ("request_text", "kind"),
    [
        ("turn it into an installer iso, no, a raw image after all", "raw"),
        ("make it an iso. hmm, actually a netboot initrd", "img"),
    ],
)
def test_an_image_type_revised_is_the_last_one_without_a_report(
    request_text: str, kind: str
) -> None:
    debian = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    result = plan_request(
        request_text, debian.replace("imageType: raw", "imageType: iso"), mode="refine"
    )
    assert [o.get("image_type") for o in ops_of(result, "set_target")] == [kind]
    assert result.not_applied == []


def test_an_output_format_revised_is_the_last_one() -> None:
    result = plan("qcow2 output, or rather vhdx")
    artifacts = ops_of(result, "set_artifacts")
    assert [[a["type"] for a in o["artifacts"]] for o in artifacts] == [["vhdx"]]


def test_a_format_declined_after_another_is_no_revision() -> None:
    result = plan("raw and vhd, no qcow2")
    assert [[a["type"] for a in o["artifacts"]] for o in ops_of(result, "set_artifacts")] == [
        ["raw", "vhd"]
    ]
