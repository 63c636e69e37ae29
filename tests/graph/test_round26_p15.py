"""Round 26 (p15): turns that point back at earlier turns, over a whole session.

"undo both of those changes", "put secure boot back like it was before", "revert to exactly
what you gave me first", "undo the iso, back to the raw disk", "back to Halcyon's",
"switch it to 26 then": each brings back what an earlier turn had, and nothing of the
words is reported as not applied.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent


def _doc(template: str | None) -> dict[str, Any]:
    return dict(yaml.safe_load(template or "") or {})


def _config(template: str | None) -> dict[str, Any]:
    return dict(_doc(template).get("systemConfig") or {})


@pytest.mark.parametrize(
    "then",
    [
        "undo both of those console/loglevel changes, hw team had the wrong box",
        "roll back those two changes",
        "undo both changes",
    ],
)
def test_an_undo_of_both_changes_takes_back_two_turns(agent: TemplateAgent, then: str) -> None:
    first = agent.generate("ubuntu 24.04 raw image with haproxy, hostname lb-edge-01")
    agent.generate("add the kernel option loglevel=4", session=first.session)
    agent.generate("add htop", session=first.session)
    result = agent.generate(then, session=first.session)
    assert result.template == first.template
    assert result.not_applied == [], result.not_applied


def test_secure_boot_back_like_before_skips_a_later_turn(agent: TemplateAgent) -> None:
    first = agent.generate(
        "EMT 3 x86_64 raw, immutable rootfs, secure boot on. Use our lab DB keys: "
        "/opt/keys/db.key, /opt/keys/db.crt and /opt/keys/db.cer"
    )
    agent.generate("turn secure boot off but keep immutability", session=first.session)
    agent.generate("give me a vhdx", session=first.session)
    result = agent.generate("put secure boot back like it was before", session=first.session)
    immutability = _config(result.template).get("immutability") or {}
    assert immutability.get("secureBootDBKey") == "/opt/keys/db.key"
    assert "vhdx" in str(_doc(result.template).get("disk"))
    assert result.not_applied == [], result.not_applied


@pytest.mark.parametrize(
    "then",
    [
        "revert to exactly what you gave me first, I need the customer's broken state again",
        "go back to the very first version",
        "back to what we started with please",
    ],
)
def test_back_to_the_first_template(agent: TemplateAgent, then: str) -> None:
    first = agent.generate("ubuntu 24.04 raw with htop and tmux, hostname box-1")
    agent.generate("add nginx", session=first.session)
    agent.generate("hostname box-2", session=first.session)
    result = agent.generate(then, session=first.session)
    assert result.template == first.template
    assert result.not_applied == [], result.not_applied


def test_a_question_about_the_first_version_changes_nothing(agent: TemplateAgent) -> None:
    first = agent.generate("ubuntu 24.04 raw with htop, hostname box-1")
    second = agent.generate("add nginx", session=first.session)
    result = agent.generate(
        "what's different now compared to the very first version you made?", session=first.session
    )
    assert result.template == second.template


def test_undo_the_iso_back_to_the_raw_disk(agent: TemplateAgent) -> None:
    first = agent.generate("ubuntu 24.04 x86_64 with unbound, hostname pi-dns")
    agent.generate("make it an installer iso", session=first.session)
    result = agent.generate("undo the iso, back to the raw disk", session=first.session)
    assert result.template == first.template
    assert result.not_applied == [], result.not_applied


def test_back_to_the_first_customer_by_name(agent: TemplateAgent) -> None:
    first = agent.generate(
        "debian 13 db image for customer Halcyon Foods: postgresql, hostname halcyon-db1"
    )
    agent.generate("Orbis wants the same, but hostname orbis-db1", session=first.session)
    agent.generate("add pgbouncer for Orbis", session=first.session)
    back = agent.generate("ok now back to Halcyon's", session=first.session)
    assert back.template == first.template
    result = agent.generate("Halcyon wants an hfops login with sudo", session=first.session)
    config = _config(result.template)
    assert config.get("hostname") == "halcyon-db1"
    assert "pgbouncer" not in (config.get("packages") or [])


@pytest.mark.parametrize("then", ["ok switch it to 26 then", "Make it the newer LTS."])
def test_a_release_by_number_keeps_the_image(agent: TemplateAgent, then: str) -> None:
    first = agent.generate("ubuntu 24.04 raw with htop, user platform with sudo")
    result = agent.generate(then, session=first.session)
    assert _doc(result.template)["target"]["dist"] == "ubuntu26"
    assert "htop" in (_config(result.template).get("packages") or [])
    assert result.not_applied == [], result.not_applied
