"""30,000 levels of nesting: every YAML the tool reads is refused before a composer recurses.

libyaml's composer (and PyYAML's) recurses once per level, so ``image:`` followed by
30,000 ``[`` once killed the process with SIGSEGV, and the pure-Python loader gave a
``RecursionError`` traceback. Each case runs in a child process with a timeout, so a
regression fails the test instead of crashing or hanging the suite.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oic_ai.stores.yaml_document import MAX_DEPTH
from tests.conftest import OUR_TEMPLATES, PROJECT
from tests.support.cli import cli_env, oic

LEVELS = 30_000
GUARD_SECONDS = 120  # a guard against a hang, not a timed assertion
DEEP = {
    "flow sequences": "image: " + "[" * LEVELS + "]" * LEVELS + "\n",
    "flow mappings": "image: " + "{a: " * LEVELS + "}" * LEVELS + "\n",
    "block sequences": "image:\n  " + "- " * LEVELS + "x\n",
}
MESSAGE = f"deeper than {MAX_DEPTH} levels"


@pytest.mark.parametrize("shape", sorted(DEEP))
@pytest.mark.parametrize("loader", ["CSafeLoader", "SafeLoader"])
def test_the_loader_refuses_30000_levels_before_composing(shape: str, loader: str) -> None:
    code = (
        "import sys, yaml\n"
        "from oic_ai.stores import yaml_document\n"
        f"yaml_document._Loader = getattr(yaml, {loader!r}, yaml.SafeLoader)\n"
        "text = sys.stdin.read()\n"
        "try:\n"
        "    yaml_document.load_document(text)\n"
        "except yaml_document.YamlSyntaxError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=DEEP[shape],
        cwd=PROJECT,
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=GUARD_SECONDS,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert MESSAGE in done.stdout


def test_depth_at_the_limit_still_loads() -> None:
    from oic_ai.stores.yaml_document import load_document

    inside = MAX_DEPTH - 1  # the root mapping is one level, its scalar leaf another
    doc = load_document("a: " + "[" * (inside - 1) + "x" + "]" * (inside - 1) + "\n")
    assert doc.data is not None


def _commands(tmp: Path) -> dict[str, tuple[list[str], int]]:
    deep = tmp / "deep.yml"
    folder = tmp / "library"
    return {
        "validate": (["validate", str(deep)], 1),
        "packages check": (["packages", "check", str(deep)], 2),
        "--config": (["search", "--config", str(deep), "minimal"], 2),
        "packages sync --repo-config": (
            ["packages", "sync", "--repo-config", str(deep), "--dist", "ubuntu24"],
            2,
        ),
        "generate --templates-dir": (["generate", "--templates-dir", str(folder), "minimal"], 2),
        "index --templates-dir": (["index", "--templates-dir", str(folder)], 0),
    }


@pytest.mark.parametrize(
    "command",
    [
        "validate",
        "packages check",
        "--config",
        "packages sync --repo-config",
        "generate --templates-dir",
        "index --templates-dir",
    ],
)
def test_every_command_answers_30000_levels_without_crashing(tmp_path: Path, command: str) -> None:
    (tmp_path / "deep.yml").write_text(DEEP["flow sequences"])
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "deep.yml").write_text(DEEP["flow sequences"])
    if command == "index --templates-dir":  # one good template, so there is something to index
        good = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"
        (tmp_path / "library" / "good.yml").write_text(good.read_text())
    args, code = _commands(tmp_path)[command]
    done = oic(*args, env=cli_env(tmp_path / "data"), timeout=GUARD_SECONDS)
    assert done.returncode == code, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    if command != "generate --templates-dir":  # generate says the library has no templates
        assert MESSAGE in done.stdout + done.stderr
    if code == 2:
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
