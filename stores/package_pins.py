"""What a verified sync remembers about a repository, and checks at every later one.

apt does more than check a Release's signature. The same checks here:

- A Debian Release must be for the configured suite: its ``Suite`` or ``Codename`` names
  it (a validly signed ``sid`` Release served for ``bookworm`` is refused).
- ``Origin``, ``Label``, ``Suite`` and ``Codename`` are remembered; a change since the
  last sync is refused unless the user accepts it (``packages sync --accept-change``).
- ``Date`` never goes backwards: an older Release than the stored one is a replay.
- The signing key's fingerprint is pinned at the first verified sync; a Release or
  ``repomd.xml`` signed by another key later is refused, naming both fingerprints and
  the command that accepts the new one.

What is remembered lives with each source's index rows (``spec["trust"]``: ``release``
and ``signed_by``), so a refused sync changes nothing.
"""

from __future__ import annotations

import email.utils
from collections.abc import Mapping
from typing import Any

from oic_ai.stores.package_trust import TrustError

PINNED_FIELDS = ("Origin", "Label", "Suite", "Codename")
ACCEPT = "oic-ai packages sync --accept-change"


def release_fields(text: str) -> dict[str, str]:
    """The header fields apt pins (and ``Date``) of a Release's text, by name."""
    wanted = {name.lower(): name for name in (*PINNED_FIELDS, "Date")}
    found: dict[str, str] = {}
    for line in text.splitlines():
        if not line or line[0].isspace() or ":" not in line:
            continue
        key, _, value = line.partition(":")
        name = wanted.get(key.strip().lower())
        if name and name not in found:
            found[name] = value.strip()
    return found


def check_suite(fields: Mapping[str, str], suite: str, file: str) -> None:
    """Refuse a Release whose ``Suite`` and ``Codename`` both differ from ``suite``.

    Raises:
        TrustError: the Release is for another suite (or names none).
    """
    named = [fields[name] for name in ("Suite", "Codename") if fields.get(name)]
    if suite.strip("/") in named:
        return
    shown = " / ".join(
        f"{name}: {fields[name]}" for name in ("Suite", "Codename") if name in fields
    )
    raise TrustError(
        file,
        f"is a Release for {shown or 'no suite'}, not for the configured suite {suite}",
        fix="check the repository's suite (a mirror may serve another one in its place)",
    )


def _timestamp(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None


def check_pins(
    previous: Mapping[str, Any] | None,
    fields: Mapping[str, str],
    fingerprint: str,
    file: str,
    *,
    accept_change: bool = False,
) -> None:
    """Compare signed metadata with what the last verified sync of the source stored.

    Args:
        previous: The source's stored trust record (``spec["trust"]``), or None.
        fields: This Release's :func:`release_fields` (empty for ``repomd.xml``).
        fingerprint: The key that signed it now ("" when no signature was checked).
        file: The signed file, for messages.
        accept_change: ``--accept-change``: take the new values as the new pins.

    Raises:
        TrustError: another signing key, a changed Origin/Label/Suite/Codename, or an
            older Date than stored.
    """
    if not previous or accept_change:
        return
    pinned = str(previous.get("signed_by") or "")
    if pinned and fingerprint and pinned != fingerprint:
        raise TrustError(
            file,
            f"is signed by key {fingerprint}, but this repository's key was pinned to "
            f"{pinned} at its first verified sync",
            fix=f"if the repository changed its key on purpose, accept it: {ACCEPT}",
        )
    stored = previous.get("release")
    if not isinstance(stored, Mapping) or not fields:
        return
    changed = [
        f"{name} {stored.get(name)!r} -> {fields.get(name)!r}"
        for name in PINNED_FIELDS
        if (stored.get(name) or None) != (fields.get(name) or None)
    ]
    if changed:
        raise TrustError(
            file,
            f"changed since the last sync ({'; '.join(changed)})",
            fix=f"if the repository changed on purpose, accept it: {ACCEPT}",
        )
    before, now = _timestamp(stored.get("Date")), _timestamp(fields.get("Date"))
    if before is not None and now is not None and now < before:
        raise TrustError(
            file,
            f"is older (Date: {fields.get('Date')}) than the Release of the last sync "
            f"({stored.get('Date')}): a replayed Release",
            fix=f"use an up-to-date mirror (or, if you switched mirrors on purpose: {ACCEPT})",
        )
