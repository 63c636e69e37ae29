"""A loopback server that speaks Ollama's and OpenAI's embedding APIs, and misbehaves.

:class:`FakeEmbeddingServer` answers

* ``POST /api/embed`` like Ollama (what ``ollama.Client.embed`` calls; langchain_ollama
  uses nothing else for embeddings), and
* ``POST /v1/embeddings`` like OpenAI, in ``float`` or ``base64`` (little-endian float32)
  encoding; the ``openai`` client asks for ``base64`` unless told otherwise.

Every request is recorded before the server decides how to answer, so tests can count
retries. :meth:`FakeEmbeddingServer.behave` scripts the next answers: slow, an HTTP
error, truncated JSON, garbage, vectors of the wrong size, or hanging up without an answer.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import random
import socket
import struct
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tests.support.loopback import LoopbackHandler, LoopbackServer, RecordedRequest

# The sizes the real models answer with.
MODEL_DIMENSIONS: dict[str, int] = {
    "nomic-embed-text": 768,
    "mxbai-embed-large": 1024,
    "all-minilm": 384,
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
}

MODES = ("ok", "slow", "status", "truncated", "garbage", "wrong_dimension", "hang_up")
EMBED_PATHS = ("/api/embed", "/v1/embeddings")


def fake_vector(model: str, text: str, dimensions: int) -> list[float]:
    """A unit vector that depends only on the model, the text and the size."""
    seed = int.from_bytes(hashlib.sha256(f"{model}\0{text}".encode()).digest()[:8], "little")
    rng = random.Random(seed)
    values = [rng.gauss(0.0, 1.0) for _ in range(dimensions)]
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    return [v / norm for v in values]


@dataclass
class Behaviour:
    """How the server answers embedding requests until told otherwise."""

    mode: str = "ok"
    status: int = 500
    delay: float = 0.0
    wrong_dimensions: int = 384
    retry_after_ms: int | None = None
    remaining: int | None = None  # misbehave this many times, then answer normally


class _Handler(LoopbackHandler):
    server_version = "fake-embeddings/1.0"

    @property
    def fake(self) -> FakeEmbeddingServer:
        owner: FakeEmbeddingServer = self.owner
        return owner

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def _handle(self) -> None:
        request = self.read_request()
        behaviour = self.fake.record(request)
        path, body = request.path, request.body
        openai = path.startswith("/v1/")
        if path not in EMBED_PATHS or self.command != "POST":
            self._send_json(404, _error_body(openai, f"no route for {self.command} {path}"))
            return
        if not isinstance(body, dict) or "model" not in body or "input" not in body:
            self._send_json(400, _error_body(openai, "body needs model and input"))
            return
        mode = behaviour.mode
        if mode == "hang_up":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if mode == "slow" and self.fake.stopping.wait(behaviour.delay):
            return  # the server is stopping
        if mode == "status":
            extra = {}
            if behaviour.retry_after_ms is not None:
                extra["retry-after-ms"] = str(behaviour.retry_after_ms)
            message = "rate limit reached" if behaviour.status == 429 else "internal error"
            self._send_json(behaviour.status, _error_body(openai, message), extra)
            return
        if mode == "garbage":
            self.send_bytes(200, b"\x00\xff<html>Bad Gateway</html>\x07", "application/json")
            return
        try:
            texts = _texts(body["input"])
        except ValueError as exc:
            self._send_json(400, _error_body(openai, str(exc)))
            return
        model = str(body["model"])
        size = self.fake.dimensions.get(model, self.fake.default_dimensions)
        if mode == "wrong_dimension":
            size = behaviour.wrong_dimensions
        vectors = [fake_vector(model, text, size) for text in texts]
        if openai:
            payload = _openai_payload(model, texts, vectors, body.get("encoding_format"))
        else:
            payload = {
                "model": model,
                "embeddings": vectors,
                "total_duration": 1000,
                "load_duration": 10,
                "prompt_eval_count": sum(len(t.split()) for t in texts),
            }
        data = json.dumps(payload).encode()
        if mode == "truncated":
            data = data[: max(1, len(data) // 2)]
        self.send_bytes(200, data, "application/json")

    def _send_json(self, status: int, payload: Any, extra: Mapping[str, str] = {}) -> None:
        self.send_bytes(status, json.dumps(payload).encode(), "application/json", extra)


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise ValueError("input must be a string or a list of strings")


def _openai_payload(
    model: str, texts: list[str], vectors: list[list[float]], encoding: Any
) -> dict[str, Any]:
    data = []
    for index, vector in enumerate(vectors):
        embedding: Any = vector
        if encoding == "base64":
            packed = struct.pack(f"<{len(vector)}f", *vector)
            embedding = base64.b64encode(packed).decode("ascii")
        data.append({"object": "embedding", "index": index, "embedding": embedding})
    tokens = sum(len(t.split()) for t in texts)
    return {
        "object": "list",
        "data": data,
        "model": model,
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


def _error_body(openai: bool, message: str) -> dict[str, Any]:
    if openai:
        return {"error": {"message": message, "type": "server_error", "param": None, "code": None}}
    return {"error": message}


class FakeEmbeddingServer(LoopbackServer):
    """A threaded loopback server for Ollama's and OpenAI's embedding endpoints.

    Use it as a context manager; it listens on ``127.0.0.1`` on a free port.
    """

    handler = _Handler

    def __init__(
        self, dimensions: Mapping[str, int] | None = None, default_dimensions: int = 768
    ) -> None:
        super().__init__()
        self.dimensions = {**MODEL_DIMENSIONS, **(dimensions or {})}
        self.default_dimensions = default_dimensions
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._behaviour = Behaviour()

    def behave(
        self,
        mode: str = "ok",
        *,
        status: int = 500,
        delay: float = 0.0,
        wrong_dimensions: int = 384,
        retry_after_ms: int | None = None,
        times: int | None = None,
    ) -> None:
        """Answer the next requests this way (``times`` of them, or until told otherwise)."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; use one of {MODES}")
        with self._lock:
            self._behaviour = Behaviour(
                mode, status, delay, wrong_dimensions, retry_after_ms, times
            )

    def reset(self) -> None:
        """Forget recorded requests and answer normally again."""
        with self._lock:
            self._requests.clear()
            self._behaviour = Behaviour()

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far."""
        with self._lock:
            return list(self._requests)

    def embed_requests(self) -> list[RecordedRequest]:
        """The recorded requests to either embedding endpoint."""
        return [r for r in self.requests if r.path in EMBED_PATHS]

    def vector(self, model: str, text: str) -> list[float]:
        """The vector this server answers for ``text`` under ``model``."""
        return fake_vector(model, text, self.dimensions.get(model, self.default_dimensions))

    def record(self, request: RecordedRequest) -> Behaviour:
        """Keep ``request`` and say how to answer it (the handler calls this first)."""
        with self._lock:
            self._requests.append(request)
            current = self._behaviour
            if current.mode != "ok" and current.remaining is not None:
                current.remaining -= 1
                if current.remaining <= 0:
                    self._behaviour = Behaviour()
            return current
