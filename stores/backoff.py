"""Waiting for a busy resource: pauses that double up to a cap, until a deadline.

The session stores retry a busy database, and the session locks wait for a turn to
finish; each makes a :class:`Backoff` and asks it whether time is up before each pause.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Backoff:
    """Pauses of ``first`` seconds, doubling up to ``most``, for ``seconds`` in all."""

    def __init__(self, seconds: float, *, first: float, most: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.pause = first
        self.most = most

    def expired(self) -> bool:
        """Whether the time to keep trying is over."""
        return time.monotonic() >= self.deadline

    def _next(self) -> float:
        pause, self.pause = self.pause, min(self.pause * 2, self.most)
        return pause

    def _check(self, give_up: Callable[[], Exception]) -> float:
        if self.expired():
            raise give_up() from None
        return self._next()

    def sleep(self, give_up: Callable[[], Exception]) -> None:
        """Wait the next pause, or raise ``give_up()`` when the time is over."""
        time.sleep(self._check(give_up))

    async def asleep(self, give_up: Callable[[], Exception]) -> None:
        """:meth:`sleep` without blocking the event loop."""
        await asyncio.sleep(self._check(give_up))
