"""The client side of a server: settings, shapes read back, errors (no server needed).

Runs against a real server are in ``tests/integration/test_remote_cli.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oic_ai.services.remote import (
    RemoteServer,
    ServerUnreachableError,
    TokenRefusedError,
    _detail,
    _snapshot,
    summary_from_json,
)
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_store import SessionSummary
from oic_ai.stores.settings import load_settings
from tests.support.cli import modules_after, top_level
from tests.support.loopback import LoopbackHandler, LoopbackServer

TOKEN = "tok-unit-canary-1234"


def test_a_summary_survives_its_json() -> None:
    summary = SessionSummary("abc", "a title", 1_700_000_000.0, 1_700_000_100.0, 2, "t", "valid")
    assert summary_from_json(summary.to_json()) == summary
    assert summary_from_json(summary.to_json()).to_json() == summary.to_json()


def test_server_and_token_come_from_the_environment_or_flags(tmp_path: Path) -> None:
    env = {"OIC_AI_SERVER_URL": "team-host:8123", "OIC_AI_TOKEN": TOKEN}
    settings = load_settings(env=env, data_dir=tmp_path)
    server = RemoteServer.from_settings(settings)
    assert (server.url, server.token) == ("http://team-host:8123", TOKEN)
    assert TOKEN not in repr(settings) and TOKEN not in repr(server)
    flagged = load_settings(env=env, server_url="https://other/", token="flag-token")
    assert RemoteServer.from_settings(flagged).url == "https://other"
    with pytest.raises(UserInputError, match="not a server URL"):
        RemoteServer.from_settings(load_settings(env={}, server_url="ftp://x"))


def test_a_token_in_the_config_file_is_ignored_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"ai:\n  server:\n    url: http://h:1\n    token: {TOKEN}\n")
    settings = load_settings(config, env={})
    assert settings.token is None and settings.server_url == "http://h:1"
    err = capsys.readouterr().err
    assert "ignoring the secret ai.server.token; set OIC_AI_TOKEN" in err
    assert TOKEN not in err


def test_refusals_name_the_server_and_the_fix_and_never_the_token() -> None:
    load_settings(env={"OIC_AI_TOKEN": TOKEN})  # registers it as a secret
    server = RemoteServer("http://h:1", TOKEN)
    refused = server._refusal(401, f"bad token {TOKEN}", "session x")
    assert isinstance(refused, TokenRefusedError) and refused.exit_code == 2
    assert "http://h:1 refused the token (401)" in str(refused)
    assert "oic-ai users add" in str(refused) and TOKEN not in str(refused)
    assert "needs a token" in str(RemoteServer("http://h:1")._refusal(401, "", "x"))
    failing = server._refusal(502, _detail({"detail": f"upstream {TOKEN}"}), "x")
    assert isinstance(failing, ServerUnreachableError) and failing.exit_code == 3
    assert TOKEN not in str(failing)
    assert server._refusal(404, "", "session 'abc'").exit_code == 2
    assert "no session 'abc' on the oic-ai server at http://h:1" in str(
        server._refusal(404, "", "session 'abc'")
    )


def test_a_served_history_entry_reads_like_a_snapshot() -> None:
    snapshot = _snapshot(
        {
            "values": {"turn": 1},
            "next": [],
            "checkpoint": {"checkpoint_id": "c2", "thread_id": "t"},
            "parent_checkpoint": {"checkpoint_id": "c1"},
            "metadata": {"source": "loop"},
            "created_at": "2026-01-01T00:00:00Z",
        }
    )
    assert snapshot.config == {"configurable": {"checkpoint_id": "c2"}}
    assert snapshot.parent_config == {"configurable": {"checkpoint_id": "c1"}}
    assert snapshot.next == () and snapshot.metadata == {"source": "loop"}
    assert _snapshot({"checkpoint": {}, "parent_checkpoint": None}).parent_config is None


class _Sessions(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 - the http.server name
        self.owner.paths.append(self.path)
        row = SessionSummary("abcd-1", "a title", 1_700_000_000.0, 1_700_000_100.0, 1, None)
        body = json.dumps({"sessions": [row.to_json()]}).encode()
        self.send_bytes(200, body, "application/json")


class _SessionsServer(LoopbackServer):
    handler = _Sessions

    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []


def test_rest_only_commands_load_neither_the_sdk_nor_langgraph(tmp_path: Path) -> None:
    """``sessions list`` through a server stays as quick to start as a local one."""
    with _SessionsServer() as fake:
        code = (
            "from oic_ai.cli.main import main\n"
            f"assert main(['sessions', 'list', '--json', '--server', {fake.url!r},"
            f" '--data-dir', {str(tmp_path)!r}]) == 0\n"
        )
        loaded = modules_after(code)
        assert fake.paths == ["/api/v1/sessions"]
    assert "langgraph_sdk" not in top_level(loaded) and "langgraph" not in top_level(loaded)
    assert "chromadb" not in top_level(loaded)
