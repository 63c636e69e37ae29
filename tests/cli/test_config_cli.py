"""``oic-ai config show`` and a home for state, as a user meets them in a shell."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import cli_env, oic


def home_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A child environment with a temporary HOME and no data folder set."""
    env = cli_env(HOME=str(tmp_path / "home"), **extra)
    env.pop("XDG_DATA_HOME", None)
    env.pop("XDG_CONFIG_HOME", None)
    return env


def test_config_show_names_each_source_and_hides_secrets(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "config.yaml").write_text("ai:\n  provider: builtin\n  shiny: true\n")
    env = home_env(tmp_path, OPENAI_API_KEY="sk-never-shown-42")
    done = oic("config", "show", "--json", env=env, cwd=work)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["data_dir"] == str(tmp_path / "home/.local/share/oic-ai")
    assert shown["settings"]["provider"] == {"value": "builtin", "source": "config config.yaml"}
    assert shown["settings"]["openai_api_key"] == {
        "value": "set (hidden)",
        "source": "env OPENAI_API_KEY",
    }
    assert "ignoring unknown setting ai.shiny" in done.stderr  # a warning, not a failure
    text = oic("config", "show", env=env, cwd=work)
    assert text.returncode == 0
    assert "data folder: " + str(tmp_path / "home/.local/share/oic-ai") in text.stdout
    for output in (done.stdout, done.stderr, text.stdout, text.stderr):
        assert "sk-never-shown-42" not in output


def test_continue_finds_the_session_from_another_directory(tmp_path: Path) -> None:
    env = home_env(tmp_path)
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    created = oic(
        "generate", "--provider", "builtin", "--new", "--json",
        "a minimal ubuntu 24.04 edge image for x86_64", env=env, cwd=first,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    refined = oic(
        "generate", "--provider", "builtin", "--continue", "--json", "add htop",
        env=env, cwd=second,
    )  # fmt: skip
    assert refined.returncode == 0, refined.stderr
    assert json.loads(refined.stdout)["session"] == json.loads(created.stdout)["session"]
    assert (tmp_path / "home/.local/share/oic-ai/sessions.sqlite").is_file()
    assert not (first / ".ai-cache").exists() and not (second / ".ai-cache").exists()


def test_a_project_cache_folder_is_used_when_it_exists(tmp_path: Path) -> None:
    work = tmp_path / "project"
    (work / ".ai-cache").mkdir(parents=True)
    shown = json.loads(oic("config", "show", "--json", env=home_env(tmp_path), cwd=work).stdout)
    assert shown["data_dir"] == str(work / ".ai-cache")


def test_the_composers_own_config_file_is_read_from_its_usual_place(tmp_path: Path) -> None:
    composer = tmp_path / "home/.config/os-image-composer/config.yml"
    composer.parent.mkdir(parents=True)
    composer.write_text(
        "workers: 8\ncache_dir: ./cache\nlogging:\n  level: info\n"
        "ai:\n  provider: builtin\n  conversation:\n    session_timeout: 2h\n  shiny: 1\n"
    )
    work = tmp_path / "work"
    work.mkdir()
    env = home_env(tmp_path)
    shown = oic("config", "show", "--json", env=env, cwd=work)
    assert shown.returncode == 0, shown.stderr
    settings = json.loads(shown.stdout)["settings"]
    assert settings["provider"] == {"value": "builtin", "source": f"config {composer} (ai:)"}
    assert settings["session_timeout"]["value"] == "2h"
    assert "ignoring unknown setting ai.shiny" in shown.stderr  # theirs: never "workers"
    assert "workers" not in shown.stderr
    # and a turn runs with it: the builtin planner, no provider flag given
    done = oic("generate", "--json", "a minimal ubuntu 24.04 image", env=env, cwd=work)
    assert done.returncode == 0 and json.loads(done.stdout)["provider"] == "builtin"
