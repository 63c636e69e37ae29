"""Fetching index files: ``urllib`` with conditional requests and retries.

Conditional requests (ETag / Last-Modified), retries with exponential backoff on server
errors and dropped connections; a repository that cannot be read raises :class:`FetchError`.
"""

from __future__ import annotations

import http.client
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from oic_ai.stores.errors import UserInputError

USER_AGENT = "oic-ai package sync"

Progress = Callable[[str, int, int | None], None]
"""``progress(label, bytes_done, bytes_total_or_None)``."""


# --- fetching ----------------------------------------------------------------------


class FetchError(UserInputError):
    """A repository that could not be read (after retries where they make sense)."""

    def __init__(self, url: str, reason: str, *, status: int | None = None) -> None:
        self.url = url
        self.reason = reason
        self.status = status
        super().__init__(f"cannot fetch {url} ({reason})", fix="check the URL or the network")


class NotFoundError(FetchError):
    """The server answered 404/410: this file does not exist there."""


@dataclass(frozen=True)
class Fetched:
    """One HTTP answer: 200 with a body, or 304 (unchanged, empty body)."""

    url: str
    status: int
    body: bytes = b""
    etag: str | None = None
    last_modified: str | None = None


_RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass
class Fetcher:
    """Download with conditional requests and retries.

    Attributes:
        timeout: Seconds per attempt.
        retries: Extra attempts after the first on retryable failures.
        backoff: First delay in seconds; it doubles each retry.
        progress: Called with (label, bytes so far, total or None) while reading.
        sleep: The delay function (tests pass a recorder).
    """

    timeout: float = 30.0
    retries: int = 3
    backoff: float = 0.5
    progress: Progress | None = None
    sleep: Callable[[float], None] = time.sleep
    attempts: list[str] = field(default_factory=list)

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
            FetchError: any other failure, after the retries.
        """
        headers = {"User-Agent": USER_AGENT}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        delay = self.backoff
        for attempt in range(self.retries + 1):
            self.attempts.append(url)
            try:
                return self._once(url, headers, label or url)
            except NotFoundError:
                raise
            except FetchError as exc:
                retryable = exc.status is None or exc.status in _RETRY_STATUS
                if not retryable or attempt == self.retries:
                    raise
            self.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def _once(self, url: str, headers: Mapping[str, str], label: str) -> Fetched:
        request = urllib.request.Request(url, headers=dict(headers))
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                total_text = response.headers.get("Content-Length")
                total = int(total_text) if total_text and total_text.isdigit() else None
                chunks: list[bytes] = []
                done = 0
                while True:
                    chunk = response.read(1 << 16)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    done += len(chunk)
                    if self.progress is not None:
                        self.progress(label, done, total)
                if total is not None and done < total:
                    raise FetchError(url, f"connection closed after {done} of {total} bytes")
                return Fetched(
                    url=url,
                    status=200,
                    body=b"".join(chunks),
                    etag=response.headers.get("ETag"),
                    last_modified=response.headers.get("Last-Modified"),
                )
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
            raise FetchError(url, f"HTTP {exc.code} {exc.reason}", status=exc.code) from None
        except urllib.error.URLError as exc:
            raise FetchError(url, _reason(exc.reason)) from None
        except (TimeoutError, ConnectionError, http.client.HTTPException, OSError) as exc:
            raise FetchError(url, _reason(exc)) from None


def _reason(error: object) -> str:
    if isinstance(error, BaseException):
        text = getattr(error, "strerror", None) or str(error) or error.__class__.__name__
        return str(text)
    return str(error)
