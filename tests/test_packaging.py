"""The package builds as a wheel that installs and runs outside the checkout."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import OUR_TEMPLATES, PROJECT
from tests.support.cli import oic, python
from tests.support.env import clean_env


def pip(command: str, *args: str) -> None:
    """``pip COMMAND --no-deps --quiet ARGS`` with this interpreter; it must succeed."""
    subprocess.run(
        [sys.executable, "-m", "pip", command, "--no-deps", "--quiet", *args],
        check=True,
        capture_output=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    pip("wheel", "-w", str(out), str(PROJECT))
    (built,) = out.glob("oic_ai-*.whl")
    return built


@pytest.mark.slow  # builds the wheel with pip
def test_wheel_ships_every_layer_the_schema_and_the_library(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in ("graph", "nodes", "tools", "stores", "services", "cli", "cli/commands"):
        assert f"oic_ai/{package}/__init__.py" in names
    assert "oic_ai/web/rest.py" in names  # the REST helpers live with the web app
    assert "oic_ai/tools/schemas/oic-template.schema.json" in names
    page = PROJECT / "oic_ai" / "web" / "static"
    for file in page.iterdir():  # the page ships with the package, every file of it
        assert f"oic_ai/web/static/{file.name}" in names, file.name
    prefix = "oic_ai/stores/image_templates/"
    shipped = {n for n in names if n.startswith(prefix) and n.endswith(".yml")}
    assert len(shipped) == len(list(OUR_TEMPLATES.glob("*.yml")))
    # the library's vectors, so a fresh install does not embed the library again
    assert {"library-vectors.npy", "library-vectors.json"} <= {
        n.rsplit("/", 1)[-1] for n in names if n.startswith("oic_ai/stores/data/")
    }
    assert not any(n.startswith("tests/") for n in names)


@pytest.mark.slow  # builds the wheel with pip
def test_oic_ai_is_the_only_top_level_name(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
    assert top == {"oic_ai"}
    assert not any("__pycache__" in n for n in names)


def imports(*folders: str) -> Iterator[tuple[str, str]]:
    """Each absolute import in the folders' own modules (not through links): name, place."""
    for folder in folders:
        for path in sorted((PROJECT / folder).rglob("*.py")):
            inside = path.relative_to(PROJECT)
            if path.is_symlink() or any(p.is_symlink() for p in inside.parents if str(p) != "."):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                else:
                    continue
                yield from ((name, f"{inside}:{node.lineno}") for name in names)


def test_source_imports_only_the_oic_ai_namespace() -> None:
    """No module imports the layer folders as top-level names (they install under oic_ai)."""
    layers = {"graph", "nodes", "tools", "stores"}
    folders = ("oic_ai", "graph", "nodes", "tools", "stores", "tests", "bench")
    offenders = [where for name, where in imports(*folders) if name.split(".")[0] in layers]
    assert offenders == []


def test_every_imported_package_is_a_declared_dependency() -> None:
    """A third-party name the installed code imports comes from a declared distribution."""

    def canonical(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    project = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]
    # the main dependencies, and the extras a feature asks for (``[postgres]``): a module
    # that imports one only runs when that feature is configured
    extras = [
        d for name, ds in project["optional-dependencies"].items() if name != "dev" for d in ds
    ]
    declared = {
        canonical(re.split(r"[\[<>=!~; ]", d, maxsplit=1)[0])
        for d in [*project["dependencies"], *extras]
    }
    providers = importlib.metadata.packages_distributions()
    undeclared = {
        top: where
        for name, where in imports("oic_ai", "graph", "nodes", "tools", "stores")
        if (top := name.split(".")[0]) != "oic_ai" and top not in sys.stdlib_module_names
        if not any(canonical(d) in declared for d in providers.get(top, [top]))
    }
    assert undeclared == {}


@pytest.mark.slow  # builds the wheel with pip
def test_installed_wheel_runs_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    pip("install", "--target", str(target), str(wheel))
    # The installed copy comes first on the path; the venv supplies only dependencies.
    env = clean_env(PYTHONPATH=str(target))
    code = (
        "import oic_ai.stores.template_library as m\n"
        "print(m.__file__)\n"
        "print(m.bundled_templates_dir())"
    )
    where = python(code, env=env, cwd=tmp_path).stdout.split()
    assert all(line.startswith(str(target)) for line in where), where
    result = oic("validate", "--json", where[1], env=env, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    files = json.loads(result.stdout)["files"]
    assert len(files) >= 36 and all(f["valid"] for f in files)
    # a fresh data folder: the installed library's vectors come from the wheel, none embedded
    fresh = {**env, "OIC_AI_DATA_DIR": str(tmp_path / "data")}
    indexed = oic("index", "--json", env=fresh, cwd=tmp_path, timeout=300)
    assert indexed.returncode == 0, indexed.stderr
    report = json.loads(indexed.stdout)
    assert report["created"] == report["shipped"] == len(files)
    # the services and the CLI package, from the wheel: a sessions command end to end
    listed = oic("sessions", "list", "--json", env=fresh, cwd=tmp_path, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout) == {"sessions": []}
    code = (
        "import oic_ai.services.sessions as s, oic_ai.cli.main as m; print(s.__file__, m.__file__)"
    )
    assert all(
        p.startswith(str(target)) for p in python(code, env=env, cwd=tmp_path).stdout.split()
    )
