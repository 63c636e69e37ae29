"""Targets said short or by their lineage, refused targets named in full, and a bare target
answer to a refusal (round 9). "deb13", "u24.04" are releases (rows of the release table in
test_target_mentions); "img" beside a disk format is the word image; "RHEL-compatible" is
el10; "then go with 24.04" after a refusal asks for the refused request on 24.04. The
sentences are written for these tests."""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.planner import plan_request
from oic_ai.tools.retrieval.query_classifier import detect_targets, tokenize
from oic_ai.tools.retrieval.target_mentions import detect_target_spans
from tests.conftest import OUR_TEMPLATES

UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text("utf-8")
DEBIAN = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text("utf-8")


def _targets(said: str) -> dict[str, str]:
    return detect_targets(tokenize(said), said)


@pytest.mark.parametrize("said", ["a 2u24 rack unit", "order 13 boards", "debug13 log level"])
def test_numbers_and_words_that_only_look_short_name_no_dist(said: str) -> None:
    assert "dist" not in _targets(said)


@pytest.mark.parametrize(
    "said",
    [
        "ubuntu 24.04 cloud img for x86_64, ship it as vhdx",
        "noble img amd64 -> qcow2 with htop",
    ],
)
def test_img_beside_a_disk_format_is_the_word_image(said: str) -> None:
    assert _targets(said).get("image_type") == "raw"
    plan = plan_request(said, UBUNTU, mode="create")
    assert not [op for op in plan.operations if op.op == "set_target" and op.image_type == "img"], (
        plan.operations
    )


def test_img_beside_a_network_boot_word_stays_a_network_boot_image() -> None:
    assert _targets("a pxe img, vhdx tools inside")["image_type"] == "img"


@pytest.mark.parametrize(
    "said",
    [
        "a RHEL-compatible build for our x86_64 controllers",
        "an EL-compatible distro on aarch64",
    ],
)
def test_a_rhel_compatible_system_is_el10(said: str) -> None:
    # the phrase itself, not the spelling reader's guess: a refusal keeps what it names
    assert [m.value for m in detect_target_spans(said) if m.kind == "dist"] == ["el10"]


def test_a_refused_combination_names_the_whole_target_it_asked_for() -> None:
    route = route_request("could we have this as an installer for the arm64 units?", DEBIAN)
    assert route["intent"] == "unsupported"
    assert route["unsupported"]["target"] == {
        "os": "debian",
        "dist": "debian13",
        "arch": "aarch64",
        "imageType": "iso",
    }


def _refused(said: str) -> Any:
    route = route_request(said, None)
    assert route["intent"] == "unsupported"
    return route


@pytest.mark.parametrize(
    "answer",
    [
        "oh right, jammy is not possible. go with 24.04 then",
        "alright, take noble",
        "ubuntu 24.04 then, same pkgs",
    ],
)
def test_a_bare_target_after_a_refusal_carries_the_refused_request(answer: str) -> None:
    previous = _refused("ubuntu 22.04 for the till PCs with cups and htop, hostname till-3")
    route = route_request(answer, None, previous)
    assert route["intent"] == "create"
    carried = route.get("carried_request") or ""
    assert "cups" in carried and "till-3" in carried, route


def test_a_target_with_its_own_request_after_a_refusal_is_that_request_only() -> None:
    previous = _refused("ubuntu 22.04 for the till PCs with cups and htop")
    route = route_request("fine, 24.04 with just tmux", None, previous)
    assert "carried_request" not in route


def test_a_bare_target_after_a_refused_arch_carries_nothing_by_itself() -> None:
    previous = _refused("pi 2 board, 32-bit armhf, debian 13 for a door panel")
    route = route_request("ok, arm64 then, debian 13", None, previous)
    assert "carried_request" not in route


@pytest.mark.parametrize(
    "answer",
    ["10 is fine then. raw image with nginx", "ok, 10 then, raw, nginx", "fine, version 10 please"],
)
def test_the_offered_release_named_by_its_number_alone_is_taken(answer: str) -> None:
    previous = _refused("a rocky 9 raw image for the web tier")
    assert previous["unsupported"]["nearest"] == "el10"
    route = route_request(answer, None, previous)
    assert route["intent"] == "create" and route["targets"].get("dist") == "el10", route


@pytest.mark.parametrize("answer", ["10GiB disk, debian 13 then", "add 10 users later"])
def test_a_number_that_is_no_release_answer_takes_no_offer(answer: str) -> None:
    previous = _refused("a rocky 9 raw image for the web tier")
    route = route_request(answer, None, previous)
    assert route["targets"].get("dist") != "el10", route
