"""Named pipes, devices and other special files: one line each, never a hang or a flood.

Opening a FIFO blocks until a writer comes, and ``/dev/zero`` never ends, so before the
fix ``validate`` on either hung or grew to gigabytes. Every case runs the CLI in a child
process with a timeout and a cap on its address space, so a regression fails the test
instead of hanging the suite or eating the machine's memory.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

from tests.conftest import OUR_TEMPLATES, PROJECT
from tests.support.cli import cli_env

GUARD_SECONDS = 120  # a guard against a hang, not a timed assertion
MEMORY_CAP = 3 * 1024**3  # bytes of address space: far above a normal run, far below a flood
GOOD = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``oic-ai ARGS`` with a timeout and a memory cap (the CLI helper has no cap)."""
    return subprocess.run(
        [sys.executable, "-m", "oic_ai", *args],
        cwd=PROJECT,
        env=cli_env(tmp / "data"),
        capture_output=True,
        text=True,
        timeout=GUARD_SECONDS,
        preexec_fn=_capped,
    )


def _files(done: subprocess.CompletedProcess[str]) -> dict[str, dict[str, object]]:
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return {Path(str(f["path"])).name: f for f in json.loads(done.stdout)["files"]}


def _codes(entry: dict[str, object]) -> list[str]:
    errors = entry["errors"]
    assert isinstance(errors, list)
    return [str(e["code"]) for e in errors]


def test_validate_a_fifo_is_one_finding_not_a_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yml")
    done = run(tmp_path, "validate", "--json", str(tmp_path / "pipe.yml"))
    assert done.returncode == 1, done.stderr[-2000:]
    (entry,) = _files(done).values()
    assert entry["valid"] is False and _codes(entry) == ["not-a-file"]
    assert "named pipe" in json.dumps(entry)


def test_a_folder_holding_a_fifo_reports_it_and_validates_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "library"
    folder.mkdir()
    (folder / "good.yml").write_text(GOOD.read_text())
    os.mkfifo(folder / "pipe.yml")
    done = run(tmp_path, "validate", "--json", str(folder))
    assert done.returncode == 1, done.stderr[-2000:]
    files = _files(done)
    assert files["good.yml"]["valid"] is True
    assert _codes(files["pipe.yml"]) == ["not-a-file"]


def test_validate_devices_is_one_finding_each_and_reads_nothing(tmp_path: Path) -> None:
    done = run(tmp_path, "validate", "--json", "/dev/zero", "/dev/null", str(GOOD))
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    files = _files(done)
    assert _codes(files["zero"]) == ["not-a-file"] and _codes(files["null"]) == ["not-a-file"]
    assert "character device" in json.dumps(files["zero"])
    assert files[GOOD.name]["valid"] is True


def test_the_plain_output_is_one_line_per_special_file(tmp_path: Path) -> None:
    done = run(tmp_path, "validate", "/dev/zero")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    findings = [line for line in done.stdout.splitlines() if "[not-a-file]" in line]
    assert len(findings) == 1 and "/dev/zero" in done.stdout


def test_index_skips_a_fifo_with_a_reason(tmp_path: Path) -> None:
    folder = tmp_path / "library"
    folder.mkdir()
    (folder / "good.yml").write_text(GOOD.read_text())
    os.mkfifo(folder / "pipe.yml")
    done = run(tmp_path, "index", "--json", "--templates-dir", str(folder))
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["created"] == 1
    assert report["skipped"] == ["pipe.yml: a named pipe (FIFO), not a regular file"]


def test_a_fifo_or_device_as_schema_or_config_is_one_line_exit_two(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    for args in (
        ("validate", "--schema", str(tmp_path / "pipe.json"), str(GOOD)),
        ("validate", "--schema", "/dev/zero", str(GOOD)),
        ("search", "--config", str(tmp_path / "pipe.json"), "minimal"),
        ("search", "--config", "/dev/zero", "minimal"),
    ):
        done = run(tmp_path, *args)
        assert done.returncode == 2, (args, done.returncode, done.stderr[-2000:])
        assert "Traceback" not in done.stderr
        (line,) = done.stderr.strip().splitlines()
        assert "not a regular file" in line, line


def test_packages_check_repo_config_and_eval_queries_refuse_a_fifo(tmp_path: Path) -> None:
    """The last three readers of user files: one line and exit 2 each, never a hang."""
    pipe = tmp_path / "pipe.yml"
    os.mkfifo(pipe)
    for args in (
        ("packages", "check", str(pipe)),
        ("packages", "sync", "--repo-config", str(pipe), "--dist", "ubuntu24"),
        ("eval", "retrieval", "--queries", str(pipe)),
    ):
        done = run(tmp_path, *args)
        assert done.returncode == 2, (args, done.stderr[-2000:])
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, args
        # sync reads a non-file --repo-config as a folder of providerconfigs: none there
        assert ("named pipe" in done.stderr) or args[1] == "sync", (args, done.stderr)
