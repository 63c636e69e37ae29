"""A layout listed under its own header is the whole layout, a partition said to be unneeded
goes, and a sentence naming a partition, a mount point and a size adds it however the words
between run (round 9). The sentences are written for these tests."""

from __future__ import annotations

import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES

# ESP, / (fixed), /var/log (fixed), /var/lib/collectd taking the rest of a 12GiB disk
MONITORING = (OUR_TEMPLATES / "elxr12-x86_64-monitoring-raw.yml").read_text("utf-8")
UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text("utf-8")


def _applied(
    said: str, text: str
) -> tuple[dict[str, dict[str, object]], dict[str, object], list[str]]:
    plan = plan_request(said, text, mode="refine")
    doc = yaml.safe_load(apply_plan(text, plan).text)
    parts = {str(p["mountPoint"]): p for p in doc["disk"]["partitions"]}
    return parts, doc["disk"], plan.not_applied


def test_a_listed_layout_replaces_the_partitions_it_does_not_name() -> None:
    parts, disk, not_applied = _applied(
        "Disk 40 GiB. Layout: /boot/efi 384 MiB, / 12 GiB, /var/log 4 GiB, the rest for /srv.",
        MONITORING,
    )
    assert not_applied == []
    assert set(parts) == {"/boot/efi", "/", "/var/log", "/srv"}
    assert parts["/srv"]["end"] == "0" and disk["size"] == "40GiB"


def test_a_list_without_the_root_only_adds_partitions() -> None:
    parts, _, not_applied = _applied("partitions: /opt 2GiB, /srv 1GiB", MONITORING)
    assert not_applied == []
    assert {"/var/lib/collectd", "/opt", "/srv"} <= set(parts)


def test_a_partition_said_to_be_unneeded_goes_and_another_takes_the_rest() -> None:
    parts, _, not_applied = _applied(
        "/var/lib/collectd is not needed any more, give the rest of the disk to /var/log",
        MONITORING,
    )
    assert not_applied == []
    assert "/var/lib/collectd" not in parts and parts["/var/log"]["end"] == "0"


def test_the_root_said_to_be_unneeded_is_refused() -> None:
    _, _, not_applied = _applied("/ we don't need", MONITORING)
    assert not_applied


def test_a_sentence_naming_a_part_of_the_disk_a_size_and_a_mount_point_adds_it() -> None:
    parts, _, not_applied = _applied(
        "where do the backups go? could we get a large separate part of the disk for "
        "them, about 300 GB, at /srv/backup?",
        UBUNTU,
    )
    assert not_applied == []
    backup = parts["/srv/backup"]
    assert backup["end"] != "0"


def _mib(value: object) -> float:
    text = str(value)
    number = float(text.rstrip("MiBGB"))
    if text.endswith("GiB"):
        return number * 1024
    return number * 1000**2 / 1024**2 if text.endswith("MB") else number


def test_the_rest_for_a_partition_that_is_not_last_sizes_it_to_what_is_left() -> None:
    parts, disk, not_applied = _applied(
        "/var/lib/collectd down to 2GiB please, and the rest is for root", MONITORING
    )
    assert not_applied == []
    root, logs, metrics = parts["/"], parts["/var/log"], parts["/var/lib/collectd"]
    assert _mib(metrics["end"]) - _mib(metrics["start"]) == 2048
    assert _mib(logs["end"]) - _mib(logs["start"]) == 4096  # untouched, moved
    assert _mib(root["end"]) > 4481 and _mib(metrics["end"]) <= _mib(disk["size"])
    assert _mib(disk["size"]) - _mib(metrics["end"]) < 2


def test_a_disk_size_with_its_verb_after_the_object() -> None:
    # beside a partition's size the disk's is read by its own words, not as a bare size
    plan = plan_request(
        "add a /srv partition 10GiB xfs, and whole disk make 40GiB", UBUNTU, mode="refine"
    )
    assert plan.not_applied == []
    assert [op.size for op in plan.operations if op.op == "set_disk_size"] == ["40GiB"]
