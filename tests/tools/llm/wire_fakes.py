"""Loopback fakes of OpenAI's ``/v1/chat/completions`` and Ollama's ``/api/chat``.

Unlike a scripted chat model they sit behind the real ``ChatOpenAI`` and ``ChatOllama``,
so they see the request those clients really build, and they enforce the providers' rules:

- OpenAI: a strict ``json_schema`` outside the strict subset gets the real 400 shape
  (``Invalid schema for response_format '...': In context=(...), 'oneOf' is not
  permitted.``); a server can also be told to reject ``json_schema`` (older llama.cpp) or
  ``json_object`` (LM Studio);
- OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 but not gpt-5-chat; behind a gateway
  as ``openai/o4-mini`` too) refuse ``temperature``/``top_p`` other than 1
  (``unsupported_value`` for o1 and gpt-5, ``unsupported_parameter`` for the rest) and
  ``max_tokens`` (``unsupported_parameter``, "Use 'max_completion_tokens' instead"), and
  spend reasoning tokens before they answer (``reasoning_effort``: minimal 0, low 600,
  medium 2,500 (the default), high 6,000): a budget that reasoning fills returns empty
  content with ``finish_reason: length`` and ``completion_tokens_details.reasoning_tokens``;
- ``hosted=True`` is OpenAI's own API: ``max_tokens`` beside ``max_completion_tokens`` is a
  400 ``invalid_parameter_combination``, and ``reasoning_effort`` to a model that does not
  reason is a 400 ``unsupported_parameter``; ``refuse`` makes any model refuse named
  parameters the same way (a gateway's unknown model);
- Ollama: ``format`` is compiled with llguidance and a schema that does not compile gets a
  500, as Ollama's grammar converter does; replies stream as NDJSON unless
  ``"stream": false``. A thinking model (qwen3, deepseek-r1, gpt-oss) thinks unless
  ``think`` is false, into ``message.thinking``, spending ``num_predict``; ``think: true``
  to any other model is a 400 "does not support thinking". ``busy`` answers the first
  requests with 503 "server busy" (a full queue) or 429, as listed;
- both cut a reply longer than the token limit (4 characters a token) and end it with
  ``length``.

Every request body is recorded; replies come from a script (the last one repeats).
"""

from __future__ import annotations

import json
import re
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
    """One scripted reply: content plus how the server ends it.

    ``plan`` makes the reply the plan as a schema-constrained model writes it: every
    property the request's schema lists for each operation, in its order, null where the
    plan gives none (the flat schema's 36 per operation, or the compact one's few).
    """

    content: str = ""
    finish_reason: str = "stop"
    refusal: str | None = None
    tool_args: dict[str, Any] | None = None
    plan: dict[str, Any] | None = None

    def text(self, schema: dict[str, Any] | None) -> str:
        """The reply's content under ``schema`` (the request's response schema, if any)."""
        if self.plan is None:
            return self.content
        return constrained(self.plan, schema)


def constrained(plan: dict[str, Any], schema: dict[str, Any] | None) -> str:
    """``plan`` as a model constrained to ``schema`` writes it (compact JSON)."""
    if not schema:
        return json.dumps(plan, separators=(",", ":"))
    items = schema["properties"]["operations"]["items"]
    branches = items.get("anyOf") or [items]
    ops = []
    for op in plan["operations"]:
        branch = next(b for b in branches if op["op"] in b["properties"]["op"]["enum"])
        ops.append({name: op.get(name) for name in branch["properties"]})
    whole = {"summary": plan.get("summary", ""), "operations": ops}
    whole["not_applied"] = plan.get("not_applied", [])
    return json.dumps(whole, separators=(",", ":"))


def request_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The plan schema a request constrains the reply to (OpenAI or Ollama), if any."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return dict(fmt["json_schema"]["schema"])
    if isinstance(fmt.get("schema"), dict):
        return dict(fmt["schema"])
    return body["format"] if isinstance(body.get("format"), dict) else None


def scripted(answer: str | dict[str, Any] | Scripted) -> Scripted:
    """A reply from text, a JSON object (sent as text) or a :class:`Scripted`."""
    if isinstance(answer, Scripted):
        return answer
    return Scripted(answer if isinstance(answer, str) else json.dumps(answer))


PLAN = {"summary": "add htop", "operations": [{"op": "add_packages", "packages": ["htop"]}]}
"""The plan the tests' scripted servers answer with."""
TEMPLATE = "image:\n  name: edge\ntarget:\n  os: ubuntu\nsystemConfig:\n  packages: [vim]\n"
"""The small template the tests plan against."""
CHARS_PER_TOKEN = 4
EFFORT_TOKENS = {"none": 0, "minimal": 0, "low": 600, "medium": 2_500, "high": 6_000}
THINK_TOKENS = 4_000  # an Ollama thinking model's thoughts before it answers
BUSY_TEXT = "server busy, please try again.  maximum pending requests exceeded"
_THINKERS = re.compile(r"^(qwen3|deepseek-r1|gpt-oss|magistral)")


def openai_family(model: str) -> str:
    """``reasoning`` for OpenAI's reasoning models (a gateway's prefix ignored), else ``chat``."""
    name = model.rsplit("/", 1)[-1].lower()
    if re.match(r"o\d", name) or (name.startswith("gpt-5") and "chat" not in name):
        return "reasoning"
    return "chat"


@dataclass
class WireServer:
    """A threaded loopback chat server; use as a context manager.

    Args:
        answers: The scripted replies, in order (the last repeats).
        reject: Response formats this server refuses: ``json_schema``, ``json_object``.
        hosted: Behave as OpenAI's own API (see the module doc).
        refuse: Parameters every model refuses, with the error code to give.
        busy: HTTP statuses (503, 429) to answer the first requests with, in order.
        retry_after: The ``Retry-After`` header of a busy answer ("" for none).
    """

    answers: Sequence[str | dict[str, Any] | Scripted] = ()
    reject: frozenset[str] = frozenset()
    hosted: bool = False
    refuse: dict[str, str] = field(default_factory=dict)
    busy: list[int] = field(default_factory=list)
    retry_after: str = ""
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


def openai_param_error(param: str, code: str, model: str, value: Any = None) -> dict[str, Any]:
    """OpenAI's 400 body for a parameter the model does not take."""
    if code == "unsupported_value":
        message = (
            f"Unsupported value: '{param}' does not support {value} with this model. "
            "Only the default (1) value is supported."
        )
    elif code == "invalid_parameter_combination":
        message = (
            "Setting 'max_tokens' and 'max_completion_tokens' at the same time is not supported."
        )
    elif param == "max_tokens":
        message = (
            "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead."
        )
    else:
        message = f"Unsupported parameter: '{param}' is not supported with this model."
    return {
        "error": {
            "message": message,
            "type": "invalid_request_error",
            "param": param,
            "code": code,
        }
    }


def refusal(body: dict[str, Any], hosted: bool, refuse: dict[str, str]) -> dict[str, Any] | None:
    """The 400 OpenAI (or a gateway in front of it) gives this request, if any."""
    model = str(body.get("model", ""))
    reasoning = openai_family(model) == "reasoning"
    for param, code in refuse.items():
        if param in body:
            return openai_param_error(param, code, model, body[param])
    if hosted and "max_tokens" in body and "max_completion_tokens" in body:
        return openai_param_error("max_tokens", "invalid_parameter_combination", model)
    if reasoning:
        for param in ("temperature", "top_p"):
            if param in body and body[param] != 1:
                o1_or_gpt5 = re.match(r"(o1|gpt-5)", model.rsplit("/", 1)[-1])
                code = "unsupported_value" if o1_or_gpt5 else "unsupported_parameter"
                return openai_param_error(param, code, model, body[param])
        if "max_tokens" in body:
            return openai_param_error("max_tokens", "unsupported_parameter", model)
    elif hosted and "reasoning_effort" in body:
        return openai_param_error("reasoning_effort", "unsupported_parameter", model)
    return None


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
        # as an HTTP proxy, the request line holds the whole URL
        path = re.sub(r"^https?://[^/]+", "", self.path)
        self.fake.bodies.append(body)
        self.fake.paths.append(self.path)
        if self.fake.busy:
            status = self.fake.busy.pop(0)
            headers = {"Retry-After": self.fake.retry_after} if self.fake.retry_after else {}
            self._json(status, {"error": BUSY_TEXT}, headers)
        elif path == "/v1/chat/completions":
            self._openai(body)
        elif path == "/api/chat":
            self._ollama(body)
        else:
            self._json(404, {"error": f"no route {self.path}"})

    def _openai(self, body: dict[str, Any]) -> None:
        refused = refusal(body, self.fake.hosted, self.fake.refuse)
        if refused is not None:
            self._json(400, refused)
            return
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
        limit = body.get("max_completion_tokens") or body.get("max_tokens") or 1 << 30
        reasoning = 0
        if openai_family(str(body.get("model", ""))) == "reasoning":
            reasoning = min(limit, EFFORT_TOKENS[body.get("reasoning_effort") or "medium"])
        text = reply.text(request_schema(body))
        content, finish = _within(text, limit - reasoning, reply.finish_reason)
        message: dict[str, Any] = {"role": "assistant", "content": content}
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
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {
                    "prompt_tokens": 1,
                    "completion_tokens": reasoning + _tokens(content),
                    "total_tokens": 1 + reasoning + _tokens(content),
                    "completion_tokens_details": {"reasoning_tokens": reasoning},
                },
            },
        )

    def _ollama(self, body: dict[str, Any]) -> None:
        model = str(body.get("model", "fake"))
        thinker = bool(_THINKERS.match(model))
        think = body.get("think")
        if not thinker and think not in (None, False):
            self._json(400, {"error": f'"{model}" does not support thinking'})
            return
        fmt = body.get("format")
        if isinstance(fmt, dict):
            problem = compile_problem(fmt)
            if problem:
                self._json(500, {"error": f"invalid JSON schema in format: {problem}"})
                return
        reply = self.fake.next_reply()
        limit = (body.get("options") or {}).get("num_predict") or 1 << 30
        thoughts = min(limit, THINK_TOKENS) if thinker and think is not False else 0
        text = reply.text(request_schema(body))
        content, finish = _within(text, limit - thoughts, reply.finish_reason)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if thoughts:
            message["thinking"] = "Let me think about the template. " * (thoughts // 8)
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
            "done_reason": finish,
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
            },  # Ollama streams thinking and content in parts; one part is enough here
            {**done, "message": {"role": "assistant", "content": ""}},
        ]
        data = "".join(json.dumps(line) + "\n" for line in lines).encode()
        self._raw(200, data, "application/x-ndjson")

    def _json(self, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._raw(code, json.dumps(payload).encode(), "application/json", headers)

    def _raw(
        self, code: int, data: bytes, kind: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(code)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def _within(content: str, tokens: int, finish: str) -> tuple[str, str]:
    """The reply as a token limit leaves it: cut, and ended with ``length``, when too long."""
    if _tokens(content) <= tokens:
        return content, finish
    return content[: max(0, tokens) * CHARS_PER_TOKEN], "length"
