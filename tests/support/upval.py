"""The composer's own template loader (``upval``), built by ``make upval`` from its source.

``../shared/tools/upstream-validate/build.sh`` builds it offline into the user's cache
(``${XDG_CACHE_HOME:-~/.cache}/oic-upval``); ``make test`` builds it when it is missing and
passes its path in ``OIC_UPVAL``. Tests that need it skip with one line without it, and
fail under ``CI=true`` (:func:`tests.support.system.require`).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

BUILD = Path(__file__).resolve().parents[3] / "shared" / "tools" / "upstream-validate" / "build.sh"


def upval_path() -> Path | None:
    """``upval.sh`` when it is built: ``$OIC_UPVAL``, else the default cache folder."""
    named = os.environ.get("OIC_UPVAL")
    candidates = [Path(named)] if named else []
    candidates.append(Path.home() / ".cache" / "oic-upval" / "upval.sh")
    return next((path for path in candidates if path.is_file()), None)


@dataclass(frozen=True)
class Verdict:
    """What the composer's loader says of one file."""

    file: str
    user_ok: bool
    merged_ok: bool
    defaults_loaded: bool
    error: str
    target: str

    @property
    def buildable(self) -> bool:
        """Accepted by ``validate`` and ``validate --merged``, with OS defaults present."""
        return self.user_ok and self.merged_ok and self.defaults_loaded


def judge(upval: Path, files: list[Path]) -> dict[Path, Verdict]:
    """The loader's verdict on each of ``files`` (one process for all of them)."""
    if not files:
        return {}
    files = [f.resolve() for f in files]
    done = subprocess.run(
        [str(upval), *map(str, files)], capture_output=True, text=True, check=False, timeout=900
    )
    verdicts: dict[Path, Verdict] = {}
    for line in done.stdout.splitlines():
        data = json.loads(line)
        errors = [data.get(k) for k in ("user_error", "merged_error", "defaults_error")]
        verdicts[Path(data["file"])] = Verdict(
            file=data["file"],
            user_ok=bool(data.get("user_ok")),
            merged_ok=bool(data.get("merged_ok")),
            defaults_loaded=bool(data.get("defaults_loaded")),
            error="; ".join(str(e) for e in errors if e),
            target=str(data.get("target") or ""),
        )
    missing = [f for f in files if f not in verdicts]
    if missing:
        raise RuntimeError(f"upval gave no verdict for {missing[:3]}: {done.stderr[-500:]}")
    return verdicts


def require_upval() -> Path:
    """``upval.sh``; skip the test (fail under ``CI=true``) when it is not built."""
    import pytest

    path = upval_path()
    if path is not None:
        return path
    message = "upval (the composer's loader) is not built: run `make upval`"
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(f"{message}; under CI a missing program is a failure, not a skip")
    pytest.skip(message)
