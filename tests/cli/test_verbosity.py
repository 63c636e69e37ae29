"""``-v/--verbose`` shows steps with their times and each model call; ``-q`` only the result."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.cli import cli_env, oic
from tests.support.fake_chat_server import FakeChatServer
from tests.support.loopback import unused_url

REQUEST = "a minimal ubuntu 24.04 image for x86_64"
KEY = "sk-verbose-canary-7731"
PLAN = {"summary": "add htop", "operations": [{"op": "add_packages", "packages": ["htop"]}]}


def test_verbose_shows_each_step_with_its_time_and_each_model_call(tmp_path: Path) -> None:
    with FakeChatServer([PLAN]) as chat:
        env = cli_env(
            tmp_path / "data",
            OPENAI_API_KEY=KEY,
            OPENAI_BASE_URL=chat.openai_url,
            OLLAMA_HOST=unused_url(),
        )
        done = oic("generate", REQUEST, "--provider", "openai", "-v", env=env)
        assert chat.requests
        url = chat.openai_url
    assert done.returncode in (0, 1), done.stderr
    err = done.stderr
    for step in ("classify", "retrieve", "generate", "validate", "respond"):
        assert re.search(rf"· {step} → .* \(\d+ ms\)", err), (step, err)
    assert re.search(r"model call → .+ \(\d+ ms", err), err
    assert f"provider openai gpt-4o-mini at {url}" in err
    assert KEY not in err + done.stdout


def test_quiet_prints_only_the_template(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    done = oic("generate", REQUEST, "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "\nimage:" in done.stdout and "sources" not in done.stdout
    loud = oic("generate", "--continue", "add htop", env=env)
    assert "provider builtin" in loud.stderr  # without --quiet the summary goes to stderr
