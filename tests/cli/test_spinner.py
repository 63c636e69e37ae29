"""A spinner draws on stderr when it is a terminal, while a command works; stdout stays clean."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

from tests.conftest import PROJECT
from tests.support.cli import cli_env

SPINNER_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"  # rich's "dots"


def run_with_terminal_stderr(args: list[str], data: Path) -> tuple[int, str, str]:
    """Run ``oic-ai ARGS`` with stdout a pipe and stderr a pseudo-terminal; what each got."""
    leader, follower = pty.openpty()
    drawn = bytearray()

    def drain() -> None:  # read while it runs, so a full terminal buffer never blocks it
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                return
            if not chunk:
                return
            drawn.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "oic_ai", *args],
            cwd=PROJECT,
            env=cli_env(data, COLUMNS="100"),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=follower,
            text=True,
            timeout=300,
        )
    finally:
        os.close(follower)
        reader.join(timeout=10)
        os.close(leader)
    return done.returncode, done.stdout, drawn.decode("utf-8", "replace")


def test_generate_spins_on_stderr_and_writes_only_the_template_to_stdout(tmp_path: Path) -> None:
    code, stdout, stderr = run_with_terminal_stderr(
        ["generate", "--provider", "builtin", "a minimal debian image"], tmp_path / "data"
    )
    assert code == 0, stderr
    assert "working" in stderr and any(frame in stderr for frame in SPINNER_FRAMES)
    assert stdout.startswith("image:") or "\nimage:" in stdout  # the template, as YAML
    assert "\x1b" not in stdout and "working" not in stdout
    assert not any(frame in stdout for frame in SPINNER_FRAMES)


def test_search_spins_but_json_never_does(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, stdout, stderr = run_with_terminal_stderr(["search", "ubuntu edge docker"], data)
    assert code == 0, stderr
    assert "searching" in stderr and any(frame in stderr for frame in SPINNER_FRAMES)
    assert "\x1b" not in stdout and "searching" not in stdout

    code, stdout, stderr = run_with_terminal_stderr(["search", "--json", "ubuntu edge"], data)
    assert code == 0, stderr
    assert stdout.lstrip().startswith("{")
    assert "searching" not in stderr and not any(f in stderr for f in SPINNER_FRAMES)
