"""Shared flags work on either side of the command; a command lists only what it uses."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import OUR_TEMPLATES
from tests.support.cli import cli_env, oic


def test_data_dir_and_json_before_the_command(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = cli_env()
    created = oic(
        "--data-dir", str(data), "--provider", "builtin", "--json",
        "generate", "--new", "a minimal ubuntu 24.04 image for x86_64", env=env,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    session = json.loads(created.stdout)["session"]
    before = oic("--data-dir", str(data), "--json", "sessions", "list", env=env)
    after = oic("sessions", "list", "--data-dir", str(data), "--json", env=env)
    assert before.returncode == after.returncode == 0, before.stderr + after.stderr
    assert json.loads(before.stdout) == json.loads(after.stdout)
    assert [s["id"] for s in json.loads(before.stdout)["sessions"]] == [session]
    assert json.loads(created.stdout)["provider"] == "builtin"


def test_json_before_validate_and_config_before_any_command(tmp_path: Path) -> None:
    template = sorted(OUR_TEMPLATES.glob("*.yml"))[0]
    done = oic("--json", "validate", str(template))
    assert done.returncode == 0 and json.loads(done.stdout)["files"][0]["valid"] is True
    config = tmp_path / "mine.yaml"
    config.write_text("ai:\n  provider: builtin\n")
    shown = oic("--config", str(config), "config", "show", "--json", env=cli_env(tmp_path))
    assert json.loads(shown.stdout)["settings"]["provider"]["value"] == "builtin"


def test_the_value_after_the_command_wins_over_the_one_before(tmp_path: Path) -> None:
    shown = oic(
        "--data-dir", str(tmp_path / "before"), "config", "show",
        "--data-dir", str(tmp_path / "after"), "--json",
    )  # fmt: skip
    assert json.loads(shown.stdout)["data_dir"] == str(tmp_path / "after")


def test_sessions_and_packages_list_only_the_flags_they_use() -> None:
    for command in (("sessions", "list"), ("packages", "status"), ("packages", "check")):
        text = oic(*command, "--help").stdout
        assert "--data-dir" in text and "--config" in text, command
        for unused in ("--templates-dir", "--chroma-url", "--embedding-provider"):
            assert unused not in text, (command, unused)
    assert "--templates-dir" in oic("sessions", "rerun", "--help").stdout  # it retrieves
    assert "--templates-dir" in oic("search", "--help").stdout
