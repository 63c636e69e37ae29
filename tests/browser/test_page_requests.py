"""The requests the page writes for the user are ones the builtin planner understands.

A click on a package suggestion sends "remove X and add Y" (``panel.js``); this reads the
phrase from the page's scripts, so the two cannot drift apart, and plans it for real.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.builtin import plan_request
from tests.conftest import OUR_TEMPLATES

STATIC = OUR_TEMPLATES.parent / "oic_ai" / "web" / "static"


def page_script() -> str:
    """The page's scripts, one after the other."""
    return "\n".join(path.read_text() for path in sorted(STATIC.glob("*.js")))


def suggestion_request(missing: str, choice: str) -> str:
    """The request the page sends for a suggestion click, filled in."""
    match = re.search(r"const request = `(remove \$\{name\} and add \$\{choice\})`;", page_script())
    assert match, "the page no longer words a suggestion as 'remove X and add Y'"
    return match.group(1).replace("${name}", missing).replace("${choice}", choice)


def test_a_suggestion_click_is_a_request_the_builtin_planner_applies() -> None:
    template = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text()
    template = template.replace("    - openssh-server\n", "    - openssh-server\n    - htopp\n")
    plan = plan_request(suggestion_request("htopp", "htop"), template, mode="refine")
    described = [op.model_dump() for op in plan.operations]
    assert not plan.not_applied, plan.not_applied
    removed = [op for op in described if op.get("op") == "remove_packages"]
    added = [op for op in described if op.get("op") == "add_packages"]
    assert removed and removed[0]["packages"] == ["htopp"], described
    assert added and added[0]["packages"] == ["htop"], described


def test_the_page_states_the_planners_own_request_limit() -> None:
    from oic_ai.tools.planner import builtin

    match = re.search(r"const MAX_REQUEST_CHARS = (\d+);", page_script())
    assert match, "the page no longer states the request limit"
    assert int(match.group(1)) == builtin._MAX_REQUEST_CHARS
