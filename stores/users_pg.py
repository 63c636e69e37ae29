"""Users and token hashes in the sessions' PostgreSQL (``OIC_AI_DATABASE_URL``).

Every replica of a cluster, and ``oic-ai users`` on any host with the same URL, read and
write one table, ``oic_users`` (name, created, the SHA-256 of the token; never the token).
The token file of :mod:`oic_ai.stores.users` stays the embedded mode's store. The first
time a database's table is created, users of the token file (if it exists) are copied in,
so a server that moves its sessions to PostgreSQL does not open up to anyone.

:class:`PgTokenVerifier` reads the table at most once a second (:data:`REFRESH_SECONDS`),
so ``users remove`` on any host is refused by every replica within a second.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from pathlib import Path
from typing import Any

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.secrets import mask_url
from oic_ai.stores.session_store_pg import connect
from oic_ai.stores.users import NewUser, User, check_name, hash_token, new_token, read_users

REFRESH_SECONDS = 1.0
_CREATE = """
CREATE TABLE IF NOT EXISTS oic_users (
    name text PRIMARY KEY,
    created text NOT NULL,
    token_sha256 text NOT NULL
)
"""
_LOCK = "SELECT pg_advisory_xact_lock(7300, 1)"  # one creator of the table at a time


def _created(conn: Any) -> bool:
    row = conn.execute("SELECT to_regclass('oic_users') IS NOT NULL").fetchone()
    return bool(row and row[0])


def ensure_table(url: str, token_file: Path | None = None) -> None:
    """Create ``oic_users`` if needed, then copy the token file's users into it (once).

    Raises:
        UserInputError: the database refused us or the token file cannot be read.
        SessionsUnreachableError: the database cannot be reached.
    """
    with connect(url, application_name="oic-ai-users") as conn, conn.transaction():
        conn.execute(_LOCK)
        if _created(conn):
            return
        conn.execute(_CREATE)
        if token_file is None:
            return
        for name, entry in sorted(read_users(token_file).items()):
            conn.execute(
                "INSERT INTO oic_users (name, created, token_sha256) VALUES (%s, %s, %s)",
                (name, str(entry.get("created", "")), entry["token_sha256"]),
            )


class PgUserStore:
    """Add, list and remove users in ``oic_users`` (the same calls as ``UserStore``)."""

    def __init__(self, url: str, token_file: Path | None = None) -> None:
        """Use the database at ``url``; ``token_file`` is copied in when the table is new."""
        self.url = url
        self.token_file = token_file
        self.path = f"table oic_users of {mask_url(url)}"  # where the users are, for messages

    def list(self) -> list[User]:
        """Every user, by name; no tokens, no hashes."""
        ensure_table(self.url, self.token_file)
        with connect(self.url, application_name="oic-ai-users") as conn:
            rows = conn.execute("SELECT name, created FROM oic_users ORDER BY name").fetchall()
        return [User(str(row[0]), str(row[1])) for row in rows]

    def add(self, name: str) -> NewUser:
        """Create ``name`` with a new random token; only the token's hash is stored.

        Raises:
            UserInputError: the name is invalid or taken.
        """
        check_name(name)
        ensure_table(self.url, self.token_file)
        token = new_token()
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with connect(self.url, application_name="oic-ai-users") as conn:
            inserted = conn.execute(
                "INSERT INTO oic_users (name, created, token_sha256) VALUES (%s, %s, %s) "
                "ON CONFLICT (name) DO NOTHING RETURNING name",
                (name, created, hash_token(token)),
            ).fetchone()
        if inserted is None:
            raise UserInputError(
                f"user {name!r} already exists",
                fix=f"pick another name, or 'oic-ai users remove {name}' first",
            )
        return NewUser(name, created, token)

    def remove(self, name: str) -> None:
        """Delete ``name``; every replica refuses its token within a second.

        Raises:
            UserInputError: there is no such user.
        """
        ensure_table(self.url, self.token_file)
        with connect(self.url, application_name="oic-ai-users") as conn:
            gone = conn.execute(
                "DELETE FROM oic_users WHERE name = %s RETURNING name", (name,)
            ).fetchone()
        if gone is None:
            raise UserInputError(f"no user {name!r}", fix="see 'oic-ai users list'")


class PgTokenVerifier:
    """Who a bearer token belongs to, from ``oic_users`` (re-read at most once a second).

    Thread-safe. A database that cannot be read makes :meth:`has_users` raise, so the
    server refuses every request rather than falling open.
    """

    def __init__(self, url: str, token_file: Path | None = None) -> None:
        """Verify tokens against the users table of the database at ``url``."""
        self.url = url
        self.token_file = token_file
        self.path = f"table oic_users of {mask_url(url)}"
        self._lock = threading.Lock()
        self._read_at = -REFRESH_SECONDS
        self._hashes: list[tuple[str, bytes]] = []
        self._ready = False

    def _refresh(self) -> None:
        with self._lock:
            if time.monotonic() - self._read_at < REFRESH_SECONDS:
                return
            try:
                if not self._ready:
                    ensure_table(self.url, self.token_file)
                    self._ready = True
                with connect(self.url, application_name="oic-ai-users") as conn:
                    rows = conn.execute("SELECT name, token_sha256 FROM oic_users").fetchall()
            except Exception as exc:  # unreachable or refused: stay closed, say why
                self._read_at = -REFRESH_SECONDS
                raise UserInputError(
                    f"the users table cannot be read ({type(exc).__name__})",
                    fix="check OIC_AI_DATABASE_URL and that PostgreSQL is up",
                ) from None
            self._hashes = [(str(name), bytes.fromhex(str(digest))) for name, digest in rows]
            self._read_at = time.monotonic()

    def has_users(self) -> bool:
        """Whether any user exists (so every request needs a token)."""
        self._refresh()
        return bool(self._hashes)

    def user_for(self, token: str) -> str | None:
        """The name of the user holding ``token``, or None (every hash compared)."""
        self._refresh()
        digest = hashlib.sha256(token.encode("utf-8")).digest()
        found: str | None = None
        for name, stored in self._hashes:
            if hmac.compare_digest(digest, stored) and found is None:
                found = name
        return found
