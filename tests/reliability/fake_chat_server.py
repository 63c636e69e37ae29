"""A loopback server that plays an Ollama or OpenAI chat backend, well or badly.

Answers come from a script (one per request, the last one repeats). Behaviours inject the
faults the reliability tests need: slow answers, HTTP 429/500, truncated or garbage JSON.
Every request is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class ChatRequest:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class _Script:
    answers: list[str] = field(default_factory=list)
    fault: str | None = None  # None, "slow", "429", "500", "garbage", "truncated"
    delay: float = 0.0
    requests: list[ChatRequest] = field(default_factory=list)
    served: int = 0


class FakeChatServer:
    """Threaded loopback chat backend; use as a context manager."""

    def __init__(self, answers: Sequence[str | dict[str, Any]] = ()) -> None:
        """Start with a script of answers (dicts are sent as JSON text)."""
        self.script = _Script()
        self.answer(*answers)
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None

    def answer(self, *answers: str | dict[str, Any]) -> FakeChatServer:
        """Replace the scripted answers."""
        self.script.answers = [a if isinstance(a, str) else json.dumps(a) for a in answers]
        self.script.served = 0
        return self

    def fail(self, fault: str | None, delay: float = 0.0) -> FakeChatServer:
        """Misbehave from now on: slow, 429, 500, garbage or truncated (None heals)."""
        self.script.fault = fault
        self.script.delay = delay
        return self

    def __enter__(self) -> FakeChatServer:
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        httpd.daemon_threads = True
        httpd.fake = self  # type: ignore[attr-defined]
        httpd.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
        self._httpd = httpd
        threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._release.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    @property
    def url(self) -> str:
        """Base URL (Ollama style)."""
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def openai_url(self) -> str:
        """Base URL for OpenAI clients."""
        return f"{self.url}/v1"

    @property
    def requests(self) -> list[ChatRequest]:
        """Chat requests received so far (not the /api/tags probes)."""
        return [r for r in self.script.requests if r.path != "/api/tags"]

    def next_answer(self) -> str:
        with self._lock:
            answers = self.script.answers or ["{}"]
            text = answers[min(self.script.served, len(answers) - 1)]
            self.script.served += 1
            return text


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    @property
    def fake(self) -> FakeChatServer:
        return self.server.fake  # type: ignore[attr-defined, no-any-return]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.fake.script.requests.append(ChatRequest("GET", self.path, dict(self.headers), None))
        if self.path == "/api/tags":
            self._send(200, {"models": [{"name": "fake:latest"}]})
        else:
            self._send(404, {"error": "not found"})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self.fake.script.requests.append(ChatRequest("POST", self.path, dict(self.headers), body))
        script = self.fake.script
        if script.fault == "slow":
            self.fake._release.wait(script.delay)
        if script.fault in ("429", "500"):
            code = int(script.fault)
            self._send(code, {"error": {"message": f"fake {code}", "type": "server_error"}})
            return
        content = self.fake.next_answer()
        if self.path == "/v1/chat/completions":
            payload: Any = {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": (body or {}).get("model", "fake"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
            self._send(200, payload)
        elif self.path == "/api/chat":
            model = (body or {}).get("model", "fake")
            lines = [
                {
                    "model": model,
                    "created_at": "2026-01-01T00:00:00Z",
                    "message": {"role": "assistant", "content": content},
                    "done": False,
                },
                {
                    "model": model,
                    "created_at": "2026-01-01T00:00:00Z",
                    "message": {"role": "assistant", "content": ""},
                    "done": True,
                    "done_reason": "stop",
                },
            ]
            data = "".join(json.dumps(line) + "\n" for line in lines).encode()
            self._raw(200, data, "application/x-ndjson")
        else:
            self._send(404, {"error": f"no route {self.path}"})

    def _send(self, code: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        fault = self.fake.script.fault
        if code == 200 and fault == "garbage":
            data = b"<html>this is not json</html>"
        elif code == 200 and fault == "truncated":
            data = data[: len(data) // 2]
        self._raw(code, data, "application/json")

    def _raw(self, code: int, data: bytes, kind: str) -> None:
        fault = self.fake.script.fault
        if code == 200 and fault == "garbage" and kind != "application/json":
            data = b"<html>this is not json</html>"
        elif code == 200 and fault == "truncated" and kind != "application/json":
            data = data[: len(data) // 2]
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
