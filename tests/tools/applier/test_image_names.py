"""Renaming the image renames disk.name and systemConfig.name when they were the same name."""

from __future__ import annotations

import yaml

from oic_ai.tools import edit_plan as ep
from oic_ai.tools.applier import apply_plan
from tests.conftest import OUR_TEMPLATES

MINIMAL = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"
OLD = "ubuntu24-x86_64-minimal-raw"


def _rename(text: str, name: str) -> tuple[dict[str, dict[str, str]], list[str]]:
    plan = ep.EditPlan(summary="rename", operations=[ep.SetImage(name=name)])
    applied = apply_plan(text, plan)
    return yaml.safe_load(applied.text), applied.applied


def _same_names(text: str) -> str:
    for old in ("  name: ubuntu24-minimal\n",):
        text = text.replace(old, f"  name: {OLD}\n")
    return text


def test_names_equal_to_the_image_name_follow_it() -> None:
    text = _same_names(MINIMAL.read_text(encoding="utf-8"))
    before = yaml.safe_load(text)
    assert before["disk"]["name"] == before["systemConfig"]["name"] == OLD
    doc, applied = _rename(text, "gateway-x86_64")
    assert doc["image"]["name"] == "gateway-x86_64"
    assert doc["disk"]["name"] == "gateway-x86_64"
    assert doc["systemConfig"]["name"] == "gateway-x86_64"
    assert any("disk.name" in line and "systemConfig.name" in line for line in applied), applied


def test_names_that_differed_are_left_alone() -> None:
    doc, _ = _rename(MINIMAL.read_text(encoding="utf-8"), "gateway-x86_64")
    assert doc["image"]["name"] == "gateway-x86_64"
    assert doc["disk"]["name"] == "ubuntu24-minimal"
    assert doc["systemConfig"]["name"] == "ubuntu24-minimal"


def test_only_the_name_lines_change() -> None:
    text = _same_names(MINIMAL.read_text(encoding="utf-8"))
    plan = ep.EditPlan(summary="rename", operations=[ep.SetImage(name="gw")])
    diff = apply_plan(text, plan).diff
    changed = [
        line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert sorted(changed) == sorted([f"-  name: {OLD}", "+  name: gw"] * 3), changed
