"""The agent and what the composer ignores: it names the host, and it warns or notes the rest.

The behaviours are data (stores/data/composer_behaviour.yaml); these tests drive real
turns of the graph (builtin planner, the shared template index) and check the answer.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.settings import load_settings


def _agent(data: Path) -> TemplateAgent:
    return TemplateAgent(load_settings(data_dir=data, env={}, provider="builtin"))


def test_a_base_without_a_hostname_gets_one_named_after_the_image(agent_data_dir: Path) -> None:
    with _agent(agent_data_dir) as agent:
        result = agent.generate("an azure linux 3 cloud vm qcow2 image")
    assert result.base_template == "azl3-x86_64-cloud-vm-qcow2.yml"  # it has no hostname
    data = yaml.safe_load(result.template or "")
    assert data["systemConfig"]["hostname"] == data["image"]["name"].lower().replace("_", "-")
    assert any("build host's hostname" in change for change in result.changes)
    assert "composer-hostname-unset" not in str(result.reasons)


def test_a_hostname_the_user_asked_for_is_kept(agent_data_dir: Path) -> None:
    with _agent(agent_data_dir) as agent:
        result = agent.generate("an azure linux 3 cloud vm qcow2 image with hostname gw-01")
    assert yaml.safe_load(result.template or "")["systemConfig"]["hostname"] == "gw-01"
    assert not any("build host's hostname" in change for change in result.changes)


def test_a_user_without_a_password_is_warned_about_and_the_kernel_version_noted(
    agent_data_dir: Path,
) -> None:
    with _agent(agent_data_dir) as agent:
        result = agent.generate("a minimal debian 13 raw image")
        assert result.status == "valid"  # notes do not change the status
        assert "Composer: kernel.version is not used" in result.message
        edited = (result.template or "").replace(
            "  bootloader:", "  users:\n    - name: ops\n      groups: [sudo]\n  bootloader:", 1
        )
        after = agent.apply_edit(result.session, edited)
    assert after.status == "valid_with_warnings"
    assert any("user ops has no password" in reason for reason in after.reasons)
    assert "passwd -d" in " ".join(after.reasons)
