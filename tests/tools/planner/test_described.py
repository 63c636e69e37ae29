"""A package asked for by what it should do: read against the catalog, never guessed.

The wordings are our own (none is in the labelled conversations).
"""

from __future__ import annotations

import pytest

from oic_ai.stores.capability_catalog import load_catalog
from oic_ai.stores.capability_vectors import capability_texts, load_vectors
from oic_ai.stores.embeddings.minilm import MiniLMEmbedder
from tests.tools.planner.helpers import added, plan_on

BASE = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("request_text", "package"),
    [
        ("also add something to check the hard drives' SMART status", "smartmontools"),
        ("we want a tool that lets us publish sensor readings to the mqtt broker", "mosquitto"),
        ("add something so the operators can print shipping labels", "cups"),
        ("plus an agent to export host metrics to prometheus", "prometheus-node-exporter"),
        ("install something so we can keep the system clock in sync", "chrony"),
        # "whatever" and what it lets happen, said right after it
        ("and whatever lets our scripts open the rs485 serial port from python", "python3-serial"),
        ("whatever allows us to read the disks' SMART data", "smartmontools"),
    ],
)
def test_a_described_package_is_read_as_the_capability_it_describes(
    request_text: str, package: str
) -> None:
    result = plan_on(BASE, request_text)
    assert package in added(result), (result.operations, result.not_applied)
    assert not result.not_applied


def test_the_answer_says_which_capability_a_description_was_read_as() -> None:
    result = plan_on(BASE, "please add something that can print shipping labels")
    assert added(result) == ["cups"]
    assert any("read '" in w and "printing" in w for w in result.warnings), result.warnings


def test_a_description_no_capability_fits_is_reported_and_adds_nothing() -> None:
    result = plan_on(BASE, "add a tool to mirror the screen to a wall display")
    assert added(result) == []
    assert any("name the package" in n or "name it" in n for n in result.not_applied), (
        result.not_applied
    )


def test_several_near_capabilities_are_offered_not_picked() -> None:
    result = plan_on(BASE, "add something to run containers")
    if added(result):  # the catalog's paraphrases may name one capability outright
        assert len({"docker.io", "podman", "containerd"} & set(added(result))) == 1
    else:
        assert any("capabilities:" in n for n in result.not_applied), result.not_applied


def test_the_shipped_capability_vectors_match_the_catalog() -> None:
    _, texts = capability_texts(load_catalog())
    assert load_vectors(texts, MiniLMEmbedder.model_id) is not None, (
        "stale: run python scripts/build_operation_bank.py (make vectors)"
    )


@pytest.mark.parametrize(
    "request_text",
    [
        "the agent ships separately, so don't install anything for it",
        "no need to add something for that",
    ],
)
def test_a_negated_placeholder_asks_for_nothing(request_text: str) -> None:
    result = plan_on("ubuntu24-x86_64-minimal-raw.yml", request_text)
    assert result.operations == [] and result.not_applied == []
