"""Masking configured secrets (API keys, tokens) in every message and in stored text.

A server may echo a key back: an embedding server in an error body, a chat server in a
reply. Every error message (:class:`~oic_ai.stores.errors.UserInputError`) and every
piece of model text that enters a turn's state passes through :func:`mask_secrets`, so a
key never reaches a terminal, ``--json`` or the sessions database.

The secrets are the values of the environment variables that hold keys or tokens
(``OPENAI_API_KEY``, ``OIC_AI_TOKEN``, any ``*_API_KEY``, ``*_TOKEN``, ``*_SECRET``,
``*_PASSWORD``) and every key given to :class:`~oic_ai.stores.settings.Settings`
(registered with :func:`register_secret`), including the password of every URL it holds.
Values shorter than :data:`MIN_SECRET_LENGTH` are not masked on their own: replacing every
"abc" in a message would hide more than it protects.

Passwords inside URLs (``http://user:PASS@host``, ``?password=``, ``?token=``, ...) are
masked in any text, whatever their length (:func:`mask_urls`); :func:`mask_url` shows one
URL that way. This module is the one home of both: config show, notices, error lines and
the log all go through it.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

MASK = "***"
MIN_SECRET_LENGTH = 8
SECRET_VARIABLE = re.compile(r"(?:API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD)$", re.IGNORECASE)
"""Environment variable names whose values are secrets."""

_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^\s/@:]*):(?P<password>[^\s/@]*)@")
_SECRET_QUERY = re.compile(
    r"(?i)(?P<key>(?:^|[?&;\s])(?:password|passwd|pwd|token|access_token|api[_-]?key|apikey|"
    r"key|secret|client_secret|sig|signature)=)[^&#\s]*"
)
_SECRET_QUERY_KEYS = re.compile(
    r"(?i)^(?:password|passwd|pwd|token|access_token|api[_-]?key|apikey|key|secret|"
    r"client_secret|sig|signature)$"
)

_registered: set[str] = set()
_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """Remember ``value`` as a secret to mask from now on (None and short values are ignored)."""
    if value and len(value) >= MIN_SECRET_LENGTH:
        with _lock:
            _registered.add(value)


def configured_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """Every secret to mask, longest first (so a key containing another is masked whole)."""
    env = os.environ if environ is None else environ
    found = {
        value.strip()
        for name, value in env.items()
        if SECRET_VARIABLE.search(name) and len(value.strip()) >= MIN_SECRET_LENGTH
    }
    with _lock:
        found |= _registered
    return sorted(found, key=len, reverse=True)


def mask_urls(text: str) -> str:
    """``text`` with the password of every URL in it, and secret query values, as ``***``."""
    if not text or ("://" not in text and "=" not in text):
        return text
    text = _USERINFO.sub(lambda m: f"{m['head']}:{MASK}@", text)
    return _SECRET_QUERY.sub(lambda m: f"{m['key']}{MASK}", text)


def mask_url(url: str) -> str:
    """One URL as it may be shown: its password and secret query values as ``***``."""
    return mask_urls(str(url))


def url_secrets(url: str | None) -> list[str]:
    """The secrets a URL holds: its password and the values of secret query keys."""
    if not url:
        return []
    try:
        parts = urlsplit(str(url))
        found = [parts.password] if parts.password else []
    except ValueError:
        return []
    found += [value for key, value in parse_qsl(parts.query) if _SECRET_QUERY_KEYS.match(key)]
    return [v for secret in found if secret for v in dict.fromkeys((secret, unquote(secret)))]


def register_url(url: str | None) -> None:
    """Remember the secrets inside ``url`` (see :func:`url_secrets`)."""
    for secret in url_secrets(url):
        register_secret(secret)


def mask_secrets(text: str, extra: Iterable[str | None] = ()) -> str:
    """``text`` with every configured secret (and each of ``extra``) as ``***``.

    The password of every URL in it is masked too (:func:`mask_urls`), whatever its length.
    """
    if not text:
        return text
    secrets = configured_secrets()
    secrets.extend(s for s in extra if s and len(s) >= MIN_SECRET_LENGTH)
    for secret in sorted(set(secrets), key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, MASK)
    return mask_urls(text)


def mask_data(value: Any) -> Any:
    """``value`` with :func:`mask_secrets` applied to every string in it (dicts, lists)."""
    if isinstance(value, str):
        return mask_secrets(value)
    if isinstance(value, Mapping):
        return {mask_data(k): mask_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(mask_data(v) for v in value)
    return value
