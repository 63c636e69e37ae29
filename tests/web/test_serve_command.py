"""``oic-ai serve`` refuses what it cannot do with one line, before starting anything.

The running server is tested in ``tests/integration/test_serve.py``.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from oic_ai.cli_serve import ui_url
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
        "from oic_ai.cli import main\n"
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
    loaded = top_level(modules_after("from oic_ai.cli import build_parser\nbuild_parser()"))
    assert not loaded & {"langgraph_api", "starlette", "uvicorn", "langgraph_runtime_inmem"}


def test_the_printed_url_brackets_ipv6() -> None:
    assert ui_url("127.0.0.1", 8123) == "http://127.0.0.1:8123/ui/"
    assert ui_url("::1", 9) == "http://[::1]:9/ui/"
