"""What the two ``make vectors`` scripts share.

Importing it puts the project root on ``sys.path`` (the scripts run as
``python scripts/NAME.py``, before any install); it also holds their ``--check`` flag and
the atomic write both use.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def check_only(doc: str, stale: str) -> bool:
    """Parse the command line: whether ``--check`` (exit 1 when ``stale``) was given."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--check", action="store_true", help=f"exit 1 when {stale}")
    check: bool = parser.parse_args().check
    return check


def write_atomically(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file in the same folder."""
    temporary = target.with_name(f".{target.name}.tmp{os.getpid()}")
    temporary.write_bytes(data)
    os.replace(temporary, target)
