"""A smaller disk than the layout: the root and the rest-of-disk partition shrink to fit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from oic_ai.stores.disk_units import parse_size
from oic_ai.tools import edit_plan as ep
from oic_ai.tools.applier import AppliedPlan, apply_plan
from tests.conftest import OUR_TEMPLATES
from tests.support.upval import judge, require_upval

ROBOTICS = OUR_TEMPLATES / "ubuntu24-x86_64-ros2-robotics-raw.yml"  # ESP, 12GiB root, /data
WEB = OUR_TEMPLATES / "ubuntu24-x86_64-web-server-raw.yml"  # ESP, root, /var/www, /var/log

ROOT_LAST = """\
image:
  name: tiny
  version: "1.0.0"
target:
  os: ubuntu
  dist: ubuntu24
  arch: x86_64
  imageType: raw
disk:
  name: tiny
  size: 32GiB
  partitionTableType: gpt
  artifacts:
    - type: raw
  partitions:
    - id: esp
      type: esp
      start: 1MiB
      end: 257MiB
      fsType: fat32
      mountPoint: /boot/efi
      flags: [esp, boot]
    - id: root
      type: linux-root-amd64
      start: 257MiB
      end: 16641MiB
      fsType: ext4
      mountPoint: /
systemConfig:
  name: tiny
  packages: [ubuntu-minimal]
"""


def _set(text: str, size: str) -> AppliedPlan:
    plan = ep.EditPlan(summary="resize the disk", operations=[ep.SetDiskSize(size=size)])
    return apply_plan(text, plan)


def _parts(result: AppliedPlan) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = yaml.safe_load(result.text)["disk"]["partitions"]
    return parts


def _bytes(value: object) -> int:
    size = parse_size(value)
    assert size is not None, value
    return size


def test_a_fixed_root_on_the_end_of_the_disk_follows_the_smaller_disk() -> None:
    result = _set(ROOT_LAST, "10GiB")
    assert not result.not_applied, result.not_applied
    parts = {p["id"]: p for p in _parts(result)}
    assert yaml.safe_load(result.text)["disk"]["size"] == "10GiB"
    assert parts["esp"]["end"] == "257MiB"  # the ESP keeps its size
    assert (parts["root"]["start"], parts["root"]["end"]) == ("257MiB", "0")
    said = " ".join(result.warnings)
    assert "assumed" in said and "root" in said and "16GiB" in said, result.warnings


def test_root_and_the_rest_partition_share_a_smaller_disk_in_proportion() -> None:
    result = _set(ROBOTICS.read_text(), "8GiB")
    assert not result.not_applied, result.not_applied
    parts = _parts(result)
    boot, root, rest = parts
    assert (boot["start"], boot["end"]) == ("1MiB", "513MiB")
    assert root["start"] == "513MiB" and rest["end"] == "0"
    assert root["end"] == rest["start"]  # no gap, no overlap
    root_size = _bytes(root["end"]) - _bytes(root["start"])
    rest_size = 8 * 1024**3 - _bytes(rest["start"])
    # 12GiB root and 7.5GiB /data before: the root keeps the larger share, both >= 1GiB
    assert root_size > rest_size >= 1024**3
    assert abs(root_size / (root_size + rest_size) - 12288 / (12288 + 7679)) < 0.01


def test_other_fixed_partitions_keep_their_size_and_move_down() -> None:
    result = _set(WEB.read_text(), "8GiB")
    assert not result.not_applied, result.not_applied
    parts = {p["id"]: p for p in _parts(result)}
    www = parts["www"]
    assert _bytes(www["end"]) - _bytes(www["start"]) == 3 * 1024**3
    assert www["start"] == parts["rootfs"]["end"] and parts["logs"]["start"] == www["end"]
    assert parts["logs"]["end"] == "0"
    assert _bytes(parts["logs"]["start"]) < 8 * 1024**3


def test_a_disk_that_still_holds_the_layout_moves_no_partition() -> None:
    result = _set(ROBOTICS.read_text(), "14GiB")
    assert not result.not_applied and not result.warnings
    assert [p["end"] for p in _parts(result)] == ["513MiB", "12801MiB", "0"]


def test_the_composer_loads_every_shrunk_layout(tmp_path: Path) -> None:
    upval = require_upval()
    files = []
    for index, text in enumerate((ROBOTICS.read_text(), WEB.read_text(), ROOT_LAST)):
        result = _set(text, "8GiB")
        assert not result.not_applied, result.not_applied
        files.append(tmp_path / f"shrunk-{index}.yml")
        files[-1].write_text(result.text, encoding="utf-8")
    verdicts = judge(upval, files)
    assert all(v.buildable for v in verdicts.values()), verdicts


def test_a_partition_resized_past_the_disk_grows_the_disk_by_what_it_gains() -> None:
    plan = ep.EditPlan(
        summary="grow www", operations=[ep.ResizePartition(partition="/var/www", size="7GiB")]
    )
    result = apply_plan(WEB.read_text(), plan)  # 12GiB disk, www 3GiB, logs on the rest
    assert not result.not_applied, result.not_applied
    assert yaml.safe_load(result.text)["disk"]["size"] == "16GiB"  # 12GiB + 4GiB gained
    parts = {p["id"]: p for p in _parts(result)}
    assert _bytes(parts["www"]["end"]) - _bytes(parts["www"]["start"]) == 7 * 1024**3
    assert parts["logs"]["end"] == "0" and any("assumed" in w for w in result.warnings)
