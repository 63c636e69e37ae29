"""Validator figures: per-template validation time and `oic-ai validate` start-up."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from _common import ROOT

if __name__ == "__main__":
    from oic_ai.tools.validate_template import validate_text

    texts = [p.read_text() for p in sorted((ROOT / "image-templates").glob("*.yml"))]
    validate_text(texts[0])
    timings = []
    for _ in range(10):
        for text in texts:
            t = time.perf_counter()
            validate_text(text)
            timings.append((time.perf_counter() - t) * 1000)
    timings.sort()
    runs = []
    for _ in range(7):
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "oic_ai", "validate", "image-templates"],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
        runs.append(time.perf_counter() - t)
    print("| figure | value |\n|---|---|")
    print(f"| validate one template, p50 | {timings[len(timings) // 2]:.2f} ms |")
    print(f"| validate one template, p95 | {timings[int(len(timings) * 0.95)]:.2f} ms |")
    print(
        f"| `oic-ai validate image-templates/` (41 files), fresh process median "
        f"| {statistics.median(runs):.2f} s |"
    )
