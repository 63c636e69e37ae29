"""Loopback fakes of OpenAI's ``/v1/chat/completions`` and Ollama's ``/api/chat``.

Unlike a scripted chat model they sit behind the real ``ChatOpenAI`` and ``ChatOllama``,
so they see the request those clients really build, and they enforce the providers' rules:

- OpenAI: a strict ``json_schema`` outside the strict subset gets the real 400 shape
  (``Invalid schema for response_format '...': In context=(...), 'oneOf' is not
  permitted.``); a server can also be told to reject ``json_schema`` (older llama.cpp) or
  ``json_object`` (LM Studio);
- Ollama: ``format`` is compiled with llguidance and a schema that does not compile gets a
  500, as Ollama's grammar converter does; replies stream as NDJSON unless
  ``"stream": false``.

Every request body is recorded; replies come from a script (the last one repeats).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.tools.llm.grammar import compile_problem
from tests.tools.llm.openai_strict import strict_problems


@dataclass
class Scripted:
    """One scripted reply: content plus how the server ends it."""

    content: str = ""
    finish_reason: str = "stop"
    refusal: str | None = None
    tool_args: dict[str, Any] | None = None


def scripted(answer: str | dict[str, Any] | Scripted) -> Scripted:
    """A reply from text, a JSON object (sent as text) or a :class:`Scripted`."""
    if isinstance(answer, Scripted):
        return answer
    return Scripted(answer if isinstance(answer, str) else json.dumps(answer))


@dataclass
class WireServer:
    """A threaded loopback chat server; use as a context manager.

    Args:
        answers: The scripted replies, in order (the last repeats).
        reject: Response formats this server refuses: ``json_schema``, ``json_object``.
    """

    answers: Sequence[str | dict[str, Any] | Scripted] = ()
    reject: frozenset[str] = frozenset()
    bodies: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    _served: int = 0
    _httpd: ThreadingHTTPServer | None = None

    def __enter__(self) -> WireServer:
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        httpd.daemon_threads = True
        httpd.fake = self  # type: ignore[attr-defined]
        self._httpd = httpd
        threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    @property
    def url(self) -> str:
        """The server's base URL (Ollama style; OpenAI clients add ``/v1``)."""
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def next_reply(self) -> Scripted:
        """The next scripted reply."""
        replies = [scripted(a) for a in self.answers] or [Scripted("{}")]
        reply = replies[min(self._served, len(replies) - 1)]
        self._served += 1
        return reply


def openai_schema_error(schema_name: str, problem: str) -> dict[str, Any]:
    """OpenAI's 400 body for a response-format schema outside the strict subset."""
    return {
        "error": {
            "message": f"Invalid schema for response_format '{schema_name}': {problem}",
            "type": "invalid_request_error",
            "param": "response_format",
            "code": None,
        }
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    @property
    def fake(self) -> WireServer:
        return self.server.fake  # type: ignore[attr-defined, no-any-return]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        self.fake.bodies.append(body)
        self.fake.paths.append(self.path)
        if self.path == "/v1/chat/completions":
            self._openai(body)
        elif self.path == "/api/chat":
            self._ollama(body)
        else:
            self._json(404, {"error": f"no route {self.path}"})

    def _openai(self, body: dict[str, Any]) -> None:
        fmt = body.get("response_format") or {}
        kind = fmt.get("type")
        if kind in self.fake.reject:
            text = (
                "'response_format.type' must be 'json_schema' or 'text'"
                if kind == "json_object"
                else f"response_format type {kind!r} is not supported by this server"
            )
            self._json(400, {"error": {"message": text, "type": "invalid_request_error"}})
            return
        if kind == "json_schema" and fmt["json_schema"].get("strict"):
            problems = strict_problems(fmt["json_schema"]["schema"])
            if problems:
                name = fmt["json_schema"].get("name", "response")
                self._json(400, openai_schema_error(name, problems[0]))
                return
        reply = self.fake.next_reply()
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.refusal:
            message = {"role": "assistant", "content": None, "refusal": reply.refusal}
        if reply.tool_args is not None:
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "edit_plan", "arguments": json.dumps(reply.tool_args)},
                    }
                ],
            }
        self._json(
            200,
            {
                "id": "chatcmpl-wire",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "fake"),
                "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            },
        )

    def _ollama(self, body: dict[str, Any]) -> None:
        fmt = body.get("format")
        if isinstance(fmt, dict):
            problem = compile_problem(fmt)
            if problem:
                self._json(500, {"error": f"invalid JSON schema in format: {problem}"})
                return
        reply = self.fake.next_reply()
        model = body.get("model", "fake")
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_args is not None:
            message = {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"function": {"name": "edit_plan", "arguments": reply.tool_args}}],
            }
        done = {
            "model": model,
            "created_at": "2026-01-01T00:00:00Z",
            "done": True,
            "done_reason": reply.finish_reason,
            "eval_count": 1,
            "prompt_eval_count": 1,
        }
        if body.get("stream") is False:
            self._json(200, {**done, "message": message})
            return
        lines = [
            {
                "model": model,
                "created_at": "2026-01-01T00:00:00Z",
                "message": message,
                "done": False,
            },
            {**done, "message": {"role": "assistant", "content": ""}},
        ]
        data = "".join(json.dumps(line) + "\n" for line in lines).encode()
        self._raw(200, data, "application/x-ndjson")

    def _json(self, code: int, payload: Any) -> None:
        self._raw(code, json.dumps(payload).encode(), "application/json")

    def _raw(self, code: int, data: bytes, kind: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
