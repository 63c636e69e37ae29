"""Disk artifacts listed with "+", "&" or "/", and one more said as a continuation ("and a
vhdx for the hyper-v team"): added to what the image writes, never replacing it. The
wordings are our own."""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import artifact_types

QCOW2 = (OUR_TEMPLATES / "ubuntu24-x86_64-cloud-vm-qcow2.yml").read_text(encoding="utf-8")


def _types(request: str) -> list[str] | None:
    result = plan_request(request, QCOW2, mode="refine")
    assert result.not_applied == [], result.not_applied
    return artifact_types(result)


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("we need vmdk + raw outputs", ["vmdk", "raw"]),
        ("vhdx & raw images please", ["vhdx", "raw"]),
    ],
)
def test_a_bare_raw_joined_to_another_format_is_an_artifact(
    request_text: str, wanted: list[str]
) -> None:
    assert _types(request_text) == wanted


@pytest.mark.parametrize(
    "request_text",
    ["and a vhdx for the hyper-v team", "And vhdx, the windows folks want one.", "& vhdx"],
)
def test_a_format_said_as_a_continuation_is_added(request_text: str) -> None:
    assert _types(request_text) == ["qcow2", "vhdx"]


def test_a_format_named_mid_sentence_after_and_still_replaces() -> None:
    # "and" joining two changes in one sentence is no continuation of the last turn
    assert _types("set hostname web-1 and vhdx output") == ["vhdx"]
