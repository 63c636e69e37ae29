"""A loopback server that plays an Ollama or OpenAI chat backend, well or badly.

Answers come from a script (one per request, the last one repeats). Faults inject what
the reliability tests need: slow answers, HTTP 429/500, truncated or garbage JSON.
Every request is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from typing import Any

from tests.support.loopback import LoopbackHandler, LoopbackServer, RecordedRequest

FAULTS = (None, "slow", "401", "429", "500", "garbage", "truncated")


class _Handler(LoopbackHandler):
    @property
    def fake(self) -> FakeChatServer:
        owner: FakeChatServer = self.owner
        return owner

    def do_GET(self) -> None:
        self.fake.record(self.read_request())
        if self.path == "/api/tags":
            self._send(200, {"models": [{"name": "fake:latest"}]})
        else:
            self._send(404, {"error": "not found"})

    def do_POST(self) -> None:
        request = self.fake.record(self.read_request())
        fault = self.fake.fault
        if fault == "slow":
            self.fake.stopping.wait(self.fake.delay)
        if fault in ("401", "429", "500"):
            code = int(fault)
            self._send(code, {"error": {"message": f"fake {code}", "type": "server_error"}})
            return
        content = self.fake.next_answer()
        model = (request.body or {}).get("model", "fake")
        if self.path == "/v1/chat/completions":
            self._send(200, _openai_completion(model, content))
        elif self.path == "/api/chat":
            lines = _ollama_stream(model, content)
            data = "".join(json.dumps(line) + "\n" for line in lines).encode()
            self._answer(200, data, "application/x-ndjson")
        else:
            self._send(404, {"error": f"no route {self.path}"})

    def _send(self, code: int, payload: Any) -> None:
        self._answer(code, json.dumps(payload).encode(), "application/json")

    def _answer(self, code: int, data: bytes, kind: str) -> None:
        fault = self.fake.fault
        if code == 200 and fault == "garbage":
            data = b"<html>this is not json</html>"
        elif code == 200 and fault == "truncated":
            data = data[: len(data) // 2]
        self.send_bytes(code, data, kind)


def _openai_completion(model: str, content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _ollama_stream(model: str, content: str) -> list[dict[str, Any]]:
    line = {"model": model, "created_at": "2026-01-01T00:00:00Z"}
    return [
        {**line, "message": {"role": "assistant", "content": content}, "done": False},
        {
            **line,
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": "stop",
        },
    ]


class FakeChatServer(LoopbackServer):
    """Threaded loopback chat backend; use as a context manager."""

    handler = _Handler

    def __init__(self, answers: Sequence[str | dict[str, Any]] = ()) -> None:
        """Start with a script of answers (dicts are sent as JSON text)."""
        super().__init__()
        self.answers: list[str] = []
        self.served = 0
        self.fault: str | None = None
        self.delay = 0.0
        self._received: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self.answer(*answers)

    def answer(self, *answers: str | dict[str, Any]) -> FakeChatServer:
        """Replace the scripted answers."""
        self.answers = [a if isinstance(a, str) else json.dumps(a) for a in answers]
        self.served = 0
        return self

    def fail(self, fault: str | None, delay: float = 0.0) -> FakeChatServer:
        """Misbehave from now on: slow, 401, 429, 500, garbage or truncated (None heals)."""
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}; use one of {FAULTS}")
        self.fault = fault
        self.delay = delay
        return self

    @property
    def requests(self) -> list[RecordedRequest]:
        """Chat requests received so far (not the /api/tags probes)."""
        with self._lock:
            return [r for r in self._received if r.path != "/api/tags"]

    def record(self, request: RecordedRequest) -> RecordedRequest:
        """Keep ``request`` (the handler calls this first)."""
        with self._lock:
            self._received.append(request)
        return request

    def next_answer(self) -> str:
        """The next scripted answer (the last one repeats)."""
        with self._lock:
            answers = self.answers or ["{}"]
            text = answers[min(self.served, len(answers) - 1)]
            self.served += 1
            return text
