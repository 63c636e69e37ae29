"""Provider choice: auto falls back with a notice; explicit providers fail clearly."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from oic_ai.stores.chat_models import (
    describe_backend_error,
    make_chat_model,
    ollama_answers,
    resolve_provider,
)
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.settings import Settings


class _Tags(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps({"models": [{"name": "llama3.1:8b"}]}).encode()
        self.send_response(200 if self.path == "/api/tags" else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def ollama_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Tags)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def dead_url() -> str:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_auto_prefers_a_running_ollama(ollama_url: str) -> None:
    choice = resolve_provider(Settings(ollama_base_url=ollama_url))
    assert choice.provider == "ollama" and choice.notices == []
    assert ollama_answers(ollama_url)


def test_auto_uses_openai_when_ollama_is_down_and_a_key_is_set(dead_url: str) -> None:
    settings = Settings(ollama_base_url=dead_url, openai_api_key="sk-test")
    assert resolve_provider(settings).provider == "openai"


def test_auto_falls_back_to_builtin_with_a_notice(dead_url: str) -> None:
    choice = resolve_provider(Settings(ollama_base_url=dead_url))
    assert choice.provider == "builtin"
    assert "builtin planner was used" in choice.notices[0] and dead_url in choice.notices[0]


def test_explicit_openai_without_a_key_is_a_clear_error() -> None:
    with pytest.raises(UserInputError, match="OPENAI_API_KEY"):
        resolve_provider(Settings(provider="openai"))
    assert resolve_provider(Settings(provider="openai", openai_base_url="http://x")).provider == (
        "openai"
    )


def test_builtin_and_unknown() -> None:
    assert resolve_provider(Settings(provider="builtin")).provider == "builtin"
    with pytest.raises(UserInputError, match="unknown provider"):
        resolve_provider(Settings(), "gpt")
    with pytest.raises(UserInputError, match="no chat model"):
        make_chat_model("builtin", Settings())


def test_backend_errors_never_show_the_key() -> None:
    settings = Settings(provider="openai", openai_api_key="sk-canary-123")
    line = describe_backend_error(
        "openai", settings, RuntimeError("401 bad key sk-canary-123\nmore")
    )
    assert "sk-canary-123" not in line and "***" in line and "\n" not in line
    assert "--provider builtin" in line


def test_chat_models_are_built_for_the_configured_servers(ollama_url: str) -> None:
    ollama = make_chat_model("ollama", Settings(ollama_base_url=ollama_url, ollama_model="m1"))
    assert ollama.model == "m1" and ollama.base_url == ollama_url
    openai = make_chat_model(
        "openai", Settings(openai_base_url="http://127.0.0.1:9/v1", openai_model="m2")
    )
    assert openai.model_name == "m2" and openai.openai_api_base == "http://127.0.0.1:9/v1"
