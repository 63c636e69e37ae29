"""The README's Python API example runs as written and does what it says."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import PROJECT


def test_the_readme_python_example_runs(agent_data_dir: Path) -> None:
    readme = (PROJECT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
    assert len(blocks) == 1
    env = {**os.environ, "OIC_AI_DATA_DIR": str(agent_data_dir), "OIC_AI_PROVIDER": "builtin"}
    done = subprocess.run(
        [sys.executable, "-c", blocks[0]],
        capture_output=True, text=True, env=env, cwd=agent_data_dir.parent, timeout=300,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # the base has a sudo user without a password: the composer would leave it empty (a warning)
    assert lines[0] == "valid_with_warnings ubuntu24-aarch64-edge-container-raw.yml"
    assert "-  size: 16GiB" in lines and "+  size: 8GiB" in lines
    assert lines[-1] == "['a minimal ubuntu 24.04 edge image for arm64 with docker']"


def test_the_readme_opens_with_the_two_commands() -> None:
    head = (PROJECT / "README.md").read_text().split("\n")[:6]
    assert head[3].startswith("make demo") and head[4].startswith("make test")


def test_every_environment_variable_the_code_reads_is_in_the_readme_table() -> None:
    code = "\n".join(
        path.read_text()
        for folder in ("oic_ai", "graph", "nodes", "tools", "stores")
        for path in (PROJECT / folder).rglob("*.py")
        if not path.is_symlink() and "oic_ai/graph" not in str(path)
    )
    read = set(re.findall(r"\"((?:OIC_AI|OPENAI|OLLAMA)_[A-Z_]+)\"", code))
    table = (PROJECT / "README.md").read_text().split("| variable | meaning |")[1]
    table = table.split("\n\n")[0]
    missing = sorted(name for name in read if f"`{name}`" not in table)
    assert not missing, f"add these to the README's variable table: {missing}"
