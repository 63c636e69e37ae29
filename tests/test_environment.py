"""No test sees the developer's own provider, key or tracing variables."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from oic_ai.stores.settings import load_settings
from tests.conftest import INTEGRATION, PROJECT, SLOW
from tests.support.cli import python
from tests.support.env import TEST_XDG, clean_env

LEAKS = {
    "OIC_AI_PROVIDER": "openai",
    "OIC_AI_DATA_DIR": "/home/developer/.oic-ai",
    "OPENAI_API_KEY": "sk-leak",
    "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
    "OLLAMA_HOST": "127.0.0.1:9",
    "LANGSMITH_TRACING": "true",
    "XDG_CONFIG_HOME": "/home/developer/.config",
}
SEEN = "import os; print(sorted(k for k, v in {leaks!r}.items() if os.environ.get(k) == v))"


@pytest.fixture(scope="module")
def module_environment() -> Iterator[dict[str, str]]:
    """What a module-scoped fixture (a server, a shared index) sees."""
    yield {k: v for k, v in os.environ.items() if k in LEAKS}


def test_private_variables_are_invisible(module_environment: dict[str, str]) -> None:
    """Run by the next test with LEAKS set; in a plain run there is nothing to hide."""
    assert all(module_environment.get(k) != v for k, v in LEAKS.items())
    assert all(os.environ.get(k) != v for k, v in LEAKS.items())
    # the XDG homes tests see are a temporary folder, never the developer's
    assert os.environ["XDG_CONFIG_HOME"] == TEST_XDG["XDG_CONFIG_HOME"]
    settings = load_settings()
    assert settings.provider == "auto" and settings.openai_api_key is None
    assert settings.openai_base_url is None and settings.ollama_base_url.endswith(":11434")
    # A child process started the plain way inherits the cleaned environment too.
    inherited = subprocess.run(
        [sys.executable, "-c", SEEN.format(leaks=LEAKS)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert inherited.stdout.strip() == "[]"
    assert python(SEEN.format(leaks=LEAKS)).stdout.strip() == "[]"


def test_the_developers_variables_do_not_reach_a_test() -> None:
    env = clean_env(PYTHONPATH=str(PROJECT), **LEAKS)
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            f"{__file__}::test_private_variables_are_invisible",
        ],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "1 passed" in done.stdout


def test_every_test_marked_by_place_exists() -> None:
    """A renamed file or test in conftest's SLOW or INTEGRATION list would lose its mark."""
    tests = PROJECT / "tests"
    for place in (*INTEGRATION, *SLOW):
        where, _, name = place.partition("::")
        assert (tests / where).exists(), place
        if name:
            assert f"def {name}(" in (tests / where).read_text(), place
