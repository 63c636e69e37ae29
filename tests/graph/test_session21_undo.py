"""An undo with a removal that only names what it takes back ("scrap the hostname and user")."""

from __future__ import annotations

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent


def _config(template: str | None) -> dict[str, object]:
    return dict(yaml.safe_load(template or "")["systemConfig"])


@pytest.mark.parametrize(
    "then",
    [
        "hmm scrap the hostname and user, go back to how it was before that",
        "drop the user and the hostname. undo that",
        "revert that, remove the hostname + user",
    ],
)
def test_a_bare_removal_beside_an_undo_is_what_the_undo_takes_back(
    agent: TemplateAgent, then: str
) -> None:
    first = agent.generate("Debian trixie arm64 image with htop")
    agent.generate("hostname pi-cluster-07, and a user deploy with bash", session=first.session)
    result = agent.generate(then, session=first.session)
    config = _config(result.template)
    assert config.get("hostname") == _config(first.template).get("hostname")
    assert not [u for u in config.get("users") or [] if u.get("name") == "deploy"]
    assert result.not_applied == [], result.not_applied


def test_an_undo_with_a_change_that_names_a_value_still_plans_it(agent: TemplateAgent) -> None:
    first = agent.generate("Debian trixie arm64 image with htop")
    agent.generate("add jq and a user deploy", session=first.session)
    result = agent.generate("undo that and remove htop", session=first.session)
    packages = _config(result.template).get("packages") or []
    assert "htop" not in packages and "jq" not in packages
