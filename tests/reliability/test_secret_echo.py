"""Servers that echo the key: it is masked in every message and in everything stored.

An embedding server that puts the ``Authorization`` header in its error body, and a chat
server whose reply holds the key (in a package name, a hostname, the summary), must not
bring the key to stdout, stderr, ``--json`` or the sessions database.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

from tests.support.cli import cli_env, oic
from tests.support.fake_chat_server import FakeChatServer
from tests.support.loopback import LoopbackHandler, LoopbackServer, unused_url


class _EchoHandler(LoopbackHandler):
    """Every request fails with 401 and the Authorization header in the error message."""

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        request = self.read_request()
        auth = request.headers.get("authorization", "")
        body = {
            "error": {
                "message": f"Incorrect API key provided: {auth}. You sent {auth}",
                "type": "invalid_request_error",
                "param": None,
                "code": "invalid_api_key",
            }
        }
        self.send_bytes(401, json.dumps(body).encode(), "application/json")


class EchoServer(LoopbackServer):
    handler = _EchoHandler


def canary() -> str:
    return f"sk-echo-{secrets.token_hex(16)}"


def leaks(key: str, data: str | bytes) -> bool:
    raw = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    return key.encode() in raw or key.removeprefix("sk-echo-").encode() in raw


def test_an_embedding_server_that_echoes_the_key_does_not_print_it(tmp_path: Path) -> None:
    key = canary()
    with EchoServer() as server:
        env = cli_env(
            tmp_path / "data",
            OPENAI_API_KEY=key,
            OPENAI_BASE_URL=server.openai_url,
            OLLAMA_HOST=unused_url(),
        )
        runs = [
            oic("index", "--embedding-provider", "openai", env=env),
            oic("index", "--embedding-provider", "openai", "--json", env=env),
            oic("search", "kiosk", "--embedding-provider", "openai", "--json", env=env),
        ]
    for done in runs:
        assert done.returncode == 2, done.stderr
        assert "401" in done.stderr and "***" in done.stderr  # the echo is there, masked
        assert not leaks(key, done.stdout + done.stderr), done.stderr


PLAN_WITH_KEY = {
    "summary": "add htop, the key is {key}",
    "operations": [
        {"op": "add_packages", "packages": ["htop", "{key}"]},
        {"op": "set_hostname", "hostname": "{key}"},
        {"op": "frobnicate", "with": "{key}"},
    ],
}


def test_a_chat_reply_holding_the_key_is_masked_everywhere(
    agent_data_dir: Path, tmp_path: Path
) -> None:
    key = canary()
    plan = json.loads(json.dumps(PLAN_WITH_KEY).replace("{key}", key))
    work = tmp_path / "work"
    work.mkdir()
    with FakeChatServer([plan]) as chat:
        env = cli_env(
            agent_data_dir,
            OPENAI_API_KEY=key,
            OPENAI_BASE_URL=chat.openai_url,
            OLLAMA_HOST=unused_url(),
            HOME=str(tmp_path / "home"),
        )
        request = ("generate", "a minimal ubuntu 24.04 image for x86_64", "--provider", "openai")
        made = oic(*request, "--json", env=env, cwd=work)
        shown = oic(*request, env=env, cwd=work)
        assert chat.requests, "the fake chat server was asked"
    assert made.returncode in (0, 1), made.stderr
    payload = json.loads(made.stdout)
    assert payload["provider"] == "openai"
    runs = [made, shown]
    sid = payload["session"]
    for args in (("sessions", "show", sid), ("sessions", "replay", sid)):
        runs.append(oic(*args, "--json", env=env, cwd=work))
        runs.append(oic(*args, env=env, cwd=work))
    for done in runs:
        assert not leaks(key, done.stdout + done.stderr), (done.args, done.stdout, done.stderr)
    stored = [p for p in agent_data_dir.rglob("*") if p.is_file() and "sessions" in p.name]
    assert stored, "the turn was recorded"
    for path in stored:
        assert not leaks(key, path.read_bytes()), path


def test_mask_secrets_masks_configured_and_registered_secrets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from oic_ai.stores.secrets import mask_data, mask_secrets, register_secret

    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    monkeypatch.setenv("OIC_AI_TOKEN", "token-of-the-server")
    monkeypatch.setenv("SHORT_TOKEN", "abc")
    register_secret("registered-secret-value")
    text = "sk-from-the-environment token-of-the-server registered-secret-value abc"
    assert mask_secrets(text) == "*** *** *** abc"
    assert mask_secrets("Bearer sk-other-key-1234", ["sk-other-key-1234"]) == "Bearer ***"
    assert mask_data({"a": ["x token-of-the-server"], "n": 1}) == {"a": ["x ***"], "n": 1}


def test_a_backend_error_built_from_an_echo_is_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    from oic_ai.stores.errors import UserInputError

    monkeypatch.setenv("OPENAI_API_KEY", "sk-echoed-in-an-error")
    error = UserInputError("server said: Bearer sk-echoed-in-an-error", fix="check it")
    assert "sk-echoed" not in str(error) and "Bearer ***" in str(error)
