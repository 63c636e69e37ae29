"""Every exit code a script relies on: 0 ok, 1 invalid, 2 usage, 3 retry, 130 interrupted."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import FIXTURES, OUR_TEMPLATES, PROJECT
from tests.support.cli import cli_env, oic, one_line_error
from tests.support.loopback import unused_url


def test_zero_for_a_valid_template_and_one_for_an_invalid_one() -> None:
    good = sorted(OUR_TEMPLATES.glob("*.yml"))[0]
    bad = sorted((FIXTURES / "invalid").glob("*.yml"))[0]
    assert oic("validate", str(good)).returncode == 0
    assert oic("validate", str(bad)).returncode == 1
    assert oic("validate", str(good), str(bad)).returncode == 1  # some file invalid


def test_one_for_an_unsupported_target(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    done = oic("generate", "--json", "a Windows Server 2022 image with IIS", env=env)
    assert done.returncode == 1, done.stderr
    assert '"status": "unsupported"' in done.stdout and '"template": null' in done.stdout


def test_two_for_a_usage_or_input_error() -> None:
    one_line_error(oic("--no-such-flag"), 2)
    one_line_error(oic("sessions", "list", "--limit", "many"), 2)
    one_line_error(oic("generate", "   "), 2)
    one_line_error(oic("validate", "/no/such/file.yml"), 2)


def test_three_when_the_model_server_cannot_be_reached(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", OLLAMA_HOST=unused_url().removeprefix("http://"))
    line = one_line_error(oic("generate", "--provider", "ollama", "add htop", env=env), 3)
    assert "ollama" in line.lower()


def test_three_when_the_chroma_server_cannot_be_reached(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data")
    line = one_line_error(oic("search", "edge image", "--chroma-url", unused_url(), env=env), 3)
    assert "Chroma" in line


def test_one_hundred_thirty_when_interrupted(tmp_path: Path) -> None:
    chat = subprocess.Popen(
        [sys.executable, "-m", "oic_ai", "chat", "--provider", "builtin"],
        cwd=PROJECT,
        env=cli_env(tmp_path / "data"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert chat.stdout is not None
        deadline = time.monotonic() + 120
        seen = ""
        while "/quit" not in seen and time.monotonic() < deadline:
            seen += chat.stdout.readline()  # the help line is printed before the prompt
        time.sleep(0.5)
        chat.send_signal(signal.SIGINT)
        _, err = chat.communicate(timeout=60)
    finally:
        if chat.poll() is None:
            chat.kill()
    assert chat.returncode == 130, err
    assert err.strip().splitlines()[-1] == "oic-ai: interrupted" and "Traceback" not in err


def test_packages_check_strict_fails_a_template_it_could_not_check(tmp_path: Path) -> None:
    template = OUR_TEMPLATES / "azl3-aarch64-edge-gateway-raw.yml"  # no index synced here
    env = cli_env(tmp_path / "data")
    assert oic("packages", "check", str(template), env=env).returncode == 0
    strict = oic("packages", "check", str(template), "--strict", "--json", env=env)
    assert strict.returncode == 1
    assert '"checked": false' in strict.stdout
