"""The environment tests run in: none of the developer's provider, key or tracing settings.

``tests/conftest.py`` removes these variables from ``os.environ`` for every test, so an
``OPENAI_API_KEY`` or ``OIC_AI_PROVIDER`` in the developer's shell never reaches the code
under test, in-process or in a child process. :func:`clean_env` builds the environment of
a child process from that cleaned environment.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

# Settings oic-ai, its model clients, Chroma and LangSmith read from the environment.
PRIVATE_PREFIXES = ("OIC_AI_", "OPENAI_", "OLLAMA_", "LANGSMITH_", "LANGCHAIN_", "CHROMA_")
# Folders that point into the developer's home.
PRIVATE_NAMES = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")

# Every child process runs offline, quietly and with one BLAS thread (2-CPU machines).
OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "ANONYMIZED_TELEMETRY": "False",
    "OPENBLAS_NUM_THREADS": "1",
    "NO_PROXY": "127.0.0.1,localhost",
}


# The XDG folders every test sees instead of the developer's: config and data homes in a
# temporary folder of this test process, so ~/.config/oic-ai/config.yaml or a real
# ~/.local/share/oic-ai never changes a result (the default data folder is XDG's).
TEST_HOME = Path(tempfile.mkdtemp(prefix="oic-ai-test-home-"))
TEST_XDG = {
    "XDG_CONFIG_HOME": str(TEST_HOME / "config"),
    "XDG_DATA_HOME": str(TEST_HOME / "data"),
    "XDG_CACHE_HOME": str(TEST_HOME / "cache"),
}


def is_private(name: str) -> bool:
    """Whether ``name`` is one of the developer's own settings that tests must not see."""
    return name.startswith(PRIVATE_PREFIXES) or name in PRIVATE_NAMES


def private_names(environ: Mapping[str, str] | None = None) -> list[str]:
    """The private variables set in ``environ`` (``os.environ`` by default)."""
    return sorted(k for k in (os.environ if environ is None else environ) if is_private(k))


def clean_env(*, offline: bool = True, **extra: str) -> dict[str, str]:
    """``os.environ`` minus private variables, plus :data:`TEST_XDG`, :data:`OFFLINE`, ``extra``."""
    env = {k: v for k, v in os.environ.items() if not is_private(k)}
    env.update(TEST_XDG)
    if offline:
        env.update(OFFLINE)
    env.update(extra)
    return env
