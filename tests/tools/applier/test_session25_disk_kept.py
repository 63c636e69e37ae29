"""A disk size the user set stays when a partition is added: a fixed-size root gives the room.

"disk 12 gig", then "add /data 4G": the user sized the disk and wants the partition on it.
A template's own disk size may grow to hold a new partition (an assumption, said); one the
user set in this turn or an earlier one does not, while the template's fixed-size root can
shrink to make room (down to a floor, said too).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.nodes.generate import sizes_asked
from oic_ai.stores.settings import load_settings
from oic_ai.tools import edit_plan as ep
from oic_ai.tools.applier import AppliedPlan, apply_plan
from oic_ai.tools.partition_layout import ROOT_FLOOR
from tests.conftest import OUR_TEMPLATES

# ESP, a fixed 16 GiB root, then "models" taking the rest of a 24 GiB disk
VIDEO = (OUR_TEMPLATES / "ubuntu24-x86_64-ai-video-inference-raw.yml").read_text("utf-8")
MINIMAL = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text("utf-8")


def _apply(
    text: str, *ops: Any, disk_set: bool = False, sized: frozenset[str] = frozenset()
) -> AppliedPlan:
    plan = ep.EditPlan(summary="test", operations=list(ops))
    return apply_plan(text, plan, sized=sized | ({"disk"} if disk_set else set()))


def _layout(result: AppliedPlan) -> tuple[str, dict[str, tuple[str, str]]]:
    disk = yaml.safe_load(result.text)["disk"]
    return disk["size"], {p["id"]: (p["start"], p["end"]) for p in disk["partitions"]}


def _sized(size: str) -> str:
    return _apply(VIDEO, ep.SetDiskSize(size=size)).text


DATA = ep.AddPartition(id="data", mount_point="/data", size="4GiB", fs_type="ext4")


def test_a_disk_set_earlier_stays_and_the_root_gives_the_room() -> None:
    result = _apply(_sized("12GiB"), DATA, disk_set=True)
    size, parts = _layout(result)
    assert size == "12GiB"
    assert parts["rootfs"] == ("513MiB", "7168MiB")
    assert parts["data"] == ("7168MiB", "11264MiB")
    assert parts["models"] == ("11264MiB", "0")  # the rest keeps 1 GiB
    assert result.applied[0].startswith("resized partition rootfs to 6655MiB")
    assert any(
        "assumed: partition rootfs shrinks" in w and "12GiB disk you set" in w
        for w in result.warnings
    ), result.warnings


def test_a_disk_set_in_the_same_plan_stays_too() -> None:
    big = ep.AddPartition(id="clips", mount_point="/clips", size="8GiB", fs_type="ext4")
    size, parts = _layout(_apply(VIDEO, ep.SetDiskSize(size="16GiB"), big))
    assert size == "16GiB"
    assert parts["clips"] == ("7168MiB", "15360MiB")


def test_the_templates_own_disk_size_still_grows() -> None:
    # nobody set the disk size: the partition asked for wins, as an assumption
    big = ep.AddPartition(id="big", mount_point="/big", size="20GiB", fs_type="ext4")
    result = _apply(VIDEO, big)
    size, parts = _layout(result)
    assert size != "24GiB" and parts["rootfs"] == ("513MiB", "16897MiB")
    assert any("assumed: the disk grows" in w for w in result.warnings)


def test_a_root_is_not_shrunk_below_the_floor_the_disk_grows_instead() -> None:
    # 12 GiB: ESP, 8 GiB of /data and 1 GiB of models leave less than the floor for root
    big = ep.AddPartition(id="data", mount_point="/data", size="8GiB", fs_type="ext4")
    result = _apply(_sized("12GiB"), big, disk_set=True)
    size, parts = _layout(result)
    assert size == "17GiB" and parts["rootfs"] == ("513MiB", "8530MiB")
    assert ROOT_FLOOR == 3 * 1024**3
    assert not any("shrinks" in w for w in result.warnings)


def test_a_root_that_takes_the_rest_is_carved_as_before() -> None:
    # the minimal template's root takes the rest of the disk: nothing to shrink, it just
    # gives the new partition its space
    result = _apply(_apply(MINIMAL, ep.SetDiskSize(size="12GiB")).text, DATA, disk_set=True)
    size, parts = _layout(result)
    assert size == "12GiB" and parts["data"][1] != "0"
    assert not result.warnings or not any("shrinks" in w for w in result.warnings)


def test_a_root_the_user_sized_never_gives_room() -> None:
    # "/ 20 GiB" asked before: the disk grows rather than the root shrinking
    result = _apply(_sized("12GiB"), DATA, disk_set=True, sized=frozenset({"/"}))
    size, parts = _layout(result)
    assert size != "12GiB" and parts["rootfs"] == ("513MiB", "8530MiB")
    assert any("assumed: the disk grows" in w for w in result.warnings)


def test_the_sizes_asked_are_remembered_across_turns() -> None:
    first = ep.EditPlan(summary="s", operations=[ep.SetDiskSize(size="12GiB")])
    second = ep.EditPlan(
        summary="s", operations=[DATA, ep.ResizePartition(partition="/", size="6GiB")]
    )
    sized = sizes_asked(second, sizes_asked(first, None))
    assert sized == {"disk": "12GiB", "/data": "4GiB", "/": "6GiB"}
    plain = ep.EditPlan(summary="s", operations=[ep.AddPackages(packages=["htop"])])
    assert sizes_asked(plain, None) == {}


def test_a_conversation_keeps_the_disk_it_asked_for(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", env={}, provider="builtin")
    with TemplateAgent(settings) as agent:
        first = agent.generate("ubuntu 24.04 image for ai video inference on intel, raw")
        assert first.base_template == "ubuntu24-x86_64-ai-video-inference-raw.yml"
        sized = agent.generate("disk 12 gig", session=first.session)
        after = agent.generate("add /data 4G ext4 for recordings", session=sized.session)
    disk = yaml.safe_load(after.template or "")["disk"]
    assert disk["size"] == "12GiB"
    assert any(p.get("mountPoint") == "/data" for p in disk["partitions"])


def test_a_disk_the_agent_grew_is_not_the_users(tmp_path: Path) -> None:
    # the disk grew to hold the root the user sized; a later partition grows it again
    # rather than shrinking that root (it is the user's size, and so is nothing of the disk)
    settings = load_settings(data_dir=tmp_path / "data", env={}, provider="builtin")
    with TemplateAgent(settings) as agent:
        first = agent.generate("ubuntu 24.04 image for ai video inference on intel, raw")
        rooted = agent.generate("make / 30 GiB", session=first.session)
        after = agent.generate("add a /srv partition of 16 GiB", session=rooted.session)
    disk = yaml.safe_load(after.template or "")["disk"]
    root = next(p for p in disk["partitions"] if p.get("mountPoint") == "/")
    grown = yaml.safe_load(rooted.template or "")["disk"]["size"]
    assert (root["start"], root["end"]) == ("513MiB", "31233MiB")
    assert disk["size"] != grown  # it grew again for /srv
