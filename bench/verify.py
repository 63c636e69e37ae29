"""How long ``oic-ai verify`` takes: reading a raw image and comparing it, and unpacking one.

Uses the 96 MiB image the verifier's tests make (tests/support/disk_images.py: ESP, /data
and root partitions, a Debian-like root file system) and prints p50/p95 of
``verify_image`` on the raw file (sfdisk + superblocks + debugfs + the comparison) and on
a gzip copy (unpacked sparse first), plus a fresh ``oic-ai verify`` process. A built
Debian image (4 GiB, 1 GiB of data) is measured by ``make e2e-build``.

Usage: python bench/verify.py [--runs N]
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, percentile

from oic_ai.services.build import verify_image
from tests.support.disk_images import TEMPLATE, built_image


def _times(runs: int, work: object) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        work()  # type: ignore[operator]
        out.append(time.perf_counter() - started)
    return out


def main() -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="oic-ai-bench-verify-") as folder:
        work = Path(folder)
        raw = built_image(work / "fixture-image-1.0.raw")
        packed = work / "fixture-image-1.0.raw.gz"
        with raw.open("rb") as source, gzip.open(packed, "wb", 6) as out:
            shutil.copyfileobj(source, out)
        template = work / "t.yml"
        template.write_text(TEMPLATE)
        rows = len(verify_image(raw, TEMPLATE).checks)
        plain = _times(args.runs, lambda: verify_image(raw, TEMPLATE))
        unpacked = _times(args.runs, lambda: verify_image(packed, TEMPLATE, scratch=work / "s"))
        command = [sys.executable, "-m", "oic_ai", "verify", str(raw), "--template", str(template)]
        fresh = _times(
            max(3, args.runs // 3),
            lambda: subprocess.run(command, cwd=ROOT, capture_output=True, check=False),
        )
    print(f"verify, 96 MiB image, {rows} rows ({args.runs} runs)")
    print(f"{'case':<40} {'p50 s':>8} {'p95 s':>8}")
    for name, values in (
        ("raw image, in process", plain),
        ("gzip image (unpack + verify), in process", unpacked),
        ("fresh `oic-ai verify` process, raw", fresh),
    ):
        print(f"{name:<40} {percentile(values, 50):>8.3f} {percentile(values, 95):>8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
