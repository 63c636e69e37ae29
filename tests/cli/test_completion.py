"""``oic-ai completion``: scripts bash accepts, and that complete what a user types."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT
from tests.support.cli import cli_env, oic


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    done = oic("completion", "bash")
    assert done.returncode == 0, done.stderr
    path = tmp_path_factory.mktemp("completion") / "oic-ai.bash"
    path.write_text(done.stdout)
    return path


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_bash_accepts_the_script(shell: str, tmp_path: Path) -> None:
    script = tmp_path / f"oic-ai.{shell}"
    script.write_text(oic("completion", shell).stdout)
    checked = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_fish_script_names_every_command() -> None:
    text = oic("completion", "fish").stdout
    for command in ("generate", "chat", "sessions", "packages", "validate", "completion"):
        assert f"-a {command} " in text
    if shutil.which("fish"):
        checked = subprocess.run(["fish", "-n"], input=text, capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr


def complete(script: Path, words: list[str], env: dict[str, str]) -> list[str]:
    """What bash offers for the last of ``words`` (``""`` = a new, empty word)."""
    quoted = " ".join(f"'{w}'" for w in words)
    program = (
        f"source '{script}'; COMP_WORDS=({quoted}); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); "
        'COMPREPLY=(); _oic_ai; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line]


@pytest.fixture
def shell_env(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH has an ``oic-ai`` that runs this checkout."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "oic-ai"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m oic_ai "$@"\n')
    wrapper.chmod(0o755)
    env = cli_env(tmp_path / "data", PYTHONPATH=str(PROJECT))
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    return env


def test_commands_actions_and_flags_complete(bash_script: Path, shell_env: dict[str, str]) -> None:
    assert complete(bash_script, ["oic-ai", "se"], shell_env) == ["search", "sessions", "serve"]
    assert "prune" in complete(bash_script, ["oic-ai", "sessions", ""], shell_env)
    # a shared flag (and its value) before the command does not confuse the walk
    assert complete(bash_script, ["oic-ai", "--data-dir", "/tmp", "sessions", "l"], shell_env) == [
        "list"
    ]
    assert complete(bash_script, ["oic-ai", "sessions", "list", "--li"], shell_env) == ["--limit"]
    assert "--provider" in complete(bash_script, ["oic-ai", "generate", "--pro"], shell_env)


def test_session_ids_complete_where_a_command_takes_one(
    bash_script: Path, shell_env: dict[str, str]
) -> None:
    created = oic(
        "generate", "--provider", "builtin", "--new", "--json", "a minimal ubuntu image",
        env=shell_env,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    session = json.loads(created.stdout)["session"]
    assert complete(bash_script, ["oic-ai", "sessions", "show", ""], shell_env) == [session]
    assert complete(bash_script, ["oic-ai", "generate", "--session", session[:4]], shell_env) == [
        session
    ]


def test_no_shell_is_one_clear_line() -> None:
    done = oic("completion")
    assert done.returncode == 2 and "oic-ai completion bash|zsh|fish" in done.stderr
