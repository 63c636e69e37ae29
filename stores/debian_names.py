"""The names of Debian's tools and services, shipped for offline planning.

``stores/data/debian-names.txt.gz`` (written by ``scripts/build_debian_names.py`` from a
Debian bookworm ``Packages`` index: names only, no libraries, headers, documentation or
ordinary English words) lets the planner tell a real deb-family package from a stray word
when no package index is synced: "smartmontools memtester lshw" is a list of packages,
"qzviewer" is not. A name found only here is still checked like any other (it is flagged
unverified until an index of the target's own repositories is synced).
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "debian-names.txt.gz"


@lru_cache(maxsize=1)
def debian_names() -> frozenset[str]:
    """Every name of the shipped list (read once; empty when the file is missing)."""
    try:
        text = gzip.decompress(DATA.read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError):
        return frozenset()
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))
