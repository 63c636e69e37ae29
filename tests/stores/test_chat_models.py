"""Provider choice: auto falls back with a notice; explicit providers fail clearly."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from oic_ai.stores.chat_models import (
    StructuredOutput,
    describe_backend_error,
    make_chat_model,
    ollama_answers,
    resolve_provider,
    structured_method,
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


def test_each_server_gets_its_structured_output_method(tmp_path: Path) -> None:
    hosted = structured_method("openai", Settings(openai_api_key="sk-x", data_dir=tmp_path))
    assert hosted == StructuredOutput("json_schema")
    assert structured_method("ollama", Settings()) == StructuredOutput("json_schema")
    compatible = structured_method(
        "openai", Settings(openai_base_url="http://127.0.0.1:9/v1/", data_dir=tmp_path)
    )
    assert compatible.method == "json_schema" and compatible.fallback
    assert compatible.server == "http://127.0.0.1:9/v1"
    compatible.remember("json_mode")
    again = structured_method(
        "openai", Settings(openai_base_url="http://127.0.0.1:9/v1", data_dir=tmp_path)
    )
    assert again.method == "json_mode" and not again.fallback
    (tmp_path / "structured_output.json").write_text("not json")
    assert structured_method("openai", Settings(openai_base_url="http://h/v1", data_dir=tmp_path))


@pytest.mark.parametrize("provider", ["openai", "ollama"])
def test_structured_output_can_be_forced(provider: str) -> None:
    settings = Settings(openai_base_url="http://h/v1")
    object.__setattr__(settings, f"{provider}_structured_output", "json_mode")
    assert structured_method(provider, settings) == StructuredOutput("json_mode")
    object.__setattr__(settings, f"{provider}_structured_output", "grammar")
    with pytest.raises(UserInputError, match="structured_output"):
        structured_method(provider, settings)


def test_ollama_gets_num_ctx(ollama_url: str) -> None:
    assert make_chat_model("ollama", Settings(ollama_base_url=ollama_url)).num_ctx == 8192
    settings = Settings(ollama_base_url=ollama_url)
    object.__setattr__(settings, "ollama_num_ctx", 16384)
    assert make_chat_model("ollama", settings).num_ctx == 16384


class _Status(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status


@pytest.mark.parametrize(
    ("provider", "exc", "cause", "fix"),
    [
        ("openai", _Status(400, "'oneOf' is not permitted in response_format"),
         "rejected the plan schema (HTTP 400", "structured_output: json_mode"),
        ("ollama", _Status(500, "invalid JSON schema in format"),
         "rejected the plan schema (HTTP 500", "structured_output: json_mode"),
        ("openai", TimeoutError("read timed out"), "timed out after 60s", "timeout"),
        ("openai", _Status(401, "bad key"), "HTTP 401", "OPENAI_API_KEY"),
        ("ollama", _Status(404, "model 'llama3.1:8b' not found"), "HTTP 404",
         "ollama pull llama3.1:8b"),
        ("openai", _Status(429, "slow down"), "HTTP 429", "try again later"),
        ("ollama", ConnectionRefusedError("refused"), "not reachable", "ollama serve"),
    ],
)  # fmt: skip
def test_backend_errors_name_the_real_cause(
    provider: str, exc: Exception, cause: str, fix: str
) -> None:
    line = describe_backend_error(provider, Settings(), exc)
    assert cause in line and fix in line and "--provider builtin" in line
    assert line.startswith(f"{provider} chat model failed at ")
    if "ollama serve" not in fix:
        assert "ollama serve" not in line
