"""Where sessions live: a PostgreSQL URL checked, its password masked, its store opened.

``OIC_AI_DATABASE_URL`` (``ai.sessions.url``) chooses PostgreSQL; these helpers check the
URL (exit 2 when malformed) and keep its password out of every message. Which store
opens is :mod:`oic_ai.stores.session_factory`'s choice.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.secrets import mask_url, url_secrets

POSTGRES_SCHEMES = ("postgresql", "postgres")
DATABASE_URL_FIX = "write it as postgresql://USER@HOST:PORT/DATABASE, or unset OIC_AI_DATABASE_URL"


class SessionsUnreachableError(UserInputError):
    """The sessions database (a PostgreSQL server) cannot be reached; retryable: exit 3."""

    exit_code = 3


def database_password(url: str) -> str | None:
    """The password a database URL holds (user part or ``password=`` query), if any."""
    found = url_secrets(url)
    return found[0] if found else None


def mask_in(text: str, url: str | None) -> str:
    """``text`` with the password of ``url`` masked wherever it appears (any length)."""
    password = database_password(url) if url else None
    if password:
        text = text.replace(password, "***")
    return text


def check_database_url(url: str) -> str:
    """Return ``url`` if it is a usable ``postgresql://`` URL.

    Raises:
        UserInputError: the URL is malformed or names another kind of database (exit 2).
    """
    shown = mask_url(url)
    try:
        parts = urlsplit(url.strip())
        port = parts.port  # raises ValueError for a bad port
    except ValueError as exc:
        raise UserInputError(
            f"the sessions database URL {shown} is malformed ({exc})", fix=DATABASE_URL_FIX
        ) from None
    if parts.scheme.lower() not in POSTGRES_SCHEMES:
        raise UserInputError(
            f"the sessions database URL {shown} is not a PostgreSQL URL "
            f"(scheme {parts.scheme or 'missing'!r})",
            fix=DATABASE_URL_FIX,
        )
    if not parts.path.strip("/"):
        raise UserInputError(
            f"the sessions database URL {shown} names no database", fix=DATABASE_URL_FIX
        )
    del port
    return url.strip()


def missing_postgres_extra(exc: ImportError) -> UserInputError:
    """The one-line error for a PostgreSQL URL without psycopg / the checkpointer."""
    return UserInputError(
        f"sessions in PostgreSQL need the postgres extra ({exc.name or exc} is not installed)",
        fix="install it with: pip install 'oic-ai[postgres]', or unset OIC_AI_DATABASE_URL",
    )
