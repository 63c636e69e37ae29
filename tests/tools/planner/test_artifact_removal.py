"""Removing a disk artifact takes it out of the list; it never becomes the only one.

"drop the vhdx output" used to set the artifacts to exactly [vhdx]: the format was read as
the one asked for. The wordings are our own.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import artifact_types

TWO = (
    (OUR_TEMPLATES / "ubuntu24-x86_64-cloud-vm-qcow2.yml")
    .read_text(encoding="utf-8")
    .replace("    - type: qcow2\n", "    - type: qcow2\n    - type: vhdx\n", 1)
)


def _types(request: str) -> list[str] | None:
    return artifact_types(plan_request(request, TWO, mode="refine"))


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("drop the vhdx output, we're off hyper-v now", ["qcow2"]),
        ("no qcow2 anymore", ["vhdx"]),
        ("we don't need the vhdx", ["qcow2"]),
        ("drop the qcow2, add a vmdk as well", ["vhdx", "vmdk"]),
        ("drop the qcow2 and make it a vmdk", ["vmdk"]),
        ("also a vmdk", ["qcow2", "vhdx", "vmdk"]),
    ],
)
def test_artifacts_removed_added_and_replaced(request_text: str, wanted: list[str]) -> None:
    assert _types(request_text) == wanted


def test_removing_every_artifact_is_refused_with_the_fix() -> None:
    result = plan_request("remove both the qcow2 and the vhdx", TWO, mode="refine")
    assert not [op for op in result.operations if op.op == "set_artifacts"]
    assert any("at least one disk artifact" in n for n in result.not_applied)


def test_removing_a_format_the_image_does_not_write_changes_nothing() -> None:
    result = plan_request("no vdi", TWO, mode="refine")
    assert result.operations == []
    assert "vdi" in result.summary
