"""Target words read in their role: "img" after another image type only says "image", a
release named in a clause about what goes on meanwhile ("while 26.04 soaks") is context,
and the image's own name said as a wish ("the image itself named X"). Our own wordings."""

from __future__ import annotations

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.planner import plan_request
from oic_ai.tools.references import target_clause_spans
from oic_ai.tools.retrieval.target_mentions import detect_target_spans
from tests.conftest import OUR_TEMPLATES


def _types(text: str) -> set[str]:
    return {m.value for m in detect_target_spans(text) if m.kind == "image_type" and not m.source}


@pytest.mark.parametrize(
    "said", ["debian 13 arm64 raw img for a sensor box", "a raw disk img, aarch64"]
)
def test_img_after_another_image_type_is_that_type(said: str) -> None:
    assert _types(said) == {"raw"}


@pytest.mark.parametrize("said", ["a netboot img please", "an img for pxe", "initrd img"])
def test_img_alone_or_after_netboot_stays_a_network_boot_image(said: str) -> None:
    assert _types(said) == {"img"}


def test_a_raw_img_on_an_arch_with_raw_defaults_is_not_refused() -> None:
    route = route_request("emt3 on aarch64, raw img, with htop", None)
    assert route["intent"] != "unsupported", route


@pytest.mark.parametrize(
    "said",
    [
        "same image for debian 13, we keep both while ubuntu 26.04 soaks in QA",
        "same image for debian 13 please, until Ubuntu 26.04 is certified",
        "same thing for debian 13, because ubuntu 26.04 is not approved yet",
    ],
)
def test_a_release_in_a_meanwhile_or_because_clause_is_context(said: str) -> None:
    asked = [m for m in detect_target_spans(said) if m.kind == "dist" and not m.source]
    assert [m.value for m in asked] == ["debian13"], asked
    assert all(
        "26.04" not in said[s:e] or "debian" in said[s:e] for s, e in target_clause_spans(said)
    )


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("QA wants the image itself named qa-golden-1", "qa-golden-1"),
        ("we need the image to be called plant-hmi", "plant-hmi"),
        ("the image should be named fw-builder", "fw-builder"),
        ("the image's name is edge-gw-2", "edge-gw-2"),
    ],
)
def test_the_image_own_name_said_as_a_wish(said: str, name: str) -> None:
    text = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    plan = plan_request(said, text, mode="refine")
    names = [op.name for op in plan.operations if op.op == "set_image" and op.name]
    assert names == [name], plan.operations
    assert plan.not_applied == []


def test_an_image_only_described_by_its_name_is_not_renamed() -> None:
    text = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    plan = plan_request("the image named old-gw was too big, add htop", text, mode="refine")
    assert not [op for op in plan.operations if op.op == "set_image" and op.name]
