"""Going back to an earlier target: "back to debian", "return to the ISO" (issue 21, round 3).

The latest earlier template of the session with that target becomes the current one, as an
undo of every turn since; a statement about the target left behind ("azl3 is too big") is
part of it, not a new target. The sentences are written for these tests.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.tools.references import find_back_to, remainder


@pytest.mark.parametrize(
    ("text", "target", "rest"),
    [
        ("let's return to ubuntu 24.04", {"dist": "ubuntu24"}, ""),
        ("switch back to the installer, azl3 raw was too big", {"imageType": "iso"}, ""),
        ("back to x86_64 and add strace", {"arch": "x86_64"}, "add strace"),
        ("revert to the netboot image please", {"imageType": "img"}, ""),
    ],
)
def test_back_to_names_the_earlier_target(text: str, target: dict[str, str], rest: str) -> None:
    found = find_back_to(text)
    assert found is not None and found.target == target
    assert remainder(text, found.spans).strip(" ,.") == rest


@pytest.mark.parametrize(
    "text", ["the hostname goes back to what it was", "back to work: add htop", "return the disk"]
)
def test_back_to_without_a_target_is_no_reference(text: str) -> None:
    assert find_back_to(text) is None


def test_going_back_to_an_earlier_target_restores_that_template(agent: Any) -> None:
    first = agent.generate("ubuntu 24.04 raw image with tmux, hostname yard-3")
    session = first.session
    agent.generate("the same for azure linux 3", session=session)
    agent.generate("add strace", session=session)
    back = agent.generate(
        "hmm, return to ubuntu. azl3 is not on our approved list", session=session
    )
    assert back.template == first.template
    assert not back.not_applied
    later = agent.generate("add htop", session=session)
    assert "dist: ubuntu24" in later.template and "- htop" in later.template


def test_back_to_the_target_the_template_has_is_an_ordinary_request(agent: Any) -> None:
    first = agent.generate("debian 13 raw image, hostname mill-1")
    again = agent.generate("back to debian and add htop", session=first.session)
    assert "- htop" in again.template and "hostname: mill-1" in again.template


@pytest.mark.parametrize(
    ("text", "wanted", "phrase"),
    [
        ("reinstate the firewall we took out earlier", "the firewall", 0),
        ("could you add back chrony, please", "chrony", 0),
        ("get vim back and bump the disk", "vim", 0),
        ("fine, re-install the docker engine that I removed", "the docker engine", 0),
    ],
)
def test_a_restore_names_what_it_asks_back(text: str, wanted: str, phrase: int) -> None:
    from oic_ai.tools.references import find_restores

    found = find_restores(text)
    assert found[phrase].object == wanted


def test_putting_back_what_an_earlier_turn_removed_adds_those_packages(agent: Any) -> None:
    first = agent.generate("debian 13 raw image with chrony, nftables and htop", session=None)
    session = first.session
    agent.generate("remove nftables and htop", session=session)
    agent.generate("hostname dune-4", session=session)
    back = agent.generate(
        "please reinstate the firewall you dropped two messages ago, leave all else as is",
        session=session,
    )
    assert "- nftables" in back.template and "- htop" not in back.template
    assert "hostname: dune-4" in back.template
    assert not back.not_applied, back.not_applied


def _users(text: str) -> dict[str, dict[str, Any]]:
    import yaml

    doc = yaml.safe_load(text)
    return {u["name"]: u for u in doc["systemConfig"].get("users") or []}


@pytest.mark.parametrize(
    "restore",
    [
        "hmm no. bring bob back, remove carol instead",
        "put bob back please and remove carol",
        "re-add bob, and remove carol",
    ],
)
def test_putting_back_a_removed_user_brings_him_back_as_he_was(agent: Any, restore: str) -> None:
    first = agent.generate("ubuntu 24.04 raw, users alice (sudo), bob (sudo), carol")
    session = first.session
    agent.generate("remove bob", session=session)
    back = agent.generate(restore, session=session)
    users = _users(back.template)
    assert set(users) == {"alice", "bob"}, users
    assert users["bob"].get("sudo") is True and "sudo" in users["bob"].get("groups", [])
    assert not back.not_applied, back.not_applied


def test_putting_back_a_removed_kernel_option_keeps_its_value_and_nothing_else(agent: Any) -> None:
    first = agent.generate("debian 13 raw with htop, add isolcpus=2,3 to the kernel cmdline")
    session = first.session
    dropped = agent.generate("drop isolcpus and htop", session=session)
    assert "isolcpus" not in dropped.template and "- htop" not in dropped.template
    back = agent.generate("actually put isolcpus back", session=session)
    assert "isolcpus=2,3" in back.template
    assert "- htop" not in back.template  # only what was named comes back


def test_putting_back_a_name_nothing_removed_is_read_as_written(agent: Any) -> None:
    first = agent.generate("ubuntu 24.04 raw, users alice (sudo)")
    back = agent.generate("bring zed back", session=first.session)
    assert "zed" not in _users(back.template)
