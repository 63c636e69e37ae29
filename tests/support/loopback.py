"""A threaded HTTP server on a free loopback port: what every fake backend builds on.

A subclass names its request handler (a :class:`LoopbackHandler`) and is used as a
context manager. Requests can be recorded as :class:`RecordedRequest`. :func:`down_url`
and :func:`unused_url` give addresses where nothing answers. :class:`StaticServer`
serves a folder (a package mirror) and :func:`serve_folder` runs a folder server for a
fixture.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar, Self


@dataclass(frozen=True)
class RecordedRequest:
    """One request as a fake server received it."""

    method: str
    path: str  # without the query string
    headers: dict[str, str]  # names lower-cased
    body: Any  # the parsed JSON body, or None when it was not JSON
    raw: bytes


class LoopbackHandler(BaseHTTPRequestHandler):
    """A quiet handler (one request per connection) that reaches its :class:`LoopbackServer`."""

    protocol_version = "HTTP/1.0"  # one request per connection: simple and predictable

    @property
    def owner(self) -> Any:
        """The :class:`LoopbackServer` this handler answers for."""
        return self.server.owner  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    def read_request(self) -> RecordedRequest:
        """Read this request's body; the JSON in it is parsed when there is any."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        return RecordedRequest(self.command, self.path.split("?", 1)[0], headers, body, raw)

    def send_bytes(
        self, status: int, data: bytes, content_type: str, extra: Mapping[str, str] = {}
    ) -> None:
        """Answer with ``data``; a client that gave up already is not an error."""
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in extra.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass


class LoopbackServer:
    """A ``ThreadingHTTPServer`` on ``127.0.0.1`` and a free port, served from a thread."""

    handler: ClassVar[type[LoopbackHandler]] = LoopbackHandler

    def __init__(self) -> None:
        self.stopping = threading.Event()  # set on stop: wakes handlers that stall on purpose
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        """Bind a free port and serve in a daemon thread."""
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), self.handler)
        httpd.daemon_threads = True
        httpd.owner = self  # type: ignore[attr-defined]
        httpd.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
        self.stopping.clear()
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Release stalled handlers, stop serving and close the socket."""
        self.stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        """The port it listens on."""
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def host_port(self) -> str:
        """``127.0.0.1:PORT``, the way people write ``OLLAMA_HOST``."""
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The base URL (Ollama style)."""
        return f"http://{self.host_port}"

    @property
    def openai_url(self) -> str:
        """The base URL for OpenAI clients (with ``/v1``)."""
        return f"{self.url}/v1"


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


def unused_url() -> str:
    """``http://127.0.0.1:PORT`` of a port that was free a moment ago (nothing listens)."""
    with down_url() as url:
        return url


class _Static(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        server: StaticServer = self.owner
        path = self.path.split("?")[0]
        server.log.append(path)
        file = server.root / path.lstrip("/")
        if not file.is_file():
            self.send_bytes(404, b"not found", "text/plain")
            return
        self.send_bytes(200, file.read_bytes(), "application/octet-stream")


class StaticServer(LoopbackServer):
    """Serves files under ``root`` and logs every path asked for."""

    handler = _Static

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self.log: list[str] = []


def serve_folder[Served: LoopbackServer](
    server: Callable[[Path], Served], tmp_path: Path
) -> Iterator[Served]:
    """A fixture's body: ``server`` serving a new folder ``tmp_path/www`` while the test runs."""
    root = tmp_path / "www"
    root.mkdir()
    with server(root) as running:
        yield running
