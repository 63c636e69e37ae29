"""Disk sizes as the composer writes them: 512MiB, 8GiB, 4GB, "0"."""

from __future__ import annotations

import re

_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]i?B|[KMGT]|B)?\s*$")

# Binary units (KiB..TiB) and bare K/M/G/T count in 1024s; KB/MB/GB/TB in 1000s.
_FACTORS = {
    None: 1,
    "B": 1,
    "K": 1024,
    "KiB": 1024,
    "KB": 1000,
    "M": 1024**2,
    "MiB": 1024**2,
    "MB": 1000**2,
    "G": 1024**3,
    "GiB": 1024**3,
    "GB": 1000**3,
    "T": 1024**4,
    "TiB": 1024**4,
    "TB": 1000**4,
}


def parse_size(value: object) -> int | None:
    """Return the size in bytes, or None when ``value`` is not a size.

    Integers count as bytes. ``"0"`` parses to 0, which partition ``end`` uses to mean
    "the rest of the disk".
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if not isinstance(value, str):
        return None
    match = _SIZE.match(value)
    if match is None:
        return None
    number, unit = match.groups()
    return int(float(number) * _FACTORS[unit])


def format_size(size_bytes: int) -> str:
    """Format bytes in the largest binary unit that divides them exactly."""
    for unit in ("TiB", "GiB", "MiB", "KiB"):
        factor = _FACTORS[unit]
        if size_bytes and size_bytes % factor == 0:
            return f"{size_bytes // factor}{unit}"
    return f"{size_bytes}B"
