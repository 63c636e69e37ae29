"""Re-targeting said twice in one request, and a variant named by its type word."""

from __future__ import annotations

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent


def _target(template: str | None) -> dict[str, str]:
    return dict(yaml.safe_load(template or "")["target"])


@pytest.mark.parametrize(
    ("first", "then", "field", "value", "kept"),
    [
        # "the same" said twice in one request is one reference
        (
            "azure linux 3 raw image for x86_64 with nginx and curl",
            "Customer is asking the same image for ARM64 also (Ampere servers). "
            "Please prepare same config for aarch64.",
            "arch",
            "aarch64",
            "nginx",
        ),
        # mapping package names beside a re-target is what re-targeting does
        (
            "ubuntu 24.04 raw image with nginx and htop",
            "Alright, now build me the same appliance on Debian 13, adjust package names if "
            "they differ there.",
            "dist",
            "debian13",
            "htop",
        ),
    ],
)
def test_a_retarget_said_at_length_is_applied_and_nothing_is_reported(
    agent: TemplateAgent, first: str, then: str, field: str, value: str, kept: str
) -> None:
    created = agent.generate(first)
    again = agent.generate(then, session=created.session)
    assert _target(again.template)[field] == value
    assert again.not_applied == []
    assert kept in (again.template or "")


def test_the_initramfs_one_is_the_network_boot_variant(agent: TemplateAgent) -> None:
    first = agent.generate("ubuntu 24.04 x86_64 raw image with iperf3 and ethtool")
    again = agent.generate("now the initramfs one for PXE", session=first.session)
    assert _target(again.template)["imageType"] == "img"
    assert again.not_applied == []
    assert "iperf3" in (again.template or "")


def test_rebuilding_the_initramfs_names_no_image_type() -> None:
    from oic_ai.tools.retrieval.target_mentions import detect_target_spans

    assert detect_target_spans("rebuild the initramfs with the nvme module") == []
