"""What reaches stdout when it is a pipe: results only, unwrapped; progress is on stderr."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from tests.conftest import OUR_TEMPLATES, PROJECT
from tests.support.cli import cli_env, oic


def test_a_long_command_hint_is_not_wrapped_in_a_pipe(tmp_path: Path) -> None:
    data = tmp_path / ("a-data-folder-with-a-long-name-" * 3) / "data"
    done = oic("packages", "status", env=cli_env(data))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout  # one line, however long: rich wraps at 80 otherwise
    assert len(lines[0]) > 100 and lines[0].endswith("run 'oic-ai packages sync'."), lines


def test_the_indexing_progress_bar_draws_on_stderr_not_stdout(tmp_path: Path) -> None:
    library = tmp_path / "library"
    library.mkdir()
    for template in sorted(OUR_TEMPLATES.glob("*.yml"))[:3]:
        # changed, so the shipped library vectors do not cover them: the model embeds them
        (library / template.name).write_text(template.read_text() + "\n# a local change\n")
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "oic_ai", "index", "--templates-dir", str(library)],
            cwd=PROJECT,
            env=cli_env(tmp_path / "data", COLUMNS="100"),
            stdout=subprocess.PIPE,
            stderr=follower,
            text=True,
            timeout=300,
        )
        os.close(follower)
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0
    assert "\x1b" not in done.stdout and "embedding templates" not in done.stdout
    assert "3" in done.stdout  # the report itself: three templates created
    assert b"embedding templates" in drawn  # the bar was drawn, on the terminal (stderr)
