"""Sensible defaults for what a request leaves open, each stated in the answer.

Architecture x86_64 unless the request or the conversation says otherwise; "server",
"headless" and "appliance" start from the family's plain base; a "desktop image" is a raw
image with a desktop environment unless an installer is asked for; a family word ("RPM-
based") starts from that family.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent, TurnResult
from oic_ai.stores.targets import load_targets
from tests.support.upval import judge, require_upval

ASSUMED_X86 = "assumed x86_64: no architecture was named"


def _target(result: TurnResult) -> dict[str, str]:
    return dict(yaml.safe_load(result.template or "")["target"])


def test_no_arch_named_means_x86_64_even_from_an_arm64_base(agent: TemplateAgent) -> None:
    # the library's only Ubuntu 26.04 container host is arm64: it is retargeted, and said so
    result = agent.generate("an Ubuntu 26.04 container host")
    assert result.base_template == "ubuntu26-aarch64-container-host-raw.yml"
    assert _target(result)["arch"] == "x86_64"
    assert ASSUMED_X86 in result.notices and ASSUMED_X86 in result.message
    doc = yaml.safe_load(result.template or "")
    assert "ttyAMA" not in doc["systemConfig"]["kernel"]["cmdline"]
    assert "docker.io" in doc["systemConfig"]["packages"]  # the purpose is kept


def test_a_named_arch_is_no_assumption(agent: TemplateAgent) -> None:
    result = agent.generate("an Ubuntu 26.04 container host for arm64")
    assert _target(result)["arch"] == "aarch64"
    assert not any("no architecture was named" in n for n in result.notices)


def test_the_conversation_arch_is_kept_for_a_new_image(agent: TemplateAgent) -> None:
    first = agent.generate("a minimal ubuntu 24.04 image for arm64")
    assert _target(first)["arch"] == "aarch64"
    again = agent.generate(
        "start over: a new image for debian 13 with nginx", session=first.session
    )
    assert _target(again)["dist"] == "debian13" and _target(again)["arch"] == "aarch64"
    assert "kept aarch64 from the conversation: no architecture was named" in again.notices


@pytest.mark.parametrize(
    "request_text",
    [
        "a headless debian trixie server",
        "an RHEL-compatible 10 appliance for the plant database",
        "eLxr 12 headless box",
        "A headless Debian 13 appliance image for arm64, just SSH and chrony, nothing else",
    ],
)
def test_server_headless_and_appliance_start_from_the_plain_base(
    agent: TemplateAgent, request_text: str
) -> None:
    result = agent.generate(request_text)
    assert result.base_template is not None and "minimal" in result.base_template, (
        result.base_template
    )


def test_a_desktop_image_is_a_raw_image_with_a_desktop(agent: TemplateAgent) -> None:
    result = agent.generate("a debian 13 desktop image")
    assert result.base_template == "debian13-x86_64-minimal-raw.yml"
    assert _target(result)["imageType"] == "raw"
    assert "task-gnome-desktop" in yaml.safe_load(result.template or "")["systemConfig"]["packages"]
    assert (
        "assumed a raw disk image with a desktop environment: no installer was asked for"
        in result.notices
    )
    installer = agent.generate("a debian 13 desktop installer iso")
    assert _target(installer)["imageType"] == "iso"
    assert not any("raw disk image with a desktop" in n for n in installer.notices)


def test_a_family_word_starts_from_that_family_and_says_which(agent: TemplateAgent) -> None:
    result = agent.generate("an RPM-based minimal image")
    dist = _target(result)["dist"]
    assert dist in load_targets().families["rpm"]
    assert any(
        f"started from {dist}: the request names the rpm family" in n for n in result.notices
    )


def test_the_defaulted_templates_are_buildable_by_the_composer(
    agent: TemplateAgent, tmp_path: Path
) -> None:
    upval = require_upval()
    files = []
    for number, text in enumerate(
        ("an Ubuntu 26.04 container host", "a debian 13 desktop image", "an RPM-based image")
    ):
        result = agent.generate(text)
        path = tmp_path / f"t{number}.yml"
        path.write_text(result.template or "", encoding="utf-8")
        files.append(path)
    verdicts = judge(upval, files)
    assert {v.file: v.error for v in verdicts.values() if not v.buildable} == {}


def test_every_desktop_environment_named_is_a_catalog_capability() -> None:
    from oic_ai.stores.base_words import load_base_words
    from oic_ai.stores.capability_catalog import load_catalog

    desktops = load_base_words().desktop_environments
    catalog = load_catalog()
    assert desktops >= {"desktop", "xfce"}
    assert all(catalog.get(name).group == "desktop" for name in desktops)
    assert "kiosk" not in desktops  # a kiosk is one application, not a desktop


def test_no_image_type_named_means_a_raw_disk_image(agent: TemplateAgent) -> None:
    # the library's eLxr 12 installer ISO is the closest by words; no installer was asked for
    result = agent.generate("an eLxr 12 box for our CI runners with git and curl")
    assert _target(result)["imageType"] == "raw"
    named = agent.generate("an eLxr 12 installer ISO for our CI runners with git")
    assert _target(named)["imageType"] == "iso"
