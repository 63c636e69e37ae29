"""The users of a served API and the hashes of their tokens (``oic-ai users ...``).

The token file (``$OIC_AI_TOKENS_FILE``, by default ``<data dir>/users.json``) maps each
user name to when it was created and the SHA-256 of its token; the token itself is
shown once, by :meth:`UserStore.add`, and never stored::

    {"version": 1, "users": {"alice": {"created": "2026-...Z", "token_sha256": "9f86..."}}}

Why a plain SHA-256 is enough here: a token is 32 bytes from :mod:`secrets` (256 bits of
entropy), not a password a person chose, so there is nothing to guess and no dictionary to
try; a slow, salted hash (bcrypt, scrypt, argon2) guards low-entropy secrets and would only
add latency to every request. Hashes are compared with :func:`hmac.compare_digest`, and
every user's hash is compared on each lookup, so the time taken tells nothing about which
user (if any) matched.

The file is written atomically (a temporary file with mode 0600 in the same folder, flushed
and synced, then renamed over the old one), under an ``fcntl`` lock on a sidecar
``.lock`` file, so two ``users add`` at once never lose a user. Readers never lock: they
see the old file or the new one. :class:`TokenVerifier` re-reads the file when it changes
(its inode, size or mtime), so a user removed while a server runs is refused on the next
request.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from oic_ai.stores.errors import UserInputError

TOKENS_FILE_VARIABLE = "OIC_AI_TOKENS_FILE"
DEFAULT_FILE_NAME = "users.json"
FILE_MODE = 0o600
TOKEN_BYTES = 32
TOKEN_PREFIX = "oic_"
"""Tokens start with this, so a leaked one is easy to recognise (and to scan for)."""
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
NAME_RULE = "1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
FORMAT_VERSION = 1


def tokens_file(data_dir: Path, environ: Mapping[str, str] | None = None) -> Path:
    """The token file: ``$OIC_AI_TOKENS_FILE`` if set, else ``<data_dir>/users.json``."""
    env = os.environ if environ is None else environ
    override = env.get(TOKENS_FILE_VARIABLE, "").strip()
    return Path(override).expanduser() if override else Path(data_dir) / DEFAULT_FILE_NAME


def hash_token(token: str) -> str:
    """The hex SHA-256 of a token (adequate for 256-bit random tokens; see the module doc)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh token: :data:`TOKEN_PREFIX` and 32 random bytes from :mod:`secrets`, URL-safe."""
    return TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


def check_name(name: str) -> str:
    """Return ``name`` if it is a valid user name.

    Raises:
        UserInputError: it is not (exit 2), with the rule in the message.
    """
    if not NAME_PATTERN.fullmatch(name):
        shown = name if name.isprintable() and len(name) <= 80 else repr(name[:80])
        raise UserInputError(f"invalid user name {shown!r}", fix=f"use {NAME_RULE}")
    return name


@dataclass(frozen=True)
class User:
    """A user as ``users list`` shows it: never its token or hash."""

    name: str
    created: str

    def to_json(self) -> dict[str, str]:
        """``{"user", "created"}``."""
        return {"user": self.name, "created": self.created}


@dataclass(frozen=True)
class NewUser:
    """What ``users add`` returns: the user and its token, shown this once."""

    name: str
    created: str
    token: str

    def to_json(self) -> dict[str, str]:
        """``{"user", "token", "created"}``."""
        return {"user": self.name, "token": self.token, "created": self.created}


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _unreadable(path: Path, why: str) -> UserInputError:
    return UserInputError(
        f"the token file {path} is {why}",
        fix=f"repair it, or move it aside and add the users again (env {TOKENS_FILE_VARIABLE})",
    )


def read_users(path: Path) -> dict[str, dict[str, str]]:
    """The users in the token file (``{}`` when it does not exist).

    Raises:
        UserInputError: the file cannot be read or is not a token file.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise _unreadable(path, f"unreadable ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        document = json.loads(text)
    except ValueError:
        raise _unreadable(path, "not valid JSON") from None
    users = document.get("users") if isinstance(document, dict) else None
    if not isinstance(users, dict) or not all(
        isinstance(name, str)
        and isinstance(entry, dict)
        and isinstance(entry.get("token_sha256"), str)
        and isinstance(entry.get("created", ""), str)
        for name, entry in users.items()
    ):
        raise _unreadable(path, "not a token file (no 'users' mapping of name to token hash)")
    return users


class UserStore:
    """Add, list and remove users in one token file."""

    def __init__(self, path: Path) -> None:
        """Use the token file at ``path`` (it need not exist yet)."""
        self.path = Path(path)

    def list(self) -> list[User]:
        """Every user, by name; no tokens, no hashes."""
        users = read_users(self.path)
        return [User(name, str(users[name].get("created", ""))) for name in sorted(users)]

    def add(self, name: str) -> NewUser:
        """Create ``name`` with a new random token; only the token's hash is stored.

        Raises:
            UserInputError: the name is invalid, taken, or the file cannot be written.
        """
        check_name(name)
        with self._locked():
            users = read_users(self.path)
            if name in users:
                raise UserInputError(
                    f"user {name!r} already exists",
                    fix=f"pick another name, or 'oic-ai users remove {name}' first",
                )
            token = new_token()
            created = _now()
            users[name] = {"created": created, "token_sha256": hash_token(token)}
            self._write(users)
        return NewUser(name, created, token)

    def remove(self, name: str) -> None:
        """Delete ``name``; its token stops working at once.

        Raises:
            UserInputError: there is no such user, or the file cannot be written.
        """
        with self._locked():
            users = read_users(self.path)
            if name not in users:
                known = ", ".join(sorted(users)) or "none"
                raise UserInputError(
                    f"no user {name!r}", fix=f"see 'oic-ai users list' (users: {known})"
                )
            del users[name]
            self._write(users)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold an exclusive lock on ``<file>.lock`` (created with mode 0600)."""
        lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        except OSError as exc:
            raise UserInputError(
                f"cannot write the token file {self.path} ({exc.strerror or exc})",
                fix=f"check the folder, or set {TOKENS_FILE_VARIABLE}",
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _write(self, users: dict[str, dict[str, str]]) -> None:
        """Replace the file atomically with ``users``, mode 0600."""
        document = {"version": FORMAT_VERSION, "users": users}
        text = json.dumps(document, indent=2, sort_keys=True) + "\n"
        folder = self.path.parent
        tmp: str | None = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                os.fchmod(handle.fileno(), FILE_MODE)  # mkstemp makes 0600; keep it explicit
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
            tmp = None
            _sync_folder(folder)
        except OSError as exc:
            raise UserInputError(
                f"cannot write the token file {self.path} ({exc.strerror or exc})",
                fix=f"check the folder, or set {TOKENS_FILE_VARIABLE}",
            ) from None
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def _sync_folder(folder: Path) -> None:
    """Sync a folder so a rename in it survives a crash (best effort)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class TokenVerifier:
    """Who a bearer token belongs to, from a token file re-read whenever it changes.

    Thread-safe. A missing file means "no users". A file that cannot be read or parsed
    makes :meth:`has_users` raise (a server then refuses every request rather than
    falling open).
    """

    def __init__(self, path: Path) -> None:
        """Verify tokens against the token file at ``path``."""
        self.path = Path(path)
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int, int] | None = None
        self._loaded = False
        self._hashes: list[tuple[str, bytes]] = []
        self._error: UserInputError | None = None

    def _stamp_now(self) -> tuple[int, int, int, int] | None:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        except OSError:
            return (-1, -1, -1, -1)  # unreadable: load() reports it
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)

    def _refresh(self) -> None:
        stamp = self._stamp_now()
        with self._lock:
            if self._loaded and stamp == self._stamp:
                return
            self._stamp, self._loaded = stamp, True
            try:
                users = read_users(self.path) if stamp is not None else {}
            except UserInputError as exc:
                self._hashes, self._error = [], exc
                return
            self._error = None
            self._hashes = [
                (name, bytes.fromhex(entry["token_sha256"]))
                for name, entry in sorted(users.items())
                if _is_hex(entry["token_sha256"])
            ]

    def has_users(self) -> bool:
        """Whether any user exists (so every request needs a token).

        Raises:
            UserInputError: the token file exists but cannot be read or parsed.
        """
        self._refresh()
        if self._error is not None:
            raise self._error
        return bool(self._hashes)

    def user_for(self, token: str) -> str | None:
        """The name of the user holding ``token``, or None.

        Raises:
            UserInputError: the token file exists but cannot be read or parsed.
        """
        self._refresh()
        if self._error is not None:
            raise self._error
        digest = hashlib.sha256(token.encode("utf-8")).digest()
        found: str | None = None
        for name, stored in self._hashes:  # every hash compared: no early exit
            if hmac.compare_digest(digest, stored) and found is None:
                found = name
        return found


_SHA256_HEX = re.compile(r"[0-9a-f]{64}")


def _is_hex(text: Any) -> bool:
    return isinstance(text, str) and _SHA256_HEX.fullmatch(text) is not None
