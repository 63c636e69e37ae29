"""Round 24 (p8): several images in one conversation, and turns that point back at one."""

from __future__ import annotations

import yaml

from oic_ai.graph.agent import TemplateAgent


def _config(template: str | None) -> dict[str, object]:
    return dict(yaml.safe_load(template or "") or {})


def _dist(template: str | None) -> str:
    return str(dict(_config(template)["target"])["dist"])  # type: ignore[arg-type]


def _hostname(template: str | None) -> str:
    return str(dict(_config(template).get("systemConfig") or {}).get("hostname"))  # type: ignore[arg-type]


def test_two_clients_are_switched_between_by_name_and_by_number(agent: TemplateAgent) -> None:
    first = agent.generate("first client, Northwind: ubuntu 24.04 raw image with nginx and htop")
    session = first.session
    agent.generate("hostname nw-web", session=session)
    second = agent.generate(
        "now one for the other client, Fabrikam: debian 13, packages: redis-server", session=session
    )
    assert _dist(second.template) == "debian13"
    assert "htop" not in (second.template or "")  # its own package list
    back = agent.generate("back to the Northwind image, add curl", session=session)
    assert back.route["intent"] == "undo"
    assert _dist(back.template) == "ubuntu24"
    assert _hostname(back.template) == "nw-web"
    assert "curl" in (back.template or "") and back.not_applied == []
    other = agent.generate("and Fabrikam's hostname is fab-01", session=session)
    assert _dist(other.template) == "debian13"
    assert _hostname(other.template) == "fab-01"
    assert "redis-server" in (other.template or "")
    again = agent.generate("client one needs tmux too", session=session)
    assert _dist(again.template) == "ubuntu24"
    assert "tmux" in (again.template or "") and "curl" in (again.template or "")
    # undo takes back the whole turn: the image the switch left is current again
    undone = agent.generate("undo", session=session)
    assert _dist(undone.template) == "debian13"
    assert _hostname(undone.template) == "fab-01"
    # and that image is still the second one
    last = agent.generate("back to the first client", session=session)
    assert "tmux" in (last.template or "")


def test_an_image_the_words_fit_not_is_reported_and_nothing_changes(agent: TemplateAgent) -> None:
    first = agent.generate("customer one: ubuntu 24.04 raw image with nginx")
    session = first.session
    second = agent.generate("customer two: same packages, debian 13, plus htop", session=session)
    assert _dist(second.template) == "debian13"
    missed = agent.generate("go back to the third one and add curl", session=session)
    assert missed.not_applied and "third one" in missed.not_applied[0]
    assert missed.template == second.template
    back = agent.generate("back to the ubuntu one", session=session)
    assert _dist(back.template) == "ubuntu24"
    assert back.template == first.template


def test_the_second_one_about_a_partition_stays_a_partition(agent: TemplateAgent) -> None:
    first = agent.generate("ubuntu 24.04 raw image with nginx")
    session = first.session
    agent.generate("another customer wants exactly this but on debian 13", session=session)
    turn = agent.generate("add a /data partition of 4GiB", session=session)
    assert turn.route["intent"] != "undo"
    assert _dist(turn.template) == "debian13"
