"""The stream retry both chat clients share: only a stream that fails before its first part
is started again, and only when the error says it may be."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator

import pytest

from oic_ai.stores.chat_clients import aretried, retried


class Flaky:
    """A stream that fails ``early`` times before its first part, then yields 1, 2 (and
    fails after the 1 when ``late``)."""

    def __init__(self, early: int, *, late: bool = False) -> None:
        self.early = early
        self.late = late
        self.starts = 0

    def parts(self) -> Iterator[int]:
        self.starts += 1
        if self.starts <= self.early:
            raise ConnectionError(f"busy {self.starts}")
        yield 1
        if self.late:
            raise ConnectionError("cut off")
        yield 2

    async def aparts(self) -> AsyncIterator[int]:
        for part in self.parts():
            yield part


def both(flaky: Flaky, wait: Callable[[BaseException], float | None], times: int) -> list[int]:
    """What the sync and the async retry stream (they must agree), from fresh starts."""
    early, late = flaky.early, flaky.late
    got = list(retried(flaky.parts, wait, times))

    async def collect() -> list[int]:
        again = Flaky(early, late=late)
        return [part async for part in aretried(again.aparts, wait, times)]

    assert asyncio.run(collect()) == got
    return got


def test_a_failure_before_the_first_part_is_retried_after_the_wait() -> None:
    waited: list[str] = []

    def wait(exc: BaseException) -> float:
        waited.append(str(exc))
        return 0.0

    flaky = Flaky(2)
    assert both(flaky, wait, 2) == [1, 2]
    assert flaky.starts == 3
    assert waited == ["busy 1", "busy 2"] * 2  # the sync run, then the async one


@pytest.mark.parametrize(
    ("early", "late", "wait", "times", "error", "starts"),
    [
        pytest.param(2, False, 0.0, 1, "busy 2", 2, id="more failures than retries"),
        pytest.param(1, False, None, 3, "busy 1", 1, id="an error that is not retried"),
        pytest.param(0, True, 0.0, 3, "cut off", 1, id="a failure after the first part"),
    ],
)
def test_what_is_not_retried_goes_on(
    early: int, late: bool, wait: float | None, times: int, error: str, starts: int
) -> None:
    flaky = Flaky(early, late=late)
    with pytest.raises(ConnectionError, match=error):
        list(retried(flaky.parts, lambda exc: wait, times))
    again = Flaky(early, late=late)

    async def collect() -> list[int]:
        return [part async for part in aretried(again.aparts, lambda exc: wait, times)]

    with pytest.raises(ConnectionError, match=error):
        asyncio.run(collect())
    assert flaky.starts == again.starts == starts
