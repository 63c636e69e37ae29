"""The newest release of an os, said without its number, names that release."""

from __future__ import annotations

import pytest

from oic_ai.stores.targets import load_targets
from oic_ai.tools.retrieval.target_mentions import detect_target_spans


def test_the_registry_knows_each_oss_newest_dist() -> None:
    targets = load_targets()
    assert targets.newest_dist("ubuntu") == "ubuntu26"
    assert targets.newest_dist("debian") == "debian13"
    assert targets.newest_dist("no-such-os") is None


@pytest.mark.parametrize(
    ("text", "dist"),
    [
        ("ok whatever newest ubuntu u have then", "ubuntu26"),
        ("the latest Ubuntu please", "ubuntu26"),
        ("most recent version of ubuntu, raw", "ubuntu26"),
        ("latest debian", "debian13"),
    ],
)
def test_newest_before_an_os_names_its_newest_dist(text: str, dist: str) -> None:
    mentions = [m for m in detect_target_spans(text) if not m.source]
    assert [(m.kind, m.value) for m in mentions if m.kind in ("os", "dist")] == [("dist", dist)]


def test_an_os_alone_is_still_only_the_os() -> None:
    assert [(m.kind, m.value) for m in detect_target_spans("an ubuntu image")] == [("os", "ubuntu")]
