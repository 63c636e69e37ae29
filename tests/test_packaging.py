"""The package builds as a wheel that installs and runs outside the checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import OUR_TEMPLATES, PROJECT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(out),
            str(PROJECT),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (built,) = out.glob("oic_ai-*.whl")
    return built


def test_wheel_ships_every_layer_the_schema_and_the_library(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in ("graph", "nodes", "tools", "stores"):
        assert f"oic_ai/{package}/__init__.py" in names
    assert "oic_ai/tools/schemas/oic-template.schema.json" in names
    prefix = "oic_ai/stores/image_templates/"
    shipped = {n for n in names if n.startswith(prefix) and n.endswith(".yml")}
    assert len(shipped) == len(list(OUR_TEMPLATES.glob("*.yml")))
    assert not any(n.startswith("tests/") for n in names)


def test_oic_ai_is_the_only_top_level_name(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
    assert top == {"oic_ai"}
    assert not any("__pycache__" in n for n in names)


def test_source_imports_only_the_oic_ai_namespace() -> None:
    """No module imports the layer folders as top-level names (they install under oic_ai)."""
    import ast

    offenders = []
    layers = {"graph", "nodes", "tools", "stores"}
    for folder in ("oic_ai", "graph", "nodes", "tools", "stores", "tests", "bench"):
        for path in (PROJECT / folder).rglob("*.py"):
            if path.is_symlink() or any(
                p.is_symlink() for p in path.relative_to(PROJECT).parents if str(p) != "."
            ):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                else:
                    continue
                offenders += [f"{path}:{node.lineno}" for n in names if n.split(".")[0] in layers]
    assert offenders == []


def test_installed_wheel_runs_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--quiet",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    # The installed copy comes first on the path; the venv supplies only dependencies.
    env = {**os.environ, "PYTHONPATH": str(target)}
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import oic_ai.stores.template_library as m\n"
            "print(m.__file__)\n"
            "print(m.bundled_templates_dir())",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=True,
    ).stdout.split()
    assert all(line.startswith(str(target)) for line in where), where
    result = subprocess.run(
        [sys.executable, "-m", "oic_ai", "validate", "--json", where[1]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    files = json.loads(result.stdout)["files"]
    assert len(files) >= 36 and all(f["valid"] for f in files)
