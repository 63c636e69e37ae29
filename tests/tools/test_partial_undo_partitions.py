"""Taking back one partition a turn added (issue 21, round 13).

"undo the /scratch partition, keep /srv" after a turn that added both: only /scratch
goes, /srv and the disk size the turn set stay. An undo that names no partition still
puts the whole layout (and the disk size the turn set with it) back.
"""

from __future__ import annotations

import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.partial_undo import Part, apply_taken_back, take_back
from oic_ai.tools.planner import plan_request
from oic_ai.tools.references import undo_aspects, undo_names
from tests.conftest import OUR_TEMPLATES

BASE = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8")


def _apply(text: str, request: str) -> str:
    return apply_plan(text, plan_request(request, text, mode="refine")).text


def _disk(text: str) -> tuple[str, list[str]]:
    disk = yaml.safe_load(text)["disk"]
    return str(disk["size"]), [str(p.get("mountPoint")) for p in disk["partitions"]]


def _part(said: str) -> Part:
    names = [n for n in undo_names(said) for n in n.split("/") if n]
    return Part(names=tuple(names), aspects=tuple(undo_aspects(said)))


def _turns() -> tuple[str, str, str]:
    before = _apply(BASE, "disk 10GiB")
    after = _apply(before, "a 40GB disk with separate /srv 4GiB and /scratch 6GiB partitions, ext4")
    current = _apply(after, "add mitigations=off to the kernel command line")
    return before, after, current


def test_a_partition_named_is_the_only_one_taken_back() -> None:
    before, after, current = _turns()
    assert {"/srv", "/scratch"} <= set(_disk(after)[1])
    taken = take_back(before, after, current, _part("undo the /scratch partition"))
    size, mounts = _disk(apply_taken_back(current, taken))
    assert "/scratch" not in mounts and "/srv" in mounts, mounts
    assert size == _disk(after)[0] == "40GB"


def test_an_undo_naming_no_partition_puts_the_layout_back() -> None:
    before, after, current = _turns()
    taken = take_back(before, after, current, _part("undo the partition change"))
    assert _disk(apply_taken_back(current, taken)) == _disk(before)
