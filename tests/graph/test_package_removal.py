"""Through the graph: a synced index's dependencies decide what goes with a removal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.settings import load_settings
from tests.conftest import PROJECT
from tests.tools.applier.test_package_dependents import PACKAGES


def test_a_synced_index_decides_what_goes_with_a_removed_package(
    agent_data_dir: Path, tmp_path: Path
) -> None:
    index = tmp_path / "Packages"
    index.write_text(PACKAGES)
    done = subprocess.run(
        [sys.executable, "-m", "oic_ai", "packages", "sync", "--index", str(index),
         "--os", "ubuntu", "--dist", "ubuntu24", "--arch", "x86_64",
         "--data-dir", str(agent_data_dir), "--json"],
        capture_output=True, text=True, cwd=PROJECT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    agent = TemplateAgent(load_settings(data_dir=agent_data_dir, env={}, provider="builtin"))
    try:
        first = agent.generate(
            "a minimal ubuntu 24.04 image, add apache2, libapache2-mod-php, php8.3-common and git"
        )
        before = yaml.safe_load(first.template or "")["systemConfig"]["packages"]
        assert {"apache2", "libapache2-mod-php", "git"} <= set(before), first.changes
        second = agent.generate("remove apache2", session=first.session)
    finally:
        agent.close()
    after = yaml.safe_load(second.template or "")["systemConfig"]["packages"]
    assert "apache2" not in after and "libapache2-mod-php" not in after
    assert {"git", "php8.3-common"} <= set(after)
    assert "also removed libapache2-mod-php, which needs apache2" in second.changes
