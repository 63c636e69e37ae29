"""Disk used by image builds: the composer's work folder, part by part, and oic-ai's builds.

Prints one table (MiB actually allocated, so sparse images count what they hold) for
``$OIC_COMPOSER_HOME`` (default ``~/.cache/oic-composer``: the composer's source build,
its package cache, chroot and workspace, and artifacts) and for
``$XDG_CACHE_HOME/oic-ai/builds`` (each build's log, report and serial log).

Usage: python bench/build_disk.py [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

PARTS = {
    "bin": "the built composer",
    "build": "its source, vendored",
    "debroot": "the Go toolchain and -dev debs, unpacked",
    "debs": "the downloaded debs for the build",
    "gocache": "Go's build cache",
    "apt": "the private trixie apt lists",
    "run/cache": "the composer's package cache (debs for images)",
    "run/workspace": "the composer's chroot and image workspace",
    "run/tmp": "the composer's temporary files",
    "artifacts": "images moved here by compose.sh",
    "raw": "images unpacked by inspect.sh/boot.sh",
    "logs": "script logs",
}


def allocated(path: Path) -> int:
    """Bytes allocated under ``path`` (blocks, not apparent size; no link followed)."""
    if not path.exists():
        return 0
    if path.is_file():
        return path.lstat().st_blocks * 512
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_blocks * 512
            except OSError:
                continue
    return total


def main() -> int:
    """Print the table (or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    home = Path(os.environ.get("OIC_COMPOSER_HOME") or Path.home() / ".cache" / "oic-composer")
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    builds = Path(cache) / "oic-ai" / "builds"
    rows = [(f"composer/{name}", what, allocated(home / name)) for name, what in PARTS.items()]
    rows.append(("oic-ai/builds", "build logs, reports, serial logs", allocated(builds)))
    total = sum(size for _, _, size in rows)
    free = shutil.disk_usage(home if home.exists() else Path.home()).free
    if args.json:
        print(json.dumps({"parts": {n: s for n, _, s in rows}, "total": total, "free": free}))
        return 0
    print(f"Disk used by image builds ({home}, {builds})")
    print(f"{'part':<24} {'MiB':>8}  what")
    for name, what, size in rows:
        print(f"{name:<24} {size / 2**20:>8.0f}  {what}")
    print(f"{'total':<24} {total / 2**20:>8.0f}")
    print(f"{'free on that disk':<24} {free / 2**20:>8.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
