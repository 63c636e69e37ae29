"""Generate figures: builtin-planner turns in-process (create and refine) and as a fresh process.

Usage: python bench/generate.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, peak_rss_mib, percentile

CREATE = [
    "a minimal Ubuntu 24.04 edge image for arm64 with docker and node monitoring",
    "azure linux 3 pxe network boot image",
    "debian trixie web server with nginx, 8GiB disk",
    "elxr industrial iot gateway for arm64 with a watchdog",
    "rhel 10 container host with podman",
    "emt real-time industrial image with secure boot",
    "ubuntu 24.04 kiosk desktop, hostname kiosk-01",
    "an installer iso for azure linux",
]
REFINE = [
    "add monitoring packages",
    "change disk size to 8GiB",
    "add a separate /data partition of 2GiB, ext4",
    "remove vim",
    "set the hostname to edge-07",
    "add a user ops with sudo in the docker group",
    "output qcow2 and zstd-compressed raw",
    "what packages are included?",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.environ["OIC_AI_PROVIDER"] = "builtin"
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.settings import load_settings

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        settings = load_settings(data_dir=data, provider="builtin")
        t = time.perf_counter()
        agent = TemplateAgent(settings)
        agent.generate(CREATE[0])  # indexes the library once
        first_s = time.perf_counter() - t
        create_ms: list[float] = []
        refine_ms: list[float] = []
        statuses: dict[str, int] = {}
        for _ in range(args.rounds):
            for request in CREATE:
                t = time.perf_counter()
                result = agent.generate(request)
                create_ms.append((time.perf_counter() - t) * 1000)
                statuses[str(result.status)] = statuses.get(str(result.status), 0) + 1
                for change in REFINE:
                    t = time.perf_counter()
                    refined = agent.generate(change, session=result.session)
                    refine_ms.append((time.perf_counter() - t) * 1000)
                    statuses[str(refined.status)] = statuses.get(str(refined.status), 0) + 1
        agent.close()
        env = {**os.environ, "OIC_AI_DATA_DIR": str(data)}
        fresh = []
        for request in CREATE[:5]:
            t = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "oic_ai", "generate", "--json", request],
                check=False,
                capture_output=True,
                env=env,
                cwd=ROOT,
            )
            fresh.append(time.perf_counter() - t)
    rss = peak_rss_mib()
    print("| figure | value |")
    print("|---|---|")
    print(f"| first turn incl. indexing the library, s | {first_s:.2f} |")
    print(
        f"| create turn p50 / p95, ms ({len(create_ms)} turns) | "
        f"{percentile(create_ms, 50):.1f} / {percentile(create_ms, 95):.1f} |"
    )
    print(
        f"| refine/explain turn p50 / p95, ms ({len(refine_ms)} turns) | "
        f"{percentile(refine_ms, 50):.1f} / {percentile(refine_ms, 95):.1f} |"
    )
    all_ms = create_ms + refine_ms
    print(
        f"| any turn p50 / p95, ms | {percentile(all_ms, 50):.1f} / {percentile(all_ms, 95):.1f} |"
    )
    print(f"| fresh `oic-ai generate` median, s | {statistics.median(fresh):.2f} |")
    print(f"| peak RSS, MiB | {rss:.0f} |")
    print(f"| statuses | {', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))} |")


if __name__ == "__main__":
    main()
