"""``oic-ai serve`` refuses what it cannot do with one line, before starting anything.

The running server is tested in ``tests/integration/test_serve.py``.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from oic_ai.cli.commands.serve import has_desktop, ui_url
from tests.support.cli import cli_env, modules_after, oic, one_line_error, top_level
from tests.support.processes import free_port


def test_a_taken_port_is_one_line_and_exit_two(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = oic("serve", "--no-browser", "--port", str(port), env=cli_env(tmp_path / "d"))
    line = one_line_error(done)
    assert f"port {port} on 127.0.0.1 is taken" in line and "--port" in line
    assert not (tmp_path / "d" / "sessions.sqlite").exists()


def test_a_bad_port_or_host_is_a_usage_error(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "d")
    for port in ("0", "70000", "http"):
        done = oic("serve", "--no-browser", "--port", port, env=env)
        assert "not a port number" in one_line_error(done)
    host = oic("serve", "--no-browser", "--host", "no-such-host.invalid", env=env)
    assert "cannot listen on 'no-such-host.invalid'" in one_line_error(host)


def test_a_missing_langgraph_server_is_one_line_naming_the_install(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['langgraph_api'] = None  # as if langgraph-cli[inmem] were not installed\n"
        "from oic_ai.cli.main import main\n"
        f"raise SystemExit(main(['serve', '--no-browser', '--port', '{free_port()}']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=cli_env(tmp_path / "d"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = one_line_error(done)
    assert "LangGraph API server is not installed" in line and "langgraph-cli[inmem]" in line


def test_a_damaged_sessions_database_is_refused_before_serving(tmp_path: Path) -> None:
    data = tmp_path / "d"
    data.mkdir()
    (data / "sessions.sqlite").write_bytes(b"this is not a database" * 100)
    done = oic("serve", "--no-browser", "--port", str(free_port()), env=cli_env(data))
    assert "sessions.sqlite" in one_line_error(done)


def test_other_commands_do_not_load_the_server() -> None:
    loaded = top_level(modules_after("from oic_ai.cli.parser import build_parser\nbuild_parser()"))
    assert not loaded & {"langgraph_api", "starlette", "uvicorn", "langgraph_runtime_inmem"}


def test_the_printed_url_brackets_ipv6() -> None:
    assert ui_url("127.0.0.1", 8123) == "http://127.0.0.1:8123/ui/"
    assert ui_url("::1", 9) == "http://[::1]:9/ui/"


def test_the_browser_opens_only_where_a_desktop_can_show_it() -> None:
    if sys.platform.startswith("linux"):
        assert has_desktop({}) is False  # a console or SSH: no text browser takes the terminal
        assert has_desktop({"DISPLAY": ":0"}) and has_desktop({"WAYLAND_DISPLAY": "wayland-0"})


def test_serve_looks_for_new_runs_every_50_ms_not_half_a_second() -> None:
    """The in-memory runtime's idle wait is shortened, once, and runs are still found."""
    import asyncio

    from langgraph_runtime_inmem import ops

    from oic_ai.cli.commands.serve import quicker_run_pickup

    before = ops.Runs.next
    try:
        assert quicker_run_pickup(0.01) is True
        assert quicker_run_pickup(0.01) is False  # never wrapped twice

        async def no_runs() -> list[object]:
            return [item async for item in ops.Runs.next(wait=True, limit=1)]

        assert asyncio.run(no_runs()) == []  # the runtime's own pick-up still answers
    finally:
        ops.Runs.next = before


def test_a_non_loopback_host_without_users_is_refused(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "d")
    for host in ("0.0.0.0", "::"):
        done = oic("serve", "--no-browser", "--host", host, "--port", str(free_port()), env=env)
        line = one_line_error(done)
        assert f"--host {host}" in line and "no users" in line
        assert "oic-ai users add NAME" in line and "--no-auth" in line


def test_no_auth_lets_a_non_loopback_host_through_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from oic_ai.cli.commands.serve import check_exposure
    from oic_ai.web.front_door import NO_AUTH_ENV

    monkeypatch.delenv(NO_AUTH_ENV, raising=False)
    check_exposure("127.0.0.1", tmp_path, no_auth=False)  # loopback: nothing to say
    check_exposure("0.0.0.0", tmp_path, no_auth=True)
    assert "warning" in capsys.readouterr().err
    import os

    assert os.environ[NO_AUTH_ENV] == "1"


def test_allow_origin_must_be_an_origin(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "d")
    for value in ("*", "app.example.com", "https://app.example.com/page", "ftp://x.example"):
        done = oic("serve", "--no-browser", "--allow-origin", value, env=env)
        assert "is not an origin" in one_line_error(done)
