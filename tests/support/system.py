"""System programs the heavier tests need (Debian packages), and what to do without them.

``make test`` installs them when it can (``make system-deps``: root and ``apt-get``).
Where a program is still missing, its tests are skipped with one line naming the
package, except under CI (``CI=true``), where a missing program is a failure: CI must
prove the browser, PostgreSQL and signing paths, not skip them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# program -> the Debian package that provides it
PACKAGES = {
    "chromium": "chromium",
    "chromedriver": "chromium-driver",
    "initdb": "postgresql",
    "pg_ctl": "postgresql",
    "postgres": "postgresql",
    "gpgv": "gpgv",
    "gpg": "gnupg",
    "tmux": "tmux",
    # the image verifier's tests make small disk images without root
    "sfdisk": "fdisk",
    "mkfs.ext4": "e2fsprogs",
    "debugfs": "e2fsprogs",
    "mkfs.fat": "dosfstools",
    "mkswap": "util-linux",
    "redis-server": "redis-server",
    "haproxy": "haproxy",
}


def postgres_bin_dir() -> Path | None:
    """The folder with Debian's PostgreSQL server programs (``/usr/lib/postgresql/N/bin``)."""
    root = Path("/usr/lib/postgresql")
    versions = sorted(
        (p for p in root.glob("*/bin") if (p / "initdb").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    return versions[-1] if versions else None


def find_program(name: str) -> Path | None:
    """Where ``name`` is: on PATH, in /usr/bin, or in PostgreSQL's own bin folder."""
    if name in {"initdb", "pg_ctl", "postgres"}:
        folder = postgres_bin_dir()
        return folder / name if folder else None
    found = shutil.which(name)
    if found:
        return Path(found)
    # system programs live in sbin, which a user's PATH may leave out
    for folder in ("/usr/bin", "/usr/sbin", "/sbin"):
        usual = Path(folder) / name
        if usual.exists():
            return usual
    return None


def require_program(name: str) -> Path:
    """The program's path; skip the test (fail under ``CI=true``) when it is missing."""
    path = find_program(name)
    if path is not None:
        return path
    package = PACKAGES.get(name, name)
    message = f"{name} is missing: install Debian's {package} package (make system-deps, as root)"
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(f"{message}; under CI a missing program is a failure, not a skip")
    pytest.skip(message)
