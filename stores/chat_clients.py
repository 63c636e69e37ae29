"""LangChain's own chat clients, with the few wire rules they lack (imported when chosen).

- :class:`RuledChatOpenAI` sends exactly one of ``max_tokens`` and
  ``max_completion_tokens`` and nothing its server refused before; when a 400 refuses a
  parameter it can do without, it sends the request once more without it and remembers
  that for the server and model (:mod:`oic_ai.stores.chat_params`).
- :class:`RetryingChatOllama` retries a request once when Ollama answers 503 ("server
  busy", its queue is full) or 429, after the ``Retry-After`` the answer names (1 s when it
  names none), as the OpenAI client does for its own server.

Everything else is the stock ``ChatOpenAI`` and ``ChatOllama``: the same payloads, the same
streaming, the same errors.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from langchain_ollama import ChatOllama
from langchain_openai import ChatOpenAI
from pydantic import Field

from oic_ai.stores.chat_params import (
    ADJUSTABLE,
    MAX_COMPLETION_TOKENS,
    MAX_TOKENS,
    ParamMemory,
    adjust_payload,
    refused_parameter,
)

BUSY = (429, 503)
DEFAULT_BUSY_WAIT_S = 1.0
MAX_BUSY_WAIT_S = 60.0  # a longer Retry-After is not worth waiting for inside one turn


class RuledChatOpenAI(ChatOpenAI):
    """``ChatOpenAI`` that follows its server's rules for request parameters.

    Attributes:
        token_field: ``max_tokens`` or ``max_completion_tokens``: the one that is sent.
        refused: Parameters never sent (refused by this server and model before).
        server: The server refusals are remembered for.
        memory_file: Where refusals are remembered (None: nowhere).
        learned: What was learned from this client's 400s, in words.
    """

    token_field: str = MAX_TOKENS
    refused: list[str] = Field(default_factory=list)
    server: str = ""
    memory_file: str | None = None
    learned: list[str] = Field(default_factory=list)

    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        adjust_payload(payload, self.token_field, frozenset(self.refused))
        return payload

    def _learn(self, exc: BaseException) -> bool:
        """Take in a 400 that refuses a parameter; True when a new request may succeed."""
        param = refused_parameter(exc)
        if param is None:
            return False
        if param in (MAX_TOKENS, MAX_COMPLETION_TOKENS):
            if param != self.token_field:
                return False
            other = MAX_TOKENS if param == MAX_COMPLETION_TOKENS else MAX_COMPLETION_TOKENS
            if other in self.refused:
                return False
            self.token_field = other
            done = f"sent {other} instead"
        else:
            if param in self.refused or param not in ADJUSTABLE:
                return False
            self.refused.append(param)
            done = "sent the request again without it"
        path = Path(self.memory_file) if self.memory_file else None
        ParamMemory(path).remember(self.server, self.model_name, param)
        self.learned.append(
            f"the server refused {param} for model {self.model_name} (HTTP 400); {done}, "
            "remembered for this server and model"
        )
        return True

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
        for _ in range(len(ADJUSTABLE)):
            try:
                return super()._generate(messages, stop=stop, run_manager=run_manager, **kw)
            except Exception as exc:  # only a 400 refusing a parameter is retried
                if not self._learn(exc):
                    raise
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kw)

    async def _agenerate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> Any:
        for _ in range(len(ADJUSTABLE)):
            try:
                return await super()._agenerate(messages, stop=stop, run_manager=run_manager, **kw)
            except Exception as exc:  # only a 400 refusing a parameter is retried
                if not self._learn(exc):
                    raise
        return await super()._agenerate(messages, stop=stop, run_manager=run_manager, **kw)

    def _learned(self, exc: BaseException) -> float | None:
        """0 (retry at once) when :meth:`_learn` takes in ``exc``; None: do not retry."""
        return 0.0 if self._learn(exc) else None

    def _stream(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        stream = partial(super()._stream, *args, **kwargs)
        return retried(stream, self._learned, len(ADJUSTABLE))

    def _astream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        stream = partial(super()._astream, *args, **kwargs)
        return aretried(stream, self._learned, len(ADJUSTABLE))


class _Attempt:
    """One start of a stream, as a ``with`` block; the retry rule of both kinds of stream.

    A failure before the stream's first part that ``wait`` gives seconds for is swallowed,
    and :attr:`seconds` is then the wait before the next start; any other failure goes on.
    """

    def __init__(self, wait: Callable[[BaseException], float | None]) -> None:
        self._wait = wait
        self.started = False
        self.seconds = 0.0

    def __enter__(self) -> _Attempt:
        return self

    def __exit__(self, kind: object, exc: BaseException | None, trace: object) -> bool:
        if not isinstance(exc, Exception) or self.started:
            return False
        seconds = self._wait(exc)
        if seconds is None:
            return False
        self.seconds = seconds
        return True


def retried[T](
    stream: Callable[[], Iterator[T]], wait: Callable[[BaseException], float | None], times: int
) -> Iterator[T]:
    """Yield what ``stream()`` yields; start it again when it fails before its first part.

    ``wait(exc)`` gives the seconds to wait before starting again (None: the error goes on);
    ``times`` retries at the most.
    """
    for _ in range(times):
        with _Attempt(wait) as attempt:
            for part in stream():
                attempt.started = True
                yield part
            return
        time.sleep(attempt.seconds)
    yield from stream()


async def aretried[T](
    stream: Callable[[], AsyncIterator[T]],
    wait: Callable[[BaseException], float | None],
    times: int,
) -> AsyncIterator[T]:
    """:func:`retried` for an async stream."""
    for _ in range(times):
        with _Attempt(wait) as attempt:
            async for part in stream():
                attempt.started = True
                yield part
            return
        await asyncio.sleep(attempt.seconds)
    async for part in stream():
        yield part


def busy_wait(exc: BaseException) -> float | None:
    """Seconds to wait before retrying a busy (429/503) Ollama answer; None: do not retry."""
    if getattr(exc, "status_code", None) not in BUSY:
        return None
    response = getattr(exc.__context__, "response", None)  # the httpx error under ollama's
    headers: Mapping[str, str] = getattr(response, "headers", None) or {}
    wait = _retry_after(headers.get("retry-after"))
    if wait is None:
        return DEFAULT_BUSY_WAIT_S
    return max(0.0, wait) if wait <= MAX_BUSY_WAIT_S else None


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return when.timestamp() - time.time()


class RetryingChatOllama(ChatOllama):
    """``ChatOllama`` that retries once when the server is busy (503) or rate-limits (429).

    Attributes:
        retried: What was retried, in words.
    """

    retried: list[str] = Field(default_factory=list)

    def _busy(self, exc: BaseException) -> float | None:
        wait = busy_wait(exc)
        if wait is not None:
            status = getattr(exc, "status_code", "?")
            self.retried.append(
                f"Ollama answered HTTP {status} ({str(getattr(exc, 'error', exc))[:80]}); "
                f"retried once after {wait:g} s"
            )
        return wait

    def _create_chat_stream(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        return retried(partial(super()._create_chat_stream, *args, **kwargs), self._busy, 1)

    def _acreate_chat_stream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        return aretried(partial(super()._acreate_chat_stream, *args, **kwargs), self._busy, 1)
