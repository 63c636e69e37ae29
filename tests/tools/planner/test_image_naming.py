"""A new image's name keeps the arch spelling its base uses (x86_64 here, not amd64)."""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES, REFERENCE_TEMPLATES


def _new_name(request: str, base: str, folder: str = "ours") -> str:
    root = OUR_TEMPLATES if folder == "ours" else REFERENCE_TEMPLATES
    text = (root / base).read_text(encoding="utf-8")
    plan = plan_request(request, text, mode="create")
    names = [op.name for op in plan.operations if op.op == "set_image" and op.name]
    assert names, plan
    return names[0]


@pytest.mark.parametrize(
    ("request_text", "base", "expected"),
    [
        ("a minimal ubuntu image with docker", "ubuntu24-x86_64-minimal-raw.yml", "x86_64"),
        ("a debian web server with nginx", "debian13-x86_64-minimal-raw.yml", "x86_64"),
        ("a minimal ubuntu image with docker", "ubuntu24-aarch64-minimal-raw.yml", "aarch64"),
        # an arch change keeps the base's spelling family: x86_64 -> aarch64, amd64 -> arm64
        ("an arm64 ubuntu image with docker", "ubuntu24-x86_64-minimal-raw.yml", "aarch64"),
    ],
)
def test_a_new_name_spells_the_arch_as_the_base_does(
    request_text: str, base: str, expected: str
) -> None:
    name = _new_name(request_text, base)
    words = name.split("-")
    assert expected in words, name
    assert not {"amd64", "arm64"} & set(words), name


@pytest.mark.skipif(not REFERENCE_TEMPLATES.is_dir(), reason="no upstream reference templates")
def test_a_base_that_says_amd64_keeps_amd64() -> None:
    name = _new_name(
        "an ubuntu cloud image with docker", "ubuntu-minimal-cloud-amd64.yml", "upstream"
    )
    assert "amd64" in name.split("-"), name
    assert "x86_64" not in name, name


def test_a_base_without_an_arch_word_gets_the_registry_word() -> None:
    text = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    text = text.replace("name: ubuntu24-x86_64-minimal-raw", "name: plain-base")
    plan = plan_request("a minimal ubuntu image with docker", text, mode="create")
    names = [op.name for op in plan.operations if op.op == "set_image" and op.name]
    assert names and "amd64" in names[0].split("-")
