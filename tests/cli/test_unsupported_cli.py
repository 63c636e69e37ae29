"""``generate`` for a target the composer cannot build: exit 1, status unsupported, no template."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import cli_env, oic


def test_generate_json_for_windows_exits_1_with_no_template(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    done = oic("generate", "a Windows Server image with IIS", "--json", env=env)
    assert done.returncode == 1, done.stderr
    payload = json.loads(done.stdout)
    assert payload["status"] == "unsupported"
    assert payload["template"] is None
    assert payload["changes"] == [] and payload["diff"] == ""
    assert "Windows Server" in payload["message"] and "(ubuntu24)" in payload["message"]
    assert payload["route"]["intent"] == "unsupported"


def test_generate_for_arch_linux_names_the_nearest_and_writes_nothing(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    target = tmp_path / "out.yml"
    done = oic("generate", "Arch Linux with docker", "--output", str(target), env=env)
    assert done.returncode == 1, done.stderr
    assert not target.exists()
    text = done.stdout + done.stderr
    assert "unsupported" in text and "Ubuntu 26.04 with docker" in text
    assert "Traceback" not in text
