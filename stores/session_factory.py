"""The one place that knows both session backends: SQLite, or PostgreSQL by URL.

:func:`open_session_store` picks the session index the settings choose, and
:func:`session_recorder` the one a turn records itself in. The PostgreSQL store
(``stores.session_store_pg``, which imports psycopg) is imported only when a URL asks
for it, so the SQLite path, and ``oic-ai sessions list``, never pay for psycopg. The
factory sits above both backends, so neither imports the other's module.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from oic_ai.stores.session_database import check_database_url, missing_postgres_extra
from oic_ai.stores.session_store import SessionIndex, SqliteSessionStore, sessions_db_path

if TYPE_CHECKING:
    from oic_ai.stores.settings import Settings


def store_for_url(url: str) -> SessionIndex:
    """A PostgreSQL session index on ``url`` (see ``stores.session_store_pg``).

    Raises:
        UserInputError: the URL is malformed, or the ``[postgres]`` extra is missing.
    """
    check_database_url(url)
    try:
        # lazy: psycopg costs start-up, and only a PostgreSQL URL needs it
        from oic_ai.stores.session_store_pg import PostgresSessionStore
    except ImportError as exc:
        raise missing_postgres_extra(exc) from None
    return PostgresSessionStore(url)


def open_session_store(settings: Settings) -> SessionIndex:
    """The session index the settings choose: PostgreSQL if ``database_url``, else SQLite.

    Nothing is opened (or created) until first use.

    Raises:
        UserInputError: PostgreSQL was chosen but the ``[postgres]`` extra is missing.
    """
    if settings.database_url:
        return store_for_url(settings.database_url)
    return SqliteSessionStore(sessions_db_path(settings.data_dir))


_recorders: dict[str, SessionIndex] = {}
_recorders_lock = threading.Lock()


@contextmanager
def session_recorder(settings: Settings) -> Iterator[SessionIndex]:
    """The store a turn records itself in (``respond``): the one the settings choose.

    SQLite is opened and closed around the write, as every store is. A PostgreSQL store
    is kept open for the life of the process, one per URL (a server records every turn
    of every thread through it; its lock serialises the short writes, and a lost
    connection is reopened), so a turn does not pay for a new connection.
    """
    if not settings.database_url:
        with SqliteSessionStore(sessions_db_path(settings.data_dir)) as store:
            yield store
        return
    url = settings.database_url
    with _recorders_lock:
        if url not in _recorders:
            _recorders[url] = store_for_url(url)
        shared = _recorders[url]
    yield shared
