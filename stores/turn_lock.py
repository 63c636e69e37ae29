"""The one turn lock every door takes, for the settings' sessions database.

SQLite: the data folder's per-session ``flock`` (:mod:`oic_ai.stores.session_lock`).
PostgreSQL: a transaction-level advisory lock keyed by the session
(:mod:`oic_ai.stores.session_lock_pg`, imported only then), which holds across hosts.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING

from oic_ai.stores.session_lock import asession_lock, session_lock, session_wait

if TYPE_CHECKING:
    from oic_ai.stores.settings import Settings


@contextmanager
def turn_lock(
    settings: Settings, session_id: str, *, timeout: float | None = None
) -> Iterator[None]:
    """The session's turn lock for the settings' sessions database (see the module doc).

    Raises:
        SessionBusyError: another turn held the session past the wait (exit 3).
    """
    wait = session_wait() if timeout is None else timeout
    if settings.database_url:
        from oic_ai.stores.session_lock_pg import pg_session_lock

        with pg_session_lock(settings.database_url, session_id, wait):
            yield
        return
    with session_lock(settings.data_dir, session_id, timeout=wait):
        yield


@asynccontextmanager
async def aturn_lock(
    settings: Settings, session_id: str, *, timeout: float | None = None
) -> AsyncIterator[None]:
    """:func:`turn_lock` for the server's event loop."""
    wait = session_wait() if timeout is None else timeout
    if settings.database_url:
        from oic_ai.stores.session_lock_pg import apg_session_lock

        async with apg_session_lock(settings.database_url, session_id, wait):
            yield
        return
    async with asession_lock(settings.data_dir, session_id, timeout=wait):
        yield
