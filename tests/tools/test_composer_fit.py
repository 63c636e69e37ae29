"""The agent's composer-supported alternatives, on template text."""

from __future__ import annotations

import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.composer_fit import alternatives_plan, hash_algo_for, hostname_for

TEMPLATE = """image:
  name: Edge_Box 7
  version: "1.0"
systemConfig:
  name: edge
  users:
    - name: ops
      password: "$5$salt$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
    - name: dev
      password: "$6$salt$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
      hash_algo: sha512
"""


def test_a_hostname_and_hash_algo_are_what_the_agent_adds() -> None:
    plan = alternatives_plan(TEMPLATE)
    assert plan is not None
    data = yaml.safe_load(apply_plan(TEMPLATE, plan).text)
    assert data["systemConfig"]["hostname"] == "edge-box-7"
    assert data["systemConfig"]["users"][0]["hash_algo"] == "sha256"
    assert data["systemConfig"]["users"][1]["hash_algo"] == "sha512"  # kept as it was
    assert alternatives_plan(apply_plan(TEMPLATE, plan).text) is None  # nothing left to do


def test_the_names_come_from_the_template() -> None:
    assert hostname_for({"image": {"name": "---"}, "systemConfig": {"name": "Gw_1"}}) == "gw-1"
    assert hostname_for({"image": {"name": "!!"}}) is None
    assert [hash_algo_for(h) for h in ("$6$x", "$5$x", "$1$x", "$2b$x", "$y$x")] == [
        "sha512", "sha256", "md5", "bcrypt", "sha512"
    ]  # fmt: skip
