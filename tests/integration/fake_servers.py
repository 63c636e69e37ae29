"""Loopback HTTP servers that speak Ollama's and OpenAI's embedding APIs, and misbehave.

``FakeEmbeddingServer`` answers

* ``POST /api/embed`` like Ollama (what ``ollama.Client.embed`` calls; langchain_ollama
  uses nothing else for embeddings), and
* ``POST /v1/embeddings`` like OpenAI, in ``float`` or ``base64`` (little-endian float32)
  encoding; the ``openai`` client asks for ``base64`` unless told otherwise.

Every request is recorded (method, path, headers, JSON body) before the server decides
how to answer, so tests can count retries. :meth:`FakeEmbeddingServer.behave` scripts
the next answers: slow, an HTTP error, truncated JSON, garbage, vectors of the wrong
size, or hanging up without an answer. :func:`down_url` gives an address where nothing
listens.
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
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# The sizes the real models answer with.
MODEL_DIMENSIONS: dict[str, int] = {
    "nomic-embed-text": 768,
    "mxbai-embed-large": 1024,
    "all-minilm": 384,
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
}

MODES = ("ok", "slow", "status", "truncated", "garbage", "wrong_dimension", "hang_up")


def fake_vector(model: str, text: str, dimensions: int) -> list[float]:
    """A unit vector that depends only on the model, the text and the size."""
    seed = int.from_bytes(hashlib.sha256(f"{model}\0{text}".encode()).digest()[:8], "little")
    rng = random.Random(seed)
    values = [rng.gauss(0.0, 1.0) for _ in range(dimensions)]
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    return [v / norm for v in values]


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: Any  # the parsed JSON body, or None when it was not JSON
    raw: bytes


@dataclass
class Behaviour:
    """How the server answers embedding requests until told otherwise."""

    mode: str = "ok"
    status: int = 500
    delay: float = 0.0
    wrong_dimensions: int = 384
    retry_after_ms: int | None = None
    remaining: int | None = None  # misbehave this many times, then answer normally


@dataclass
class _State:
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: list[RecordedRequest] = field(default_factory=list)
    behaviour: Behaviour = field(default_factory=Behaviour)


class FakeEmbeddingServer:
    """A threaded loopback server for Ollama's and OpenAI's embedding endpoints.

    Use it as a context manager; it listens on ``127.0.0.1`` on a free port.
    """

    def __init__(
        self, dimensions: Mapping[str, int] | None = None, default_dimensions: int = 768
    ) -> None:
        self.dimensions = {**MODEL_DIMENSIONS, **(dimensions or {})}
        self.default_dimensions = default_dimensions
        self._state = _State()
        self._wake = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle -------------------------------------------------------------------

    def start(self) -> FakeEmbeddingServer:
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        httpd.daemon_threads = True
        httpd.fake = self  # type: ignore[attr-defined]
        httpd.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._wake.set()  # release handlers sleeping in "slow" mode
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> FakeEmbeddingServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- addresses --------------------------------------------------------------------

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def host_port(self) -> str:
        """``127.0.0.1:PORT``, the way people write ``OLLAMA_HOST``."""
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The Ollama base URL."""
        return f"http://{self.host_port}"

    @property
    def openai_url(self) -> str:
        """The OpenAI base URL (with ``/v1``)."""
        return f"{self.url}/v1"

    # -- scripting and inspection -----------------------------------------------------

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
        with self._state.lock:
            self._state.behaviour = Behaviour(
                mode, status, delay, wrong_dimensions, retry_after_ms, times
            )

    def reset(self) -> None:
        """Forget recorded requests and answer normally again."""
        with self._state.lock:
            self._state.requests.clear()
            self._state.behaviour = Behaviour()

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._state.lock:
            return list(self._state.requests)

    def embed_requests(self) -> list[RecordedRequest]:
        """The recorded requests to either embedding endpoint."""
        return [r for r in self.requests if r.path in ("/api/embed", "/v1/embeddings")]

    def vector(self, model: str, text: str) -> list[float]:
        """The vector this server answers for ``text`` under ``model``."""
        return fake_vector(model, text, self.dimensions.get(model, self.default_dimensions))

    # -- used by the handler ----------------------------------------------------------

    def _record(self, request: RecordedRequest) -> Behaviour:
        with self._state.lock:
            self._state.requests.append(request)
            current = self._state.behaviour
            if current.mode != "ok" and current.remaining is not None:
                current.remaining -= 1
                if current.remaining <= 0:
                    self._state.behaviour = Behaviour()
            return current


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise ValueError("input must be a string or a list of strings")


class _Handler(BaseHTTPRequestHandler):
    server_version = "fake-embeddings/1.0"
    protocol_version = "HTTP/1.0"  # one request per connection: simple and predictable

    @property
    def fake(self) -> FakeEmbeddingServer:
        return self.server.fake  # type: ignore[attr-defined, no-any-return]

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    def do_GET(self) -> None:
        self._handle(b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._handle(self.rfile.read(length) if length else b"")

    def _handle(self, raw: bytes) -> None:
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = None
        path = self.path.split("?", 1)[0]
        headers = {k.lower(): v for k, v in self.headers.items()}
        behaviour = self.fake._record(RecordedRequest(self.command, path, headers, body, raw))
        openai = path.startswith("/v1/")
        if path not in ("/api/embed", "/v1/embeddings") or self.command != "POST":
            self._send_json(404, self._error_body(openai, f"no route for {self.command} {path}"))
            return
        if not isinstance(body, dict) or "model" not in body or "input" not in body:
            self._send_json(400, self._error_body(openai, "body needs model and input"))
            return
        mode = behaviour.mode
        if mode == "hang_up":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if mode == "slow":
            if self.fake._wake.wait(behaviour.delay):
                return  # the server is stopping
        if mode == "status":
            extra = {}
            if behaviour.retry_after_ms is not None:
                extra["retry-after-ms"] = str(behaviour.retry_after_ms)
            message = "rate limit reached" if behaviour.status == 429 else "internal error"
            self._send_json(behaviour.status, self._error_body(openai, message), extra)
            return
        if mode == "garbage":
            self._send(200, b"\x00\xff<html>Bad Gateway</html>\x07", "application/json")
            return
        try:
            texts = _texts(body["input"])
        except ValueError as exc:
            self._send_json(400, self._error_body(openai, str(exc)))
            return
        model = str(body["model"])
        size = self.fake.dimensions.get(model, self.fake.default_dimensions)
        if mode == "wrong_dimension":
            size = behaviour.wrong_dimensions
        vectors = [fake_vector(model, text, size) for text in texts]
        if openai:
            payload = self._openai_payload(model, texts, vectors, body.get("encoding_format"))
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
        self._send(200, data, "application/json")

    @staticmethod
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

    @staticmethod
    def _error_body(openai: bool, message: str) -> dict[str, Any]:
        if openai:
            return {
                "error": {"message": message, "type": "server_error", "param": None, "code": None}
            }
        return {"error": message}

    def _send_json(self, status: int, payload: Any, extra: Mapping[str, str] = {}) -> None:
        self._send(status, json.dumps(payload).encode(), "application/json", extra)

    def _send(
        self, status: int, data: bytes, content_type: str, extra: Mapping[str, str] = {}
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in extra.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass  # the client gave up (timeout); nothing to tell it


@contextmanager
def down_url() -> Iterator[str]:
    """Yield ``http://127.0.0.1:PORT`` where nothing listens: connections are refused.

    The port stays bound (without listening) for the duration, so nothing else can
    take it and start answering.
    """
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        holder.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{holder.getsockname()[1]}"
    finally:
        holder.close()


@contextmanager
def fake_embedding_server(
    dimensions: Mapping[str, int] | None = None,
) -> Iterator[FakeEmbeddingServer]:
    """Run a :class:`FakeEmbeddingServer` for the duration of a ``with`` block."""
    with FakeEmbeddingServer(dimensions) as server:
        yield server
