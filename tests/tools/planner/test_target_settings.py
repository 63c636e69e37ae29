"""A target field written as a setting ("arch=arm64") and hardware that is 64-bit Arm.

The sentences are written for these tests, not taken from the labelled conversations.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.planner import plan_request
from oic_ai.tools.retrieval.target_mentions import detect_target_spans
from tests.conftest import OUR_TEMPLATES

UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text("utf-8")


def _set_target(said: str) -> tuple[dict[str, Any], list[str]]:
    plan = plan_request(said, UBUNTU, mode="refine")
    ops = [o.model_dump(exclude_defaults=True) for o in plan.operations if o.op == "set_target"]
    return (ops[0] if ops else {}), plan.not_applied


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        ("arch=arm64 thanks", "arch", "aarch64"),
        ("set architecture = aarch64", "arch", "aarch64"),
        ("image_type=iso", "image_type", "iso"),
        ("target.dist=deb13", "dist", "debian13"),
    ],
)
def test_a_target_field_written_as_a_setting_sets_it(said: str, field: str, value: str) -> None:
    target, missed = _set_target(said)
    assert target.get(field) == value
    assert missed == []


def test_a_setting_of_another_key_names_no_target() -> None:
    assert detect_target_spans("console=ttyAMA0 root=/dev/arm64") == []


@pytest.mark.parametrize(
    "said",
    [
        "the lab is switching to Pi 5 boards, same image for those",
        "we bought a batch of Compute Module 4 carrier boards, build it for them",
        "they run on 64-bit Pi 4s now",
    ],
)
def test_hardware_that_is_64_bit_arm_names_aarch64(said: str) -> None:
    target, _ = _set_target(said)
    assert target.get("arch") == "aarch64"


@pytest.mark.parametrize(
    "said",
    ["firmware: set the boot order to PXE first", "boot sequence: network boot, then disk"],
)
def test_a_way_to_boot_in_a_firmware_setting_is_no_image_type(said: str) -> None:
    target, _ = _set_target(said)
    assert "image_type" not in target
