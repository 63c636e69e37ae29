"""Run ``oic-ai`` as a user does: ``python -m oic_ai`` in a fresh process.

The child's environment is built from the cleaned test environment (see
:mod:`tests.support.env`), runs offline and imports this checkout.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.conftest import PROJECT
from tests.support.env import clean_env
from tests.support.processes import stop

CLI_TIMEOUT = 300.0


def cli_env(data_dir: Path | None = None, **extra: str) -> dict[str, str]:
    """A child's environment: cleaned, offline, this checkout, ``data_dir`` and ``extra``."""
    env = clean_env(PYTHONPATH=str(PROJECT))
    if data_dir is not None:
        env["OIC_AI_DATA_DIR"] = str(data_dir)
    env.update(extra)
    return env


def oic(
    *args: str,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stdin: str | None = None,
    timeout: float = CLI_TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    """Run one ``oic-ai`` command to the end (``env`` defaults to :func:`cli_env`)."""
    return subprocess.run(
        [sys.executable, "-m", "oic_ai", *args],
        input=stdin,
        cwd=cwd or PROJECT,
        env=cli_env() if env is None else dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def oic_json(*args: str, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> Any:
    """Run a command with ``--json``; it must exit 0 and print one JSON document."""
    done = oic(*args, "--json", env=env, cwd=cwd)
    assert done.returncode == 0, (args, done.returncode, done.stderr[-3000:])
    return json.loads(done.stdout)


def oic_here(
    *args: str, env: Mapping[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run one ``oic-ai`` command in this process, as :func:`oic` runs it in a child.

    The same entry point (``oic_ai.cli.main.main``) with ``os.environ`` set to ``env``, the
    working folder :data:`PROJECT` and stdin, stdout and stderr swapped for text buffers; all
    restored after. For tests about what the commands answer, not about a process of their
    own: each call still opens its stores from the environment, as a new process does, but
    pays LangGraph's and the planner's imports once per test run instead of once a command.
    """
    import contextlib
    import io
    import os

    from oic_ai.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_cwd, saved_stdin = dict(os.environ), Path.cwd(), sys.stdin
    os.environ.clear()
    os.environ.update(env)
    os.chdir(PROJECT)
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse's errors and --help
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def oic_here_json(*args: str, env: Mapping[str, str]) -> Any:
    """:func:`oic_json` in this process (:func:`oic_here`)."""
    done = oic_here(*args, "--json", env=env)
    assert done.returncode == 0, (args, done.returncode, done.stderr[-3000:])
    return json.loads(done.stdout)


def one_line_error(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """Assert the command failed with ``code`` and one ``oic-ai: ...`` line; return it."""
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    return done.stderr.strip()


def python(
    code: str, *, env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -c code`` in a fresh interpreter; it must exit 0."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd or PROJECT,
        env=cli_env() if env is None else dict(env),
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def modules_after(code: str) -> set[str]:
    """The names in ``sys.modules`` after a fresh interpreter ran ``code``."""
    report = "\nimport sys as _s\nprint(sorted(_s.modules))"  # sys is always loaded
    return set(ast.literal_eval(python(code + report).stdout.splitlines()[-1]))


def top_level(modules: set[str]) -> set[str]:
    """The top-level package names of ``modules``."""
    return {name.split(".", 1)[0] for name in modules}


def start_oic(env: Mapping[str, str], *args: str) -> subprocess.Popen[str]:
    """Start one ``oic-ai`` command in its own process group, without waiting for it."""
    return subprocess.Popen(
        [sys.executable, "-m", "oic_ai", *args],
        cwd=PROJECT,
        env=dict(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def finish_all[K](runs: list[tuple[K, subprocess.Popen[str]]]) -> list[tuple[K, str, str, int]]:
    """Wait for every started command: ``(key, stdout, stderr, exit code)`` each.

    All of them are stopped at the end, also when one hangs past ``CLI_TIMEOUT``.
    """
    try:
        return [(key, *p.communicate(timeout=CLI_TIMEOUT), p.returncode) for key, p in runs]
    finally:
        for _, process in runs:
            stop(process, grace=0)
