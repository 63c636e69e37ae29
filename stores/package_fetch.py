"""Fetching index files: ``urllib`` with conditional requests, retries and limits.

Conditional requests (ETag / Last-Modified), retries with exponential backoff on server
errors and dropped connections; a repository that cannot be read raises :class:`FetchError`.

Two limits keep a bad server from holding the sync hostage:

- ``timeout`` bounds each connect and each read; ``deadline`` bounds the whole download
  of one file, every retry included (default :data:`TRANSFER_FACTOR` x ``timeout``), so a
  server that drips a byte at a time (into the headers or the body) fails in bounded
  time: a watchdog shuts the connection when the deadline passes;
- the body is streamed to a temporary file and refused past ``max_bytes``.
"""

from __future__ import annotations

import http.client
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import IO

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.package_formats import DEFAULT_MAX_INDEX_BYTES, IndexTooLargeError

USER_AGENT = "oic-ai package sync"
TRANSFER_FACTOR = 10
"""One file's whole download (retries included) may take this many times ``--timeout``."""
_CHUNK = 1 << 16
_SPOOL = 1 << 20  # bodies up to this size stay in memory

Progress = Callable[[str, int, int | None], None]
"""``progress(label, bytes_done, bytes_total_or_None)``."""


# --- fetching ----------------------------------------------------------------------


class FetchError(UserInputError):
    """A repository that could not be read (after retries where they make sense)."""

    retryable: bool
    """Whether another attempt may succeed (a server error, a dropped connection)."""

    def __init__(
        self, url: str, reason: str, *, status: int | None = None, retryable: bool | None = None
    ) -> None:
        """Describe the failure in one line (a multi-line server reason is joined)."""
        self.url = url
        self.reason = " ".join(reason.split())
        self.status = status
        self.retryable = (
            status is None or status in _RETRY_STATUS if retryable is None else retryable
        )
        super().__init__(f"cannot fetch {url} ({self.reason})", fix="check the URL or the network")


class NotFoundError(FetchError):
    """The server answered 404/410: this file does not exist there."""


_RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class Fetched:
    """One HTTP answer: 200 with a body, or 304 (unchanged, empty body).

    The body is a temporary file (in memory while small) positioned at its start;
    :meth:`close` deletes it.
    """

    url: str
    status: int
    stream: IO[bytes] | None = None
    etag: str | None = None
    last_modified: str | None = None

    @property
    def body(self) -> bytes:
        """The whole body (for small files such as ``repomd.xml``)."""
        if self.stream is None:
            return b""
        self.stream.seek(0)
        data = self.stream.read()
        self.stream.seek(0)
        return data

    def close(self) -> None:
        """Delete the body's temporary file."""
        if self.stream is not None:
            self.stream.close()


@dataclass
class Fetcher:
    """Download with conditional requests and retries.

    Attributes:
        timeout: Seconds for each connect and each read.
        retries: Extra attempts after the first on retryable failures.
        backoff: First delay in seconds; it doubles each retry.
        progress: Called with (label, bytes so far, total or None) while reading.
        sleep: The delay function (tests pass a recorder).
        deadline: Seconds the whole download of one file may take, retries included;
            0 means ``TRANSFER_FACTOR * timeout``.
        max_bytes: The largest body accepted (and, for the parsers, the largest
            index after decompression).
    """

    timeout: float = 30.0
    retries: int = 3
    backoff: float = 0.5
    progress: Progress | None = None
    sleep: Callable[[float], None] = time.sleep
    attempts: list[str] = field(default_factory=list)
    deadline: float = 0.0
    max_bytes: int = DEFAULT_MAX_INDEX_BYTES

    @property
    def transfer_budget(self) -> float:
        """Seconds one file's download may take in all (see ``deadline``)."""
        return self.deadline if self.deadline > 0 else TRANSFER_FACTOR * self.timeout

    def fetch(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        label: str = "",
    ) -> Fetched:
        """GET ``url``; send If-None-Match / If-Modified-Since when given.

        Raises:
            NotFoundError: 404 or 410.
            FetchError: any other failure, after the retries, or when the whole
                download takes longer than :attr:`transfer_budget`.
            IndexTooLargeError: the body is larger than ``max_bytes``.
        """
        headers = {"User-Agent": USER_AGENT}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        delay = self.backoff
        ends = time.monotonic() + self.transfer_budget
        for attempt in range(self.retries + 1):
            self.attempts.append(url)
            try:
                return self._once(url, headers, label or url, ends)
            except NotFoundError:
                raise
            except FetchError as exc:
                if not exc.retryable or attempt == self.retries:
                    raise
                if time.monotonic() + delay >= ends:
                    raise self._overdue(url) from None
            self.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def _overdue(self, url: str) -> FetchError:
        return FetchError(
            url,
            f"the download of {url.rsplit('/', 1)[-1]} took longer than "
            f"{self.transfer_budget:g}s, the limit for one "
            f"file ({TRANSFER_FACTOR} x --timeout)",
            retryable=False,
        )

    def _once(self, url: str, headers: Mapping[str, str], label: str, ends: float) -> Fetched:
        with _Watchdog(ends - time.monotonic()) as watchdog:
            try:
                return self._read(url, headers, label, ends, watchdog)
            except FetchError:
                if watchdog.fired.is_set():
                    raise self._overdue(url) from None
                raise

    def _read(
        self,
        url: str,
        headers: Mapping[str, str],
        label: str,
        ends: float,
        watchdog: _Watchdog,
    ) -> Fetched:
        request = urllib.request.Request(url, headers=dict(headers))
        body: IO[bytes] | None = tempfile.SpooledTemporaryFile(max_size=_SPOOL)
        assert body is not None
        try:
            with watchdog.opener().open(request, timeout=self.timeout) as response:
                total_text = response.headers.get("Content-Length")
                total = int(total_text) if total_text and total_text.isdigit() else None
                if total is not None and total > self.max_bytes:
                    raise IndexTooLargeError.for_limit(url, self.max_bytes, "is")
                done = 0
                while True:
                    # read1: at most one read from the socket, so the deadline is checked
                    # between reads instead of after a full 64 KiB
                    chunk = response.read1(_CHUNK)
                    if not chunk:
                        break
                    done += len(chunk)
                    if done > self.max_bytes:
                        raise IndexTooLargeError.for_limit(url, self.max_bytes, "is")
                    body.write(chunk)
                    if self.progress is not None:
                        self.progress(label, done, total)
                    if time.monotonic() > ends:
                        raise self._overdue(url)
                if watchdog.fired.is_set():  # the end of the body may be the watchdog's doing
                    raise self._overdue(url)
                if total is not None and done < total:
                    raise FetchError(url, f"connection closed after {done} of {total} bytes")
                body.seek(0)
                fetched = Fetched(
                    url=url,
                    status=200,
                    stream=body,
                    etag=response.headers.get("ETag"),
                    last_modified=response.headers.get("Last-Modified"),
                )
                body = None  # handed over to the caller
                return fetched
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return Fetched(
                    url=url,
                    status=304,
                    etag=exc.headers.get("ETag") or headers.get("If-None-Match"),
                    last_modified=exc.headers.get("Last-Modified")
                    or headers.get("If-Modified-Since"),
                )
            if exc.code in (404, 410):
                raise NotFoundError(url, f"HTTP {exc.code}", status=exc.code) from None
            if 300 <= exc.code < 400:
                reason = f"HTTP {exc.code}: the redirects loop or go on for too long"
                raise FetchError(url, reason, status=exc.code) from None
            raise FetchError(url, f"HTTP {exc.code} {exc.reason}", status=exc.code) from None
        except urllib.error.URLError as exc:
            raise FetchError(url, _reason(exc.reason)) from None
        except (TimeoutError, ConnectionError, http.client.HTTPException, OSError) as exc:
            raise FetchError(url, _reason(exc)) from None
        finally:
            if body is not None:
                body.close()


class _Watchdog:
    """Shuts the connections of one attempt when the whole-transfer deadline passes.

    A blocked read then returns at once, however slowly the server drips its status
    line, headers or body.
    """

    def __init__(self, seconds: float) -> None:
        self.fired = threading.Event()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(seconds, 0.0), self._fire)
        self._timer.daemon = True

    def __enter__(self) -> _Watchdog:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def watch(self, sock: socket.socket | None) -> None:
        """Shut ``sock`` when the deadline passes (at once if it has passed)."""
        if sock is None:
            return
        with self._lock:
            self._sockets.append(sock)
            fired = self.fired.is_set()
        if fired:
            _shut(sock)

    def _fire(self) -> None:
        with self._lock:
            self.fired.set()
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)

    def opener(self) -> urllib.request.OpenerDirector:
        """A urllib opener (proxies and redirects as usual) whose sockets are watched."""
        watchdog = self

        class Connection(http.client.HTTPConnection):
            def connect(self) -> None:
                super().connect()
                watchdog.watch(self.sock)

        class SecureConnection(http.client.HTTPSConnection):
            def connect(self) -> None:
                super().connect()
                watchdog.watch(self.sock)

        class Handler(urllib.request.HTTPHandler):
            def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
                return self.do_open(Connection, req)

        class SecureHandler(urllib.request.HTTPSHandler):
            def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
                context = getattr(self, "_context", None)
                return self.do_open(SecureConnection, req, context=context)

        return urllib.request.build_opener(Handler, SecureHandler)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _reason(error: object) -> str:
    if isinstance(error, BaseException):
        text = getattr(error, "strerror", None) or str(error) or error.__class__.__name__
        return str(text)
    return str(error)
