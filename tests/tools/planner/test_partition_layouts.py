"""A layout said as a list, where the last partition takes the rest and the old taker gets
a size; a place asked for a new partition ("between / and /home") is read, not misread."""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # ESP, then / taking the rest of the disk


def _layout(said: str, text: str) -> tuple[list[dict[str, object]], list[str], list[str]]:
    plan = plan_request(said, text, mode="refine")
    applied = apply_plan(text, plan)
    parts = yaml.safe_load(applied.text)["disk"]["partitions"]
    return parts, plan.not_applied, plan.warnings


def test_the_last_of_a_list_takes_the_rest_when_root_gets_a_size() -> None:
    said = "64GB disk: / 30GiB ext4, /home btrfs with the rest of the disk"
    parts, not_applied, _ = _layout(said, template_text(UBUNTU))
    assert not_applied == []
    by_mount = {p["mountPoint"]: p for p in parts}
    assert by_mount["/home"]["end"] == "0" and by_mount["/home"]["fsType"] == "btrfs"
    assert by_mount["/"]["end"] != "0"


def test_without_a_size_for_root_another_rest_taker_is_reported() -> None:
    _, not_applied, _ = _layout("/home btrfs with the rest of the disk", template_text(UBUNTU))
    assert any("takes the rest" in item for item in not_applied)


def test_a_place_between_partitions_is_read_and_warned_about() -> None:
    said = "64GB disk, / 30GiB, /home with the rest of the disk"
    first, _, _ = _layout(said, template_text(UBUNTU))
    text = apply_plan(
        template_text(UBUNTU), plan_request(said, template_text(UBUNTU), mode="refine")
    ).text
    parts, not_applied, warnings = _layout(
        "add a 2GiB /scratch partition between / and /home", text
    )
    assert not_applied == []
    assert any("cannot choose where a partition sits" in w for w in warnings)
    root = next(p for p in parts if p["mountPoint"] == "/")
    assert root["end"] == next(p for p in first if p["mountPoint"] == "/")["end"]
    assert len(parts) == len(first) + 1


def test_a_nested_mount_point_is_one_partition_and_growing_it_grows_the_disk() -> None:
    first = apply_plan(
        template_text(UBUNTU),
        plan_request(
            "a 4 GiB /var/spool/jobs partition, ext4", template_text(UBUNTU), mode="refine"
        ),
    )
    said = "make the /var/spool/jobs partition btrfs and 16 GiB"
    plan = plan_request(said, first.text, mode="refine")
    # "/jobs partition" inside "/var/spool/jobs" is no new partition
    assert [op.op for op in plan.operations if op.op == "add_partition"] == [], plan.operations
    applied = apply_plan(first.text, plan)
    assert not plan.not_applied and not applied.not_applied, applied.not_applied
    parts = yaml.safe_load(applied.text)["disk"]["partitions"]
    jobs = next(p for p in parts if p["mountPoint"] == "/var/spool/jobs")
    assert jobs["fsType"] == "btrfs"
    assert any("the disk grows" in w for w in applied.warnings), applied.warnings


@pytest.mark.parametrize(
    ("said", "size"),
    [
        ("bump it up to 24 gigabytes, the new drive is 24GB", "24GB"),
        ("ok then, enlarge it to 20GiB", "20GiB"),
    ],
)
def test_a_verb_on_it_with_a_size_sets_the_disk(said: str, size: str) -> None:
    plan = plan_request(said, template_text(UBUNTU), mode="refine")
    assert [(op.op, getattr(op, "size", None)) for op in plan.operations] == [
        ("set_disk_size", size)
    ], plan.operations
    assert not plan.not_applied, plan.not_applied


@pytest.mark.parametrize(
    ("said", "mount", "size", "fs"),
    [
        # a partition asked for first, its mount point and attributes in the clauses after
        (
            "The logs get their own partition: /var/log, btrfs, 3GiB. Disk 24GiB.",
            "/var/log",
            3,
            "btrfs",
        ),
        ("I'd like a separate partition, /srv, 5GiB", "/srv", 5, "ext4"),
        ("add a dedicated partition: /opt/app, 6GiB, xfs", "/opt/app", 6, "xfs"),
        # what it is for, then where it goes
        ("a separate partition for the logs, /var/log, 3 GiB", "/var/log", 3, "ext4"),
    ],
)
def test_a_partition_asked_for_before_its_mount_point(
    said: str, mount: str, size: int, fs: str
) -> None:
    parts, not_applied, _ = _layout(said, template_text(UBUNTU))
    assert not_applied == [], not_applied
    found = {p["mountPoint"]: p for p in parts}
    assert mount in found, parts
    part = found[mount]
    start, end = (int(str(part[k]).removesuffix("MiB")) for k in ("start", "end"))
    assert end - start == size * 1024, part
    assert part["fsType"] == fs


@pytest.mark.parametrize(
    "said",
    [
        # the root file system by its word, the rest of the disk without "the"
        "120GB disk, root 40G ext4, rest of disk /var/lib/video btrfs",
        # a list item that takes everything else
        "120GB disk. Layout:\n- / 40 GiB\n- /var/lib/video = everything else, btrfs\n",
    ],
)
def test_root_by_its_word_and_the_rest_said_loosely(said: str) -> None:
    parts, not_applied, _ = _layout(said, template_text(UBUNTU))
    assert not_applied == []
    by_mount = {p["mountPoint"]: p for p in parts}
    assert by_mount["/var/lib/video"]["end"] == "0"
    assert by_mount["/var/lib/video"]["fsType"] == "btrfs"
    assert by_mount["/"]["end"] != "0"


def test_a_fixed_size_that_leaves_the_rest_free_asks_nothing_more() -> None:
    first = apply_plan(
        template_text(UBUNTU),
        plan_request(
            "80GB disk, / 20 GiB, /opt/data with the rest, xfs",
            template_text(UBUNTU),
            mode="refine",
        ),
    ).text
    said = "/opt/data should be 30 GiB, not the rest of the disk. Keep the remaining space free."
    parts, not_applied, _ = _layout(said, first)
    assert not_applied == []
    data = next(p for p in parts if p["mountPoint"] == "/opt/data")
    assert data["end"] != "0" and data["fsType"] == "xfs"


@pytest.mark.parametrize(
    ("said", "removed"),
    [("ok, ditch the /opt/data one", True), ("drop the backup job for /opt/data", False)],
)
def test_removing_a_mount_point_alone_removes_its_partition(said: str, removed: bool) -> None:
    first = apply_plan(
        template_text(UBUNTU),
        plan_request("a 4 GiB /opt/data partition", template_text(UBUNTU), mode="refine"),
    ).text
    parts, _, _ = _layout(said, first)
    assert any(p["mountPoint"] == "/opt/data" for p in parts) is not removed
